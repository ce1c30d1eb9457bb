import os from 'node:os';
import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, buildAccount } from './factories.js';
import {
  cookiesOf,
  createTestPortal,
  EN,
  findUserRow,
  FORM,
  form,
  login,
  registerAndActivate,
  tokenHeader,
  validateStatus,
  type TestAccount,
  type TestPortal,
  PUBLIC_USER_FIELDS,
} from './helpers.js';

let portal: TestPortal;
/** One account for the tests that only need somebody to sign in as. */
let account: TestAccount;
beforeAll(async () => {
  portal = await createTestPortal();
  account = await buildAccount(portal, { realname: '李冻土' });
});
afterAll(async () => {
  await portal.close();
});

function postLogin(payload: Record<string, string> | string, headers: Record<string, string> = FORM) {
  return portal.app.inject({ method: 'POST', url: '/account/profile-login/', headers, payload });
}

describe('POST /account/profile-login/', () => {
  it('lets an anonymous caller log in', async () => {
    const response = await postLogin(form({ username: account.username, password: account.password }));
    expect(response.statusCode).toBe(200);
  });

  it('answers a token and the user fields for a right password', async () => {
    const registered = await registerAndActivate(portal, { realname: '王冰川' });
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      headers: { ...FORM, 'accept-language': 'en' },
      payload: form({ username: registered.username, password: registered.password }),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^[0-9a-f]{40}$/);
    expect(body).toMatchObject({
      username: registered.username,
      email: registered.email,
      realname: '王冰川',
      name: '王冰川',
      profile: { real_name: '王冰川' },
      is_staff: false,
      is_project: 0,
    });
    expect(body.msg).toBe('Login successful!');
    expect(body).not.toHaveProperty('password_hash');
  });

  it('answers in Chinese by default', async () => {
    const response = await postLogin(form({ username: account.username, password: account.password }));
    expect(response.json().msg).toBe('登录成功！');
  });

  it('accepts the e-mail address, in any case, instead of the username', async () => {
    const response = await postLogin(form({ username: account.email.toUpperCase(), password: account.password }));
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe(account.username);
  });

  it('accepts the username in another case and with surrounding blanks', async () => {
    const response = await postLogin(form({ username: `  ${account.username.toUpperCase()} `, password: account.password }));
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe(account.username);
  });

  it('accepts a JSON body', async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      payload: { username: account.username, password: account.password },
    });
    expect(response.statusCode).toBe(200);
  });

  it('records the time of the login', async () => {
    const fresh = await buildAccount(portal);
    expect((await findUserRow(portal, fresh.username))!.last_login).toBeNull();
    const before = Date.now();
    const response = await postLogin(form({ username: fresh.username, password: fresh.password }));
    const stored = (await findUserRow(portal, fresh.username))!.last_login;
    expect(stored).not.toBeNull();
    expect(Date.parse(stored!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(stored!)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(response.json().last_login).toBe(stored);
  });

  it('hands out a new token on every login, each of them valid', async () => {
    const first = await login(portal.app, account.username, account.password);
    const second = await login(portal.app, account.username, account.password);
    expect(first).not.toBe(second);
    expect(await validateStatus(portal, first)).toBe(200);
    expect(await validateStatus(portal, second)).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    const token = await login(portal.app, account.username, account.password);
    const rows = await portal.database.db.selectFrom('auth_tokens').select('key_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.key_hash)).not.toContain(token);
  });

  it('gives the browser a csrftoken cookie readable by the page', async () => {
    const response = await postLogin(form({ username: account.username, password: account.password }));
    const cookie = response.cookies.find((c) => c.name === 'csrftoken');
    expect(cookie?.value).toMatch(/^[0-9a-f]{48}$/);
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.path).toBe('/');
  });

  it('gives the same reply for an unknown user and a wrong password', async () => {
    const wrong = await postLogin(form({ username: account.username, password: 'not-the-password' }));
    const unknown = await postLogin(form({ username: 'nobody-here', password: 'not-the-password' }));
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ detail: '用户名或密码错误。' });
    const english = await postLogin(form({ username: 'nobody-here', password: 'not-the-password' }), { ...FORM, ...EN });
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({ detail: 'The username or password is incorrect.' });
  });

  it('refuses the password in another case', async () => {
    const response = await postLogin(form({ username: account.username, password: account.password.toUpperCase() }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: '用户名或密码错误。' });
  });

  it('refuses a missing username', async () => {
    const response = await postLogin(form({ password: account.password }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ username: ['请输入用户名或邮箱！'], detail: '请输入用户名或邮箱！' });
    const english = await postLogin(form({ username: ' ', password: account.password }), { ...FORM, ...EN });
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({
      username: ['Please input your username or e-mail!'],
      detail: 'Please input your username or e-mail!',
    });
  });

  it('refuses a missing password', async () => {
    const response = await postLogin(form({ username: account.username }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ password: ['请输入密码！'], detail: '请输入密码！' });
    const empty = await postLogin(form({ username: account.username, password: '' }), { ...FORM, ...EN });
    expect(empty.json()).toEqual({ password: ['Please input your password!'], detail: 'Please input your password!' });
  });

  it('refuses an empty form, naming both fields', async () => {
    const response = await postLogin('');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      username: ['请输入用户名或邮箱！'],
      password: ['请输入密码！'],
      detail: '请输入用户名或邮箱！',
    });
  });

  it('refuses an overlong login or password as a failed login', async () => {
    const longName = await postLogin(form({ username: 'u'.repeat(255), password: account.password }));
    expect(longName.statusCode).toBe(400);
    expect(longName.json()).toEqual({ username: ['登录失败，请稍后再试'], detail: '登录失败，请稍后再试' });
    const longPassword = await postLogin(form({ username: account.username, password: 'p'.repeat(129) }), { ...FORM, ...EN });
    expect(longPassword.statusCode).toBe(400);
    expect(longPassword.json()).toEqual({
      password: ['Login failed, please try later'],
      detail: 'Login failed, please try later',
    });
  });

  it('refuses a field that is no text', async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      payload: { username: 42, password: ['x'] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      username: ['请输入用户名或邮箱！'],
      password: ['请输入密码！'],
      detail: '请输入用户名或邮箱！',
    });
  });

  it('sets no token for a refused login', async () => {
    const response = await postLogin(form({ username: account.username, password: 'not-the-password' }));
    expect(cookiesOf(response).token).toBeUndefined();
    expect(response.json()).not.toHaveProperty('token');
  });
});

