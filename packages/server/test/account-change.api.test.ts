import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildAccount, type Person } from './factories.js';
import {
  createTestPortal,
  EN,
  findUserRow,
  form,
  FORM,
  postReset,
  requestResetKey,
  login,
  loginStatus,
  postRegistration,
  registerAndActivate,
  tokenHeader,
  validateStatus,
  type TestAccount,
  type TestPortal,
} from './helpers.js';

let portal: TestPortal;
/** Somebody whose username and e-mail the others try to take. */
let other: TestAccount;
beforeAll(async () => {
  portal = await createTestPortal();
  other = await buildAccount(portal);
});
afterAll(async () => {
  await portal.close();
});

function change(token: string | null, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return portal.app.inject({
    method: 'POST',
    url: '/account/change/',
    headers: { ...FORM, ...(token ? tokenHeader(token) : {}), ...headers },
    payload: form(fields),
  });
}

async function currentUser(token: string) {
  const response = await portal.app.inject({ method: 'GET', url: '/account/validate/', headers: tokenHeader(token) });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const NEW_PASSWORD = 'ice-core-drill-2026';

describe('POST /account/change/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const response = await change(null, { realname: '新名字' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
    const english = await change(null, { realname: '新名字' }, EN);
    expect(english.json()).toEqual({ detail: 'Please log in first.' });
  });

  it('refuses an anonymous caller with 401 before it looks at the form', async () => {
    const response = await change(null, { realname: '名'.repeat(101), phone: 'letters' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
  });

  it('refuses a cookie-authenticated caller without the CSRF header', async () => {
    const user = await buildUser(portal);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/change/',
      headers: FORM,
      cookies: { token: user.token },
      payload: form({ realname: '新名字' }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: '页面的安全令牌缺失或错误，请刷新页面后重试。' });
    expect((await currentUser(user.token)).realname).not.toBe('新名字');
  });

  describe('profile fields', () => {
    let user: Person;
    beforeAll(async () => {
      // Registered through the form, so that every optional field holds a value.
      const registered = await registerAndActivate(portal);
      user = { ...registered, id: '', token: await login(portal.app, registered.username, registered.password) };
    });

    it('changes them and answers status 1', async () => {
      const response = await change(user.token, {
        realname: '陈冰芯',
        affiliation: 'Lanzhou University',
        address: '222 Tianshui South Road',
        phone: '+86 931 891 2000',
        zipcode: '730000',
        specialty: 'Ice cores',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 1, msg: '您已成功修改用户信息！' });
      expect(await currentUser(user.token)).toMatchObject({
        username: user.username,
        email: user.email,
        realname: '陈冰芯',
        name: '陈冰芯',
        profile: { real_name: '陈冰芯' },
        affiliation: 'Lanzhou University',
        address: '222 Tianshui South Road',
        phone: '+86 931 891 2000',
        zipcode: '730000',
        specialty: 'Ice cores',
      });
    });

    it('answers in English when asked', async () => {
      const response = await change(user.token, { realname: 'Chen Bingxin' }, EN);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 1, msg: 'You have successfully changed user information!' });
    });

    it('keeps the fields a post leaves out', async () => {
      const before = await currentUser(user.token);
      expect(before.phone).not.toBe('');
      expect(before.zipcode).not.toBe('');
      expect(before.specialty).not.toBe('');
      const response = await change(user.token, { affiliation: 'Peking University' });
      expect(response.statusCode).toBe(200);
      const after = await currentUser(user.token);
      expect(after).toEqual({ ...before, affiliation: 'Peking University' });
    });

    it('answers status 1 and changes nothing for an empty post', async () => {
      const before = await currentUser(user.token);
      const response = await change(user.token, {});
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 1, msg: '您已成功修改用户信息！' });
      expect(await currentUser(user.token)).toEqual(before);
    });

    it('clears an optional field sent empty', async () => {
      const response = await change(user.token, { specialty: '' });
      expect(response.statusCode).toBe(200);
      expect((await currentUser(user.token)).specialty).toBe('');
    });

    it('changes the username without the current password', async () => {
      const renamed = `${user.username}x`;
      const response = await change(user.token, { username: renamed });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe(1);
      expect((await currentUser(user.token)).username).toBe(renamed);
      expect(await loginStatus(portal, renamed, user.password)).toBe(200);
      user.username = renamed;
    });

    it('accepts its own username in another case', async () => {
      const response = await change(user.token, { username: user.username.toUpperCase() });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe(1);
      user.username = user.username.toUpperCase();
    });

    it('answers status 0 and 409 for the username of another account, in any case', async () => {
      const response = await change(user.token, { username: other.username.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ status: 0, detail: '用户名或邮箱已存在！' });
      const english = await change(user.token, { username: other.username }, EN);
      expect(english.statusCode).toBe(409);
      expect(english.json()).toEqual({ status: 0, detail: 'Username or email already exists!' });
      expect((await currentUser(user.token)).username).toBe(user.username);
    });

    it("answers status 0 and 409 for another account's e-mail as the username", async () => {
      const response = await change(user.token, { username: other.email });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ status: 0, detail: '用户名或邮箱已存在！' });
    });

    it('accepts its own e-mail address as its username', async () => {
      const response = await change(user.token, { username: user.email });
      expect(response.statusCode).toBe(200);
      expect(await loginStatus(portal, user.email, user.password)).toBe(200);
      const back = await change(user.token, { username: user.username });
      expect(back.statusCode).toBe(200);
    });

    it('answers status 0 and 409 for the e-mail of another account', async () => {
      const response = await change(user.token, { email: other.email.toUpperCase(), old_password: user.password });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ status: 0, detail: '用户名或邮箱已存在！' });
      expect((await currentUser(user.token)).email).toBe(user.email);
    });

    it('changes nothing when one of the changes is refused', async () => {
      const response = await change(user.token, { realname: '不该保存', username: other.username });
      expect(response.statusCode).toBe(409);
      expect((await currentUser(user.token)).realname).not.toBe('不该保存');
    });

    describe('refuses bad values and changes nothing', () => {
      const cases: [name: string, fields: Record<string, string>, field: string, zh: string, en: string][] = [
        ['a real name over 100 characters', { realname: '名'.repeat(101) }, 'realname', '真实姓名过长（最多 100 个字符）。', 'The real name is too long (at most 100 characters).'],
        ['an empty real name', { realname: ' ' }, 'realname', '请输入真实姓名！', 'Please input your real name!'],
        ['an empty username', { username: '' }, 'username', '请输入用户名！', 'Please input your username!'],
        ['a username with spaces', { username: 'a b c' }, 'username', '用户名只能包含字母、数字和 _ . @ + -。', 'The username may hold letters, digits and _ . @ + - only.'],
        [
          'a phone number with letters',
          { phone: 'phone me' },
          'phone',
          '电话号码只能包含数字、空格和 + - ( )，最多 30 个字符。',
          'The phone number may hold digits, spaces and + - ( ) only, at most 30 characters.',
        ],
        [
          'a phone number over 30 characters',
          { phone: '1'.repeat(31) },
          'phone',
          '电话号码只能包含数字、空格和 + - ( )，最多 30 个字符。',
          'The phone number may hold digits, spaces and + - ( ) only, at most 30 characters.',
        ],
        ['an invalid e-mail', { email: 'nowhere', old_password: 'whatever-1' }, 'email', '电子邮箱格式不正确！', 'The input is not valid E-mail!'],
        [
          'an affiliation over 200 characters',
          { affiliation: 'a'.repeat(201) },
          'affiliation',
          '工作单位过长（最多 200 个字符）。',
          'The affiliation is too long (at most 200 characters).',
        ],
        [
          'a short new password',
          { password: 'short', password2: 'short', old_password: 'whatever-1' },
          'password',
          '密码长度为 8 到 128 个字符。',
          'The password must be 8 to 128 characters long.',
        ],
        [
          'new passwords that differ',
          { password: NEW_PASSWORD, password2: `${NEW_PASSWORD}x`, old_password: 'whatever-1' },
          'password2',
          '两次输入的密码不一致！',
          'The two passwords that you entered do not match!',
        ],
      ];
      for (const [name, fields, field, zh, en] of cases) {
        it(name, async () => {
          const before = await currentUser(user.token);
          const response = await change(user.token, { ...fields, affiliation: fields.affiliation ?? 'Changed Affiliation' });
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual({ [field]: [zh], detail: zh });
          const english = await change(user.token, fields, EN);
          expect(english.statusCode).toBe(400);
          expect(english.json()).toEqual({ [field]: [en], detail: en });
          expect(await currentUser(user.token)).toEqual(before);
        });
      }
    });
  });

  describe('e-mail address', () => {
    let user: Person;
    beforeAll(async () => {
      user = await buildUser(portal);
    });

    it('needs the current password: without it, status -1 and 400', async () => {
      const response = await change(user.token, { email: `new-${user.email}` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        status: -1,
        old_password: ['修改邮箱或密码需要输入当前密码。'],
        detail: '修改邮箱或密码需要输入当前密码。',
      });
      const english = await change(user.token, { email: `new-${user.email}` }, EN);
      expect(english.json()).toEqual({
        status: -1,
        old_password: ['Enter your current password to change the e-mail address or the password.'],
        detail: 'Enter your current password to change the e-mail address or the password.',
      });
      expect((await currentUser(user.token)).email).toBe(user.email);
    });

    it('refuses a wrong current password with status -1 and the spec message', async () => {
      const response = await change(user.token, { email: `new-${user.email}`, old_password: 'not-my-password' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ status: -1, old_password: ['原密码错误！'], detail: '原密码错误！' });
      const english = await change(user.token, { email: `new-${user.email}`, old_password: 'not-my-password' }, EN);
      expect(english.statusCode).toBe(400);
      expect(english.json()).toEqual({
        status: -1,
        old_password: ['Your origin password is error!'],
        detail: 'Your origin password is error!',
      });
      expect((await currentUser(user.token)).email).toBe(user.email);
    });

    it('checks a current password that is sent, even when the address does not change', async () => {
      const response = await change(user.token, { email: user.email, old_password: 'not-my-password' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ status: -1, old_password: ['原密码错误！'], detail: '原密码错误！' });
    });

    it('makes a reset link mailed to the old address useless', async () => {
      const mover = await buildUser(portal);
      const key = await requestResetKey(portal, mover.email);
      const moved = await change(mover.token, { email: `moved-${mover.email}`, old_password: mover.password });
      expect(moved.json().status).toBe(1);
      const reset = await postReset(portal, key, NEW_PASSWORD);
      expect(reset.statusCode).toBe(400);
      expect(reset.json().detail).toBe('链接已失效，请重新进行重置密码操作！');
      expect(await loginStatus(portal, mover.username, mover.password)).toBe(200);
    });

    it('needs no password when the address stays the same in another case', async () => {
      const response = await change(user.token, { email: user.email.toUpperCase(), realname: '同一个邮箱' });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe(1);
    });

    it('changes with the right current password, stored lower-cased', async () => {
      const newEmail = `New-${user.email}`;
      const response = await change(user.token, { email: newEmail, old_password: user.password });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 1, msg: '您已成功修改用户信息！' });
      expect((await currentUser(user.token)).email).toBe(newEmail.toLowerCase());
      expect(await loginStatus(portal, newEmail, user.password)).toBe(200);
      expect(await loginStatus(portal, user.email, user.password)).toBe(400);
      // The token stays valid: only a password change signs the user out.
      expect(await validateStatus(portal, user.token)).toBe(200);
    });
  });

  describe('password', () => {
    it('needs the current password', async () => {
      const user = await buildUser(portal);
      const missing = await change(user.token, { password: NEW_PASSWORD, password2: NEW_PASSWORD });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ status: -1, detail: '修改邮箱或密码需要输入当前密码。' });
      const wrong = await change(user.token, { password: NEW_PASSWORD, password2: NEW_PASSWORD, old_password: 'not-my-password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ status: -1, old_password: ['原密码错误！'], detail: '原密码错误！' });
      expect(await loginStatus(portal, user.username, user.password)).toBe(200);
      expect(await validateStatus(portal, user.token)).toBe(200);
    });

    it('makes a reset link mailed before the change useless', async () => {
      const user = await buildUser(portal);
      const key = await requestResetKey(portal, user.email);
      const changed = await change(user.token, { password: NEW_PASSWORD, password2: NEW_PASSWORD, old_password: user.password });
      expect(changed.json().status).toBe(2);
      const reset = await postReset(portal, key, 'another-password-9');
      expect(reset.statusCode).toBe(400);
      expect(await loginStatus(portal, user.username, NEW_PASSWORD)).toBe(200);
    });

    it('changes with status 2 and revokes every token of the user', async () => {
      const user = await buildUser(portal);
      const otherToken = await login(portal.app, user.username, user.password);
      const bystander = await login(portal.app, other.username, other.password);
      const response = await change(user.token, { password: NEW_PASSWORD, password2: NEW_PASSWORD, old_password: user.password });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 2, msg: '密码修改成功，请重新登录！' });
      expect(await validateStatus(portal, user.token)).toBe(401);
      expect(await validateStatus(portal, otherToken)).toBe(401);
      expect(await validateStatus(portal, bystander)).toBe(200);
      expect(await loginStatus(portal, user.username, user.password)).toBe(400);
      expect(await loginStatus(portal, user.username, NEW_PASSWORD)).toBe(200);
    });

    it('answers status 2 in English, and keeps the profile fields', async () => {
      const registered = await registerAndActivate(portal);
      const token = await login(portal.app, registered.username, registered.password);
      const before = await currentUser(token);
      const response = await change(token, { password: NEW_PASSWORD, password2: NEW_PASSWORD, old_password: registered.password }, EN);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 2, msg: 'Changed password successfullly, please login in again!' });
      const after = await currentUser(await login(portal.app, registered.username, NEW_PASSWORD));
      expect({ ...after, token: '', last_login: '' }).toEqual({ ...before, token: '', last_login: '' });
    });

    it('treats an empty new password as no change', async () => {
      const user = await buildUser(portal);
      const response = await change(user.token, { password: '', password2: '', realname: '不改密码' });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe(1);
      expect(await validateStatus(portal, user.token)).toBe(200);
    });
  });
});

