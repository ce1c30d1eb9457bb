import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataFile, buildRecord, buildThumbnail, buildUser, type Person } from './factories.js';
import { createTestPortal, EN, tokenHeader, type TestPortal } from './helpers.js';
import { addAuthor, addKeyword, call, countRows, expectStatus, multipart, postResource, recordUrl, resourceUrl, setStatus } from './metadata-builders.js';

/**
 * The holes of issue 6 found by probing the API as an attacker would, one describe each: shared
 * entries changed through someone else's action, link rows re-pointed past the visibility check,
 * translation lists checking one parameter and filtering on another, staff-only fields, and
 * replies that tell another user's private id from an unknown one.
 */

type User = Person;

let portal: TestPortal;
let owner: User;
let other: User;
let staff: User;
beforeAll(async () => {
  portal = await createTestPortal();
  [owner, other, staff] = await Promise.all([buildUser(portal), buildUser(portal), buildUser(portal, { staff: true })]);
});
afterAll(async () => {
  await portal.close();
});

const NO_RIGHT = 'Sorry, you have no right to modify the data entity of this metadata';

const get = (token: string | null, url: string) => call(portal, 'GET', url, token, { headers: EN });
const post = (token: string | null, name: string, body: Record<string, unknown>, asForm = false) => call(portal, 'POST', resourceUrl(name), token, { body, asForm, headers: EN });
const write = (method: 'PUT' | 'PATCH', token: string, name: string, id: string, body: Record<string, unknown>, asForm = false) =>
  call(portal, method, resourceUrl(name, id), token, { body, asForm, headers: EN });
const patch = (token: string, name: string, id: string, body: Record<string, unknown>) => write('PATCH', token, name, id, body);
const del = (token: string | null, name: string, id: string) => call(portal, 'DELETE', resourceUrl(name, id), token, { headers: EN });

const storedRow = (table: string, id: string) => (portal.database.db as any).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
const rowsWhere = (table: string, column: string, value: string) =>
  (portal.database.db as any).selectFrom(table).selectAll().where(column, '=', value).orderBy('id').execute() as Promise<any[]>;

function reply(response: LightMyRequestResponse) {
  return { status: response.statusCode, body: response.body ? response.json() : undefined };
}

/** A record of the owner's that is published, citing a literature entry and linking an author and a keyword, none translated. */
async function publishedWithUntranslatedEntries() {
  const record = await buildRecord(portal, { owner });
  const { author, link } = await addAuthor(portal, owner.token, record, { role: 'owner' });
  expect((await del(owner.token, 'author-i18n', author.translations[0].id)).statusCode).toBe(204);
  const literature = await postResource(portal, owner.token, 'literature', { title: '冰川文献', type: 'reference', metadata: record });
  const keyword = await addKeyword(portal, owner.token, record, 'theme', '冰川');
  expect((await del(owner.token, 'keyword-i18n', keyword.translations[0].id)).statusCode).toBe(204);
  await setStatus(portal, record, 'published');
  return { record, author, authorLink: link, literature, keyword };
}

const LINKS = {
  author: { entries: 'authors', table: 'meta_author', column: 'author_id', i18n: 'author_i18n', i18nColumn: 'author_id' },
  literature: { entries: 'literature', table: 'citations', column: 'literature_id', i18n: 'literature_i18n', i18nColumn: 'literature_id' },
  keyword: { entries: 'keywords', table: 'meta_keyword', column: 'keyword_id', i18n: 'keyword_i18n', i18nColumn: 'keyword_id' },
} as const;

