import { describe, expect, it } from 'vitest';
import { SITE_VARIANTS } from '../domain/constants.js';
import { en } from './en.js';
import { catalogues, flattenKeys, hasMessage, translate } from './index.js';
import { zhHans } from './zh-hans.js';

function lookup(tree: object, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

/** The distinct `{{name}}` placeholders of a message, sorted. */
function placeholders(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!))].sort();
}

const enKeys = flattenKeys(en);
const zhKeys = flattenKeys(zhHans);

describe('message catalogues', () => {
  it('are the ones translate() reads', () => {
    expect(catalogues.en).toBe(en);
    expect(catalogues['zh-hans']).toBe(zhHans);
  });

  it('hold a good number of keys', () => {
    expect(enKeys.length).toBeGreaterThan(100);
    expect(new Set(enKeys).size).toBe(enKeys.length);
  });

  it('every English key exists in Chinese', () => {
    const missing = enKeys.filter((key) => typeof lookup(zhHans, key) !== 'string');
    expect(missing).toEqual([]);
  });

  it('every Chinese key exists in English', () => {
    const missing = zhKeys.filter((key) => typeof lookup(en, key) !== 'string');
    expect(missing).toEqual([]);
  });

  it('hold no empty message', () => {
    const empty = [
      ...enKeys.filter((key) => !(lookup(en, key) as string).trim()).map((key) => `en ${key}`),
      ...zhKeys.filter((key) => !(lookup(zhHans, key) as string).trim()).map((key) => `zh-hans ${key}`),
    ];
    expect(empty).toEqual([]);
  });

  it('use the same placeholders in both languages', () => {
    const differing = enKeys
      .filter((key) => typeof lookup(zhHans, key) === 'string')
      .filter((key) => placeholders(lookup(en, key) as string).join() !== placeholders(lookup(zhHans, key) as string).join());
    expect(differing).toEqual([]);
  });

  it('write placeholders only as {{name}}', () => {
    const broken = [...enKeys.map((key) => lookup(en, key) as string), ...zhKeys.map((key) => lookup(zhHans, key) as string)].filter((message) =>
      message.replace(/\{\{\s*\w+\s*\}\}/g, '').match(/[{}]/),
    );
    expect(broken).toEqual([]);
  });

  it('have a title for every site variant', () => {
    for (const variant of SITE_VARIANTS) {
      expect(hasMessage(`site.${variant}.title`)).toBe(true);
      expect(translate('zh-hans', `site.${variant}.title`)).not.toBe(`site.${variant}.title`);
    }
  });

  it('keep the spec texts of section 8 word for word', () => {
    expect(en.account.captchaError).toBe('Verification code error!');
    expect(en.account.linkTimeout).toBe('The link has timed out, please reset the password operation again!');
    expect(en.account.userNotExists).toBe('User is not exists, Please create an account!');
    expect(en.account.emailNotRegistered).toBe('E - mail not register, please create an account');
    expect(en.account.resetSuccess).toBe('Password reset successful, please login.');
    expect(en.account.registerSuccess).toBe('Registration is successful!');
    expect(en.account.changeSuccess).toBe('You have successfully changed user information!');
    expect(en.account.duplicate).toBe('Username or email already exists!');
    expect(en.account.originPasswordError).toBe('Your origin password is error!');
    expect(en.account.passwordChanged).toBe('Changed password successfullly, please login in again!');
    expect(en.account.loginSuccess).toBe('Login successful!');
    expect(en.account.loginFailed).toBe('Login failed, please try later');
    expect(en.errors.generic).toBe('Something went wrong! Please try again later');
    expect(en.errors.formGeneric).toBe('Something went wrong!Please try again later');
  });
});

describe('hasMessage', () => {
  it('knows the keys of the catalogues', () => {
    expect(hasMessage('account.captchaError')).toBe(true);
    expect(hasMessage('validation.password2.mismatch')).toBe(true);
  });

  it('does not take a group or an unknown key for a message', () => {
    expect(hasMessage('account')).toBe(false);
    expect(hasMessage('validation.password2')).toBe(false);
    expect(hasMessage('account.noSuchMessage')).toBe(false);
    expect(hasMessage('Required')).toBe(false);
    expect(hasMessage('')).toBe(false);
  });
});

describe('translate', () => {
  it('answers the message of each language', () => {
    expect(translate('en', 'account.captchaError')).toBe('Verification code error!');
    expect(translate('zh-hans', 'account.captchaError')).toBe('验证码错误！');
  });

  it('fills in the placeholders', () => {
    expect(translate('en', 'account.forgotSent', { email: 'a@example.org' })).toBe('A link to reset your password has been sent to a@example.org.');
    expect(translate('zh-hans', 'account.forgotSent', { email: 'a@example.org' })).toBe('重置密码的链接已发送至 a@example.org。');
    expect(translate('en', 'dashboard.roleProject', { level: 2 })).toBe('Project member (level 2)');
    expect(translate('zh-hans', 'admin.total', { count: 0 })).toBe('共 0 个用户');
  });

  it('fills in every occurrence of a placeholder and several placeholders', () => {
    const text = translate('en', 'mail.resetBody', { name: 'Ada', username: 'ada', hours: 2, link: 'http://x/y' });
    expect(text).toContain('Dear Ada,');
    expect(text).toContain('your account ada.');
    expect(text).toContain('within 2 hours');
    expect(text).toContain('\n\nhttp://x/y\n\n');
    expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it('leaves a missing parameter empty', () => {
    expect(translate('en', 'account.forgotSent')).toBe('A link to reset your password has been sent to .');
  });

  it('does not read placeholders out of parameter values', () => {
    expect(translate('en', 'account.forgotSent', { email: '{{email}}' })).toBe('A link to reset your password has been sent to {{email}}.');
  });

  it('answers an unknown key as it is', () => {
    expect(translate('en', 'account.noSuchMessage')).toBe('account.noSuchMessage');
    expect(translate('zh-hans', 'account')).toBe('account');
  });
});

describe('flattenKeys', () => {
  it('lists the leaves as dotted paths', () => {
    expect(flattenKeys({ a: 'x', b: { c: 'y', d: { e: 'z' } } })).toEqual(['a', 'b.c', 'b.d.e']);
    expect(flattenKeys({})).toEqual([]);
  });
});
