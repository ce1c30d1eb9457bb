import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from './factories.js';
import { createTestPortal, findUserRow, loginStatus, runPortalCli, type TestPortal } from './helpers.js';

/** argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane), as every hash of a production portal starts. */
const OWASP_PREFIX = '$argon2id$v=19$m=19456,t=2,p=1$';

async function hashOf(portal: TestPortal, username: string): Promise<string> {
  return (await findUserRow(portal, username))!.password_hash;
}

describe('password hashing', () => {
  /** Built as main.ts builds it: buildApp without the tests' hashing option. */
  let production: TestPortal;
  let test: TestPortal;

  beforeAll(async () => {
    [production, test] = await Promise.all([createTestPortal({ buildOptions: { logger: false } }), createTestPortal()]);
  });

  afterAll(async () => {
    await Promise.all([production.close(), test.close()]);
  });

  it('a portal built as main.ts builds it hashes with OWASP parameters', async () => {
    const user = await buildAccount(production);
    expect(await hashOf(production, user.username)).toMatch(new RegExp(`^${OWASP_PREFIX.replaceAll('$', '\\$')}`));
    expect(await loginStatus(production, user.username, user.password)).toBe(200);
  });

  it("the operators' create-user hashes with OWASP parameters", async () => {
    const result = await runPortalCli(production, 'create-user', '--username', 'cli_hashing', '--email', 'cli-hashing@example.org', '--password', 'glacier-melt-2026');
    expect(result.code).toBe(0);
    expect((await hashOf(production, 'cli_hashing')).startsWith(OWASP_PREFIX)).toBe(true);
  });

  it("the API tests' portal hashes cheaply, and only it", async () => {
    const user = await buildAccount(test);
    expect((await hashOf(test, user.username)).startsWith('$argon2id$v=19$m=1024,t=1,p=1$')).toBe(true);
  });

  it('hashes made with other parameters still verify', async () => {
    const user = await buildAccount(production);
    const password = 'moraine-ridge-1998';
    for (const options of [{}, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 }, { type: argon2.argon2i }]) {
      const hash = await argon2.hash(password, options);
      await production.database.db.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
      expect(await loginStatus(production, user.username, password)).toBe(200);
      expect(await loginStatus(production, user.username, `${password}x`)).toBe(400);
    }
  });
});
