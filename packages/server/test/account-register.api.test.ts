import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import {
  buildRegistration,
  countUsers,
  createTestPortal,
  EN,
  findUserRow,
  form,
  FORM,
  lastLinkTo,
  linkIn,
  loginStatus,
  mailsTo,
  postRegistration,
  solveCaptcha,
  tokenHeader,
  type TestPortal,
} from './helpers.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

/** Posts a registration form without a solved captcha: for refusals the schema gives first. */
function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return portal.app.inject({ method: 'POST', url: '/account/register/', headers: { ...FORM, ...headers }, payload: form(fields) });
}

function without(fields: Record<string, string>, name: string): Record<string, string> {
  const copy = { ...fields };
  delete copy[name];
  return copy;
}

const ACTIVATION_LINK = /^http:\/\/portal\.test\/account\/activate\/[0-9a-f]{40}\/$/;

describe('POST /account/register/', () => {
  it('lets an anonymous caller register', async () => {
    const { response } = await postRegistration(portal);
    expect(response.statusCode).toBe(201);
  });

  it('creates an inactive account and mails it a verification link (form post)', async () => {
    const before = await countUsers(portal);
    const { registration, response } = await postRegistration(portal, { email: 'Mixed.Case@Example.org' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      status: 1,
      msg: '注册成功！ 验证链接已发送至 mixed.case@example.org，请打开链接激活账号后登录。',
      email: 'mixed.case@example.org',
    });
    expect(await countUsers(portal)).toBe(before + 1);

    const row = await findUserRow(portal, registration.username!);
    expect(row).toMatchObject({
      email: 'mixed.case@example.org',
      realname: registration.realname,
      affiliation: registration.affiliation,
      address: registration.address,
      phone: registration.phone,
      zipcode: registration.zipcode,
      specialty: registration.specialty,
      is_active: 0,
      is_staff: 0,
      is_project: 0,
      language: 'zh-hans',
      last_login: null,
    });
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain(registration.password);

    const mails = await mailsTo(portal, 'mixed.case@example.org');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('三极科学数据门户：验证您的电子邮箱');
    expect(mails[0]!.text).toContain(registration.realname);
    expect(linkIn(mails[0]!.text)).toMatch(ACTIVATION_LINK);

    // The used captcha's cookie is cleared.
    const cleared = response.cookies.find((c) => c.name === 'captcha_key');
    expect(cleared?.value).toBe('');
  });

  it('accepts a JSON body and answers in English when asked', async () => {
    const registration = buildRegistration();
    const captcha = await solveCaptcha(portal);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/register/',
      headers: EN,
      cookies: { captcha_key: captcha.cookie },
      payload: { ...registration, agreement: true, captcha: captcha.answer },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      status: 1,
      msg: `Registration is successful! A verification link has been sent to ${registration.email}. Open it to activate your account, then log in.`,
      email: registration.email,
    });
    const mails = await mailsTo(portal, registration.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Three Poles Data Portal: verify your e-mail address');
    expect(linkIn(mails[0]!.text)).toMatch(ACTIVATION_LINK);
    expect((await findUserRow(portal, registration.username!))!.language).toBe('en');
  });

  it('accepts the captcha answer in any case and without surrounding blanks', async () => {
    const registration = buildRegistration();
    const captcha = await solveCaptcha(portal);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/register/',
      headers: FORM,
      cookies: { captcha_key: captcha.cookie },
      payload: form({ ...registration, captcha: ` ${captcha.answer.toUpperCase()} ` }),
    });
    expect(response.statusCode).toBe(201);
  });

  it('keeps the new account out until the mailed link is followed', async () => {
    const { registration } = await postRegistration(portal);
    const refused = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      headers: FORM,
      payload: form({ username: registration.username!, password: registration.password! }),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: '您的账号尚未激活，请打开验证邮件中的链接。' });
    const refusedEn = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      headers: { ...FORM, ...EN },
      payload: form({ username: registration.username!, password: registration.password! }),
    });
    expect(refusedEn.statusCode).toBe(403);
    expect(refusedEn.json()).toEqual({
      detail: 'Your account is not activated yet. Please open the link in the verification e-mail.',
    });

    const link = await lastLinkTo(portal, registration.email!);
    expect((await portal.app.inject({ method: 'GET', url: link.pathname })).statusCode).toBe(302);
    expect(await loginStatus(portal, registration.username!, registration.password!)).toBe(200);
  });

  describe('refuses a form with a missing field, naming the field', () => {
    const cases: [field: string, zh: string, en: string][] = [
      ['username', '请输入用户名！', 'Please input your username!'],
      ['realname', '请输入真实姓名！', 'Please input your real name!'],
      ['email', '请输入电子邮箱！', 'Please input your E-mail!'],
      ['password', '请输入密码！', 'Please input your password!'],
      ['password2', '请确认密码！', 'Please confirm your password!'],
      ['affiliation', '请输入工作单位！', 'Please input your affiliation!'],
      ['address', '请输入通讯地址！', 'Please input your address!'],
      ['captcha', '请输入验证码！', 'Please input the verification code!'],
      ['agreement', '请阅读并同意协议。', 'Please read and accept the agreement.'],
    ];
    for (const [field, zh, en] of cases) {
      it(`${field} missing`, async () => {
        const before = await countUsers(portal);
        const fields = without({ ...buildRegistration(), captcha: 'abcd' }, field);
        const response = await postForm(fields);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ [field]: [zh], detail: zh });
        const english = await postForm(fields, EN);
        expect(english.statusCode).toBe(400);
        expect(english.json()).toEqual({ [field]: [en], detail: en });
        expect(await countUsers(portal)).toBe(before);
      });
    }

    it('a field of blanks counts as missing', async () => {
      const response = await postForm({ ...buildRegistration({ username: '   ', realname: ' ' }), captcha: 'abcd' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ username: ['请输入用户名！'], realname: ['请输入真实姓名！'], detail: '请输入用户名！' });
    });

    it('an unchecked agreement counts as missing', async () => {
      const response = await postForm({ ...buildRegistration({ agreement: 'false' }), captcha: 'abcd' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ agreement: ['请阅读并同意协议。'], detail: '请阅读并同意协议。' });
    });
  });

  describe('refuses bad values', () => {
    const cases: [name: string, fields: Record<string, string>, field: string, zh: string, en: string][] = [
      ['passwords that differ', { password2: 'glacier-melt-2027' }, 'password2', '两次输入的密码不一致！', 'The two passwords that you entered do not match!'],
      ['an invalid e-mail', { email: 'not-an-address' }, 'email', '电子邮箱格式不正确！', 'The input is not valid E-mail!'],
      ['an e-mail over 254 characters', { email: `${'a'.repeat(64)}@${'b'.repeat(190)}.org` }, 'email', '电子邮箱格式不正确！', 'The input is not valid E-mail!'],
      ['a short password', { password: 'short12', password2: 'short12' }, 'password', '密码长度为 8 到 128 个字符。', 'The password must be 8 to 128 characters long.'],
      [
        'a password over 128 characters',
        { password: 'p'.repeat(129), password2: 'p'.repeat(129) },
        'password',
        '密码长度为 8 到 128 个字符。',
        'The password must be 8 to 128 characters long.',
      ],
      ['a short username', { username: 'ab' }, 'username', '用户名长度为 3 到 30 个字符。', 'The username must be 3 to 30 characters long.'],
      ['a username over 30 characters', { username: 'u'.repeat(31) }, 'username', '用户名长度为 3 到 30 个字符。', 'The username must be 3 to 30 characters long.'],
      ['a username with spaces', { username: 'two words' }, 'username', '用户名只能包含字母、数字和 _ . @ + -。', 'The username may hold letters, digits and _ . @ + - only.'],
      ['a real name over 100 characters', { realname: '名'.repeat(101) }, 'realname', '真实姓名过长（最多 100 个字符）。', 'The real name is too long (at most 100 characters).'],
      [
        'an affiliation over 200 characters',
        { affiliation: 'a'.repeat(201) },
        'affiliation',
        '工作单位过长（最多 200 个字符）。',
        'The affiliation is too long (at most 200 characters).',
      ],
      ['an address over 300 characters', { address: 'a'.repeat(301) }, 'address', '通讯地址过长（最多 300 个字符）。', 'The address is too long (at most 300 characters).'],
      ['a specialty over 200 characters', { specialty: 's'.repeat(201) }, 'specialty', '专业方向过长（最多 200 个字符）。', 'The specialty is too long (at most 200 characters).'],
      [
        'a phone number with letters',
        { phone: 'call me' },
        'phone',
        '电话号码只能包含数字、空格和 + - ( )，最多 30 个字符。',
        'The phone number may hold digits, spaces and + - ( ) only, at most 30 characters.',
      ],
      [
        'a zip code with punctuation',
        { zipcode: '100#101' },
        'zipcode',
        '邮政编码只能包含字母、数字、空格和 -，最多 20 个字符。',
        'The zip code may hold letters, digits, spaces and - only, at most 20 characters.',
      ],
    ];
    for (const [name, change, field, zh, en] of cases) {
      it(name, async () => {
        const before = await countUsers(portal);
        const fields = { ...buildRegistration(change), captcha: 'abcd' };
        const response = await postForm(fields);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ [field]: [zh], detail: zh });
        const english = await postForm(fields, EN);
        expect(english.json()).toEqual({ [field]: [en], detail: en });
        expect(await countUsers(portal)).toBe(before);
      });
    }

    it('values exactly at the limits pass', async () => {
      const { response } = await postRegistration(portal, {
        username: `u${Date.now().toString(36)}`.padEnd(30, 'x'),
        realname: '名'.repeat(100),
        password: 'p'.repeat(8),
        password2: 'p'.repeat(8),
        affiliation: 'a'.repeat(200),
        address: 'a'.repeat(300),
      });
      expect(response.statusCode).toBe(201);
    });
  });

  describe('checks the verification code', () => {
    it('refuses a wrong answer in both languages and keeps nobody', async () => {
      const before = await countUsers(portal);
      for (const [headers, text] of [
        [{}, '验证码错误！'],
        [EN, 'Verification code error!'],
      ] as const) {
        const captcha = await solveCaptcha(portal);
        const wrong = captcha.answer === 'zzzz' ? 'yyyy' : 'zzzz';
        const response = await portal.app.inject({
          method: 'POST',
          url: '/account/register/',
          headers: { ...FORM, ...headers },
          cookies: { captcha_key: captcha.cookie },
          payload: form({ ...buildRegistration(), captcha: wrong }),
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ captcha: [text], detail: text });
      }
      expect(await countUsers(portal)).toBe(before);
    });

    it('refuses an answer over ten characters as a wrong code', async () => {
      const response = await postForm({ ...buildRegistration(), captcha: 'x'.repeat(11) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ captcha: ['验证码错误！'], detail: '验证码错误！' });
    });

    it('refuses a form without the captcha cookie', async () => {
      const before = await countUsers(portal);
      const captcha = await solveCaptcha(portal);
      const response = await postForm({ ...buildRegistration(), captcha: captcha.answer });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ captcha: ['验证码错误！'], detail: '验证码错误！' });
      expect(await countUsers(portal)).toBe(before);
    });

    it('refuses an unknown captcha cookie', async () => {
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/register/',
        headers: FORM,
        cookies: { captcha_key: 'f'.repeat(40) },
        payload: form({ ...buildRegistration(), captcha: 'abcd' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ captcha: ['验证码错误！'], detail: '验证码错误！' });
    });

    it('accepts a captcha once only', async () => {
      const captcha = await solveCaptcha(portal);
      const post = (registration: Record<string, string>) =>
        portal.app.inject({
          method: 'POST',
          url: '/account/register/',
          headers: FORM,
          cookies: { captcha_key: captcha.cookie },
          payload: form({ ...registration, captcha: captcha.answer }),
        });
      expect((await post(buildRegistration())).statusCode).toBe(201);
      const before = await countUsers(portal);
      const again = await post(buildRegistration());
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ captcha: ['验证码错误！'], detail: '验证码错误！' });
      expect(await countUsers(portal)).toBe(before);
    });

    it('spends a captcha on a wrong answer: the right answer afterwards fails too', async () => {
      const captcha = await solveCaptcha(portal);
      const post = (answer: string) =>
        portal.app.inject({
          method: 'POST',
          url: '/account/register/',
          headers: FORM,
          cookies: { captcha_key: captcha.cookie },
          payload: form({ ...buildRegistration(), captcha: answer }),
        });
      expect((await post(captcha.answer === 'zzzz' ? 'yyyy' : 'zzzz')).statusCode).toBe(400);
      const right = await post(captcha.answer);
      expect(right.statusCode).toBe(400);
      expect(right.json()).toEqual({ captcha: ['验证码错误！'], detail: '验证码错误！' });
    });

    it('refuses an expired captcha', async () => {
      const captcha = await solveCaptcha(portal);
      await portal.database.db
        .updateTable('captchas')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', captcha.cookie)
        .execute();
      const response = await portal.app.inject({
        method: 'POST',
        url: '/account/register/',
        headers: FORM,
        cookies: { captcha_key: captcha.cookie },
        payload: form({ ...buildRegistration(), captcha: captcha.answer }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ captcha: ['验证码错误！'], detail: '验证码错误！' });
    });
  });

  describe('refuses a taken username or e-mail', () => {
    let taken: Record<string, string>;
    beforeAll(async () => {
      const { registration, response } = await postRegistration(portal);
      expect(response.statusCode).toBe(201);
      taken = registration;
    });

    it('the same username in another case', async () => {
      const before = await countUsers(portal);
      const { response } = await postRegistration(portal, { username: taken.username!.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: '用户名或邮箱已存在！' });
      expect(await countUsers(portal)).toBe(before);
    });

    it('the same e-mail in another case, in English', async () => {
      const before = await countUsers(portal);
      const { response } = await postRegistration(portal, { email: taken.email!.toUpperCase() }, EN);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: 'Username or email already exists!' });
      expect(await countUsers(portal)).toBe(before);
      // No second mail went to the holder of the address.
      expect(await mailsTo(portal, taken.email!)).toHaveLength(1);
    });

    it("another account's e-mail as the username, which would make login by e-mail ambiguous", async () => {
      const before = await countUsers(portal);
      const { response } = await postRegistration(portal, { username: taken.email!.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: '用户名或邮箱已存在！' });
      expect(await countUsers(portal)).toBe(before);
    });

    it("another account's username as the e-mail", async () => {
      const { registration, response } = await postRegistration(portal, { username: `at-${Date.now()}@example.net` });
      expect(response.statusCode).toBe(201);
      const again = await postRegistration(portal, { email: registration.username!.toUpperCase() });
      expect(again.response.statusCode).toBe(409);
      expect(again.response.json()).toEqual({ detail: '用户名或邮箱已存在！' });
    });
  });

  it('refuses a signed-in caller using a cookie without the CSRF header', async () => {
    const user = await buildUser(portal);
    const captcha = await solveCaptcha(portal);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/register/',
      headers: FORM,
      cookies: { captcha_key: captcha.cookie, token: user.token },
      payload: form({ ...buildRegistration(), captcha: captcha.answer }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: '页面的安全令牌缺失或错误，请刷新页面后重试。' });
    // The header-authenticated caller is not subject to the check.
    const withHeader = await portal.app.inject({
      method: 'POST',
      url: '/account/register/',
      headers: { ...FORM, ...tokenHeader(user.token) },
      cookies: { captcha_key: captcha.cookie },
      payload: form({ ...buildRegistration(), captcha: captcha.answer }),
    });
    expect(withHeader.statusCode).toBe(201);
  });
});

