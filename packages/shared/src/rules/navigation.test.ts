import { describe, expect, it } from 'vitest';
import { PERSONAL_MENU_PATHS, groupForPath, safeReturnAddress, visibleMenu, type MenuEntry, type MenuUser } from './navigation.js';

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

  it("refuses the account screens and pages that are not the personal centre's", () => {
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

const pathsOf = (entries: MenuEntry[]) => entries.flatMap((entry) => (entry.kind === 'item' ? [entry.path] : entry.items.map((item) => item.path)));
const USERS: Record<string, MenuUser> = {
  user: { is_staff: false, is_project: 0 },
  staff: { is_staff: true, is_project: 0 },
  leader: { is_staff: false, is_project: 1 },
  staffLeader: { is_staff: true, is_project: 2 },
};

describe('the personal centre menu', () => {
  it("is the same in both languages but for the spec's Chinese-only pre-review", () => {
    for (const [name, user] of Object.entries(USERS)) {
      const chinese = pathsOf(visibleMenu(user, 'zh-hans'));
      const english = pathsOf(visibleMenu(user, 'en'));
      expect(
        chinese.filter((path) => !english.includes(path)),
        name,
      ).toEqual(user.is_staff ? ['/review/preview'] : []);
      expect(
        english.filter((path) => !chinese.includes(path)),
        name,
      ).toEqual([]);
    }
  });

  it('has no entry for a page this release does not have (report printing, the audit list)', () => {
    for (const path of ['/metadata/report', '/metadata/audit-list']) expect(PERSONAL_MENU_PATHS).not.toContain(path);
  });

  it('offers everyone the big-data analysis (my methods, explore, share) and the data tables', () => {
    for (const [name, user] of Object.entries(USERS)) {
      const paths = pathsOf(visibleMenu(user, 'en'));
      for (const path of ['/analyze', '/analyze/exploredways', '/analyze/methodsharing', '/data/detailedData']) expect(paths, name).toContain(path);
    }
    expect(groupForPath(visibleMenu(USERS.user!, 'en'), '/analyze/run/m1')).toBe('analysis');
  });

  it("offers the staff's pre-review to staff only", () => {
    expect(pathsOf(visibleMenu(USERS.user!, 'zh-hans'))).not.toContain('/review/preview');
    expect(pathsOf(visibleMenu(USERS.leader!, 'zh-hans'))).not.toContain('/review/preview');
    expect(pathsOf(visibleMenu(USERS.staff!, 'zh-hans'))).toContain('/review/preview');
  });

  it('offers the DOI registrations to staff only, in both languages', () => {
    for (const language of ['zh-hans', 'en'] as const) {
      for (const name of ['user', 'leader']) expect(pathsOf(visibleMenu(USERS[name]!, language)), name).not.toContain('/review/doi-registrations');
      for (const name of ['staff', 'staffLeader']) expect(pathsOf(visibleMenu(USERS[name]!, language)), name).toContain('/review/doi-registrations');
    }
    expect(groupForPath(visibleMenu(USERS.staff!, 'en'), '/review/doi-registrations')).toBe('review');
  });

  it('swaps my data for my projects for project users (spec section 6)', () => {
    const keys = (user: MenuUser) => visibleMenu(user, 'en').map((entry) => (entry.kind === 'group' ? entry.key : entry.path));
    expect(keys(USERS.user!)).toContain('metadata');
    expect(keys(USERS.user!)).not.toContain('projects');
    expect(keys(USERS.leader!)).toContain('projects');
    expect(keys(USERS.leader!)).not.toContain('metadata');
  });

  it('opens the group holding the page, else the one of its first segment', () => {
    const entries = visibleMenu(USERS.leader!, 'en');
    expect(groupForPath(entries, '/review/projectList')).toBe('projects');
    expect(groupForPath(entries, '/review/advice/abc')).toBe('review');
    expect(groupForPath(entries, '/application/abc')).toBe('orders');
  });
});
