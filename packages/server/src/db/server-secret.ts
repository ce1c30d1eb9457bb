import type { Db } from './index.js';

/**
 * The installation's secret when `SECRET_KEY` is not set: the random value migration 0005 stored,
 * the same for every instance that shares the database and across restarts.
 */
export async function storedSecret(db: Db): Promise<string> {
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', 'default').executeTakeFirstOrThrow();
  return row.value;
}