describe('GET /account/activate/:key/', () => {
  it('lets an anonymous caller activate and sends them to the login screen', async () => {
    const { registration } = await postRegistration(portal);
    const link = await lastLinkTo(portal, registration.email!);
    const response = await portal.app.inject({ method: 'GET', url: link.pathname });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/zh-hans/personal/#/login?activated=1');
    expect((await findUserRow(portal, registration.username!))!.is_active).toBe(1);
  });

  it('continues in English for an account registered in English', async () => {
    const { registration } = await postRegistration(portal, {}, EN);
    const link = await lastLinkTo(portal, registration.email!);
    // The mail is opened in a browser that asks for nothing in particular.
    const response = await portal.app.inject({ method: 'GET', url: link.pathname });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/en/personal/#/login?activated=1');
  });

  it('works once only', async () => {
    const { registration } = await postRegistration(portal);
    const link = await lastLinkTo(portal, registration.email!);
    expect((await portal.app.inject({ method: 'GET', url: link.pathname })).headers.location).toBe('/zh-hans/personal/#/login?activated=1');
    const again = await portal.app.inject({ method: 'GET', url: link.pathname });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/zh-hans/personal/#/login?activation=invalid');
  });

  it('sends an unknown key to the login screen with activation=invalid, in the caller language', async () => {
    const unknown = `/account/activate/${'0'.repeat(40)}/`;
    const zh = await portal.app.inject({ method: 'GET', url: unknown });
    expect(zh.statusCode).toBe(302);
    expect(zh.headers.location).toBe('/zh-hans/personal/#/login?activation=invalid');
    const en = await portal.app.inject({ method: 'GET', url: unknown, headers: EN });
    expect(en.statusCode).toBe(302);
    expect(en.headers.location).toBe('/en/personal/#/login?activation=invalid');
  });

  it('refuses an expired link and leaves the account inactive', async () => {
    const { registration } = await postRegistration(portal);
    const user = await findUserRow(portal, registration.username!);
    await portal.database.db
      .updateTable('account_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user!.id)
      .execute();
    const link = await lastLinkTo(portal, registration.email!);
    const response = await portal.app.inject({ method: 'GET', url: link.pathname });
    expect(response.headers.location).toBe('/zh-hans/personal/#/login?activation=invalid');
    expect((await findUserRow(portal, registration.username!))!.is_active).toBe(0);
  });

  it('refuses an overlong key with a translated message', async () => {
    // The router refuses path parameters over 100 characters before the route's own schema.
    const url = `/account/activate/${'a'.repeat(101)}/`;
    const zh = await portal.app.inject({ method: 'GET', url });
    expect(zh.statusCode).toBe(414);
    expect(zh.json()).toEqual({ detail: '请求无效。' });
    const en = await portal.app.inject({ method: 'GET', url, headers: EN });
    expect(en.statusCode).toBe(414);
    expect(en.json()).toEqual({ detail: 'The request is not valid.' });
  });

  it('refuses a key with a broken %-escape with a translated message', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/account/activate/%E0%A4%A/' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: '请求无效。' });
  });
});