describe('hole 1: a shared entry never changes through someone else’s action (copy-on-write)', () => {
  it('gives another user who translates an entry of a published record their own copy, linked from their draft only', async () => {
    const shared = await publishedWithUntranslatedEntries();
    const draft = await buildRecord(portal, { owner: other });
    const citation = await postResource(portal, other.token, 'citation', { metadata: draft, literature: shared.literature.id, sort: 7 });
    const authorLink = await postResource(portal, other.token, 'meta-author', {
      metadata: draft,
      author: shared.author.id,
      role: 'principalInvestigator',
      event_date: '2023-01-02',
      sort: 4,
    });
    await postResource(portal, other.token, 'meta-keyword', { metadata: draft, keyword: shared.keyword.id });

    const translations = [
      { name: 'literature' as const, id: shared.literature.id, body: { literature: shared.literature.id, language: 'en', title: 'Defaced title' } },
      { name: 'author' as const, id: shared.author.id, body: { author: shared.author.id, language: 'en', name: 'Defaced Name' } },
      { name: 'keyword' as const, id: shared.keyword.id, body: { keyword: shared.keyword.id, language: 'en', name: 'defaced' } },
    ];
    for (const translation of translations) {
      const link = LINKS[translation.name];
      const before = await storedRow(link.entries, translation.id);
      const created = expectStatus(await post(other.token, `${translation.name}-i18n`, translation.body), 201);
      const copyId = created[link.i18nColumn];
      // The translation went to a new entry of the caller's, a copy of the original.
      expect(copyId).not.toBe(translation.id);
      expect(created.copied_from).toBe(translation.id);
      const copy = await storedRow(link.entries, copyId);
      const { id: _a, created_by: _b, created_at: _c, ...content } = before;
      // An author's personal data stays out of a copy for a caller who may not read it (contactableAuthors).
      const copied = translation.name === 'author' ? { ...content, email: '', phone: '', address: '', zipcode: '' } : content;
      expect(copy).toMatchObject({ ...copied, id: copyId, created_by: other.id });
      // The original is untouched: no translation, and the published record still links it.
      expect(await rowsWhere(link.i18n, link.i18nColumn, translation.id)).toEqual([]);
      expect((await rowsWhere(link.table, 'metadata_id', shared.record)).map((row) => row[link.column])).toContain(translation.id);
      // The caller's draft now links the copy.
      const draftLinks = await rowsWhere(link.table, 'metadata_id', draft);
      expect(draftLinks.map((row) => row[link.column])).toEqual([copyId]);
    }
    // The link rows kept their own columns.
    expect(await storedRow('citations', citation.id)).toMatchObject({ sort: 7 });
    expect(await storedRow('meta_author', authorLink.id)).toMatchObject({ role: 'principalInvestigator', event_date: '2023-01-02', sort: 4 });

    // Anonymous visitors see the published record as its owner made it.
    const cited = expectStatus(await get(null, `${resourceUrl('citation')}?metadata__id=${shared.record}`), 200);
    expect(cited.results[0].literature_detail).toMatchObject({ id: shared.literature.id, translations: [] });
    const authors = expectStatus(await get(null, `${resourceUrl('meta-author')}?metadata__id=${shared.record}`), 200);
    expect(authors.results[0].author_detail).toMatchObject({ id: shared.author.id, translations: [] });
  });

  it('gives a copy to another user who edits an entry of a published record, and re-points only the named draft', async () => {
    const shared = await publishedWithUntranslatedEntries();
    const first = await buildRecord(portal, { owner: other });
    const second = await buildRecord(portal, { owner: other });
    for (const record of [first, second]) await postResource(portal, other.token, 'citation', { metadata: record, literature: shared.literature.id });
    const before = await storedRow('literature', shared.literature.id);

    const edited = expectStatus(await patch(other.token, 'literature', shared.literature.id, { title: '改过的标题', metadata: first }), 200);
    expect(edited).toMatchObject({ title: '改过的标题', created_by: other.id, copied_from: shared.literature.id });
    expect(edited.id).not.toBe(shared.literature.id);
    expect(await storedRow('literature', shared.literature.id)).toEqual(before);
    expect((await rowsWhere('citations', 'metadata_id', first)).map((row) => row.literature_id)).toEqual([edited.id]);
    expect((await rowsWhere('citations', 'metadata_id', second)).map((row) => row.literature_id)).toEqual([shared.literature.id]);

    // Without `metadata`, every draft of the caller's that links the entry follows the copy.
    const put = expectStatus(await write('PUT', other.token, 'literature', shared.literature.id, { title: '再改', type: 'reference' }), 200);
    expect((await rowsWhere('citations', 'metadata_id', second)).map((row) => row.literature_id)).toEqual([put.id]);
    expect(await storedRow('literature', shared.literature.id)).toEqual(before);

    // A record that does not link the entry is refused, and nothing is copied.
    const unrelated = await buildRecord(portal, { owner: other });
    const literatureCount = await countRows(portal, 'literature');
    expect(reply(await patch(other.token, 'literature', shared.literature.id, { title: 'x', metadata: unrelated }))).toEqual({
      status: 400,
      body: { metadata: ['The metadata does not use this entry.'], detail: 'The metadata does not use this entry.' },
    });
    expect(await countRows(portal, 'literature')).toBe(literatureCount);
    // Who uses it in no draft of theirs still has no right to it.
    const stranger = await buildUser(portal);
    expect(reply(await patch(stranger.token, 'literature', shared.literature.id, { title: 'x' }))).toEqual({ status: 403, body: { detail: NO_RIGHT } });
  });

  it('lets a duplicated draft edit the entries it shares with its submitted original; staff still edit in place', async () => {
    const original = await buildRecord(portal, { owner });
    const { author } = await addAuthor(portal, owner.token, original, { role: 'resourceProvider' });
    const keyword = await addKeyword(portal, owner.token, original, 'place', '青藏高原');
    await setStatus(portal, original, 'submitted');
    const duplicate = expectStatus(await call(portal, 'POST', `/metadata/duplication/${original}`, owner.token, { headers: EN }), 201);

    const renamed = expectStatus(await patch(owner.token, 'keyword', keyword.id, { name: '青藏高原东部', metadata: duplicate.id }), 200);
    expect(renamed.id).not.toBe(keyword.id);
    expect(renamed.translations).toEqual([expect.objectContaining({ language: 'en', name: keyword.translations[0].name })]);
    expect(await storedRow('keywords', keyword.id)).toMatchObject({ name: '青藏高原' });
    // A linked author's name does not change in place, but the copy may carry a new one.
    const copy = expectStatus(await patch(owner.token, 'author', author.id, { name: '新名字', metadata: duplicate.id }), 200);
    expect(copy).toMatchObject({ name: '新名字', email: author.email });
    expect(await storedRow('authors', author.id)).toMatchObject({ name: author.name });
    expect((await rowsWhere('meta_author', 'metadata_id', duplicate.id)).map((row) => row.author_id)).toEqual([copy.id]);
    expect((await rowsWhere('meta_author', 'metadata_id', original)).map((row) => row.author_id)).toEqual([author.id]);
    // The translation of the copy changes in place now: it is used by one draft of the caller's.
    const english = copy.translations[0];
    const changed = expectStatus(await patch(owner.token, 'author-i18n', english.id, { affiliation: 'ITP' }), 200);
    expect(changed).toMatchObject({ id: english.id, author_id: copy.id, affiliation: 'ITP' });

    const inPlace = expectStatus(await patch(staff.token, 'keyword', keyword.id, { name: '青藏' }), 200);
    expect(inPlace.id).toBe(keyword.id);
  });
});

