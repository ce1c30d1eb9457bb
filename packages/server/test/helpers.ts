import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import SQLite from 'better-sqlite3';
import { buildApp, type BuildOptions, type Portal } from '../src/app.js';
import { defaultRateLimits, loadConfig, type Config, type RateLimits } from '../src/config.js';
import { onDatabase, TEMPLATE_PG, TEMPLATE_SQLITE } from './global-setup.js';

/**
 * A portal on a database of its own: a fresh SQLite file, or, when DATABASE_URL is a postgres://
 * URL, a fresh PostgreSQL database created next to it and dropped afterwards.
 */
export interface TestPortal extends Portal {
  config: Config;
  outbox: string;
  close(): Promise<void>;
}

/**
 * When DATABASE_URL is a postgres:// URL, a fresh PostgreSQL database beside it (named `prefix_` and
 * random hex), with its URL and how to drop it; undefined on SQLite. Under the API suite it is a copy of
 * the suite's migrated template (global-setup.ts) with a secret of its own, as a fresh one would have.
 */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return undefined;
  const template = process.env[TEMPLATE_PG];
  const name = `${template ? `${template}_` : ''}${prefix}_${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await onDatabase(adminUrl, (client) => client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  if (template) await onDatabase(url.toString(), (client) => client.query(`UPDATE server_secrets SET value = $1 WHERE name = 'default'`, [randomBytes(32).toString('hex')]));
  return {
    url: url.toString(),
    drop: async () => {
      await onDatabase(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * On SQLite under the API suite, the new data directory starts with a copy of the suite's migrated
 * template (global-setup.ts), with a secret of its own.
 */
async function copySqliteTemplate(dataDir: string): Promise<void> {
  const template = process.env[TEMPLATE_SQLITE];
  if (!template || process.env.DATABASE_URL) return;
  const file = path.join(dataDir, 'portal.sqlite3');
  await fs.copyFile(template, file);
  const sqlite = new SQLite(file);
  try {
    sqlite.prepare(`UPDATE server_secrets SET value = ? WHERE name = 'default'`).run(randomBytes(32).toString('hex'));
  } finally {
    sqlite.close();
  }
}

/**
 * `buildOptions` replace the test portal's own ({ logger: false, passwordHashing: 'fast-for-tests' }):
 * `{ logger: false }` builds the portal as main.ts does (OWASP's hashing).
 */
export async function createTestPortal(overrides: { rateLimits?: Partial<RateLimits>; env?: NodeJS.ProcessEnv; buildOptions?: BuildOptions } = {}): Promise<TestPortal> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
  const database = await createTestDatabase('portal_test');
  await copySqliteTemplate(dataDir);
  const config: Config = {
    // Tests of other behaviour create many records; limits.api.test.ts sets its own limit.
    // The FTP server stays off unless a test turns it on (FTP_ENABLED: 'true', FTP_PORT: '0').
    ...loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://portal.test',
      WEB_DIST: path.join(dataDir, 'no-web'),
      METADATA_CREATE_PER_HOUR: '100000',
      FTP_ENABLED: 'false',
      // Whole-dataset archives are built only where a test turns them on (ARCHIVE_ENABLED: 'true'): elsewhere they would copy every published record's files.
      ARCHIVE_ENABLED: 'false',
      ...overrides.env,
    }),
    databaseUrl: database?.url,
    rateLimits: { ...relaxedRateLimits, ...overrides.rateLimits },
  };
  // Argon2's cheapest parameters: the suite's hundreds of accounts would otherwise cost minutes of CPU.
  const portal = await buildApp(config, overrides.buildOptions ?? { logger: false, passwordHashing: 'fast-for-tests' });
  return {
    ...portal,
    config,
    outbox: path.join(dataDir, 'mail'),
    async close() {
      await portal.app.close();
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Tests of other behaviour must not trip the limits; the rate-limit tests set their own. */
export const relaxedRateLimits: RateLimits = Object.fromEntries(
  Object.entries(defaultRateLimits).map(([name, limit]) => [name, { ...limit, max: 10_000 }]),
) as unknown as RateLimits;

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  file: string;
}

/** Every message of the outbox, oldest first, parsed from the .eml files the server wrote. */
export async function readOutbox(outbox: string): Promise<OutboxMail[]> {
  const names = (await fs.readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(
    names.map(async (name) => {
      const parsed = await simpleParser(await fs.readFile(path.join(outbox, name)));
      const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
      return { to: to ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '', file: name };
    }),
  );
}

export function linkIn(text: string): string {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in mail: ${text}`);
  return match[0];
}

/** Cookies set by a reply, as `name -> value`. */
export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
}

let counter = 0;
/** A valid registration form; pass fields to change. */
export function buildRegistration(fields: Record<string, string> = {}): Record<string, string> {
  counter += 1;
  // Short enough that the e-mail address fits where a username may go (30 characters) however many
  // accounts a worker has made (its modules, with this counter, serve all its test files).
  const id = `${Date.now().toString(36).slice(-5)}${counter.toString(36)}${randomBytes(2).toString('hex')}`;
  return {
    username: `user${id}`,
    realname: '测试用户',
    email: `user${id}@example.org`,
    password: 'glacier-melt-2026',
    password2: 'glacier-melt-2026',
    affiliation: 'Institute of Tibetan Plateau Research',
    address: '16 Lincui Road, Beijing',
    phone: '+86 10 8409 7000',
    zipcode: '100101',
    specialty: 'Glaciology',
    agreement: 'true',
    ...fields,
  };
}

