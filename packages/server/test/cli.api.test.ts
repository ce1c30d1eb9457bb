import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, findUserRow, login, type TestPortal } from './helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

/** The operators' tool, run as operators run it, on the same database as a test portal. */
let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

async function portalCli(...args: string[]) {
  const env = { ...process.env, DATA_DIR: portal.config.dataDir, DATABASE_URL: portal.config.databaseUrl ?? '' };
  try {
    const { stdout, stderr } = await run(tsx, ['packages/server/src/cli.ts', ...args], { cwd: root, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run portal', () => {
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
      'create-user', '--username', 'cliadmin', '--email', 'CliAdmin@Example.org', '--password', 'operator-pass-1', '--realname', '数据中心', '--staff', '--project', '2',
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
