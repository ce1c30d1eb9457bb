import { describe, expect, it } from 'vitest';
import { safeReturnAddress } from './navigation.js';

describe('safeReturnAddress', () => {
  it('accepts pages of the personal centre and the admin page', () => {
    for (const next of [
      '/',
      '/personal/settings',
      '/personal/information',
      '/data/basket',
      '/review/hitory',
      '/invited/review',
      '/analyze',
      '/admin/',
      '/admin/review',
      '/metadata/edit/abc',
      '/metadata/draft',
      '/metadata/edit/3f2a-77_b/',
      '/metadata/list?page=2&pageSize=10',
      '/metadata/search?q=%E5%86%B0%E5%B7%9D',
      '/metadata/file.v2',
    ]) {
      expect(safeReturnAddress(next), next).toBe(next);
    }
  });

  it('answers nothing without an address', () => {
    expect(safeReturnAddress(undefined)).toBeUndefined();
    expect(safeReturnAddress(null)).toBeUndefined();
    expect(safeReturnAddress('')).toBeUndefined();
  });

  it('refuses addresses that leave the site', () => {
    for (const next of [
      '//evil.com',
      '//evil.com/metadata/edit/abc',
      'https://evil.com',
      'https://evil.com/metadata/edit/abc',
      'javascript:alert(1)',
      '/metadata//evil.com',
      '/metadata/edit/abc//evil.com',
    ]) {
      expect(safeReturnAddress(next), next).toBeUndefined();
    }
  });

  it('refuses the account screens and pages that are not the personal centre\'s', () => {
    for (const next of [
      '/login',
      '/login?next=/metadata/draft',
      '/register',
      '/forgot',
      '/reset?key=x',
      '/send',
      '/metadataX/edit',
      '/personalX',
      '/admin',
      '/admin/metadata/edit',
      '/admin/?x=1',
      '/?x=1',
      'metadata/edit/abc',
      'admin/',
    ]) {
      expect(safeReturnAddress(next), next).toBeUndefined();
    }
  });

  it('refuses climbing out of the metadata pages', () => {
    for (const next of ['/metadata/../x', '/metadata/..', '/metadata/edit/../../admin']) {
      expect(safeReturnAddress(next), next).toBeUndefined();
    }
  });

  it('refuses backslashes, blanks, fragments and control characters', () => {
    for (const next of [
      '/metadata\\edit',
      '/metadata/\\\\evil.com',
      '/metadata/edit abc',
      '/metadata/edit#x',
      '/metadata/edit\n',
      '/metadata/edit\r\nLocation: //evil.com',
      '/metadata/edit\t',
    ]) {
      expect(safeReturnAddress(next), JSON.stringify(next)).toBeUndefined();
    }
  });

  it('refuses an address over 2000 characters', () => {
    const long = `/metadata/${'a'.repeat(1991)}`;
    expect(long.length).toBe(2001);
    expect(safeReturnAddress(long)).toBeUndefined();
    expect(safeReturnAddress(long.slice(0, 2000))).toBe(long.slice(0, 2000));
  });
});
