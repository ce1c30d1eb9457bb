import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildAccount, type Person } from './factories.js';
import { createTestPortal, EN, login, PUBLIC_USER_FIELDS, tokenHeader, type TestAccount, type TestPortal } from './helpers.js';

let portal: TestPortal;
let staff: Person;
let plain: Person;
/** Every account of the portal, newest first (the order of the list). */
let everyone: TestAccount[];

beforeAll(async () => {
  portal = await createTestPortal();
  staff = await buildUser(portal, { staff: true, realname: '管理员' });
  plain = await buildUser(portal, { realname: '普通用户' });
  const more: TestAccount[] = [];
  for (const realname of ['冰川学家', 'Snow_Pit Survey', '百分之50%', 'Permafrost Lab', 'Émile Zola']) {
    more.push(await buildAccount(portal, { realname }));
  }
  everyone = [staff, plain, ...more].reverse();
});
afterAll(async () => {
  await portal.close();
});

function list(query: string, token: string | null = staff.token, headers: Record<string, string> = {}) {
  return portal.app.inject({
    method: 'GET',
    url: `/api/account/account/${query}`,
    headers: { ...(token ? tokenHeader(token) : {}), ...headers },
  });
}

const usernames = (results: { username: string }[]) => results.map((r) => r.username);

describe('GET /api/account/account/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const response = await list('', null);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
  });

  it('refuses a user who is not staff with 403', async () => {
    const response = await list('', plain.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: '您没有执行此操作的权限。' });
    const english = await list('', plain.token, EN);
    expect(english.statusCode).toBe(403);
    expect(english.json()).toEqual({ detail: 'You do not have permission to do this.' });
  });

  it('refuses callers before it looks at the query', async () => {
    expect((await list('?pageSize=0', null)).statusCode).toBe(401);
    const response = await list('?pageSize=0', plain.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: '您没有执行此操作的权限。' });
  });

  it('refuses a staff token that was revoked', async () => {
    const token = await login(portal.app, staff.username, staff.password);
    await portal.app.inject({ method: 'POST', url: '/account/logout/', headers: tokenHeader(token) });
    expect((await list('', token)).statusCode).toBe(401);
  });

  it('answers staff a DRF page of every account, newest first', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.count).toBe(everyone.length);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    expect(usernames(body.results)).toEqual(everyone.map((a) => a.username));
  });

  it('sends the public user fields only: no password hash, no state of the account', async () => {
    const body = (await list('')).json();
    for (const user of body.results) {
      expect(Object.keys(user).sort()).toEqual([...PUBLIC_USER_FIELDS].sort());
    }
    expect(JSON.stringify(body)).not.toContain('argon2');
    expect(body.results.find((u: { username: string }) => u.username === staff.username).is_staff).toBe(true);
  });

  it('honours page and pageSize, with links that keep the other parameters', async () => {
    const first = (await list('?pageSize=2')).json();
    expect(first.count).toBe(everyone.length);
    expect(usernames(first.results)).toEqual(everyone.slice(0, 2).map((a) => a.username));
    expect(first.previous).toBeNull();
    expect(first.next).toBe('/api/account/account/?pageSize=2&page=2');

    const second = (await list('?page=2&pageSize=2')).json();
    expect(usernames(second.results)).toEqual(everyone.slice(2, 4).map((a) => a.username));
    expect(second.previous).toBe('/api/account/account/?page=1&pageSize=2');
    expect(second.next).toBe('/api/account/account/?page=3&pageSize=2');

    // Seven accounts: the fourth page holds the last one.
    const last = (await list('?page=4&pageSize=2')).json();
    expect(usernames(last.results)).toEqual(everyone.slice(6).map((a) => a.username));
    expect(last.results).toHaveLength(1);
    expect(last.next).toBeNull();
  });

  it('answers an empty page past the end, pointing back to the last page', async () => {
    const body = (await list('?page=9&pageSize=4')).json();
    expect(body.count).toBe(everyone.length);
    expect(body.results).toEqual([]);
    expect(body.next).toBeNull();
    expect(body.previous).toBe('/api/account/account/?page=2&pageSize=4');
  });

  it('ignores the cache-busting _r parameter and leaves it out of the links', async () => {
    const response = await list('?_r=0.123&pageSize=1');
    expect(response.statusCode).toBe(200);
    expect(response.json().next).toBe('/api/account/account/?pageSize=1&page=2');
  });

  describe('search', () => {
    it('finds Chinese text in the real name', async () => {
      const body = (await list(`?search=${encodeURIComponent('冰川')}`)).json();
      expect(body.count).toBe(1);
      expect(body.results[0].realname).toBe('冰川学家');
    });

    it('ignores case', async () => {
      const body = (await list('?search=PERMAFROST')).json();
      expect(body.count).toBe(1);
      expect(body.results[0].realname).toBe('Permafrost Lab');
    });

    it('ignores case beyond ASCII, on SQLite as on PostgreSQL', async () => {
      for (const search of ['émile', 'ÉMILE']) {
        const body = (await list(`?search=${encodeURIComponent(search)}`)).json();
        expect(
          body.results.map((u: { realname: string }) => u.realname),
          search,
        ).toEqual(['Émile Zola']);
      }
    });

    it('looks at usernames and e-mail addresses', async () => {
      const byName = (await list(`?search=${plain.username}`)).json();
      expect(usernames(byName.results)).toEqual([plain.username]);
      const byEmail = (await list(`?search=${encodeURIComponent(staff.email)}`)).json();
      expect(usernames(byEmail.results)).toEqual([staff.username]);
    });

    it('takes % and _ literally', async () => {
      const percent = (await list(`?search=${encodeURIComponent('%')}`)).json();
      expect(percent.results.map((u: { realname: string }) => u.realname)).toEqual(['百分之50%']);
      const underscore = (await list('?search=_')).json();
      expect(underscore.results.map((u: { realname: string }) => u.realname)).toEqual(['Snow_Pit Survey']);
    });

    it('pages the matches, with the search in the links', async () => {
      const body = (await list('?search=example.org&pageSize=4')).json();
      expect(body.count).toBe(everyone.length);
      expect(body.results).toHaveLength(4);
      expect(body.next).toBe('/api/account/account/?search=example.org&pageSize=4&page=2');
    });

    it('answers an empty page when nothing matches', async () => {
      const body = (await list('?search=no-such-person')).json();
      expect(body).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it('treats an empty search as none', async () => {
      expect((await list('?search=')).json().count).toBe(everyone.length);
    });
  });

  describe('refuses bad paging parameters', () => {
    const cases: [query: string, field: string][] = [
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=1001', 'pageSize'],
      ['?pageSize=2.5', 'pageSize'],
      ['?page=0', 'page'],
      ['?page=-1', 'page'],
      ['?page=abc', 'page'],
      [`?search=${'s'.repeat(101)}`, 'search'],
      ['?search[]=a&search[]=b', 'search'],
    ];
    for (const [query, field] of cases) {
      it(query.length > 40 ? `${query.slice(0, 20)}…` : query, async () => {
        const response = await list(query);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ [field]: ['输入的值无效。'], detail: '输入的值无效。' });
        const english = await list(query, staff.token, EN);
        expect(english.json()).toEqual({ [field]: ['This value is not valid.'], detail: 'This value is not valid.' });
      });
    }
  });
});