describe('hole 2: every write of a reference checks that the caller may see it', () => {
  it('refuses re-pointing a link at another user’s private keyword or fund as it refuses an unknown id', async () => {
    const secret = await buildRecord(portal, { owner: other });
    const privateKeyword = await addKeyword(portal, other.token, secret, 'theme', '私密关键词');
    const privateFund = await postResource(portal, other.token, 'fund', { name: '私密基金', name_en: 'Private', email: 'pi@secret.example', metadata: secret });
    const record = await buildRecord(portal, { owner });
    const keywordLink = await postResource(portal, owner.token, 'meta-keyword', {
      metadata: record,
      keyword: (await addKeyword(portal, owner.token, await buildRecord(portal, { owner }), 'theme')).id,
    });
    const fundLink = await postResource(portal, owner.token, 'meta-fund', { metadata: record, fund: '5' });

    for (const method of ['PATCH', 'PUT'] as const) {
      for (const asForm of [false, true]) {
        const unknownKeyword = reply(await write(method, owner.token, 'meta-keyword', keywordLink.id, { keyword: randomUUID() }, asForm));
        expect(unknownKeyword.status).toBe(400);
        expect(reply(await write(method, owner.token, 'meta-keyword', keywordLink.id, { keyword: privateKeyword.id }, asForm))).toEqual(unknownKeyword);
        const unknownFund = reply(await write(method, owner.token, 'meta-fund', fundLink.id, { fund: randomUUID() }, asForm));
        expect(unknownFund.status).toBe(400);
        expect(reply(await write(method, owner.token, 'meta-fund', fundLink.id, { fund: privateFund.id }, asForm))).toEqual(unknownFund);
      }
    }
    expect(await storedRow('meta_keyword', keywordLink.id)).toMatchObject({ keyword_id: keywordLink.keyword_id });
    expect(await storedRow('meta_fund', fundLink.id)).toMatchObject({ fund_id: '5' });
    // A visible one may still be chosen.
    expect(expectStatus(await patch(owner.token, 'meta-fund', fundLink.id, { fund: '6' }), 200)).toMatchObject({ fund_id: '6' });
  });
});