/**
 * Login CSRF: another site's form must not sign the visitor's browser in (to an account of the
 * attacker's, whose session would then record what the victim does). Browsers send Origin with every
 * POST; older ones at least a Referer; a program sends neither and keeps working.
 */
describe('POST /account/profile-login/ under a crowd', () => {
  it('hashes passwords one fewer at a time than the cores (at least one): the thread pool and the event loop stay free', async () => {
    // argon2 runs on libuv's thread pool, which file reads share; a crowd of sign-ins held all of it.
    let running = 0;
    let most = 0;
    const verify = argon2.verify;
    const spy = vi.spyOn(argon2, 'verify').mockImplementation(async (...args: Parameters<typeof argon2.verify>) => {
      most = Math.max(most, ++running);
      try {
        return await verify(...args);
      } finally {
        running -= 1;
      }
    });
    try {
      const replies = await Promise.all(Array.from({ length: 6 }, () => postLogin(form({ username: account.username, password: account.password }))));
      expect(replies.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
      // A wrong password waits its turn too, and is refused as before.
      expect((await postLogin(form({ username: account.username, password: 'not-the-password' }))).statusCode).toBe(400);
    } finally {
      spy.mockRestore();
    }
    expect(most).toBe(Math.min(6, Math.max(1, os.availableParallelism() - 1)));
  });
});

describe('POST /account/profile-login/ from another site', () => {
  const credentials = () => form({ username: account.username, password: account.password });
  const loginWith = (headers: Record<string, string>, cookies?: Record<string, string>) =>
    portal.app.inject({ method: 'POST', url: '/account/profile-login/', headers: { ...FORM, ...headers }, cookies, payload: credentials() });
  const CSRF_EN = { detail: 'The security token of this page is missing or wrong. Reload the page and try again.' };

  it('refuses a form posted from another origin, in both languages, and signs nobody in', async () => {
    for (const origin of ['https://evil.example', 'http://portal.test.evil.example', 'http://portal.test:8080', 'null']) {
      const response = await loginWith({ origin, ...EN });
      expect({ origin, status: response.statusCode, body: response.json() }).toEqual({ origin, status: 403, body: CSRF_EN });
      expect(cookiesOf(response).token).toBeUndefined();
      expect(cookiesOf(response).csrftoken).toBeUndefined();
    }
    const chinese = await loginWith({ origin: 'https://evil.example' });
    expect({ status: chinese.statusCode, body: chinese.json() }).toEqual({ status: 403, body: { detail: '页面的安全令牌缺失或错误，请刷新页面后重试。' } });
  });

  it("without Origin, checks the Referer: another site is refused, the portal's own page accepted", async () => {
    const evil = await loginWith({ referer: 'https://evil.example/login.html' });
    expect(evil.statusCode).toBe(403);
    expect(cookiesOf(evil).token).toBeUndefined();
    expect((await loginWith({ referer: 'not a url' })).statusCode).toBe(403);
    const own = await loginWith({ referer: 'http://portal.test/personal/#/login' });
    expect(own.statusCode).toBe(200);
    expect(cookiesOf(own).token).toBe(own.json().token);
  });

  it("accepts the portal's own origin: PUBLIC_URL's, or the host the request was sent to", async () => {
    expect((await loginWith({ origin: 'http://portal.test' })).statusCode).toBe(200);
    // Reached by another name (no PUBLIC_URL set locally, an address): the Host header is the page's host.
    expect((await loginWith({ origin: 'http://127.0.0.1:8000', host: '127.0.0.1:8000' })).statusCode).toBe(200);
    expect((await loginWith({ origin: 'https://portal.example', host: 'portal.example' })).statusCode).toBe(200);
    // An Origin that agrees with neither is refused, even if the Referer would.
    expect((await loginWith({ origin: 'https://evil.example', referer: 'http://portal.test/' })).statusCode).toBe(403);
  });

  it('lets a program without Origin, Referer or cookies sign in (curl, API clients)', async () => {
    const response = await loginWith({});
    expect(response.statusCode).toBe(200);
    expect(response.json().token).toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses a request with cookies but neither Origin nor Referer, unless it repeats csrftoken in X-CSRFToken', async () => {
    const hidden = await loginWith({}, { lang: 'en', csrftoken: 'c'.repeat(48) });
    expect(hidden.statusCode).toBe(403);
    expect(cookiesOf(hidden).token).toBeUndefined();
    expect((await loginWith({ 'x-csrftoken': 'd'.repeat(48) }, { csrftoken: 'c'.repeat(48) })).statusCode).toBe(403);
    expect((await loginWith({ 'x-csrftoken': 'c'.repeat(48) }, { csrftoken: 'c'.repeat(48) })).statusCode).toBe(200);
  });
});

describe('POST /account/profile-login/ rate limit', () => {
  let limited: TestPortal;
  beforeAll(async () => {
    limited = await createTestPortal({ rateLimits: { login: { max: 2, timeWindowMs: 60_000 } } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('refuses the third attempt within the window, even with the right password', async () => {
    const user = await buildAccount(limited);
    const attempt = (password: string, headers: Record<string, string> = {}) =>
      limited.app.inject({
        method: 'POST',
        url: '/account/profile-login/',
        headers: { ...FORM, ...headers },
        payload: form({ username: user.username, password }),
      });
    expect((await attempt('wrong-password-1')).statusCode).toBe(400);
    expect((await attempt('wrong-password-2')).statusCode).toBe(400);
    const third = await attempt(user.password);
    expect(third.statusCode).toBe(429);
    const seconds = Number(third.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(third.json()).toEqual({ detail: `尝试次数过多，请在 ${seconds} 秒后重试。` });
    const english = await attempt(user.password, EN);
    expect(english.statusCode).toBe(429);
    expect(english.json()).toEqual({
      detail: `Too many attempts. Please wait ${Number(english.headers['retry-after'])} seconds and try again.`,
    });
    expect((await findUserRow(limited, user.username))!.last_login).toBeNull();
  });

  it('counts each route on its own: other calls are not limited by the login counter', async () => {
    // The login counter of this portal is spent (previous test); the captcha still answers.
    const response = await limited.app.inject({ method: 'GET', url: '/account/jpgcode' });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /account/validate/', () => {
  /** A token that stays valid through these tests. */
  let token: string;
  beforeAll(async () => {
    token = await login(portal.app, account.username, account.password);
  });

  it('refuses an anonymous caller with 401', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/account/validate/' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
    const english = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: EN });
    expect(english.statusCode).toBe(401);
    expect(english.json()).toEqual({ detail: 'Please log in first.' });
  });

  it('refuses a malformed Authorization header', async () => {
    for (const authorization of [`Bearer ${token}`, 'Token short', `Token ${token}!`, token]) {
      const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json()).toEqual({ detail: '请先登录。' });
    }
  });

  it('refuses an unknown token', async () => {
    expect(await validateStatus(portal, 'a'.repeat(40))).toBe(401);
  });

  it('refuses a token revoked by logout', async () => {
    const token = await login(portal.app, account.username, account.password);
    expect(await validateStatus(portal, token)).toBe(200);
    const logout = await portal.app.inject({ method: 'POST', url: '/account/logout/', headers: tokenHeader(token) });
    expect(logout.statusCode).toBe(204);
    expect(await validateStatus(portal, token)).toBe(401);
  });

  it('refuses the token of an account that was deactivated', async () => {
    const user = await buildAccount(portal);
    const token = await login(portal.app, user.username, user.password);
    await portal.database.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect(await validateStatus(portal, token)).toBe(401);
  });

  it('answers the current user, never the token (no script may read the HttpOnly cookie through it)', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: tokenHeader(token) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ id: account.id, username: account.username, email: account.email, realname: '李冻土' });
    expect(Object.keys(body).sort()).toEqual([...PUBLIC_USER_FIELDS].sort());
    expect(response.body).not.toContain(token);
  });

  it('accepts the token cookie alone, and does not hand the cookie back in the body', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', cookies: { token } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: account.username });
    expect(response.json()).not.toHaveProperty('token');
    expect(response.body).not.toContain(token);
  });

  it('prefers the Authorization header to the cookie', async () => {
    const other = await buildUser(portal);
    const response = await portal.app.inject({
      method: 'GET',
      url: '/account/validate/',
      headers: tokenHeader(token),
      cookies: { token: other.token },
    });
    expect(response.json().username).toBe(account.username);
  });

  it('sets a csrftoken cookie when the browser has none, and keeps an existing one', async () => {
    const first = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: tokenHeader(token) });
    const cookie = first.cookies.find((c) => c.name === 'csrftoken');
    expect(cookie?.value).toMatch(/^[0-9a-f]{48}$/);
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.sameSite).toBe('Lax');

    const again = await portal.app.inject({
      method: 'GET',
      url: '/account/validate/',
      headers: tokenHeader(token),
      cookies: { csrftoken: cookie!.value },
    });
    expect(again.statusCode).toBe(200);
    expect(again.cookies.find((c) => c.name === 'csrftoken')).toBeUndefined();
  });
});

