import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, buildUser, buildAccount } from './factories.js';
import { createTestPortal, FORM, form, tokenHeader, type TestAccount, type TestPortal } from './helpers.js';

/** Login tokens: sliding expiry (TOKEN_TTL_DAYS), the HttpOnly cookie, no-store replies, logout's cookies. */
let portal: TestPortal;
let account: TestAccount;
beforeAll(async () => {
  portal = await createTestPortal({ env: { TOKEN_TTL_DAYS: '14' } });
  account = await buildAccount(portal);
});
afterAll(async () => {
  await portal.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

async function tokenRow(token: string) {
  return portal.database.db.selectFrom('auth_tokens').selectAll().where('key_hash', '=', hashOf(token)).executeTakeFirst();
}

/** Makes the token look last used `ms` ago. */
async function ageToken(token: string, ms: number): Promise<string> {
  const time = new Date(Date.now() - ms).toISOString();
  await portal.database.db.updateTable('auth_tokens').set({ last_used_at: time }).where('key_hash', '=', hashOf(token)).execute();
  return time;
}

function postLogin() {
  return portal.app.inject({ method: 'POST', url: '/account/profile-login/', headers: FORM, payload: form({ username: account.username, password: account.password }) });
}

const validate = (token: string) => portal.app.inject({ method: 'GET', url: '/account/validate/', headers: tokenHeader(token) });

describe('token expiry (TOKEN_TTL_DAYS, sliding)', () => {
  it('refuses a token unused for longer than the lifetime like an unknown one, and deletes it', async () => {
    const { token } = await buildUser(portal);
    await ageToken(token, 14 * DAY + HOUR);
    const response = await validate(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
    expect(await tokenRow(token)).toBeUndefined();
  });

  it('keeps a token used within the lifetime, and each use pushes its expiry on', async () => {
    const { token } = await buildUser(portal);
    await ageToken(token, 13 * DAY);
    expect((await validate(token)).statusCode).toBe(200);
    // Used now: another 13 days later it still lives.
    expect(Date.now() - Date.parse((await tokenRow(token))!.last_used_at)).toBeLessThan(60_000);
  });

  it('writes the new expiry at most about once an hour', async () => {
    const { token } = await buildUser(portal);
    const recent = await ageToken(token, 30 * 60_000);
    expect((await validate(token)).statusCode).toBe(200);
    expect((await tokenRow(token))!.last_used_at).toBe(recent);
    await ageToken(token, 2 * HOUR);
    expect((await validate(token)).statusCode).toBe(200);
    expect(Date.now() - Date.parse((await tokenRow(token))!.last_used_at)).toBeLessThan(60_000);
  });

  it('makes the caller anonymous on public routes too, and tells the browser to forget the cookie', async () => {
    const { token } = await buildUser(portal);
    await ageToken(token, 15 * DAY);
    const response = await portal.app.inject({ method: 'GET', url: '/api/metadata/metadata/', cookies: { token, csrftoken: 'c'.repeat(48) } });
    expect(response.statusCode).toBe(200);
    const cleared = response.cookies.filter((c) => c.name === 'token' || c.name === 'csrftoken');
    expect(cleared.map((c) => c.name).sort()).toEqual(['csrftoken', 'token']);
    for (const cookie of cleared) expect(cookie.maxAge).toBe(0);
  });

  it('the periodic clean-up deletes expired tokens only', async () => {
    const { token: old } = await buildUser(portal);
    const { token: live } = await buildUser(portal);
    await ageToken(old, 15 * DAY);
    await ageToken(live, 13 * DAY);
    expect(await portal.accounts.deleteExpiredTokens()).toBeGreaterThanOrEqual(1);
    expect(await tokenRow(old)).toBeUndefined();
    expect(await tokenRow(live)).toBeDefined();
  });
});

describe('the token cookie', () => {
  it('is set by the login reply: HttpOnly, SameSite=Lax, path /, living as long as the token; the reply still carries the token', async () => {
    const response = await postLogin();
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === 'token');
    expect(cookie).toMatchObject({ value: response.json().token, httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 14 * 24 * 3600 });
    expect(cookie!.secure).toBeFalsy();
  });

  it('is Secure when the browser reached the portal by https (through a trusted proxy)', async () => {
    const behindProxy = await createTestPortal({ env: { TRUST_PROXY: '1' } });
    try {
      const user = await buildAccount(behindProxy);
      const response = await behindProxy.app.inject({
        method: 'POST',
        url: '/account/profile-login/',
        headers: { ...FORM, 'x-forwarded-proto': 'https' },
        payload: form({ username: user.username, password: user.password }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((c) => c.name === 'token')?.secure).toBe(true);
    } finally {
      await behindProxy.close();
    }
  });

  it('is renewed by /account/validate/ when the browser signs in by the cookie alone', async () => {
    const token = (await postLogin()).json().token as string;
    const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', cookies: { token } });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'token')).toMatchObject({ value: token, httpOnly: true, maxAge: 14 * 24 * 3600 });
  });
});

describe('Cache-Control: no-store', () => {
  it('on the login reply, account calls and every reply to an authenticated request', async () => {
    const user = await buildUser(portal);
    const { token } = user;
    expect((await postLogin()).headers['cache-control']).toBe('no-store');
    expect((await validate(token)).headers['cache-control']).toBe('no-store');
    const record = await buildRecord(portal, { owner: user });
    const read = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${record}/`, headers: tokenHeader(token) });
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    const list = await portal.app.inject({ method: 'GET', url: '/api/metadata/metadata/', headers: tokenHeader(token) });
    expect(list.headers['cache-control']).toBe('no-store');
    const refused = await portal.app.inject({ method: 'GET', url: '/api/account/account/', headers: tokenHeader(token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});

describe('POST /account/logout/', () => {
  it('revokes the token and expires the token, csrftoken and sessionid cookies', async () => {
    const token = (await postLogin()).json().token as string;
    const csrf = 'e'.repeat(48);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/logout/',
      headers: { 'x-csrftoken': csrf },
      cookies: { token, csrftoken: csrf, sessionid: 'abc' },
    });
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies.filter((c) => ['token', 'csrftoken', 'sessionid'].includes(c.name));
    expect(cleared.map((c) => c.name).sort()).toEqual(['csrftoken', 'sessionid', 'token']);
    for (const cookie of cleared) expect(cookie).toMatchObject({ value: '', path: '/', maxAge: 0 });
    expect(await tokenRow(token)).toBeUndefined();
  });
});
