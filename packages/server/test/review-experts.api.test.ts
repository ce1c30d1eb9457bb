import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildAccount, type Person } from './factories.js';
import { createTestPortal, EN, tokenHeader, type TestAccount, type TestPortal } from './helpers.js';

/**
 * GET /api/account/account/?role=expert: the experts staff may invite to review (issue 7), found by
 * name, affiliation and specialty, without their e-mail address.
 */

let portal: TestPortal;
let staff: Person;
let plain: Person;
let glaciologist: TestAccount;
let hydrologist: TestAccount;
/** An account with the glaciologist's specialty that was deactivated. */
let inactive: TestAccount;

async function setProfile(userId: string, values: { affiliation?: string; specialty?: string; is_active?: number }) {
  await portal.database.db.updateTable('users').set(values).where('id', '=', userId).execute();
}

beforeAll(async () => {
  portal = await createTestPortal();
  staff = await buildUser(portal, { staff: true, realname: 'Staff Zhou' });
  plain = await buildUser(portal, { realname: 'Provider Chen' });
  glaciologist = await buildAccount(portal, { realname: '王冰川' });
  hydrologist = await buildAccount(portal, { realname: 'Hydro Liu' });
  inactive = await buildAccount(portal, { realname: 'Retired Sun' });
  await setProfile(glaciologist.id, { affiliation: '中国科学院青藏高原研究所', specialty: 'Glacier mass balance; 冰川物质平衡' });
  await setProfile(hydrologist.id, { affiliation: 'Lanzhou University', specialty: 'Permafrost hydrology' });
  await setProfile(inactive.id, { affiliation: 'Lanzhou University', specialty: 'Glacier mass balance', is_active: 0 });
});
afterAll(async () => {
  await portal.close();
});

function experts(query: string, token: string | null = staff.token, headers: Record<string, string> = {}) {
  return portal.app.inject({
    method: 'GET',
    url: `/api/account/account/?role=expert${query}`,
    headers: { ...(token ? tokenHeader(token) : {}), ...headers },
  });
}

const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id).sort();

describe('GET /api/account/account/?role=expert', () => {
  it('refuses an anonymous caller with 401 and a user who is not staff with 403', async () => {
    expect((await experts('&search=glacier', null)).statusCode).toBe(401);
    const refused = await experts('&search=glacier', plain.token, EN);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'You do not have permission to do this.' });
  });

  it('answers a page of candidates with their name, affiliation and specialty, and no e-mail', async () => {
    const response = await experts('&search=glacier');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.results).toEqual([
      { id: glaciologist.id, username: glaciologist.username, realname: '王冰川', affiliation: '中国科学院青藏高原研究所', specialty: 'Glacier mass balance; 冰川物质平衡' },
    ]);
    expect(response.body).not.toContain('@');
    expect(response.body).not.toContain(glaciologist.email);
    // Without a search: every active account, none with an e-mail field.
    const all = (await experts('')).json();
    expect(all.count).toBe(4);
    for (const candidate of all.results) expect(Object.keys(candidate).sort()).toEqual(['affiliation', 'id', 'realname', 'specialty', 'username']);
  });

  it('finds experts by specialty, affiliation, real name and username, in any case', async () => {
    expect(ids((await experts('&search=PERMAFROST')).json())).toEqual([hydrologist.id]);
    expect(ids((await experts(`&search=${encodeURIComponent('物质平衡')}`)).json())).toEqual([glaciologist.id]);
    expect(ids((await experts('&search=lanzhou')).json())).toEqual([hydrologist.id]);
    expect(ids((await experts(`&search=${encodeURIComponent('青藏高原')}`)).json())).toEqual([glaciologist.id]);
    expect(ids((await experts('&search=hydro%20liu')).json())).toEqual([hydrologist.id]);
    expect(ids((await experts(`&search=${glaciologist.username}`)).json())).toEqual([glaciologist.id]);
  });

  it('does not search e-mail addresses, which it does not show', async () => {
    const body = (await experts(`&search=${encodeURIComponent(hydrologist.email)}`)).json();
    expect(body).toEqual({ count: 0, next: null, previous: null, results: [] });
    // The admin's list, without the parameter, still finds the account by its e-mail.
    const admin = await portal.app.inject({ method: 'GET', url: `/api/account/account/?search=${encodeURIComponent(hydrologist.email)}`, headers: tokenHeader(staff.token) });
    expect(admin.json().results.map((u: { email: string }) => u.email)).toEqual([hydrologist.email]);
  });

  it('skips accounts that are not active, which could not be invited', async () => {
    const body = (await experts('&search=glacier%20mass')).json();
    expect(ids(body)).toEqual([glaciologist.id]);
    expect(ids((await experts('&search=retired')).json())).toEqual([]);
    // The admin's list still shows the inactive account.
    const admin = await portal.app.inject({ method: 'GET', url: '/api/account/account/?search=retired', headers: tokenHeader(staff.token) });
    expect(admin.json().results.map((u: { id: string }) => u.id)).toEqual([inactive.id]);
  });

  it('pages the candidates, keeping the role and the search in the links', async () => {
    const body = (await experts('&pageSize=2')).json();
    expect(body.count).toBe(4);
    expect(body.results).toHaveLength(2);
    expect(body.next).toBe('/api/account/account/?role=expert&pageSize=2&page=2');
  });

  it('refuses a role it does not know, by its name', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/api/account/account/?role=admin', headers: { ...tokenHeader(staff.token), ...EN } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ role: ['This value is not valid.'], detail: 'This value is not valid.' });
  });
});