describe('hole 3: a list checks the parameters it filters on', () => {
  it('answers a translation list naming another user’s private entry with 404, whatever other parameter names one’s own', async () => {
    const secret = await buildRecord(portal, { owner: other });
    const theirs = {
      keyword: await addKeyword(portal, other.token, secret, 'theme', '别人的关键词'),
      author: (await addAuthor(portal, other.token, secret)).author,
      literature: await postResource(portal, other.token, 'literature', { title: '别人的文献', type: 'reference', metadata: secret }),
    };
    await postResource(portal, other.token, 'literature-i18n', { literature: theirs.literature.id, language: 'en', title: 'Their secret' });
    const mine = await buildRecord(portal, { owner });
    const own = {
      keyword: await addKeyword(portal, owner.token, mine, 'theme', '我的关键词'),
      author: (await addAuthor(portal, owner.token, mine)).author,
      literature: await postResource(portal, owner.token, 'literature', { title: '我的文献', type: 'reference', metadata: mine }),
    };
    const unknown = reply(await get(owner.token, `${resourceUrl('keyword-i18n')}?keyword__id=${randomUUID()}`));
    expect(unknown.status).toBe(404);
    for (const name of ['keyword', 'author', 'literature'] as const) {
      const filters = name === 'keyword' ? ['keyword__id', 'keyword_id'] : [`${name}__id`];
      for (const filter of filters) {
        const url = `${resourceUrl(`${name}-i18n`)}?${name}=${own[name].id}&${filter}=${theirs[name].id}`;
        expect({ url, ...reply(await get(owner.token, url)) }).toEqual({ url, ...unknown });
        // The other way round: the unknown parameter is ignored, the filter names one's own entry.
        const ownList = expectStatus(await get(owner.token, `${resourceUrl(`${name}-i18n`)}?${name}=${theirs[name].id}&${filter}=${own[name].id}`), 200);
        expect(ownList.results.every((row: Record<string, unknown>) => row[`${name}_id`] === own[name].id)).toBe(true);
      }
    }
  });
});

