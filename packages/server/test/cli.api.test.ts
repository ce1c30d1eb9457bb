import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, findUserRow, login, runPortalCli, type TestPortal } from './helpers.js';

/** The operators' tool, run as operators run it, on the same database as a test portal. */
let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

const portalCli = (...args: string[]) => runPortalCli(portal, ...args);

// Each call starts a process that loads the server's modules: seconds each on a loaded machine.
describe('npm run portal', { timeout: 120_000 }, () => {
  it('lists its commands with --help', async () => {
    const { code, stdout } = await portalCli('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('create-user');
    expect(stdout).toContain('migrate');
  });

  it('migrate reports an up-to-date database', async () => {
    const { code, stdout } = await portalCli('migrate');
    expect(code).toBe(0);
    expect(stdout).toContain('The database is up to date.');
  });

  it('create-user makes an active staff account that can log in at once', async () => {
    const { code, stdout } = await portalCli(
      'create-user',
      '--username',
      'cliadmin',
      '--email',
      'CliAdmin@Example.org',
      '--password',
      'operator-pass-1',
      '--realname',
      '数据中心',
      '--staff',
      '--project',
      '2',
    );
    expect(code).toBe(0);
    expect(stdout).toContain('Created active user cliadmin <cliadmin@example.org>, staff, is_project 2.');
    const row = await findUserRow(portal, 'cliadmin');
    expect(row).toMatchObject({ is_active: 1, is_staff: 1, is_project: 2, realname: '数据中心', email: 'cliadmin@example.org' });
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await login(portal.app, 'cliadmin', 'operator-pass-1')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses bad input with exit code 2 and a message, creating nothing', async () => {
    const cases: [string[], string][] = [
      [['create-user', '--username', 'x', '--email', 'x@example.org', '--password', 'long-enough-1'], 'The username must be 3 to 30 characters long.'],
      [['create-user', '--username', 'okname', '--email', 'not-an-email', '--password', 'long-enough-1'], 'The input is not valid E-mail!'],
      [['create-user', '--username', 'okname', '--email', 'ok@example.org', '--password', 'short'], 'The password must be 8 to 128 characters long.'],
      [['create-user', '--username', 'okname', '--email', 'ok@example.org', '--password', 'long-enough-1', '--project', '3'], 'The project role is 0, 1 or 2.'],
      [['create-user', '--username', 'cliadmin', '--email', 'other@example.org', '--password', 'long-enough-1'], 'Username or email already exists!'],
      [['create-user', '--username', 'okname', '--bogus'], 'Unknown option'],
      [['frobnicate'], 'Unknown command: frobnicate'],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await portalCli(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toContain(message);
    }
    expect(await findUserRow(portal, 'okname')).toBeUndefined();
  }, 120_000);
});
