import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Portal } from '../packages/server/src/app.js';

/**
 * What several benchmarks share: a PostgreSQL database of their own for one run, and a signed-in
 * account of the portal under test with a JSON poster.
 */

/** Runs `work` with the URL of a fresh PostgreSQL database (`prefix_` and hex) beside BENCH_PG_URL's, dropped afterwards. */
export async function withPgDatabase<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** An active account `bench`, signed in: its token, and a POST of JSON by it that throws on any refusal. */
export async function benchAccount(portal: Pick<Portal, 'accounts' | 'app'>) {
  const password = 'bench-password-1';
  await portal.accounts.createActiveUser({ username: 'bench', email: 'bench@example.org', password });
  const { token } = await portal.accounts.login('bench', password);
  const headers = { authorization: `Token ${token}` };
  const post = async (url: string, payload: object) => {
    const response = await portal.app.inject({ method: 'POST', url, headers, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  return { token, headers, post };
}
