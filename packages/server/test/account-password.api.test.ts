import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from './factories.js';
import {
  createTestPortal,
  EN,
  findUserRow,
  form,
  FORM,
  lastLinkTo,
  linkIn,
  login,
  loginStatus,
  mailsTo,
  postRegistration,
  validateStatus,
  type TestAccount,
  type TestPortal,
  requestResetKey,
} from './helpers.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return portal.app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: form(fields) });
}

/** Asks for a reset link and returns its key, read from the mail. */
const resetKeyFor = (account: TestAccount, headers: Record<string, string> = {}) => requestResetKey(portal, account.email, headers);

const NEW_PASSWORD = 'permafrost-thaw-2026';
const TIMEOUT_ZH = '链接已失效，请重新进行重置密码操作！';
const TIMEOUT_EN = 'The link has timed out, please reset the password operation again!';

describe('POST /account/forgot/', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await buildAccount(portal, { realname: '赵雪' });
  });

  it('lets an anonymous caller ask for a reset link', async () => {
    const response = await post('/account/forgot/', { email: account.email });
    expect(response.statusCode).toBe(200);
  });

  it('mails a link to the reset screen of the Chinese site', async () => {
    const before = (await mailsTo(portal, account.email)).length;
    const response = await post('/account/forgot/', { email: account.email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 1, msg: `重置密码的链接已发送至 ${account.email}。` });
    const mails = await mailsTo(portal, account.email);
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe('三极科学数据门户：重置密码');
    expect(mail.text).toContain('赵雪');
    expect(mail.text).toContain(account.username);
    expect(linkIn(mail.text)).toMatch(/^http:\/\/portal\.test\/zh-hans\/personal\/#\/reset\?key=[0-9a-f]{40}$/);
  });

  it('answers in the page’s language and mails in the account’s mail language: English once the user signed in on an English page', async () => {
    const response = await post('/account/forgot/', { email: account.email }, EN);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 1, msg: `A link to reset your password has been sent to ${account.email}.` });
    expect((await mailsTo(portal, account.email)).at(-1)!.subject).toBe('三极科学数据门户：重置密码');

    await login(portal.app, account.username, account.password, EN);
    expect((await post('/account/forgot/', { email: account.email })).statusCode).toBe(200);
    const mail = (await mailsTo(portal, account.email)).at(-1)!;
    expect(mail.subject).toBe('Three Poles Data Portal: reset your password');
    expect(linkIn(mail.text)).toMatch(/^http:\/\/portal\.test\/en\/personal\/#\/reset\?key=[0-9a-f]{40}$/);
    // Back to Chinese for the tests that follow.
    await login(portal.app, account.username, account.password, { 'accept-language': 'zh-hans' });
  });

  it('finds the address in any case', async () => {
    const response = await post('/account/forgot/', { email: account.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
  });

  it('answers 404 for an address nobody registered, and sends nothing', async () => {
    const response = await post('/account/forgot/', { email: 'nobody@example.org' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ email: ['邮箱未注册，请先创建账号'], detail: '邮箱未注册，请先创建账号' });
    const english = await post('/account/forgot/', { email: 'nobody@example.org' }, EN);
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({
      email: ['E - mail not register, please create an account'],
      detail: 'E - mail not register, please create an account',
    });
    expect(await mailsTo(portal, 'nobody@example.org')).toHaveLength(0);
  });

  it('refuses a missing or invalid address', async () => {
    const missing = await post('/account/forgot/', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ email: ['请输入电子邮箱！'], detail: '请输入电子邮箱！' });
    const invalid = await post('/account/forgot/', { email: 'not-an-address' }, EN);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ email: ['The input is not valid E-mail!'], detail: 'The input is not valid E-mail!' });
  });
});

