import { describe, expect, it } from 'vitest';
import { checkReply, ContractError } from './replyContracts';
import { path, ROUTES } from './routes';

const user = {
  id: 'u1',
  username: 'ana',
  email: 'ana@example.org',
  realname: 'Ana',
  name: 'Ana',
  phone: '',
  address: 'Street 1',
  affiliation: 'Lab',
  zipcode: '',
  specialty: '',
  is_staff: false,
  is_project: 0,
  date_joined: '2026-01-01T00:00:00.000Z',
  last_login: null,
  profile: { real_name: 'Ana' },
  mail_language: 'en',
};

describe('the routes table', () => {
  it('fills in and encodes the parts of a path', () => {
    expect(path('validate')).toBe('/account/validate/');
    expect(path('order', { id: 'o1' })).toBe('/api/account/order/o1/');
    expect(path('verifyVoucher', { code: 'a/b c' })).toBe('/api/voucher/verify/a%2Fb%20c/');
    expect(path('resourceItem', { name: 'metadata-i18n', id: 't1' })).toBe('/api/metadata/metadata-i18n/t1/');
  });

  it('spells each path once', () => {
    const paths = Object.values(ROUTES);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('the development check of replies', () => {
  it('passes a reply that fits its contract', () => {
    expect(() => checkReply('GET', '/account/validate/?_r=0.5', user)).not.toThrow();
    expect(() => checkReply('POST', path('login'), { ...user, token: 't', msg: 'Welcome' })).not.toThrow();
  });

  it('throws an error that names the call and the field when a reply does not fit', () => {
    const logged = console.error;
    console.error = () => undefined;
    try {
      expect(() => checkReply('GET', '/account/validate/', { ...user, is_staff: 0 })).toThrow(ContractError);
      expect(() => checkReply('GET', '/account/validate/', { ...user, is_staff: 0 })).toThrow(/GET \/account\/validate\/ \(validate\).*is_staff/);
    } finally {
      console.error = logged;
    }
  });

  it('leaves alone the calls without a contract and the methods it does not name', () => {
    expect(() => checkReply('GET', '/api/metadata/meta-author/', { anything: true })).not.toThrow();
    expect(() => checkReply('DELETE', '/account/validate/', {})).not.toThrow();
  });
});