describe('hole 4: protected fields are staff-only on every write', () => {
  it('refuses is_core from a non-staff caller on POST, PUT and PATCH, writing nothing; staff may set it', async () => {
    const funds = await countRows(portal, 'funds');
    const refusal = { status: 403, body: { is_core: ['Only the data centre may set this field.'], detail: 'Only the data centre may set this field.' } };
    expect(reply(await post(owner.token, 'fund', { name: '核心？', name_en: 'Core?', is_core: true }))).toEqual(refusal);
    expect(reply(await post(owner.token, 'fund', { name: '核心？', name_en: 'Core?', is_core: 'on' }, true))).toEqual(refusal);
    expect(await countRows(portal, 'funds')).toBe(funds);
    const fund = await postResource(portal, owner.token, 'fund', { name: '普通基金', name_en: 'Plain' });
    expect(fund.is_core).toBe(false);
    for (const method of ['PUT', 'PATCH'] as const) {
      expect(reply(await write(method, owner.token, 'fund', fund.id, { is_core: true, name: '改名' }))).toEqual(refusal);
      expect(reply(await write(method, owner.token, 'fund', fund.id, { is_core: '1' }, true))).toEqual(refusal);
    }
    expect(await storedRow('funds', fund.id)).toMatchObject({ is_core: 0, name: '普通基金' });
    expect(expectStatus(await patch(staff.token, 'fund', fund.id, { is_core: true }), 200).is_core).toBe(true);
    expect(expectStatus(await post(staff.token, 'fund', { name: '核心', name_en: 'Core', is_core: true }), 201).is_core).toBe(true);
  });
});