describe('POST /account/reset/', () => {
  it('lets an anonymous caller reset with the mailed key', async () => {
    const account = await buildAccount(portal);
    const key = await resetKeyFor(account);
    const response = await post('/account/reset/', { key, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 1, msg: '密码重置成功，请登录。' });
  });

  it('replaces the password and revokes every token of the account', async () => {
    const account = await buildAccount(portal);
    const tokens = [await login(portal.app, account.username, account.password), await login(portal.app, account.username, account.password)];
    const key = await resetKeyFor(account);
    const response = await post('/account/reset/', { key, password: NEW_PASSWORD, password2: NEW_PASSWORD }, EN);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 1, msg: 'Password reset successful, please login.' });
    expect(await loginStatus(portal, account.username, account.password)).toBe(400);
    expect(await loginStatus(portal, account.username, NEW_PASSWORD)).toBe(200);
    for (const token of tokens) expect(await validateStatus(portal, token)).toBe(401);
  });

  it('accepts a key once only', async () => {
    const account = await buildAccount(portal);
    const key = await resetKeyFor(account);
    expect((await post('/account/reset/', { key, password: NEW_PASSWORD, password2: NEW_PASSWORD })).statusCode).toBe(200);
    const again = await post('/account/reset/', { key, password: 'another-password-1', password2: 'another-password-1' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: TIMEOUT_ZH });
    const againEn = await post('/account/reset/', { key, password: 'another-password-1', password2: 'another-password-1' }, EN);
    expect(againEn.statusCode).toBe(400);
    expect(againEn.json()).toEqual({ detail: TIMEOUT_EN });
    expect(await loginStatus(portal, account.username, NEW_PASSWORD)).toBe(200);
  });

  it('refuses an unknown key', async () => {
    const response = await post('/account/reset/', { key: 'f'.repeat(40), password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: TIMEOUT_ZH });
  });

  it('refuses an expired key and keeps the old password', async () => {
    const account = await buildAccount(portal);
    const key = await resetKeyFor(account);
    await portal.database.db
      .updateTable('account_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', account.id)
      .where('purpose', '=', 'reset')
      .execute();
    const response = await post('/account/reset/', { key, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: TIMEOUT_ZH });
    expect(await loginStatus(portal, account.username, account.password)).toBe(200);
  });

  it('gives the reset link a lifetime of two hours', async () => {
    const account = await buildAccount(portal);
    const before = Date.now();
    await resetKeyFor(account);
    const link = await portal.database.db.selectFrom('account_links').selectAll().where('user_id', '=', account.id).where('purpose', '=', 'reset').executeTakeFirstOrThrow();
    const lifetime = Date.parse(link.expires_at) - before;
    expect(lifetime).toBeGreaterThan(2 * 3_600_000 - 5000);
    expect(lifetime).toBeLessThanOrEqual(2 * 3_600_000 + 5000);
  });

  it('invalidates the first link when a second one is asked for', async () => {
    const account = await buildAccount(portal);
    const first = await resetKeyFor(account);
    const second = await resetKeyFor(account);
    expect(first).not.toBe(second);
    const withFirst = await post('/account/reset/', { key: first, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(withFirst.statusCode).toBe(400);
    expect(withFirst.json()).toEqual({ detail: TIMEOUT_ZH });
    const withSecond = await post('/account/reset/', { key: second, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(withSecond.statusCode).toBe(200);
  });

  it('does not take an activation key for a reset key', async () => {
    const { registration } = await postRegistration(portal);
    const activation = (await lastLinkTo(portal, registration.email!)).pathname.split('/')[3]!;
    const response = await post('/account/reset/', { key: activation, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: TIMEOUT_ZH });
    expect((await findUserRow(portal, registration.username!))!.is_active).toBe(0);
  });

  it('activates an account that was still waiting for its verification mail', async () => {
    const { registration } = await postRegistration(portal);
    const key = await resetKeyFor({ id: '', username: registration.username!, email: registration.email!, password: '' });
    expect((await post('/account/reset/', { key, password: NEW_PASSWORD, password2: NEW_PASSWORD })).statusCode).toBe(200);
    expect(await loginStatus(portal, registration.username!, NEW_PASSWORD)).toBe(200);
  });

  it('refuses passwords that differ, and the key still works afterwards', async () => {
    const account = await buildAccount(portal);
    const key = await resetKeyFor(account);
    const response = await post('/account/reset/', { key, password: NEW_PASSWORD, password2: `${NEW_PASSWORD}x` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ password2: ['两次输入的密码不一致！'], detail: '两次输入的密码不一致！' });
    expect(await loginStatus(portal, account.username, account.password)).toBe(200);
    expect((await post('/account/reset/', { key, password: NEW_PASSWORD, password2: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses a short password', async () => {
    const response = await post('/account/reset/', { key: 'f'.repeat(40), password: 'short', password2: 'short' }, EN);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      password: ['The password must be 8 to 128 characters long.'],
      detail: 'The password must be 8 to 128 characters long.',
    });
  });

  it('refuses a form without key or passwords, naming each field', async () => {
    const response = await post('/account/reset/', {});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      key: [TIMEOUT_ZH],
      password: ['请输入密码！'],
      password2: ['请确认密码！'],
      detail: TIMEOUT_ZH,
    });
  });
});

describe('POST /account/send/', () => {
  it('lets an anonymous caller ask for the verification mail again, by username', async () => {
    const { registration } = await postRegistration(portal);
    const oldLink = await lastLinkTo(portal, registration.email!);
    const response = await post('/account/send/', { username: registration.username! });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 1, msg: '验证邮件已重新发送至账号的邮箱。' });

    const mails = await mailsTo(portal, registration.email!);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('三极科学数据门户：验证您的电子邮箱');
    const newLink = new URL(linkIn(mails[1]!.text));
    expect(newLink.pathname).not.toBe(oldLink.pathname);

    const withOld = await portal.app.inject({ method: 'GET', url: oldLink.pathname });
    expect(withOld.headers.location).toBe('/zh-hans/personal/#/login?activation=invalid');
    expect((await findUserRow(portal, registration.username!))!.is_active).toBe(0);
    const withNew = await portal.app.inject({ method: 'GET', url: newLink.pathname });
    expect(withNew.headers.location).toBe('/zh-hans/personal/#/login?activated=1');
    expect(await loginStatus(portal, registration.username!, registration.password!)).toBe(200);
  });

  it('finds the account by e-mail address too, and answers in English (the mail stays in the language of the registration)', async () => {
    const { registration } = await postRegistration(portal);
    const response = await post('/account/send/', { username: registration.email!.toUpperCase() }, EN);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 1,
      msg: 'The verification e-mail has been sent again to the address of your account.',
    });
    const mails = await mailsTo(portal, registration.email!);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('三极科学数据门户：验证您的电子邮箱');
  });

  it('answers 404 for an unknown account', async () => {
    const response = await post('/account/send/', { username: 'nobody-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ username: ['用户不存在，请先创建账号！'], detail: '用户不存在，请先创建账号！' });
    const english = await post('/account/send/', { username: 'nobody@example.org' }, EN);
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({
      username: ['User is not exists, Please create an account!'],
      detail: 'User is not exists, Please create an account!',
    });
  });

  it('answers 409 for an account that is already active, and sends nothing', async () => {
    const account = await buildAccount(portal);
    const response = await post('/account/send/', { username: account.username });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: '该账号已激活，请直接登录。' });
    const english = await post('/account/send/', { username: account.email }, EN);
    expect(english.statusCode).toBe(409);
    expect(english.json()).toEqual({ detail: 'This account is already activated. Please log in.' });
    expect(await mailsTo(portal, account.email)).toHaveLength(0);
  });

  it('refuses a missing username', async () => {
    const response = await post('/account/send/', { username: '  ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ username: ['请输入用户名或邮箱！'], detail: '请输入用户名或邮箱！' });
  });
});

describe('mail endpoints rate limit', () => {
  let limited: TestPortal;
  beforeAll(async () => {
    limited = await createTestPortal({ rateLimits: { mail: { max: 2, timeWindowMs: 60_000 } } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('refuses the third request for a reset link within the window', async () => {
    const ask = () => limited.app.inject({ method: 'POST', url: '/account/forgot/', headers: FORM, payload: form({ email: 'nobody@example.org' }) });
    expect((await ask()).statusCode).toBe(404);
    expect((await ask()).statusCode).toBe(404);
    const third = await ask();
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ detail: `尝试次数过多，请在 ${Number(third.headers['retry-after'])} 秒后重试。` });
  });
});
