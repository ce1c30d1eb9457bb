import { describe, expect, it } from 'vitest';
import { hasMessage } from '../i18n/index.js';
import { changeSchema, loginSchema, registerSchema, resetSchema, sendSchema, userSchema } from './account.js';

const valid = {
  username: 'glacier_fan',
  realname: '测试用户',
  email: 'Someone@Example.org',
  password: 'glacier-melt-2026',
  password2: 'glacier-melt-2026',
  affiliation: 'ITP',
  address: 'Beijing',
  captcha: 'ab3d',
  agreement: 'on',
};

/** The message keys of a failed parse, by field. */
function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  return Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('registerSchema', () => {
  it('accepts a complete form, lower-casing the e-mail and trimming text', () => {
    const parsed = registerSchema.parse({ ...valid, realname: '  测试用户 ', username: ' glacier_fan ' });
    expect(parsed.email).toBe('someone@example.org');
    expect(parsed.realname).toBe('测试用户');
    expect(parsed.username).toBe('glacier_fan');
    expect(parsed.agreement).toBe(true);
  });

  it('reads the agreement checkbox as a form posts it', () => {
    for (const agreement of [true, 'true', 'on', '1']) {
      expect(registerSchema.safeParse({ ...valid, agreement }).success, String(agreement)).toBe(true);
    }
    for (const agreement of [false, 'false', 'off', '0', '', undefined]) {
      expect(issues(registerSchema.safeParse({ ...valid, agreement }))).toEqual({ agreement: 'validation.agreement.required' });
    }
  });

  it('refuses passwords that differ', () => {
    expect(issues(registerSchema.safeParse({ ...valid, password2: 'something-else' }))).toEqual({
      password2: 'validation.password2.mismatch',
    });
  });

  it('names every missing field with its own message key', () => {
    expect(issues(registerSchema.safeParse({}))).toEqual({
      username: 'validation.username.required',
      realname: 'validation.realname.required',
      email: 'validation.email.required',
      password: 'validation.password.required',
      password2: 'validation.password2.required',
      affiliation: 'validation.affiliation.required',
      address: 'validation.address.required',
      captcha: 'validation.captcha.required',
    });
  });

  it('uses message keys of the catalogues for every refusal', () => {
    const bad = registerSchema.safeParse({
      ...valid,
      username: 'a b',
      email: 'x',
      password: 'short',
      phone: 'abc',
      zipcode: '#',
      specialty: 's'.repeat(201),
    });
    for (const message of Object.values(issues(bad))) expect(hasMessage(message), message).toBe(true);
  });
});

describe('loginSchema', () => {
  it('needs a login and a password', () => {
    expect(issues(loginSchema.safeParse({ username: ' ', password: '' }))).toEqual({
      username: 'validation.login.required',
      password: 'validation.password.required',
    });
  });

  it('does not judge the length of a password it only compares', () => {
    expect(loginSchema.safeParse({ username: 'x', password: 'a' }).success).toBe(true);
  });
});

describe('sendSchema and resetSchema', () => {
  it('send needs a username or e-mail', () => {
    expect(issues(sendSchema.safeParse({}))).toEqual({ username: 'validation.login.required' });
  });

  it('reset needs the key and two equal passwords', () => {
    expect(issues(resetSchema.safeParse({ key: 'k', password: 'glacier-melt-2026', password2: 'x' }))).toEqual({
      password2: 'validation.password2.mismatch',
    });
    expect(issues(resetSchema.safeParse({ password: 'glacier-melt-2026', password2: 'glacier-melt-2026' }))).toEqual({
      key: 'account.linkTimeout',
    });
  });
});

describe('changeSchema', () => {
  it('leaves out the fields a post does not send', () => {
    expect(changeSchema.parse({ realname: '新名字' })).toEqual({ realname: '新名字' });
  });

  it('reads an empty new password as no new password', () => {
    const parsed = changeSchema.parse({ password: '', password2: '' });
    expect(parsed.password).toBeUndefined();
  });

  it('checks a new password like a registration does', () => {
    expect(issues(changeSchema.safeParse({ password: 'short', password2: 'short' }))).toEqual({
      password: 'validation.password.length',
    });
    expect(issues(changeSchema.safeParse({ password: 'glacier-melt-2026', password2: 'other' }))).toEqual({
      password2: 'validation.password2.mismatch',
    });
  });

  it("takes one of the site's languages as the mail language, and nothing else", () => {
    expect(changeSchema.parse({ mail_language: 'en' })).toEqual({ mail_language: 'en' });
    for (const value of ['fr', 'EN', '', 'zh']) {
      expect(issues(changeSchema.safeParse({ mail_language: value }))).toEqual({ mail_language: 'validation.mail_language.invalid' });
    }
    expect(hasMessage('validation.mail_language.invalid')).toBe(true);
  });
});

describe('userSchema', () => {
  it('strips what a reply must not carry', () => {
    const user = userSchema.parse({
      id: '1',
      username: 'u',
      email: 'u@example.org',
      realname: 'U',
      name: 'U',
      phone: '',
      address: '',
      affiliation: '',
      zipcode: '',
      specialty: '',
      is_staff: false,
      is_project: 0,
      date_joined: '2026-01-01T00:00:00.000Z',
      last_login: null,
      profile: { real_name: 'U' },
      mail_language: 'en',
      password_hash: '$argon2id$...',
    });
    expect(user).not.toHaveProperty('password_hash');
  });
});
