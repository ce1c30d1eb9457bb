import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from './factories.js';
import { createTestPortal, EN, findUserRow, form, FORM, linkIn, login, mailsTo, postRegistration, tokenHeader, type TestAccount, type TestPortal } from './helpers.js';

/**
 * The mail language (issue 16): the language of every mail the portal sends a user. It is the language
 * of the page of their last sign-in until they choose one in Settings (`mail_language` through
 * /account/change/); the choice then stays, whatever page they sign in on.
 */

const ZH = { 'accept-language': 'zh-hans' };
const RESET_ZH = '三极科学数据门户：重置密码';
const RESET_EN = 'Three Poles Data Portal: reset your password';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal?.close());

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return portal.app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: form(fields) });
}

const change = (token: string | null, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post('/account/change/', fields, { ...(token ? tokenHeader(token) : {}), ...headers });

async function mailLanguageOf(token: string): Promise<string> {
  const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: tokenHeader(token) });
  expect(response.statusCode).toBe(200);
  return response.json().mail_language;
}

/** Asks for a reset link from a page in `pageHeaders`' language; answers the mail the account gets. */
async function resetMail(account: TestAccount, pageHeaders: Record<string, string>) {
  const before = (await mailsTo(portal, account.email)).length;
  expect((await post('/account/forgot/', { email: account.email }, pageHeaders)).statusCode).toBe(200);
  const mails = await mailsTo(portal, account.email);
  expect(mails).toHaveLength(before + 1);
  return mails.at(-1)!;
}

describe('the mail language follows the last sign-in', () => {
  it('is English after a sign-in on an English page, for every mail, whatever page asks for it', async () => {
    const account = await buildAccount(portal, { realname: 'Mei Lin' });
    const chinese = await login(portal.app, account.username, account.password, ZH);
    expect(await mailLanguageOf(chinese)).toBe('zh-hans');
    // Asked for from an English page, the mail is still in the account's language.
    const before = await resetMail(account, EN);
    expect(before.subject).toBe(RESET_ZH);
    expect(linkIn(before.text)).toMatch(/^http:\/\/portal\.test\/zh-hans\/personal\/#\/reset\?key=/);

    const reply = await post('/account/profile-login/', { username: account.username, password: account.password }, EN);
    expect(reply.statusCode).toBe(200);
    expect(reply.json().mail_language).toBe('en');
    const after = await resetMail(account, ZH);
    expect(after.subject).toBe(RESET_EN);
    expect(linkIn(after.text)).toMatch(/^http:\/\/portal\.test\/en\/personal\/#\/reset\?key=/);

    // A client that names no language (no Accept-Language, no lang cookie) leaves it as it is.
    const silent = await login(portal.app, account.username, account.password);
    expect(await mailLanguageOf(silent)).toBe('en');
    // The `lang` cookie of the language switch names it too (a browser's sign-in from the portal's page).
    const cookie = await post('/account/profile-login/', { username: account.username, password: account.password }, { origin: 'http://portal.test', cookie: 'lang=zh-hans' });
    expect(cookie.statusCode).toBe(200);
    expect(cookie.json().mail_language).toBe('zh-hans');
    expect((await resetMail(account, EN)).subject).toBe(RESET_ZH);
  });

  it('is the registration page’s language before the first sign-in', async () => {
    // Registered on an English page: the activation mail, and a new one asked for from a Chinese page, are English.
    const { registration, response } = await postRegistration(portal, {}, EN);
    expect(response.statusCode).toBe(201);
    expect((await post('/account/send/', { username: registration.username! }, ZH)).statusCode).toBe(200);
    const mails = await mailsTo(portal, registration.email!);
    expect(mails.map((m) => m.subject)).toEqual(['Three Poles Data Portal: verify your e-mail address', 'Three Poles Data Portal: verify your e-mail address']);
  });
});

describe('POST /account/change/ mail_language (Settings)', () => {
  let account: TestAccount;
  let token: string;
  beforeAll(async () => {
    account = await buildAccount(portal, { realname: 'Ren Ai' });
    token = await login(portal.app, account.username, account.password, ZH);
  });

  it('needs a signed-in user', async () => {
    expect((await change(null, { mail_language: 'en' })).statusCode).toBe(401);
  });

  it('sets the mail language without the current password, and it overrides every later sign-in', async () => {
    const set = await change(token, { mail_language: 'en' }, ZH);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ status: 1, msg: '您已成功修改用户信息！' });
    expect(await mailLanguageOf(token)).toBe('en');
    // Signed in on a Chinese page afterwards: the choice stands.
    const again = await login(portal.app, account.username, account.password, ZH);
    expect(await mailLanguageOf(again)).toBe('en');
    expect((await resetMail(account, ZH)).subject).toBe(RESET_EN);

    // Chosen back to Chinese: a sign-in on an English page does not change it either.
    expect((await change(token, { mail_language: 'zh-hans' }, EN)).json()).toEqual({ status: 1, msg: expect.any(String) });
    await login(portal.app, account.username, account.password, EN);
    expect(await mailLanguageOf(token)).toBe('zh-hans');
    expect((await resetMail(account, EN)).subject).toBe(RESET_ZH);
  });

  it('refuses a language that is not one of the site’s, naming the field in the caller’s language', async () => {
    const before = await findUserRow(portal, account.username);
    for (const value of ['fr', 'EN', '']) {
      const english = await change(token, { mail_language: value }, EN);
      expect(english.statusCode).toBe(400);
      expect(english.json()).toMatchObject({ mail_language: ['Choose Chinese (zh-hans) or English (en) as the mail language.'] });
      const chinese = await change(token, { mail_language: value }, ZH);
      expect(chinese.json()).toMatchObject({ mail_language: ['邮件语言只能选择中文（zh-hans）或英文（en）。'] });
    }
    expect(await findUserRow(portal, account.username)).toEqual(before);
  });

  it('leaves the mail language alone when a form does not send it', async () => {
    expect((await change(token, { specialty: 'Sea ice' })).statusCode).toBe(200);
    const row = await findUserRow(portal, account.username);
    expect(row).toMatchObject({ specialty: 'Sea ice', language: 'zh-hans', mail_language_chosen: 1 });
  });
});
