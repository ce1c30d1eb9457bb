import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../src/db/index.js';

/**
 * Once for the whole API suite: a database with every migration applied, which each test portal then
 * copies (helpers.ts createTestDatabase / createTestPortal) instead of migrating a fresh one. On
 * PostgreSQL that migration took about 3 s of a portal's 4 to 5 (and the suite builds about 150); a copy
 * of the template takes a fraction of a second. The template is named in the environment, which the
 * suite's workers and the processes they start inherit; it is dropped when the suite ends, with any
 * database a failed test left behind.
 */
export const TEMPLATE_PG = 'PORTAL_TEST_TEMPLATE_DB';
export const TEMPLATE_SQLITE = 'PORTAL_TEST_TEMPLATE_FILE';

/** A piece of work on one connection to a PostgreSQL database, closed afterwards. */
export async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-template-'));
  if (!adminUrl) {
    const handle = openDatabase({ dataDir: dir });
    await migrateToLatest(handle.db);
    await handle.db.destroy();
    // Closing the last connection folds the write-ahead log into the file: the file alone is the database.
    process.env[TEMPLATE_SQLITE] = path.join(dir, 'portal.sqlite3');
    return () => fs.rm(dir, { recursive: true, force: true });
  }
  const run = `portal_tmpl_${randomBytes(4).toString('hex')}`;
  await onDatabase(adminUrl, (client) => client.query(`CREATE DATABASE ${run}`));
  const url = new URL(adminUrl);
  url.pathname = `/${run}`;
  const handle = openDatabase({ dataDir: dir, databaseUrl: url.toString() });
  await migrateToLatest(handle.db);
  await handle.db.destroy();
  process.env[TEMPLATE_PG] = run;
  return async () => {
    await onDatabase(adminUrl, async (client) => {
      // The test databases copied from this run's template carry its name as their prefix.
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`, [run, `${run}\\_%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });
    await fs.rm(dir, { recursive: true, force: true });
  };
}
