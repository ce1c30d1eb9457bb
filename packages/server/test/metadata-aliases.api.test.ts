import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, buildUser } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { addAuthor, addKeyword, call, countRows, expectStatus, postResource, setStatus } from './metadata-builders.js';

/** The spec's other names of the record's links (section 7), and reordering authors in one call. */
let portal: TestPortal;
let owner: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  portal = await createTestPortal();
  owner = await buildUser(portal);
  other = await buildUser(portal);
});

afterAll(async () => {
  await portal.close();
});

describe('/metadata/metadata-keyword/', () => {
  it("adds an existing keyword to a record and lists the record's keyword links", async () => {
    const first = await buildRecord(portal, { owner });
    const second = await buildRecord(portal, { owner });
    const keyword = await addKeyword(portal, owner.token, first, 'place', '祁连山');
    const link = expectStatus(await call(portal, 'POST', '/metadata/metadata-keyword/', owner.token, { body: { metadata: second, keyword: keyword.id } }), 201);
    expect(link).toMatchObject({ metadata: second, keyword: keyword.id, keyword_detail: { name: '祁连山' } });
    const list = expectStatus(await call(portal, 'GET', `/metadata/metadata-keyword/?metadata__id=${second}`, owner.token), 200);
    expect(list.results.map((row: { keyword: string }) => row.keyword)).toEqual([keyword.id]);
  });

  it('refuses the same keyword twice on one record, and a keyword the caller may not see', async () => {
    const record = await buildRecord(portal, { owner });
    const keyword = await addKeyword(portal, owner.token, record, 'theme', '冻土');
    const again = await call(portal, 'POST', '/metadata/metadata-keyword/', owner.token, { body: { metadata: record, keyword: keyword.id }, headers: EN });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe('The metadata already has this keyword.');

    // A keyword only used by another user's draft is private to them.
    const theirs = await buildRecord(portal, { owner: other });
    const hidden = await addKeyword(portal, other.token, theirs, 'theme', '私有关键词');
    const refused = await call(portal, 'POST', '/metadata/metadata-keyword/', owner.token, { body: { metadata: record, keyword: hidden.id }, headers: EN });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().keyword).toEqual(['Please name the keyword.']);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record })).toBe(1);
  });

  it("refuses another user's record: 404 for a draft they cannot see, 403 'no right' for a published one", async () => {
    const record = await buildRecord(portal, { owner });
    const keyword = await addKeyword(portal, other.token, await buildRecord(portal, { owner: other }), 'temporal', '全新世');
    const response = await call(portal, 'POST', '/metadata/metadata-keyword/', other.token, { body: { metadata: record, keyword: keyword.id }, headers: EN });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'The metadata was not found' });
    await setStatus(portal, record, 'published');
    const seen = await call(portal, 'POST', '/metadata/metadata-keyword/', other.token, { body: { metadata: record, keyword: keyword.id }, headers: EN });
    expect(seen.statusCode).toBe(403);
    expect(seen.json()).toEqual({ detail: 'Sorry, you have no right to modify the data entity of this metadata' });
  });
});

describe('/metadata/meta-relate-author/', () => {
  it('links an author to a record in a role, as meta-author does', async () => {
    const record = await buildRecord(portal, { owner });
    const author = await postResource(portal, owner.token, 'author', {
      name: '李雪',
      name_en: 'Li Xue',
      email: 'lixue@example.org',
      affiliation: '中国科学院青藏高原研究所',
      affiliation_en: 'Institute of Tibetan Plateau Research, CAS',
    });
    const link = expectStatus(
      await call(portal, 'POST', '/metadata/meta-relate-author/', owner.token, {
        body: { metadata: record, author: author.id, role: 'principalInvestigator', event_date: '2025-03-01' },
      }),
      201,
    );
    expect(link).toMatchObject({ metadata: record, author: author.id, role: 'principalInvestigator' });
  });
});

describe('POST /api/metadata/author_sort/', () => {
  it("numbers the record's author links in the order given", async () => {
    const record = await buildRecord(portal, { owner });
    const links = [];
    for (let i = 0; i < 3; i++) links.push((await addAuthor(portal, owner.token, record, { role: 'metadataAuthor' })).link);
    const order = [links[2]!.id, links[0]!.id, links[1]!.id];
    const reply = expectStatus(await call(portal, 'POST', '/api/metadata/author_sort/', owner.token, { body: { metadata: record, ids: order } }), 200);
    expect(reply.results.map((row: { id: string }) => row.id)).toEqual(order);
    expect(reply.results.map((row: { sort: number }) => row.sort)).toEqual([0, 1, 2]);
  });

  it('refuses ids of another record, repeated ids, another user and a record in review', async () => {
    const record = await buildRecord(portal, { owner });
    const mine = (await addAuthor(portal, owner.token, record)).link;
    const elsewhere = (await addAuthor(portal, owner.token, await buildRecord(portal, { owner }))).link;
    const foreign = await call(portal, 'POST', '/api/metadata/author_sort/', owner.token, { body: { metadata: record, ids: [mine.id, elsewhere.id] }, headers: EN });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().ids).toEqual(['Please name the author.']);
    const repeated = await call(portal, 'POST', '/api/metadata/author_sort/', owner.token, { body: { metadata: record, ids: [mine.id, mine.id] } });
    expect(repeated.statusCode).toBe(400);
    const stranger = await call(portal, 'POST', '/api/metadata/author_sort/', other.token, { body: { metadata: record, ids: [mine.id] } });
    expect(stranger.statusCode).toBe(404);
    await setStatus(portal, record, 'submitted');
    const readOnly = await call(portal, 'POST', '/api/metadata/author_sort/', owner.token, { body: { metadata: record, ids: [mine.id] } });
    expect(readOnly.statusCode).toBe(409);
  });
});

describe('per-record limits under concurrent requests', () => {
  it('links at most 3 funding projects when six requests arrive together', async () => {
    const record = await buildRecord(portal, { owner });
    const funds = [];
    for (let i = 0; i < 6; i++) {
      funds.push(await postResource(portal, owner.token, 'fund', { name: `冰冻圈项目${i}`, name_en: `Cryosphere project ${i}` }));
    }
    const replies = await Promise.all(
      funds.map((fund) => call(portal, 'POST', '/api/metadata/meta-fund/', owner.token, { body: { metadata: record, fund: fund.id }, headers: EN })),
    );
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 400, 400, 400]);
    for (const refused of replies.filter((reply) => reply.statusCode === 400)) {
      expect(refused.json().detail).toBe('A metadata record has at most 3 funding projects.');
    }
    expect(await countRows(portal, 'meta_fund', { metadata_id: record })).toBe(3);
  });

  it('counts a new fund linked at once against the same limit', async () => {
    const record = await buildRecord(portal, { owner });
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(portal, 'POST', '/api/metadata/fund/', owner.token, { body: { name: `新项目${i}`, name_en: `New project ${i}`, metadata: record } }),
      ),
    );
    expect(replies.filter((reply) => reply.statusCode === 201)).toHaveLength(3);
    expect(await countRows(portal, 'meta_fund', { metadata_id: record })).toBe(3);
  });
});