describe('POST /account/logout/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const response = await portal.app.inject({ method: 'POST', url: '/account/logout/' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
    const english = await portal.app.inject({ method: 'POST', url: '/account/logout/', headers: EN });
    expect(english.json()).toEqual({ detail: 'Please log in first.' });
  });

  it('refuses a revoked token with 401', async () => {
    const token = await login(portal.app, account.username, account.password);
    expect((await portal.app.inject({ method: 'POST', url: '/account/logout/', headers: tokenHeader(token) })).statusCode).toBe(204);
    const again = await portal.app.inject({ method: 'POST', url: '/account/logout/', headers: tokenHeader(token) });
    expect(again.statusCode).toBe(401);
  });

  it('revokes the token it was called with and no other', async () => {
    const leaving = await login(portal.app, account.username, account.password);
    const staying = await login(portal.app, account.username, account.password);
    const response = await portal.app.inject({ method: 'POST', url: '/account/logout/', headers: tokenHeader(leaving) });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await validateStatus(portal, leaving)).toBe(401);
    expect(await validateStatus(portal, staying)).toBe(200);
  });

  describe('with the token cookie alone (CSRF rule)', () => {
    it('refuses a request without the X-CSRFToken header', async () => {
      const token = await login(portal.app, account.username, account.password);
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/logout/',
        cookies: { token, csrftoken: 'c'.repeat(48) },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: '页面的安全令牌缺失或错误，请刷新页面后重试。' });
      expect(await validateStatus(portal, token)).toBe(200);
    });

    it('refuses a header that differs from the cookie, in English too', async () => {
      const token = await login(portal.app, account.username, account.password);
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/logout/',
        headers: { 'x-csrftoken': 'd'.repeat(48), ...EN },
        cookies: { token, csrftoken: 'c'.repeat(48) },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        detail: 'The security token of this page is missing or wrong. Reload the page and try again.',
      });
      expect(await validateStatus(portal, token)).toBe(200);
    });

    it('refuses a header without a csrftoken cookie', async () => {
      const token = await login(portal.app, account.username, account.password);
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/logout/',
        headers: { 'x-csrftoken': 'c'.repeat(48) },
        cookies: { token },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: '页面的安全令牌缺失或错误，请刷新页面后重试。' });
    });

    it('refuses an empty header with an empty cookie', async () => {
      const token = await login(portal.app, account.username, account.password);
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/logout/',
        headers: { 'x-csrftoken': '' },
        cookies: { token, csrftoken: '' },
      });
      expect(response.statusCode).toBe(403);
    });

    it('logs out when the header repeats the cookie', async () => {
      const token = await login(portal.app, account.username, account.password);
      const csrf = 'c'.repeat(48);
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/logout/',
        headers: { 'x-csrftoken': csrf },
        cookies: { token, csrftoken: csrf },
      });
      expect(response.statusCode).toBe(204);
      expect(await validateStatus(portal, token)).toBe(401);
    });
  });
});