describe('POST /account/ptpe-account/', () => {
  let caller: Person;
  let member: TestAccount;
  beforeAll(async () => {
    caller = await buildUser(portal);
    member = await buildAccount(portal, { project: 1 });
  });

  function check(token: string | null, username: string, headers: Record<string, string> = {}) {
    return portal.app.inject({
      method: 'POST',
      url: '/account/ptpe-account/',
      headers: { ...FORM, ...(token ? tokenHeader(token) : {}), ...headers },
      payload: form({ username }),
    });
  }

  it('refuses an anonymous caller with 401', async () => {
    const response = await check(null, member.username);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
    const empty = await check(null, '');
    expect(empty.statusCode).toBe(401);
    expect(empty.json()).toEqual({ detail: '请先登录。' });
  });

  it('answers s: 1 for an active programme member, by username or e-mail', async () => {
    for (const login of [member.username, member.username.toUpperCase(), member.email]) {
      const response = await check(caller.token, login);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ s: 1 });
    }
  });

  it('answers s: 1 for a project leader (is_project 2)', async () => {
    const leader = await buildAccount(portal, { project: 2 });
    expect((await check(caller.token, leader.username)).json()).toEqual({ s: 1 });
  });

  it('answers s: 0 for an unknown account', async () => {
    const response = await check(caller.token, 'nobody-here');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ s: 0 });
  });

  it('answers s: 0 for an account outside the programme', async () => {
    const response = await check(caller.token, caller.username);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ s: 0 });
  });

  it('answers s: 0 for a programme member whose account is not active', async () => {
    const { registration } = await postRegistration(portal);
    await portal.database.db.updateTable('users').set({ is_project: 1 }).where('username', '=', registration.username!).execute();
    expect((await findUserRow(portal, registration.username!))!.is_active).toBe(0);
    expect((await check(caller.token, registration.username!)).json()).toEqual({ s: 0 });
  });

  it('refuses a missing username', async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/ptpe-account/',
      headers: { ...FORM, ...tokenHeader(caller.token), ...EN },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      username: ['Please input your username or e-mail!'],
      detail: 'Please input your username or e-mail!',
    });
  });
});