describe('hole 5: who cannot see a thing gets 404, as for an unknown id', () => {
  /**
   * The reply to `request(id)` for another user's private id equals the reply for an unknown id:
   * 404, or 400 naming the field when the id is a reference in the body.
   */
  async function expectSameAsUnknown(label: string, request: (id: string) => Promise<LightMyRequestResponse>, privateId: string, status = 404) {
    const unknown = reply(await request(randomUUID()));
    const hidden = reply(await request(privateId));
    expect({ label, ...hidden }).toEqual({ label, ...unknown });
    expect({ label, status: hidden.status }).toEqual({ label, status });
  }

  const upload = async (url: string, metadata: string, file: { filename: string; content: string; type: string }) => {
    const body = await multipart([
      ['metadata', metadata],
      ['file', file],
    ]);
    return portal.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...tokenHeader(other.token), ...EN } });
  };

  it('hides the records of others and everything attached to them, on every call that names them', async () => {
    const secret = await buildRecord(portal, { owner, title: '青藏高原冰川变化数据集' });
    const { author, link } = await addAuthor(portal, owner.token, secret);
    const keyword = await addKeyword(portal, owner.token, secret, 'theme');
    const english = (await getRecordTranslations(secret))[0];
    const fileId = await buildDataFile(portal, secret, owner);
    const thumbnailId = await buildThumbnail(portal, secret, owner);
    const token = other.token;
    const othersRecords = await countRows(portal, 'metadata', { owner_id: other.id });
    const json = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: Record<string, unknown>) => call(portal, method, url, token, { body, headers: EN });

    const calls: [string, (id: string) => Promise<LightMyRequestResponse>, string, number?][] = [
      ['metadata-is-null', (id) => json('GET', `/metadata/metadata-is-null/?id=${id}`), secret],
      ['record PUT', (id) => json('PUT', recordUrl(id), { title: 'x' }), secret],
      ['record PATCH', (id) => json('PATCH', recordUrl(id), { title: 'x' }), secret],
      ['record DELETE', (id) => json('DELETE', recordUrl(id)), secret],
      ['submit check', (id) => json('GET', `/metadata/metadata-submit/?id=${id}`), secret],
      ['submit', (id) => json('POST', '/metadata/metadata-submit/', { id }), secret],
      ['return-draft', (id) => json('POST', '/metadata/return-draft/', { id }), secret],
      ['duplication', (id) => json('POST', `/metadata/duplication/${id}`), secret],
      ['author_sort', (id) => json('POST', '/api/metadata/author_sort/', { metadata: id, ids: [link.id] }), secret],
      ['unlink keyword', (id) => json('DELETE', `/api/metadata/keyword/?metadata=${id}&keyword=${keyword.id}`), secret],
      ['link an author', (id) => json('POST', resourceUrl('meta-author'), { metadata: id, author: author.id, role: 'owner', event_date: '2024-01-01' }), secret],
      ['new literature cited by it', (id) => json('POST', resourceUrl('literature'), { title: 't', type: 'reference', metadata: id }), secret],
      ['author PATCH', (id) => json('PATCH', resourceUrl('author', id), { phone: '1' }), author.id],
      ['author PUT', (id) => json('PUT', resourceUrl('author', id), { phone: '1' }), author.id],
      ['author DELETE', (id) => json('DELETE', resourceUrl('author', id)), author.id],
      ['author translation POST', (id) => json('POST', resourceUrl('author-i18n'), { author: id, language: 'zh-hans', name: '某' }), author.id, 400],
      ['author translation PATCH', (id) => json('PATCH', resourceUrl('author-i18n', id), { name: 'x' }), author.translations[0].id],
      ['keyword PATCH', (id) => json('PATCH', resourceUrl('keyword', id), { name: 'x' }), keyword.id],
      ['keyword translation DELETE', (id) => json('DELETE', resourceUrl('keyword-i18n', id)), keyword.translations[0].id],
      ['meta-author PATCH', (id) => json('PATCH', resourceUrl('meta-author', id), { sort: 3 }), link.id],
      ['meta-author DELETE', (id) => json('DELETE', resourceUrl('meta-author', id)), link.id],
      ['metadata-i18n PATCH', (id) => json('PATCH', resourceUrl('metadata-i18n', id), { title: 'x' }), english.id],
      ['meta-file DELETE', (id) => json('DELETE', `/api/metadata/meta-file/${id}/`), fileId],
      ['meta-file download', (id) => json('GET', `/api/metadata/meta-file/${id}/download/`), fileId],
      ['meta-media DELETE', (id) => json('DELETE', `/api/metadata/meta-media/${id}/`), thumbnailId],
      ['upload-file', (id) => upload('/metadata/upload-file/', id, { filename: 'a.csv', content: 'x', type: 'text/csv' }), secret],
      ['upload-attachment', (id) => upload('/metadata/upload-attachment', id, { filename: 'a.pdf', content: 'x', type: 'application/pdf' }), secret],
    ];
    for (const [label, request, privateId, status] of calls) await expectSameAsUnknown(label, request, privateId, status);

    // Nothing of it changed.
    expect(await storedRow('metadata', secret)).toMatchObject({ status: 'draft', title: '青藏高原冰川变化数据集' });
    expect(await countRows(portal, 'meta_author', { metadata_id: secret })).toBe(1);
    expect(await countRows(portal, 'meta_file', { metadata_id: secret })).toBe(1);
    expect(await countRows(portal, 'metadata', { owner_id: other.id })).toBe(othersRecords);
  });

  it('still answers 403 with the spec’s text for what the caller can see but may not change', async () => {
    const record = await buildRecord(portal, { owner });
    const { author, link } = await addAuthor(portal, owner.token, record);
    await setStatus(portal, record, 'published');
    const noRight = { status: 403, body: { detail: NO_RIGHT } };
    expect(reply(await call(portal, 'PATCH', recordUrl(record), other.token, { body: { title: 'x' }, headers: EN }))).toEqual(noRight);
    expect(reply(await call(portal, 'GET', `/metadata/metadata-is-null/?id=${record}`, other.token, { headers: EN }))).toEqual(noRight);
    expect(reply(await call(portal, 'DELETE', resourceUrl('meta-author', link.id), other.token, { headers: EN }))).toEqual(noRight);
    expect(reply(await call(portal, 'DELETE', resourceUrl('author', author.id), other.token, { headers: EN }))).toEqual(noRight);
  });
});

async function getRecordTranslations(id: string) {
  return (portal.database.db as any).selectFrom('metadata_i18n').selectAll().where('metadata_id', '=', id).execute() as Promise<any[]>;
}