/** Asks for a captcha and reads its answer from the database, as only a person looking at it could. */
export async function solveCaptcha(portal: TestPortal): Promise<{ cookie: string; answer: string }> {
  const response = await portal.app.inject({ method: 'GET', url: '/account/jpgcode' });
  const cookie = cookiesOf(response).captcha_key!;
  const row = await portal.database.db.selectFrom('captchas').select('answer').where('id', '=', cookie).executeTakeFirstOrThrow();
  return { cookie, answer: row.answer };
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Registers through the API, follows the mailed link, and returns the account's credentials. */
export async function registerAndActivate(portal: TestPortal, fields: Record<string, string> = {}): Promise<{ username: string; email: string; password: string }> {
  const registration = buildRegistration(fields);
  const captcha = await solveCaptcha(portal);
  const response = await portal.app.inject({
    method: 'POST',
    url: '/account/register/',
    headers: FORM,
    cookies: { captcha_key: captcha.cookie },
    payload: form({ ...registration, captcha: captcha.answer }),
  });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
  const mail = (await readOutbox(portal.outbox)).filter((m) => m.to.includes(registration.email!)).at(-1)!;
  const link = new URL(linkIn(mail.text));
  await portal.app.inject({ method: 'GET', url: link.pathname });
  return { username: registration.username!, email: registration.email!, password: registration.password! };
}

/** Signs in; `headers` as the page would send them (`EN`: signed in on an English page, whose language becomes the mail language). */
export async function login(app: FastifyInstance, username: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/account/profile-login/', headers: { ...FORM, ...headers }, payload: form({ username, password }) });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json().token as string;
}

/** `Authorization: Token <key>`, as the web client sends it. */
export function tokenHeader(token: string): Record<string, string> {
  return { authorization: `Token ${token}` };
}

export interface TestAccount {
  id: string;
  username: string;
  email: string;
  password: string;
}

/** Posts a registration with a solved captcha; `fields` change the form, `headers` the request. */
export async function postRegistration(
  portal: TestPortal,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ registration: Record<string, string>; response: LightMyRequestResponse }> {
  const registration = buildRegistration(fields);
  const captcha = await solveCaptcha(portal);
  const response = await portal.app.inject({
    method: 'POST',
    url: '/account/register/',
    headers: { ...FORM, ...headers },
    cookies: { captcha_key: captcha.cookie },
    payload: form({ ...registration, captcha: captcha.answer }),
  });
  return { registration, response };
}

/** The messages sent to one address, oldest first. */
export async function mailsTo(portal: TestPortal, email: string): Promise<OutboxMail[]> {
  return (await readOutbox(portal.outbox)).filter((mail) => mail.to.includes(email));
}

/** The link of the newest message sent to an address. */
export async function lastLinkTo(portal: TestPortal, email: string): Promise<URL> {
  const mail = (await mailsTo(portal, email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return new URL(linkIn(mail.text));
}

export async function countUsers(portal: TestPortal): Promise<number> {
  const row = await portal.database.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findUserRow(portal: TestPortal, username: string) {
  return portal.database.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

/** The status code of a login, for tests that only care whether a password still works. */
export async function loginStatus(portal: TestPortal, username: string, password: string): Promise<number> {
  const response = await portal.app.inject({
    method: 'POST',
    url: '/account/profile-login/',
    headers: FORM,
    payload: form({ username, password }),
  });
  return response.statusCode;
}

/** Status code of /account/validate/ for a token. */
export async function validateStatus(portal: TestPortal, token: string): Promise<number> {
  const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: tokenHeader(token) });
  return response.statusCode;
}

export const EN = { 'accept-language': 'en' };

/** Every field the server may tell about a user: nothing more (no password hash, no token hashes). */
export const PUBLIC_USER_FIELDS = [
  'address',
  'affiliation',
  'date_joined',
  'email',
  'id',
  'is_project',
  'is_staff',
  'last_login',
  'name',
  'phone',
  'profile',
  'realname',
  'specialty',
  'username',
  'zipcode',
  'mail_language',
];

/** Asks for a password-reset link for an address and returns its key, read from the mail. */
export async function requestResetKey(portal: TestPortal, email: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await portal.app.inject({ method: 'POST', url: '/account/forgot/', headers: { ...FORM, ...headers }, payload: form({ email }) });
  if (response.statusCode !== 200) throw new Error(`forgot failed: ${response.body}`);
  const link = await lastLinkTo(portal, email);
  return new URLSearchParams(link.hash.split('?')[1]).get('key')!;
}

/** Posts the reset form with a key and a new password. */
export function postReset(portal: TestPortal, key: string, password: string, headers: Record<string, string> = {}) {
  return portal.app.inject({
    method: 'POST',
    url: '/account/reset/',
    headers: { ...FORM, ...headers },
    payload: form({ key, password, password2: password }),
  });
}

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

/** The operators' tool (`npm run portal -- ...`), run as operators run it, on the test portal's database. */
export async function runPortalCli(portal: TestPortal, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATA_DIR: portal.config.dataDir, DATABASE_URL: portal.config.databaseUrl ?? '' };
  try {
    const { stdout, stderr } = await promisify(execFile)(path.join(repositoryRoot, 'node_modules/.bin/tsx'), ['packages/server/src/cli.ts', ...args], { cwd: repositoryRoot, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
