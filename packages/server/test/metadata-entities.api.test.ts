import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { addAuthor, addKeyword, authorForm, call, countRows, createRecord, expectStatus, getRecord, postResource, resourceUrl, setStatus } from './metadata-builders.js';

type User = Person;

let portal: TestPortal;
let owner: User;
let other: User;
let staff: User;
/** A draft of the owner's and a published record of the owner's. */
let draft: { id: string };
let published: { id: string };
beforeAll(async () => {
  portal = await createTestPortal();
  [owner, other, staff] = await Promise.all([buildUser(portal), buildUser(portal), buildUser(portal, { staff: true })]);
  draft = await createRecord(portal, owner.token, { title: '附属条目测试' });
  published = await createRecord(portal, owner.token, { title: '已发布的附属条目测试' });
  await setStatus(portal, published.id, 'published');
});
afterAll(async () => {
  await portal.close();
});

const NO_RIGHT = 'Sorry, you have no right to modify the data entity of this metadata';
const NO_RIGHT_ZH = '对不起，您无权修改该元数据的数据实体';
const FORBIDDEN = 'You do not have permission to do this.';
const LOGIN = 'Please log in first.';

const get = (token: string | null, url: string) => call(portal, 'GET', url, token, { headers: EN });
const post = (token: string | null, name: string, body: Record<string, unknown>, asForm = false) => call(portal, 'POST', resourceUrl(name), token, { body, asForm, headers: EN });
const put = (token: string | null, name: string, id: string, body: Record<string, unknown>) => call(portal, 'PUT', resourceUrl(name, id), token, { body, headers: EN });
const patch = (token: string | null, name: string, id: string, body: Record<string, unknown>) => call(portal, 'PATCH', resourceUrl(name, id), token, { body, headers: EN });
const del = (token: string | null, name: string, id: string) => call(portal, 'DELETE', resourceUrl(name, id), token, { headers: EN });
const listOf = async (token: string | null, name: string, query: string) => expectStatus(await get(token, `${resourceUrl(name)}?${query}`), 200);
const idsOf = (page: { results: { id: string }[] }) => page.results.map((r) => r.id);

/** A stored row as it is in the database, to check that a refused write changed nothing. */
const storedRow = (table: string, id: string) => (portal.database.db as any).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();

/** A refusal with its one message, as `{field: [text], detail: text}` or `{detail: text}`. */
function expectRefusal(response: LightMyRequestResponse, status: number, detail: string, field?: string) {
  expect({ status: response.statusCode, body: response.json() }).toEqual({ status, body: field ? { [field]: [detail], detail } : { detail } });
}

/**
 * Anonymous 401; another user 404 when the entry is private to its creator (no existence leak), 403
 * with the spec's text when they can see it; its creator and staff may change it.
 */
async function expectCreatorOnly(name: string, id: string, change: Record<string, unknown>, seen: 'private' | 'visible' = 'private') {
  const [status, detail] = seen === 'private' ? [404, NOT_FOUND] : [403, NO_RIGHT];
  expectRefusal(await put(null, name, id, change), 401, LOGIN);
  expectRefusal(await put(other.token, name, id, change), status, detail);
  expectRefusal(await del(null, name, id), 401, LOGIN);
  expectRefusal(await del(other.token, name, id), status, detail);
  expect((await put(staff.token, name, id, change)).statusCode).toBe(200);
}

describe('lists of the rows of records', () => {
  const RECORD_ROWS = [
    'metadata-i18n',
    'meta-author',
    'citation',
    'literature-meta',
    'meta-keyword',
    'meta-keyword-standard',
    'meta-discipline',
    'meta-fund',
    'meta-special',
    'online-resource',
  ];
  for (const name of RECORD_ROWS) {
    it(`${name}: refuses a user a list without metadata__id, answers staff, and pages by 100`, async () => {
      expectRefusal(await get(owner.token, resourceUrl(name)), 400, 'This filter value is not valid.', 'metadata__id');
      expect((await get(owner.token, `${resourceUrl(name)}?metadata__id=`)).statusCode).toBe(400);
      expect((await get(staff.token, resourceUrl(name))).statusCode).toBe(200);
      const page = await listOf(owner.token, name, `metadata__id=${draft.id}&page=1&pageSize=100`);
      expect(Object.keys(page).sort()).toEqual(['count', 'next', 'previous', 'results']);
      // Rows of a published record are public; a draft's are not found by anybody else.
      expect((await get(null, `${resourceUrl(name)}?metadata__id=${published.id}&pageSize=100`)).statusCode).toBe(200);
      expectRefusal(await get(null, `${resourceUrl(name)}?metadata__id=${draft.id}`), 404, 'The metadata was not found');
      expectRefusal(await get(other.token, `${resourceUrl(name)}?metadata__id=${draft.id}`), 404, 'The metadata was not found');
    });
  }

  it('answers 404 for a row that does not exist', async () => {
    expect((await get(owner.token, resourceUrl('meta-author', '00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    expect((await del(owner.token, 'meta-fund', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('metadata-i18n', () => {
  it('lists the other-language version made with the record, and lets its creator change it', async () => {
    const record = await createRecord(portal, owner.token);
    const [english] = (await listOf(owner.token, 'metadata-i18n', `metadata__id=${record.id}`)).results;
    expect(english).toMatchObject({ metadata_id: record.id, metadata: record.id, language: 'en' });
    const changed = expectStatus(await put(owner.token, 'metadata-i18n', english.id, { title: 'English title', description: 'English abstract' }), 200);
    expect(changed).toMatchObject({ title: 'English title', description: 'English abstract', language: 'en' });
    expect((await getRecord(portal, owner.token, record.id)).translations[0]).toMatchObject({ title: 'English title' });
  });

  it('refuses a second version in the same language, and one in the language of the record itself', async () => {
    const record = await createRecord(portal, owner.token);
    expectRefusal(
      await post(owner.token, 'metadata-i18n', { metadata: record.id, language: 'en' }),
      400,
      'The metadata already has a version in that language.',
      'non_field_errors',
    );
    expectRefusal(await post(owner.token, 'metadata-i18n', { metadata: record.id, language: 'zh-hans' }), 400, 'The metadata is written in that language already.', 'language');
    expect(await countRows(portal, 'metadata_i18n', { metadata_id: record.id })).toBe(1);
  });

  it('adds a version deleted before, and refuses a language not offered', async () => {
    const record = await createRecord(portal, owner.token, { language: 'en', title: 'Snow depth' });
    const [chinese] = (await listOf(owner.token, 'metadata-i18n', `metadata__id=${record.id}`)).results;
    expectRefusal(await del(null, 'metadata-i18n', chinese.id), 401, LOGIN);
    expect((await del(owner.token, 'metadata-i18n', chinese.id)).statusCode).toBe(204);
    expectRefusal(await post(owner.token, 'metadata-i18n', { metadata: record.id, language: 'fr' }), 400, 'Please choose the language of the metadata first.', 'language');
    const added = expectStatus(await post(owner.token, 'metadata-i18n', { metadata: record.id, language: 'zh-hans', title: '积雪深度' }), 201);
    expect(added).toMatchObject({ metadata_id: record.id, language: 'zh-hans', title: '积雪深度' });
  });

  it('refuses an anonymous caller, another user and a missing record; staff may change it', async () => {
    const [english] = (await listOf(owner.token, 'metadata-i18n', `metadata__id=${draft.id}`)).results;
    expectRefusal(await patch(null, 'metadata-i18n', english.id, { title: 'x' }), 401, LOGIN);
    const before = await storedRow('metadata_i18n', english.id);
    expect(before).toMatchObject({ id: english.id });
    // The draft is hidden from them: its rows answer as unknown ones.
    expectRefusal(await patch(other.token, 'metadata-i18n', english.id, { title: 'x' }), 404, NOT_FOUND);
    expectRefusal(await call(portal, 'PUT', resourceUrl('metadata-i18n', english.id), other.token, { body: { title: 'x' } }), 404, '请求的资源不存在。');
    expectRefusal(await del(other.token, 'metadata-i18n', english.id), 404, NOT_FOUND);
    expectRefusal(await post(other.token, 'metadata-i18n', { metadata: draft.id, language: 'en' }), 404, 'The metadata was not found');
    // A published record of somebody else's is seen, not theirs to change.
    const [publishedVersion] = (await listOf(owner.token, 'metadata-i18n', `metadata__id=${published.id}`)).results;
    expectRefusal(await patch(other.token, 'metadata-i18n', publishedVersion.id, { title: 'x' }), 403, NO_RIGHT);
    expectRefusal(await call(portal, 'PUT', resourceUrl('metadata-i18n', publishedVersion.id), other.token, { body: { title: 'x' } }), 403, NO_RIGHT_ZH);
    expect(await storedRow('metadata_i18n', english.id)).toEqual(before);
    expect(await countRows(portal, 'metadata_i18n', { metadata_id: draft.id })).toBe(1);
    // The draft itself stays hidden from them.
    expectRefusal(await get(other.token, resourceUrl('metadata-i18n', english.id)), 404, NOT_FOUND);
    expectRefusal(await post(owner.token, 'metadata-i18n', { metadata: '00000000-0000-4000-8000-000000000000', language: 'en' }), 404, 'The metadata was not found');
    expect(expectStatus(await patch(staff.token, 'metadata-i18n', english.id, { citation: 'Staff citation' }), 200).citation).toBe('Staff citation');
    expectRefusal(await patch(owner.token, 'metadata-i18n', english.id, { title: 't'.repeat(501) }), 400, 'This text is too long.', 'title');
  });
});

describe('author', () => {
  it('refuses an anonymous caller a list and a new author with 401', async () => {
    expectRefusal(await get(null, resourceUrl('author')), 401, LOGIN);
    expectRefusal(await post(null, 'author', authorForm()), 401, LOGIN);
  });

  it('creates an author with its English name and affiliation as author-i18n', async () => {
    const form = authorForm({ phone: '+86 10 1234 5678', country: '中国' });
    const author = expectStatus(await post(owner.token, 'author', form), 201);
    expect(author).toMatchObject({ name: form.name, email: form.email, affiliation: form.affiliation, phone: '+86 10 1234 5678', created_by: owner.id });
    expect(author).not.toHaveProperty('name_en');
    expect(author.translations).toEqual([expect.objectContaining({ author_id: author.id, language: 'en', name: form.name_en, affiliation: form.affiliation_en })]);
    const versions = await listOf(owner.token, 'author-i18n', `author__id=${author.id}`);
    expect(versions.results.map((v: { name: string }) => v.name)).toEqual([form.name_en]);
  });

  it('accepts a form post', async () => {
    const form = authorForm();
    const author = expectStatus(await post(owner.token, 'author', form, true), 201);
    expect(author.translations[0].name).toBe(form.name_en);
  });

  describe('asks for every required field of the author form, and creates nothing', () => {
    const cases: [field: string, en: string, zh: string][] = [
      ['name', 'Please enter the Chinese name.', '请输入中文名'],
      ['name_en', 'Please enter the English name.', '请输入英文名'],
      ['email', 'Please enter the e-mail.', '请输入邮箱'],
      ['affiliation', 'Please enter the affiliation.', '请输入单位'],
      ['affiliation_en', 'Please enter the English affiliation.', '请输入英文单位'],
    ];
    for (const [field, en, zh] of cases) {
      it(field, async () => {
        const before = await countRows(portal, 'authors');
        const missing: Record<string, unknown> = authorForm();
        delete missing[field];
        expectRefusal(await post(owner.token, 'author', missing), 400, en, field);
        expectRefusal(await post(owner.token, 'author', { ...authorForm(), [field]: '  ' }), 400, en, field);
        const chinese = await call(portal, 'POST', resourceUrl('author'), owner.token, { body: missing });
        expect(chinese.json()).toEqual({ [field]: [zh], detail: zh });
        expect(await countRows(portal, 'authors')).toBe(before);
      });
    }

    it('an e-mail that is no address', async () => {
      expectRefusal(await post(owner.token, 'author', authorForm({ email: 'nobody' })), 400, 'The input is not valid E-mail!', 'email');
    });
  });

  it('lists the authors of a record (pageSize 100) and finds them by name', async () => {
    const record = await createRecord(portal, owner.token);
    const { author } = await addAuthor(portal, owner.token, record.id, { author: { name: '卓玛次仁' } });
    await addAuthor(portal, owner.token, draft.id);
    const page = await listOf(owner.token, 'author', `metadata__id=${record.id}&pageSize=100`);
    expect(idsOf(page)).toEqual([author.id]);
    expect(page.results[0].translations).toHaveLength(1);
    expect(idsOf(await listOf(owner.token, 'author', `like_author=${encodeURIComponent('玛次')}`))).toEqual([author.id]);
    // Only a draft of the owner's uses the author: nobody else finds it, until the record is published.
    expect((await listOf(other.token, 'author', `like_author=${encodeURIComponent('玛次')}`)).count).toBe(0);
    expect((await listOf(other.token, 'author', `name=${encodeURIComponent('卓玛次仁')}`)).count).toBe(0);
    await setStatus(portal, record.id, 'published');
    expect(idsOf(await listOf(other.token, 'author', `like_author=${encodeURIComponent('玛次')}`))).toEqual([author.id]);
    expect(idsOf(await listOf(other.token, 'author', `name=${encodeURIComponent('卓玛次仁')}`))).toEqual([author.id]);
  });

  it('lets its creator and staff change it, not anybody else', async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm());
    expect(expectStatus(await put(owner.token, 'author', author.id, { phone: '010-1' }), 200).phone).toBe('010-1');
    await expectCreatorOnly('author', author.id, { city: '拉萨' });
    expect(expectStatus(await get(owner.token, resourceUrl('author', author.id)), 200).city).toBe('拉萨');
  });

  it('refuses to rename an author linked to a record, but renames an unlinked one', async () => {
    const { author } = await addAuthor(portal, owner.token, draft.id);
    expectRefusal(
      await put(owner.token, 'author', author.id, { name: '改名' }),
      400,
      'The name of a data resource provider others use cannot be changed; choose an existing provider instead.',
      'name',
    );
    const chinese = await call(portal, 'PUT', resourceUrl('author', author.id), owner.token, { body: { name: '改名' } });
    expect(chinese.json().name).toEqual(['不能修改资源提供者姓名，只能选择已有的资源提供者']);
    expect(expectStatus(await get(owner.token, resourceUrl('author', author.id)), 200).name).toBe(author.name);
    expect((await put(owner.token, 'author', author.id, { name: author.name, phone: '1' })).statusCode).toBe(200);
    const unlinked = await postResource(portal, owner.token, 'author', authorForm());
    expect(expectStatus(await put(owner.token, 'author', unlinked.id, { name: '新名字' }), 200).name).toBe('新名字');
  });

  it('refuses to delete an author a record uses, and deletes an unused one with its translations', async () => {
    const { author } = await addAuthor(portal, owner.token, draft.id);
    expectRefusal(await del(owner.token, 'author', author.id), 409, 'Other metadata records use this entry, so it cannot be deleted.');
    const unused = await postResource(portal, owner.token, 'author', authorForm());
    expect((await del(owner.token, 'author', unused.id)).statusCode).toBe(204);
    expect(await countRows(portal, 'author_i18n', { author_id: unused.id })).toBe(0);
  });
});

describe('GET /api/metadata/like_author/', () => {
  it('finds authors by part of their name, for signed-in users', async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm({ name: '欧阳冰雪' }));
    expectRefusal(await get(null, '/api/metadata/like_author/?like_author=x'), 401, LOGIN);
    const url = `/api/metadata/like_author/?like_author=${encodeURIComponent('阳冰')}&pageSize=100`;
    expect(idsOf(expectStatus(await get(owner.token, url), 200))).toEqual([author.id]);
    // Used by no record nobody else finds it; once a published record names it, every signed-in user does.
    expect(expectStatus(await get(other.token, url), 200).count).toBe(0);
    const record = await createRecord(portal, owner.token);
    await postResource(portal, owner.token, 'meta-author', { metadata: record.id, author: author.id, role: 'owner', event_date: '2024-05-01' });
    await setStatus(portal, record.id, 'published');
    const page = expectStatus(await get(other.token, url), 200);
    expect(idsOf(page)).toEqual([author.id]);
    expect(expectStatus(await get(other.token, '/api/metadata/like_author/?like_author=%25'), 200).count).toBe(0);
  });
});

/**
 * An author's e-mail, phone, address and postcode: read by whoever created the author, staff, and the
 * owner of the records that alone link it; blank for every other signed-in user on every call that
 * shows authors (author/, author/{id}/, like_author, meta-author, author-i18n), refused to visitors.
 */
describe("an author's personal data", () => {
  const CONTACTS = { phone: '+86 891 123 4567', address: '拉萨市北京中路 1 号', zipcode: '850000' };
  const BLANK = { email: '', phone: '', address: '', zipcode: '' };
  let record: { id: string };
  let author: { id: string; name: string; email: string };
  /** Entered by the data centre on the owner's record, linked by no other record. */
  let enteredByStaff: { id: string; email: string };

  beforeAll(async () => {
    record = await createRecord(portal, owner.token, { title: '作者联系方式测试' });
    author = await postResource(portal, owner.token, 'author', authorForm({ name: `联系人${randomUUID().slice(0, 6)}`, ...CONTACTS }));
    const english = (await listOf(owner.token, 'author-i18n', `author__id=${author.id}`)).results[0];
    expectStatus(await patch(owner.token, 'author-i18n', english.id, { address: '1 Beijing Middle Road, Lhasa' }), 200);
    await postResource(portal, owner.token, 'meta-author', { metadata: record.id, author: author.id, role: 'resourceProvider', event_date: '2024-05-01' });
    enteredByStaff = await postResource(portal, staff.token, 'author', authorForm({ ...CONTACTS }));
    await postResource(portal, staff.token, 'meta-author', { metadata: record.id, author: enteredByStaff.id, role: 'owner', event_date: '2024-05-01' });
    await setStatus(portal, record.id, 'published');
  });

  /** The author as each of the four calls shows it to a caller, and its English translation's address. */
  async function seenBy(token: string | null, authorId = author.id) {
    const likeUrl = `/api/metadata/like_author/?like_author=${encodeURIComponent(author.name)}&pageSize=100`;
    const links = (await listOf(token, 'meta-author', `metadata__id=${record.id}&pageSize=100`)).results as { author_detail: Record<string, unknown> }[];
    return {
      list: (await listOf(token, 'author', `metadata__id=${record.id}&pageSize=100`)).results.find((row: { id: string }) => row.id === authorId),
      one: expectStatus(await get(token, resourceUrl('author', authorId)), 200),
      like: authorId === author.id ? expectStatus(await get(token, likeUrl), 200).results[0] : undefined,
      link: links.find((link) => link.author_detail.id === authorId)!.author_detail,
      translations: (await listOf(token, 'author-i18n', `author__id=${authorId}`)).results,
    };
  }

  it('shows another signed-in user the names and affiliations, never the contacts, on every call', async () => {
    const seen = await seenBy(other.token);
    for (const [call, row] of Object.entries({ list: seen.list, one: seen.one, like: seen.like, link: seen.link })) {
      expect({ call, row }).toMatchObject({ call, row: { id: author.id, name: author.name, affiliation: '中国科学院青藏高原研究所', ...BLANK } });
      expect({ call, translations: row.translations }).toMatchObject({ call, translations: [{ language: 'en', address: '' }] });
    }
    expect(seen.translations).toMatchObject([{ language: 'en', address: '' }]);
    expect(JSON.stringify(seen)).not.toMatch(/850000|123 4567|拉萨市|Lhasa|author.*@example\.org/);
  });

  it("refuses a visitor the author calls, and blanks the contacts in the published record's links", async () => {
    expectRefusal(await get(null, `${resourceUrl('author')}?metadata__id=${record.id}`), 401, LOGIN);
    expectRefusal(await get(null, resourceUrl('author', author.id)), 401, LOGIN);
    expectRefusal(await get(null, `/api/metadata/like_author/?like_author=${encodeURIComponent(author.name)}`), 401, LOGIN);
    const links = (await listOf(null, 'meta-author', `metadata__id=${record.id}`)).results as { author_detail: Record<string, unknown> }[];
    expect(links.map((link) => link.author_detail)).toMatchObject([BLANK, BLANK]);
  });

  it("shows the contacts to the author's creator and to staff on every call", async () => {
    for (const person of [owner, staff]) {
      const seen = await seenBy(person.token);
      for (const row of [seen.list, seen.one, seen.like, seen.link]) {
        expect(row).toMatchObject({ id: author.id, email: author.email, ...CONTACTS, translations: [{ address: '1 Beijing Middle Road, Lhasa' }] });
      }
      expect(seen.translations).toMatchObject([{ address: '1 Beijing Middle Road, Lhasa' }]);
    }
  });

  it("shows the record's owner the contacts of an author the data centre entered on their record, nobody else", async () => {
    const seenByOwner = await seenBy(owner.token, enteredByStaff.id);
    for (const row of [seenByOwner.list, seenByOwner.one, seenByOwner.link]) expect(row).toMatchObject({ email: enteredByStaff.email, ...CONTACTS });
    const seenByOther = await seenBy(other.token, enteredByStaff.id);
    for (const row of [seenByOther.list, seenByOther.one, seenByOther.link]) expect(row).toMatchObject(BLANK);
  });

  it('does not reveal them to a user who links the author to a draft of theirs, nor through their copy of it', async () => {
    const draft = await createRecord(portal, other.token);
    const link = await postResource(portal, other.token, 'meta-author', { metadata: draft.id, author: author.id, role: 'owner', event_date: '2024-05-01' });
    expect(link.author_detail).toMatchObject({ id: author.id, ...BLANK });
    expect((await listOf(other.token, 'meta-author', `metadata__id=${draft.id}`)).results[0].author_detail).toMatchObject(BLANK);
    expect(expectStatus(await get(other.token, resourceUrl('author', author.id)), 200)).toMatchObject(BLANK);
    const sorted = expectStatus(await call(portal, 'POST', '/api/metadata/author_sort/', other.token, { body: { metadata: draft.id, ids: [link.id] } }), 200);
    expect(JSON.stringify(sorted)).not.toContain(author.email);
    // Changing the author gives them a copy of their own: without the personal data they could not read.
    const copy = expectStatus(await patch(other.token, 'author', author.id, { city: '日喀则', metadata: draft.id }), 200);
    expect(copy).toMatchObject({ copied_from: author.id, created_by: other.id, city: '日喀则', ...BLANK, translations: [{ address: '' }] });
    expect(await storedRow('authors', copy.id)).toMatchObject(BLANK);
    // What they type into their copy is theirs to read.
    expect(expectStatus(await patch(other.token, 'author', copy.id, { email: 'mine@example.org' }), 200)).toMatchObject({ email: 'mine@example.org' });
  });
});

describe('author-i18n', () => {
  it('needs author__id in a list', async () => {
    expectRefusal(await get(owner.token, resourceUrl('author-i18n')), 400, 'This filter value is not valid.', 'author__id');
  });

  it("adds, changes and deletes an author's translation", async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm());
    const added = expectStatus(await post(owner.token, 'author-i18n', { author: author.id, language: 'zh-hans', name: '中文译名' }), 201);
    expect(added).toMatchObject({ author_id: author.id, author: author.id, language: 'zh-hans', name: '中文译名' });
    expect(expectStatus(await put(owner.token, 'author-i18n', added.id, { affiliation: '兰州大学' }), 200).affiliation).toBe('兰州大学');
    expect((await del(owner.token, 'author-i18n', added.id)).statusCode).toBe(204);
    expect((await listOf(owner.token, 'author-i18n', `author__id=${author.id}`)).count).toBe(1);
  });

  it('refuses a second translation in one language, writing nothing', async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm());
    expectRefusal(
      await post(owner.token, 'author-i18n', { author: author.id, language: 'en', name: 'Again' }),
      400,
      'This author already has a translation in that language.',
      'non_field_errors',
    );
    expect(await countRows(portal, 'author_i18n', { author_id: author.id })).toBe(1);
    expectRefusal(await post(owner.token, 'author-i18n', { author: author.id, language: 'zh-hans' }), 400, 'Please enter the English name.', 'name');
    expectRefusal(await post(owner.token, 'author-i18n', { author: 'nobody', language: 'zh-hans', name: 'x' }), 400, 'Please name the author.', 'author');
  });

  it("lets the author's creator and staff write its translations, not anybody else", async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm());
    expectRefusal(await post(null, 'author-i18n', { author: author.id, language: 'zh-hans', name: '译名' }), 401, LOGIN);
    // The author is private to its creator: to anybody else it is no author at all.
    expectRefusal(await post(other.token, 'author-i18n', { author: author.id, language: 'zh-hans', name: '译名' }), 400, 'Please name the author.', 'author');
    expect(await countRows(portal, 'author_i18n', { author_id: author.id })).toBe(1);
    const english = author.translations[0];
    await expectCreatorOnly('author-i18n', english.id, { address: 'Lhasa' });
    expect((await post(staff.token, 'author-i18n', { author: author.id, language: 'zh-hans', name: '译名' })).statusCode).toBe(201);
  });
});

describe('meta-author', () => {
  const link = (token: string | null, metadata: string, author: string, fields: Record<string, unknown> = {}) =>
    post(token, 'meta-author', { metadata, author, role: 'resourceProvider', event_date: '2024-05-01', ...fields });

  it('links an author to a record in a role, showing the author in full', async () => {
    const record = await createRecord(portal, owner.token);
    const author = await postResource(portal, owner.token, 'author', authorForm());
    const created = expectStatus(await link(owner.token, record.id, author.id, { sort: '2' }), 201);
    expect(created).toMatchObject({ metadata_id: record.id, author_id: author.id, role: 'resourceProvider', event_date: '2024-05-01', sort: 2 });
    const [row] = (await listOf(owner.token, 'meta-author', `metadata__id=${record.id}&pageSize=100`)).results;
    expect(row.author_detail).toMatchObject({ id: author.id, name: author.name, translations: [expect.objectContaining({ language: 'en' })] });
  });

  it('links the same author again in another role, and filters by role', async () => {
    const record = await createRecord(portal, owner.token);
    const author = await postResource(portal, owner.token, 'author', authorForm());
    await link(owner.token, record.id, author.id);
    expect((await link(owner.token, record.id, author.id, { role: 'owner' })).statusCode).toBe(201);
    expect((await listOf(owner.token, 'meta-author', `metadata__id=${record.id}&role=resourceProvider`)).count).toBe(1);
    expect((await listOf(owner.token, 'meta-author', `metadata__id=${record.id}&role__not=resourceProvider`)).results[0].role).toBe('owner');
  });

  it("refuses the same link twice with the spec's text, writing nothing", async () => {
    const record = await createRecord(portal, owner.token);
    const author = await postResource(portal, owner.token, 'author', authorForm());
    await link(owner.token, record.id, author.id);
    expectRefusal(await link(owner.token, record.id, author.id), 400, 'This metadata already has this data resource provider.', 'non_field_errors');
    const chinese = await call(portal, 'POST', resourceUrl('meta-author'), owner.token, {
      body: { metadata: record.id, author: author.id, role: 'resourceProvider', event_date: '2024-05-01' },
    });
    expect(chinese.json()).toEqual({ non_field_errors: ['该元数据已关联此数据资源提供者'], detail: '该元数据已关联此数据资源提供者' });
    expect(await countRows(portal, 'meta_author', { metadata_id: record.id })).toBe(1);
  });

  it('asks for the type and the event date of the author form', async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm());
    expectRefusal(await post(owner.token, 'meta-author', { metadata: draft.id, author: author.id, event_date: '2024-05-01' }), 400, 'Please choose a role.', 'role');
    expectRefusal(await link(owner.token, draft.id, author.id, { role: 'boss' }), 400, 'Please choose a role.', 'role');
    expectRefusal(await post(owner.token, 'meta-author', { metadata: draft.id, author: author.id, role: 'owner' }), 400, 'Please enter the event date.', 'event_date');
    expectRefusal(await link(owner.token, draft.id, author.id, { event_date: '2024-02-30' }), 400, 'Please enter a date as YYYY-MM-DD.', 'event_date');
    expectRefusal(await link(owner.token, draft.id, 'no-such-author'), 400, 'Please name the author.', 'author');
  });

  it('lets the record creator and staff change and remove a link; refuses the others', async () => {
    const { link: row } = await addAuthor(portal, owner.token, draft.id);
    expectRefusal(await patch(null, 'meta-author', row.id, { sort: 5 }), 401, LOGIN);
    const before = await storedRow('meta_author', row.id);
    expect(before).toMatchObject({ id: row.id });
    const links = await countRows(portal, 'meta_author', { metadata_id: draft.id });
    expectRefusal(await patch(other.token, 'meta-author', row.id, { sort: 5 }), 404, NOT_FOUND);
    expectRefusal(await del(other.token, 'meta-author', row.id), 404, NOT_FOUND);
    const stranger = await postResource(portal, other.token, 'author', authorForm());
    expectRefusal(await link(other.token, draft.id, stranger.id), 404, 'The metadata was not found');
    expectRefusal(await link(other.token, published.id, stranger.id), 403, NO_RIGHT);
    expect(await storedRow('meta_author', row.id)).toEqual(before);
    expect(await countRows(portal, 'meta_author', { metadata_id: draft.id })).toBe(links);
    expectRefusal(await get(other.token, resourceUrl('meta-author', row.id)), 404, NOT_FOUND);
    expect(expectStatus(await patch(owner.token, 'meta-author', row.id, { sort: 5, role: 'owner' }), 200)).toMatchObject({ sort: 5, role: 'owner' });
    expect(expectStatus(await patch(staff.token, 'meta-author', row.id, { sort: 6 }), 200).sort).toBe(6);
    expectRefusal(await del(null, 'meta-author', row.id), 401, LOGIN);
    expect((await del(staff.token, 'meta-author', row.id)).statusCode).toBe(204);
    expect((await link(staff.token, draft.id, row.author_id)).statusCode).toBe(201);
  });
});

describe('literature, citation and literature-meta', () => {
  const literature = (fields: Record<string, unknown> = {}) => ({ title: '青藏高原冰川变化', type: 'reference', year: '2019', link: 'https://doi.org/10.1000/1', ...fields });

  it('creates a literature entry cited by the record at once (form post)', async () => {
    const record = await createRecord(portal, owner.token);
    const created = expectStatus(await post(owner.token, 'literature', { ...literature(), metadata: record.id, sort: '3' }, true), 201);
    expect(created).toMatchObject({ title: '青藏高原冰川变化', type: 'reference', year: '2019', sort: 3, created_by: owner.id });
    expect(created).not.toHaveProperty('metadata');
    const citations = await listOf(owner.token, 'citation', `metadata__id=${record.id}`);
    expect(citations.results).toEqual([expect.objectContaining({ literature_id: created.id, sort: 3, literature_detail: expect.objectContaining({ id: created.id }) })]);
    expect(idsOf(await listOf(owner.token, 'literature', `metadata__id=${record.id}`))).toEqual([created.id]);
    expect(idsOf(await listOf(owner.token, 'literature-meta', `metadata__id=${record.id}`))).toEqual(idsOf(citations));
  });

  it("refuses to cite the same literature twice with the spec's text, writing nothing", async () => {
    const record = await createRecord(portal, owner.token);
    const entry = await postResource(portal, owner.token, 'literature', { ...literature(), metadata: record.id });
    expectRefusal(await post(owner.token, 'citation', { metadata: record.id, literature: entry.id }, true), 400, 'This metadata already cites this reference.', 'non_field_errors');
    expectRefusal(
      await post(owner.token, 'literature-meta', { metadata: record.id, literature: entry.id }),
      400,
      'This metadata already cites this reference.',
      'non_field_errors',
    );
    expect(await countRows(portal, 'citations', { metadata_id: record.id })).toBe(1);
  });

  it('cites an existing entry, changes its order and removes it through either name', async () => {
    const record = await createRecord(portal, owner.token);
    const entry = await postResource(portal, other.token, 'literature', literature({ title: 'Shared paper' }));
    // Another user's private entry cannot be cited; once their published record cites it, it can.
    expectRefusal(await post(owner.token, 'citation', { metadata: record.id, literature: entry.id }), 400, 'Please name the literature.', 'literature');
    expect(await countRows(portal, 'citations', { metadata_id: record.id })).toBe(0);
    const othersPublished = await createRecord(portal, other.token);
    await postResource(portal, other.token, 'citation', { metadata: othersPublished.id, literature: entry.id });
    await setStatus(portal, othersPublished.id, 'published');
    const citation = expectStatus(await post(owner.token, 'citation', { metadata: record.id, literature: entry.id }, true), 201);
    expect(expectStatus(await put(owner.token, 'citation', citation.id, { sort: 4 }), 200).sort).toBe(4);
    expect(expectStatus(await put(owner.token, 'literature-meta', citation.id, { sort: 1 }), 200).sort).toBe(1);
    expectRefusal(await put(owner.token, 'citation', citation.id, { sort: -1 }), 400, 'Please enter a number.', 'sort');
    expect((await del(owner.token, 'literature-meta', citation.id)).statusCode).toBe(204);
    expect((await listOf(owner.token, 'citation', `metadata__id=${record.id}`)).count).toBe(0);
    expectRefusal(await post(owner.token, 'citation', { metadata: record.id, literature: 'missing' }), 400, 'Please name the literature.', 'literature');
  });

  it('checks the literature form', async () => {
    const before = await countRows(portal, 'literature');
    expectRefusal(await post(owner.token, 'literature', literature({ title: '' })), 400, 'Please enter the title of the literature.', 'title');
    expectRefusal(await post(owner.token, 'literature', literature({ type: 'novel' })), 400, 'Please choose the type of the literature.', 'type');
    expectRefusal(await post(owner.token, 'literature', literature({ year: '19' })), 400, 'The year has four digits.', 'year');
    expectRefusal(
      await post(owner.token, 'literature', literature({ link: 'javascript:alert(1)' })),
      400,
      'Please enter a web address starting with http://, https:// or ftp://.',
      'link',
    );
    expect(await countRows(portal, 'literature')).toBe(before);
  });

  it('filters by type and title', async () => {
    const special = await postResource(portal, owner.token, 'literature', literature({ type: 'special', title: 'Yak grazing on the plateau' }));
    expect(idsOf(await listOf(owner.token, 'literature', 'type=special&pageSize=100'))).toEqual([special.id]);
    expect(idsOf(await listOf(owner.token, 'literature', 'search=yak%20GRAZING'))).toEqual([special.id]);
    expectRefusal(await get(null, resourceUrl('literature')), 401, LOGIN);
  });

  it('lets its creator and staff change it; refuses to delete a cited entry', async () => {
    // Another title: the same entry posted again a moment after another test's is refused as a repeat.
    const entry = await postResource(portal, owner.token, 'literature', literature({ title: '青藏高原冻土变化' }));
    expect(expectStatus(await put(owner.token, 'literature', entry.id, { publisher: 'Science Press' }), 200).publisher).toBe('Science Press');
    await expectCreatorOnly('literature', entry.id, { comment: 'checked' });
    await postResource(portal, owner.token, 'citation', { metadata: draft.id, literature: entry.id });
    expectRefusal(await del(owner.token, 'literature', entry.id), 409, 'Other metadata records use this entry, so it cannot be deleted.');
  });

  it('citations of a record follow the record: another user cannot add one to a draft of somebody else', async () => {
    const entry = await postResource(portal, other.token, 'literature', literature());
    expectRefusal(await post(other.token, 'citation', { metadata: draft.id, literature: entry.id }), 404, 'The metadata was not found');
    expectRefusal(await post(other.token, 'citation', { metadata: published.id, literature: entry.id }), 403, NO_RIGHT);
    expectRefusal(await post(null, 'citation', { metadata: draft.id, literature: entry.id }), 401, LOGIN);
    expect(await countRows(portal, 'citations', { literature_id: entry.id })).toBe(0);
  });
});

describe('literature-i18n', () => {
  it('adds, lists, changes and deletes a translation of a literature entry (form posts)', async () => {
    const entry = await postResource(portal, owner.token, 'literature', { title: '冻土', type: 'citation' });
    expectRefusal(await get(owner.token, resourceUrl('literature-i18n')), 400, 'This filter value is not valid.', 'literature__id');
    const added = expectStatus(await post(owner.token, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Permafrost' }, true), 201);
    expect(added).toMatchObject({ literature_id: entry.id, language: 'en', title: 'Permafrost' });
    expect(idsOf(await listOf(owner.token, 'literature-i18n', `literature__id=${entry.id}`))).toEqual([added.id]);
    expect(expectStatus(await put(owner.token, 'literature-i18n', added.id, { publisher: 'Elsevier' }), 200).publisher).toBe('Elsevier');
    expectRefusal(
      await post(owner.token, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Again' }),
      400,
      'This literature already has a translation in that language.',
      'non_field_errors',
    );
    expect((await del(owner.token, 'literature-i18n', added.id)).statusCode).toBe(204);
  });

  it("lets the entry's creator and staff write its translations, not anybody else", async () => {
    const entry = await postResource(portal, owner.token, 'literature', { title: '冻土温度', type: 'citation' });
    // A private entry is no entry to anybody else.
    expectRefusal(await post(other.token, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Permafrost' }), 400, 'Please name the literature.', 'literature');
    expectRefusal(await post(null, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Permafrost' }), 401, LOGIN);
    expect(await countRows(portal, 'literature_i18n', { literature_id: entry.id })).toBe(0);
    const added = await postResource(portal, owner.token, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Permafrost' });
    await expectCreatorOnly('literature-i18n', added.id, { abstract: 'About permafrost.' });
  });
});

describe('keyword', () => {
  it('adds a keyword to a record with its translation, in the language of the keyword', async () => {
    const record = await createRecord(portal, owner.token);
    const keyword = expectStatus(await post(owner.token, 'keyword', { name: '冰川', type: 'theme', metadata: record.id, translation: ' Glacier ' }), 201);
    expect(keyword).toMatchObject({ name: '冰川', type: 'theme', language: 'zh-hans', created_by: owner.id });
    expect(keyword.translations).toEqual([expect.objectContaining({ keyword_id: keyword.id, language: 'en', name: 'Glacier' })]);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record.id, keyword_id: keyword.id })).toBe(1);
    const english = expectStatus(await post(owner.token, 'keyword', { name: 'Lhasa', type: 'place', language: 'en', translation: '拉萨' }), 201);
    expect(english.translations).toEqual([expect.objectContaining({ language: 'zh-hans', name: '拉萨' })]);
  });

  it('lists the keywords of a record by type (pageSize 100)', async () => {
    const record = await createRecord(portal, owner.token);
    const place = await addKeyword(portal, owner.token, record.id, 'place', '那曲');
    const temporal = await addKeyword(portal, owner.token, record.id, 'temporal', '2020');
    await addKeyword(portal, owner.token, draft.id, 'place', '那曲');
    const all = await listOf(owner.token, 'keyword', `metadatakeyword__metadata__id=${record.id}&pageSize=100`);
    expect(idsOf(all).sort()).toEqual([place.id, temporal.id].sort());
    expect(idsOf(await listOf(owner.token, 'keyword', `metadatakeyword__metadata__id=${record.id}&type=place&pageSize=100`))).toEqual([place.id]);
    expect((await listOf(owner.token, 'keyword', `metadatakeyword__metadata__id=${record.id}&type=discipline`)).count).toBe(0);
    const links = await listOf(owner.token, 'meta-keyword', `metadata__id=${record.id}`);
    expect(links.results.map((row: { keyword_detail: { id: string } }) => row.keyword_detail.id).sort()).toEqual([place.id, temporal.id].sort());
  });

  it('refuses a keyword the record has already (same name and type, any case), writing nothing', async () => {
    const record = await createRecord(portal, owner.token);
    await addKeyword(portal, owner.token, record.id, 'place', 'Tibet');
    const keywords = await countRows(portal, 'keywords');
    const translations = await countRows(portal, 'keyword_i18n');
    expectRefusal(
      await post(owner.token, 'keyword', { name: 'TIBET', type: 'place', metadata: record.id, translation: '西藏' }),
      400,
      'The metadata already has this keyword.',
      'name',
    );
    expect(await countRows(portal, 'keywords')).toBe(keywords);
    expect(await countRows(portal, 'keyword_i18n')).toBe(translations);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record.id })).toBe(1);
    expect((await post(owner.token, 'keyword', { name: 'Tibet', type: 'theme', metadata: record.id, translation: '西藏' })).statusCode).toBe(201);
  });

  it('checks the keyword form', async () => {
    const before = await countRows(portal, 'keywords');
    expectRefusal(await post(owner.token, 'keyword', { name: ' ', type: 'place', translation: 'Ice' }), 400, 'Please enter the keyword.', 'name');
    expectRefusal(await post(owner.token, 'keyword', { name: '冰', translation: 'Ice' }), 400, 'Please choose the keyword type.', 'type');
    expectRefusal(await post(null, 'keyword', { name: '冰', type: 'place', translation: 'Ice' }), 401, LOGIN);
    const chinese = await call(portal, 'POST', resourceUrl('keyword'), owner.token, { body: { name: '', type: 'place', translation: 'Ice' } });
    expect(chinese.json()).toEqual({ name: ['请输入关键词'], detail: '请输入关键词' });
    expect(await countRows(portal, 'keywords')).toBe(before);
  });

  it('asks for the translation of a new keyword, and creates nothing without one', async () => {
    const record = await createRecord(portal, owner.token);
    const keywords = await countRows(portal, 'keywords');
    const translations = await countRows(portal, 'keyword_i18n');
    for (const translation of [undefined, '', '   ']) {
      const body = { name: '冰', type: 'place', metadata: record.id, ...(translation === undefined ? {} : { translation }) };
      expectRefusal(await post(owner.token, 'keyword', body), 400, 'Please enter the translation of the keyword.', 'translation');
      expectRefusal(await post(owner.token, 'keyword', body, true), 400, 'Please enter the translation of the keyword.', 'translation');
    }
    const chinese = await call(portal, 'POST', resourceUrl('keyword'), owner.token, { body: { name: '冰', type: 'place', metadata: record.id } });
    expect({ status: chinese.statusCode, body: chinese.json() }).toEqual({
      status: 400,
      body: { translation: ['请输入关键词的翻译。'], detail: '请输入关键词的翻译。' },
    });
    expect(await countRows(portal, 'keywords')).toBe(keywords);
    expect(await countRows(portal, 'keyword_i18n')).toBe(translations);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record.id })).toBe(0);
  });

  it('DELETE keyword/?metadata=&keyword= takes the keyword off the record, and the keyword stays', async () => {
    const record = await createRecord(portal, owner.token);
    const keyword = await addKeyword(portal, owner.token, record.id, 'theme');
    const url = `/api/metadata/keyword/?metadata=${record.id}&keyword=${keyword.id}`;
    expectRefusal(await call(portal, 'DELETE', url, null, { headers: EN }), 401, LOGIN);
    expectRefusal(await call(portal, 'DELETE', url, other.token, { headers: EN }), 404, 'The metadata was not found');
    expectRefusal(await call(portal, 'DELETE', url, other.token), 404, '未找到该元数据');
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record.id, keyword_id: keyword.id })).toBe(1);
    expect((await call(portal, 'DELETE', url, owner.token)).statusCode).toBe(204);
    expect((await listOf(owner.token, 'keyword', `metadatakeyword__metadata__id=${record.id}`)).count).toBe(0);
    expect(expectStatus(await get(owner.token, resourceUrl('keyword', keyword.id)), 200).id).toBe(keyword.id);
    expect((await call(portal, 'DELETE', url, owner.token)).statusCode).toBe(404);
    expect((await call(portal, 'DELETE', '/api/metadata/keyword/?metadata=' + record.id, owner.token)).statusCode).toBe(400);
  });

  it('lets its creator and staff change it', async () => {
    const keyword = await postResource(portal, owner.token, 'keyword', { name: '湖泊', type: 'theme', translation: 'Lake' });
    expect(expectStatus(await put(owner.token, 'keyword', keyword.id, { name: '湖冰' }), 200).name).toBe('湖冰');
    await expectCreatorOnly('keyword', keyword.id, { type: 'place' });
    expectRefusal(await put(owner.token, 'keyword', keyword.id, { type: 'colour' }), 400, 'Please choose the keyword type.', 'type');
  });
});

describe('keyword-i18n', () => {
  it('adds, lists, changes and deletes the translation of a keyword', async () => {
    const keyword = await postResource(portal, owner.token, 'keyword', { name: '冻土', type: 'theme', translation: 'Frozen soil' });
    // The translation sent with the keyword is its English version; it goes, and a new one is added.
    const [made] = (await listOf(owner.token, 'keyword-i18n', `keyword__id=${keyword.id}`)).results;
    expect(made).toMatchObject({ keyword_id: keyword.id, language: 'en', name: 'Frozen soil' });
    expect((await del(owner.token, 'keyword-i18n', made.id)).statusCode).toBe(204);
    const added = expectStatus(await post(owner.token, 'keyword-i18n', { keyword: keyword.id, language: 'en', name: 'Permafrost' }), 201);
    expect(idsOf(await listOf(owner.token, 'keyword-i18n', `keyword_id=${keyword.id}`))).toEqual([added.id]);
    expect(expectStatus(await put(owner.token, 'keyword-i18n', added.id, { name: 'Frozen ground' }), 200).name).toBe('Frozen ground');
    expectRefusal(
      await post(owner.token, 'keyword-i18n', { keyword: keyword.id, language: 'en', name: 'Again' }),
      400,
      'This keyword already has a translation in that language.',
      'non_field_errors',
    );
    expectRefusal(await put(owner.token, 'keyword-i18n', added.id, { name: '' }), 400, 'Please enter the translation of the keyword.', 'name');
    expect((await del(owner.token, 'keyword-i18n', added.id)).statusCode).toBe(204);
  });

  it("lets the keyword's creator and staff write its translations, not anybody else", async () => {
    const keyword = await postResource(portal, owner.token, 'keyword', { name: '草地', type: 'theme', translation: 'Grassland' });
    // Private to its creator: to anybody else the keyword does not exist.
    expectRefusal(await post(other.token, 'keyword-i18n', { keyword: keyword.id, language: 'en', name: 'Meadow' }), 400, 'Please name the keyword.', 'keyword');
    expectRefusal(await post(null, 'keyword-i18n', { keyword: keyword.id, language: 'en', name: 'Meadow' }), 401, LOGIN);
    expect(await countRows(portal, 'keyword_i18n', { keyword_id: keyword.id })).toBe(1);
    const english = keyword.translations[0];
    expect(english).toMatchObject({ language: 'en', name: 'Grassland' });
    await expectCreatorOnly('keyword-i18n', english.id, { name: 'Meadow' });
    expect(await storedRow('keyword_i18n', english.id)).toMatchObject({ name: 'Meadow' });
  });
});

describe('keyword-standard, meta-keyword-standard and meta-discipline', () => {
  let root: { id: string };
  let otherRoot: { id: string };
  let child: { id: string };
  beforeAll(async () => {
    root = await postResource(portal, staff.token, 'keyword-standard', { code: 'A', name: '地球科学', name_en: 'Earth science', sort: 1 });
    otherRoot = await postResource(portal, staff.token, 'keyword-standard', { code: 'B', name: '生态学', sort: 2 });
    child = await postResource(portal, staff.token, 'keyword-standard', { code: 'A1', name: '冰川学', parent: root.id });
  });

  it('lets staff only create a standard', async () => {
    expectRefusal(await post(null, 'keyword-standard', { name: '水文' }), 401, LOGIN);
    expectRefusal(await post(owner.token, 'keyword-standard', { name: '水文' }), 403, FORBIDDEN);
    expectRefusal(await post(staff.token, 'keyword-standard', { name: '水文', parent: 'missing' }), 400, 'Please choose a keyword standard.', 'parent');
    expectRefusal(await post(staff.token, 'keyword-standard', { code: 'C' }), 400, 'Please enter the keyword.', 'name');
  });

  it('serves the tree to anybody: roots with parent_null, children by parent (pageSize 100)', async () => {
    const roots = await listOf(null, 'keyword-standard', 'parent_null=true&pageSize=100');
    expect(idsOf(roots)).toEqual([root.id, otherRoot.id]);
    expect(idsOf(await listOf(null, 'keyword-standard', 'parent_null=false&pageSize=100'))).toEqual([child.id]);
    expect(idsOf(await listOf(null, 'keyword-standard', `parent__id=${root.id}`))).toEqual([child.id]);
    expect(expectStatus(await get(null, resourceUrl('keyword-standard', child.id)), 200)).toMatchObject({ parent: root.id, name: '冰川学' });
  });

  it('lets staff only change and delete a standard, and move it under another parent', async () => {
    expectRefusal(await put(owner.token, 'keyword-standard', child.id, { name: 'x' }), 403, FORBIDDEN);
    expectRefusal(await del(owner.token, 'keyword-standard', child.id), 403, FORBIDDEN);
    expectRefusal(await put(null, 'keyword-standard', child.id, { name: 'x' }), 401, LOGIN);
    const leaf = await postResource(portal, staff.token, 'keyword-standard', { name: '冻土学', parent: root.id });
    expect(expectStatus(await put(staff.token, 'keyword-standard', leaf.id, { parent: otherRoot.id, name_en: 'Geocryology' }), 200)).toMatchObject({
      parent_id: otherRoot.id,
      name_en: 'Geocryology',
    });
    expectRefusal(await put(staff.token, 'keyword-standard', leaf.id, { parent: 'missing' }), 400, 'Please choose a keyword standard.', 'parent');
    expect((await del(staff.token, 'keyword-standard', leaf.id)).statusCode).toBe(204);
  });

  it('links standards to a record once each', async () => {
    const record = await createRecord(portal, owner.token);
    const created = expectStatus(await post(owner.token, 'meta-keyword-standard', { metadata: record.id, keyword_standard: child.id }), 201);
    expect(created.keyword_standard_detail).toMatchObject({ id: child.id, name: '冰川学' });
    expectRefusal(
      await post(owner.token, 'meta-keyword-standard', { metadata: record.id, keyword_standard: child.id }),
      400,
      'The metadata already has this keyword standard.',
      'non_field_errors',
    );
    expectRefusal(
      await post(owner.token, 'meta-keyword-standard', { metadata: record.id, keyword_standard: 'missing' }),
      400,
      'Please choose a keyword standard.',
      'keyword_standard',
    );
    expectRefusal(await post(other.token, 'meta-keyword-standard', { metadata: published.id, keyword_standard: child.id }), 403, NO_RIGHT);
    expect(idsOf(await listOf(owner.token, 'meta-keyword-standard', `metadata__id=${record.id}`))).toEqual([created.id]);
    expect((await del(owner.token, 'meta-keyword-standard', created.id)).statusCode).toBe(204);
  });

  it('links disciplines by level, filters them, and keeps a used standard', async () => {
    const record = await createRecord(portal, owner.token);
    const first = expectStatus(await post(owner.token, 'meta-discipline', { metadata: record.id, keyword_standard: root.id, number: '1', theme1: '冰冻圈' }), 201);
    const second = expectStatus(await post(owner.token, 'meta-discipline', { metadata: record.id, keyword_standard: child.id, number: 2, element1: '冰川' }), 201);
    expect(first).toMatchObject({ number: 1, theme1: '冰冻圈' });
    expectRefusal(await post(owner.token, 'meta-discipline', { metadata: record.id, keyword_standard: root.id, number: 4 }), 400, 'The level is 1, 2 or 3.', 'number');
    expect(idsOf(await listOf(owner.token, 'meta-discipline', `metadata__id=${record.id}&pageSize=100`))).toEqual([first.id, second.id]);
    expect(idsOf(await listOf(owner.token, 'meta-discipline', `metadata__id=${record.id}&number=2`))).toEqual([second.id]);
    expect(idsOf(await listOf(owner.token, 'meta-discipline', `metadata__id=${record.id}&keyword_standard__parent__null=true`))).toEqual([first.id]);
    expect(expectStatus(await patch(owner.token, 'meta-discipline', second.id, { number: 3, keyword_standard: otherRoot.id }), 200)).toMatchObject({
      number: 3,
      keyword_standard_id: otherRoot.id,
    });
    expectRefusal(await del(staff.token, 'keyword-standard', root.id), 409, 'Other metadata records use this entry, so it cannot be deleted.');
    expect((await del(owner.token, 'meta-discipline', first.id)).statusCode).toBe(204);
  });

  /** A new branch root > middle > leaf, apart from the tree the tests above list. */
  async function branch(code: string) {
    const top = await postResource(portal, staff.token, 'keyword-standard', { code, name: `${code} 顶层`, sort: 9 });
    const middle = await postResource(portal, staff.token, 'keyword-standard', { code: `${code}1`, name: `${code} 中层`, parent: top.id });
    const leaf = await postResource(portal, staff.token, 'keyword-standard', { code: `${code}11`, name: `${code} 底层`, parent: middle.id });
    return { top, middle, leaf };
  }
  const parentOf = async (id: string) => (await storedRow('keyword_standards', id))?.parent_id ?? null;

  it('refuses a standard itself or one below it as its parent, by PUT and PATCH, changing nothing', async () => {
    const { top, middle, leaf } = await branch('CY');
    const cycles: [method: 'PUT' | 'PATCH', id: string, parent: string][] = [
      ['PUT', top.id, top.id],
      ['PATCH', top.id, top.id],
      ['PUT', top.id, middle.id],
      ['PATCH', top.id, leaf.id],
      ['PATCH', middle.id, middle.id],
      ['PUT', middle.id, leaf.id],
      ['PATCH', leaf.id, leaf.id],
    ];
    for (const [method, id, parent] of cycles) {
      const response = await call(portal, method, resourceUrl('keyword-standard', id), staff.token, { body: { parent, name: '成环' }, headers: EN });
      expect({ method, id, parent, status: response.statusCode, body: response.json() }).toEqual({
        method,
        id,
        parent,
        status: 400,
        body: { parent: ['Please choose a keyword standard.'], detail: 'Please choose a keyword standard.' },
      });
    }
    const chinese = await call(portal, 'PATCH', resourceUrl('keyword-standard', top.id), staff.token, { body: { parent: leaf.id } });
    expect(chinese.json()).toEqual({ parent: ['请选择关键词标准。'], detail: '请选择关键词标准。' });
    expect([await parentOf(top.id), await parentOf(middle.id), await parentOf(leaf.id)]).toEqual([null, top.id, middle.id]);
    expect((await storedRow('keyword_standards', top.id)).name).toBe('CY 顶层');
    // Moving a standard up, or to a root of its own, is no cycle.
    expect(expectStatus(await patch(staff.token, 'keyword-standard', leaf.id, { parent: top.id }), 200).parent_id).toBe(top.id);
    expect(expectStatus(await put(staff.token, 'keyword-standard', middle.id, { parent: null }), 200).parent_id).toBeNull();
    // ... and the former child may now take its former parent as a child.
    expect(expectStatus(await patch(staff.token, 'keyword-standard', top.id, { parent: middle.id }), 200).parent_id).toBe(middle.id);
    expectRefusal(await patch(staff.token, 'keyword-standard', middle.id, { parent: leaf.id }), 400, 'Please choose a keyword standard.', 'parent');
  });

  for (const [name, body] of [
    ['meta-keyword-standard', {}],
    ['meta-discipline', { number: 3 }],
  ] as const) {
    it(`keeps a standard when ${name} of a record uses one below it, deleting nothing`, async () => {
      const { top, middle, leaf } = await branch(name === 'meta-discipline' ? 'SD' : 'SK');
      const record = await createRecord(portal, owner.token);
      const used = await postResource(portal, owner.token, name, { metadata: record.id, keyword_standard: leaf.id, ...body });
      const standards = await countRows(portal, 'keyword_standards');
      for (const id of [top.id, middle.id, leaf.id]) {
        expectRefusal(await del(staff.token, 'keyword-standard', id), 409, 'Other metadata records use this entry, so it cannot be deleted.');
      }
      const chinese = await call(portal, 'DELETE', resourceUrl('keyword-standard', top.id), staff.token);
      expect({ status: chinese.statusCode, body: chinese.json() }).toEqual({ status: 409, body: { detail: '其他元数据正在使用此条目，不能删除。' } });
      expect(await countRows(portal, 'keyword_standards')).toBe(standards);
      expect(await countRows(portal, name === 'meta-discipline' ? 'meta_discipline' : 'meta_keyword_standard', { id: used.id })).toBe(1);
      // Once the record lets go, the whole branch goes with its top.
      expect((await del(owner.token, name, used.id)).statusCode).toBe(204);
      expect((await del(staff.token, 'keyword-standard', top.id)).statusCode).toBe(204);
      for (const id of [top.id, middle.id, leaf.id]) expect(await countRows(portal, 'keyword_standards', { id })).toBe(0);
    });
  }
});

describe('fund and meta-fund', () => {
  it('has funds 5 and 6 seeded, core funds first', async () => {
    expect(expectStatus(await get(owner.token, resourceUrl('fund', '5')), 200)).toMatchObject({ id: '5', name_en: 'Three Poles platform', is_core: true });
    expect(expectStatus(await get(owner.token, resourceUrl('fund', '6')), 200)).toMatchObject({ id: '6', is_core: true });
    const page = await listOf(owner.token, 'fund', 'pageSize=100');
    expect(idsOf(page).slice(0, 2).sort()).toEqual(['5', '6']);
    expect(idsOf(await listOf(owner.token, 'fund', 'is_core=true')).sort()).toEqual(['5', '6']);
    expectRefusal(await get(null, resourceUrl('fund')), 401, LOGIN);
  });

  it('creates a fund from the form, and asks for both names', async () => {
    const fund = expectStatus(await post(owner.token, 'fund', { name: '国家自然科学基金', name_en: 'NSFC', serial_number: '41871', is_core: '' }, true), 201);
    expect(fund).toMatchObject({ name: '国家自然科学基金', name_en: 'NSFC', serial_number: '41871', is_core: false, created_by: owner.id });
    expect(expectStatus(await get(owner.token, resourceUrl('fund', fund.id)), 200).name).toBe('国家自然科学基金');
    expectRefusal(await post(owner.token, 'fund', { name_en: 'NSFC' }, true), 400, 'Please enter the Chinese name of the funding project.', 'name');
    expectRefusal(await post(owner.token, 'fund', { name: '基金' }, true), 400, 'Please enter the English name of the funding project.', 'name_en');
    expectRefusal(await post(owner.token, 'fund', { name: '基金', name_en: 'Fund', email: 'x' }), 400, 'The input is not valid E-mail!', 'email');
  });

  it('links funds to a record; a 4th is refused, by either call, and nothing is written', async () => {
    const record = await createRecord(portal, owner.token);
    expect((await post(owner.token, 'meta-fund', { metadata: record.id, fund: '5' }, true)).statusCode).toBe(201);
    expectRefusal(await post(owner.token, 'meta-fund', { metadata: record.id, fund: '5' }), 400, 'The metadata already has this funding project.', 'non_field_errors');
    expect((await post(owner.token, 'meta-fund', { metadata: record.id, fund: '6' })).statusCode).toBe(201);
    const third = expectStatus(await post(owner.token, 'fund', { name: '第三个', name_en: 'Third', metadata: record.id }), 201);
    expect((await getRecord(portal, owner.token, record.id)).fund.sort()).toEqual(['5', '6', third.id].sort());
    const fourth = await postResource(portal, owner.token, 'fund', { name: '第四个', name_en: 'Fourth' });
    expectRefusal(await post(owner.token, 'meta-fund', { metadata: record.id, fund: fourth.id }), 400, 'A metadata record has at most 3 funding projects.', 'non_field_errors');
    const funds = await countRows(portal, 'funds');
    expectRefusal(
      await post(owner.token, 'fund', { name: '第五个', name_en: 'Fifth', metadata: record.id }),
      400,
      'A metadata record has at most 3 funding projects.',
      'non_field_errors',
    );
    const chinese = await call(portal, 'POST', resourceUrl('meta-fund'), owner.token, { body: { metadata: record.id, fund: fourth.id } });
    expect(chinese.json().detail).toBe('一条元数据最多有 3 个资助项目。');
    expect(await countRows(portal, 'funds')).toBe(funds);
    expect(await countRows(portal, 'meta_fund', { metadata_id: record.id })).toBe(3);
    const links = await listOf(owner.token, 'meta-fund', `metadata__id=${record.id}`);
    expect(links.results.map((row: { fund_detail: { id: string } }) => row.fund_detail.id).sort()).toEqual(['5', '6', third.id].sort());
    // The linked fund reads as the fund itself does: its flag a boolean.
    expect(links.results.find((row: { fund: string }) => row.fund === '5').fund_detail).toMatchObject({ id: '5', is_core: true });
    expectRefusal(await post(owner.token, 'meta-fund', { metadata: draft.id, fund: 'missing' }), 400, 'Please choose a funding project.', 'fund');
  });

  it('lets the creator of a fund and staff change it, as a form or as JSON; is_core is for staff only', async () => {
    const fund = await postResource(portal, owner.token, 'fund', { name: '基金', name_en: 'Fund' });
    expect(expectStatus(await call(portal, 'PUT', resourceUrl('fund', fund.id), owner.token, { body: { principal: '王' }, asForm: true }), 200)).toMatchObject({
      is_core: false,
      principal: '王',
    });
    expect((await call(portal, 'PUT', resourceUrl('fund', fund.id), owner.token, { body: { is_core: 'true' }, asForm: true })).statusCode).toBe(403);
    expect(expectStatus(await call(portal, 'PUT', resourceUrl('fund', fund.id), staff.token, { body: { is_core: 'true' }, asForm: true }), 200).is_core).toBe(true);
    expect(expectStatus(await put(staff.token, 'fund', fund.id, { is_core: false }), 200).is_core).toBe(false);
    await expectCreatorOnly('fund', fund.id, { phone: '123' });
    expectRefusal(await put(owner.token, 'fund', '5', { name: '改' }), 403, NO_RIGHT);
    expectRefusal(await del(staff.token, 'fund', '5'), 409, 'Other metadata records use this entry, so it cannot be deleted.');
  });

  it('refuses another user the funds of a record not theirs', async () => {
    expectRefusal(await post(other.token, 'meta-fund', { metadata: draft.id, fund: '5' }), 404, 'The metadata was not found');
    expectRefusal(await post(other.token, 'meta-fund', { metadata: published.id, fund: '5' }), 403, NO_RIGHT);
    expectRefusal(await post(null, 'meta-fund', { metadata: published.id, fund: '5' }), 401, LOGIN);
    expect(await countRows(portal, 'meta_fund', { metadata_id: draft.id, fund_id: '5' })).toBe(0);
    expect(await countRows(portal, 'meta_fund', { metadata_id: published.id, fund_id: '5' })).toBe(0);
    expect((await post(staff.token, 'meta-fund', { metadata: published.id, fund: '5' })).statusCode).toBe(201);
  });
});

describe('project', () => {
  it('creates a project from the editor, asking for both names and the abbreviation', async () => {
    const project = expectStatus(
      await post(owner.token, 'project', { name: '第二次青藏高原综合科学考察', name_en: 'Second Tibetan Plateau Scientific Expedition', abbreviation: 'STEP' }),
      201,
    );
    expect(project).toMatchObject({ abbreviation: 'STEP', created_by: owner.id });
    const form = { name: '项目', name_en: 'Project', abbreviation: 'P' };
    for (const [field, text] of [
      ['name', 'Please enter the Chinese name.'],
      ['name_en', 'Please enter the English name.'],
      ['abbreviation', 'Please enter the abbreviation.'],
    ] as const) {
      expectRefusal(await post(owner.token, 'project', { ...form, [field]: '' }, true), 400, text, field);
    }
    const chinese = await call(portal, 'POST', resourceUrl('project'), owner.token, { body: { ...form, abbreviation: '' } });
    expect(chinese.json().abbreviation).toEqual(['请输入简称。']);
    expectRefusal(await post(null, 'project', form), 401, LOGIN);
    expect(idsOf(await listOf(other.token, 'project', `search=${encodeURIComponent('青藏高原')}`))).toEqual([project.id]);
    await expectCreatorOnly('project', project.id, { abbreviation: 'STEP-2' }, 'visible');
  });
});

describe('program', () => {
  it('lets staff only create a program, of the three codes', async () => {
    expectRefusal(await post(owner.token, 'program', { code: 'XDA20', name: '泛第三极' }), 403, FORBIDDEN);
    expectRefusal(await post(staff.token, 'program', { code: 'XDA21', name: '泛第三极' }), 400, 'Please choose one of the listed options.', 'code');
    const created = expectStatus(await post(staff.token, 'program', { code: 'XDA20', name: '泛第三极环境变化' }), 201);
    await postResource(portal, staff.token, 'program', { code: 'ZKK', name: '中科院重点项目' });
    const page = await listOf(null, 'program', 'code=XDA20&page=1&pageSize=1000');
    expect(idsOf(page)).toEqual([created.id]);
    expect((await listOf(null, 'program', 'code=XDA19&page=1&pageSize=1000')).count).toBe(0);
    expectRefusal(await put(owner.token, 'program', created.id, { name: '改' }), 403, FORBIDDEN);
    expect(expectStatus(await put(staff.token, 'program', created.id, { name_en: 'Pan-Third Pole' }), 200).name_en).toBe('Pan-Third Pole');
    expectRefusal(await del(owner.token, 'program', created.id), 403, FORBIDDEN);
    expect((await del(staff.token, 'program', created.id)).statusCode).toBe(204);
  });
});

describe('special, special-manage and meta-special', () => {
  let special: { id: string };
  beforeAll(async () => {
    special = await postResource(portal, staff.token, 'special', { name: '冰川专题', name_en: 'Glaciers' });
  });

  it('lets staff only create and change a topic', async () => {
    expectRefusal(await post(owner.token, 'special', { name: '专题' }), 403, FORBIDDEN);
    expectRefusal(await post(null, 'special', { name: '专题' }), 401, LOGIN);
    expectRefusal(await put(owner.token, 'special', special.id, { name: '改' }), 403, FORBIDDEN);
    expect(expectStatus(await put(staff.token, 'special', special.id, { description: '冰川数据' }), 200).description).toBe('冰川数据');
    expect(idsOf(await listOf(null, 'special', `search=${encodeURIComponent('冰川')}`))).toEqual([special.id]);
  });

  it('lets staff name the managers of a topic, once each', async () => {
    expectRefusal(await post(owner.token, 'special-manage', { special: special.id, user: owner.id }), 403, FORBIDDEN);
    const manager = expectStatus(await post(staff.token, 'special-manage', { special: special.id, user: owner.id }), 201);
    expect(manager).toMatchObject({ special_id: special.id, user_id: owner.id });
    expectRefusal(await post(staff.token, 'special-manage', { special: special.id, user: owner.id }), 400, 'This user already manages the topic.', 'non_field_errors');
    expectRefusal(await post(staff.token, 'special-manage', { special: special.id, user: 'nobody' }), 400, 'Please choose a user.', 'user');
    expectRefusal(await get(null, resourceUrl('special-manage')), 401, LOGIN);
    expect(idsOf(await listOf(owner.token, 'special-manage', `special__id=${special.id}`))).toEqual([manager.id]);
    expect(expectStatus(await put(staff.token, 'special-manage', manager.id, { user: other.id }), 200).user_id).toBe(other.id);
    expectRefusal(await put(staff.token, 'special-manage', manager.id, { user: 'nobody' }), 400, 'Please choose a user.', 'user');
    expect((await del(staff.token, 'special-manage', manager.id)).statusCode).toBe(204);
  });

  it('puts a record into a topic once', async () => {
    const record = await createRecord(portal, owner.token);
    const row = expectStatus(await post(owner.token, 'meta-special', { metadata: record.id, special: special.id }), 201);
    expect(row.special_detail).toMatchObject({ id: special.id, name: '冰川专题' });
    expectRefusal(await post(owner.token, 'meta-special', { metadata: record.id, special: special.id }), 400, 'The metadata is already in this topic.', 'non_field_errors');
    expectRefusal(await post(owner.token, 'meta-special', { metadata: record.id, special: 'missing' }), 400, 'Please choose a topic.', 'special');
    expectRefusal(await post(other.token, 'meta-special', { metadata: published.id, special: special.id }), 403, NO_RIGHT);
    expect(idsOf(await listOf(owner.token, 'meta-special', `metadata__id=${record.id}`))).toEqual([row.id]);
    expectRefusal(await del(staff.token, 'special', special.id), 409, 'Other metadata records use this entry, so it cannot be deleted.');
    // A row stays with its record: a PATCH naming another record does not move it there.
    expect(expectStatus(await patch(owner.token, 'meta-special', row.id, { metadata: draft.id }), 200).metadata_id).toBe(record.id);
    expect(await countRows(portal, 'meta_special', { metadata_id: draft.id })).toBe(0);
    expect((await del(owner.token, 'meta-special', row.id)).statusCode).toBe(204);
  });
});

describe('affiliation', () => {
  it('lets any user add an affiliation and its creator and staff change it', async () => {
    const affiliation = expectStatus(await post(owner.token, 'affiliation', { name: '兰州大学', name_en: 'Lanzhou University' }), 201);
    expectRefusal(await post(owner.token, 'affiliation', { name: '' }), 400, 'Please input your affiliation!', 'name');
    expectRefusal(await post(null, 'affiliation', { name: '单位' }), 401, LOGIN);
    expect(idsOf(await listOf(other.token, 'affiliation', `search=${encodeURIComponent('兰州')}`))).toEqual([affiliation.id]);
    await expectCreatorOnly('affiliation', affiliation.id, { name_en: 'LZU' }, 'visible');
    expect((await del(owner.token, 'affiliation', affiliation.id)).statusCode).toBe(204);
  });
});

describe('online-resource', () => {
  it('adds, lists, changes and removes an online resource of a record', async () => {
    const record = await createRecord(portal, owner.token);
    const resource = expectStatus(await post(owner.token, 'online-resource', { metadata: record.id, name: '数据门户', url: 'https://data.example.org/glacier' }), 201);
    expect(resource).toMatchObject({ metadata_id: record.id, name: '数据门户', created_by: owner.id });
    expectRefusal(
      await post(owner.token, 'online-resource', { metadata: record.id, name: '', url: 'https://x.org' }),
      400,
      'Please enter the name of the online resource.',
      'name',
    );
    expectRefusal(
      await post(owner.token, 'online-resource', { metadata: record.id, name: 'x', url: 'data.example.org' }),
      400,
      'Please enter a web address starting with http://, https:// or ftp://.',
      'url',
    );
    expect(idsOf(await listOf(owner.token, 'online-resource', `metadata__id=${record.id}&pageSize=100`))).toEqual([resource.id]);
    expect(expectStatus(await put(owner.token, 'online-resource', resource.id, { url: 'ftp://ftp.example.org/glacier' }), 200).url).toBe('ftp://ftp.example.org/glacier');
    const before = await storedRow('online_resources', resource.id);
    expect(before).toMatchObject({ id: resource.id });
    expectRefusal(await put(other.token, 'online-resource', resource.id, { name: 'x' }), 404, NOT_FOUND);
    expectRefusal(await del(other.token, 'online-resource', resource.id), 404, NOT_FOUND);
    expectRefusal(await post(other.token, 'online-resource', { metadata: record.id, name: '别人的', url: 'https://x.org' }), 404, 'The metadata was not found');
    expect(await storedRow('online_resources', resource.id)).toEqual(before);
    expect(await countRows(portal, 'online_resources', { metadata_id: record.id })).toBe(1);
    expect(expectStatus(await put(staff.token, 'online-resource', resource.id, { description: '镜像' }), 200).description).toBe('镜像');
    expectRefusal(await del(null, 'online-resource', resource.id), 401, LOGIN);
    expect((await del(owner.token, 'online-resource', resource.id)).statusCode).toBe(204);
  });

  it('shows the online resources of a published record to anybody', async () => {
    const resource = await postResource(portal, staff.token, 'online-resource', { metadata: published.id, name: '公开站点', url: 'https://example.org' });
    expect(idsOf(await listOf(null, 'online-resource', `metadata__id=${published.id}`))).toContain(resource.id);
    expect(expectStatus(await get(null, resourceUrl('online-resource', resource.id)), 200).name).toBe('公开站点');
    expectRefusal(await put(other.token, 'online-resource', resource.id, { name: 'x' }), 403, NO_RIGHT);
  });
});

const NOT_FOUND = 'The requested resource was not found.';
const SHARED_LOCKED = "This entry is also used by metadata that cannot be changed now (in review, published, or somebody else's), so it stays as it is.";
const SHARED_LOCKED_ZH = '此条目还被当前不能修改的元数据（审核中、已发布或他人的）使用，因此不能修改。';

/** The shared entries records link to, each made for a record and reached through its lists. */
interface SharedKind {
  name: 'author' | 'literature' | 'keyword' | 'fund';
  table: string;
  /** The translations, where the entry has them: resource, list filter. */
  i18n?: { name: string; table: string; filter: string };
  /** The list filter naming a record. */
  recordFilter?: string;
  /** Link table and column (for a link made directly, as another record's). */
  link: { table: string; column: string };
  /** Makes an entry of the token's user linked to the record: its id, the id of a translation, a search query finding it. */
  make(token: string, recordId: string): Promise<{ id: string; translationId?: string; search: string }>;
  change: Record<string, unknown>;
  changeTranslation?: Record<string, unknown>;
  /** Other values, tried while the entry is locked. */
  locked?: { entry: Record<string, unknown>; translation: Record<string, unknown> };
}

let made = 0;
/** A name no other entry contains. */
const uniqueName = (prefix: string) => `${prefix}${++made}-${randomUUID().slice(0, 8)}`;
const SHARED_KINDS: SharedKind[] = [
  {
    name: 'author',
    table: 'authors',
    i18n: { name: 'author-i18n', table: 'author_i18n', filter: 'author__id' },
    recordFilter: 'metadata__id',
    link: { table: 'meta_author', column: 'author_id' },
    async make(token, recordId) {
      const name = uniqueName('共享作者');
      const { author } = await addAuthor(portal, token, recordId, { author: { name } });
      return { id: author.id, translationId: author.translations[0].id, search: `like_author=${encodeURIComponent(name)}` };
    },
    change: { phone: '0891-1' },
    changeTranslation: { address: 'Lhasa' },
    locked: { entry: { phone: '0891-2', city: '日喀则' }, translation: { name: 'Locked Name', address: 'Shigatse' } },
  },
  {
    name: 'literature',
    table: 'literature',
    i18n: { name: 'literature-i18n', table: 'literature_i18n', filter: 'literature__id' },
    recordFilter: 'metadata__id',
    link: { table: 'citations', column: 'literature_id' },
    async make(token, recordId) {
      const title = uniqueName('Shared paper ');
      const entry = await postResource(portal, token, 'literature', { title, type: 'reference', metadata: recordId });
      const english = await postResource(portal, token, 'literature-i18n', { literature: entry.id, language: 'en', title });
      return { id: entry.id, translationId: english.id, search: `search=${encodeURIComponent(title)}` };
    },
    change: { publisher: 'Science Press' },
    changeTranslation: { publisher: 'Elsevier' },
    locked: { entry: { title: 'Locked title', publisher: 'Locked Press' }, translation: { title: 'Locked title', publisher: 'Locked' } },
  },
  {
    name: 'keyword',
    table: 'keywords',
    i18n: { name: 'keyword-i18n', table: 'keyword_i18n', filter: 'keyword__id' },
    recordFilter: 'metadatakeyword__metadata__id',
    link: { table: 'meta_keyword', column: 'keyword_id' },
    async make(token, recordId) {
      const name = uniqueName('共享关键词');
      const keyword = await addKeyword(portal, token, recordId, 'theme', name);
      return { id: keyword.id, translationId: keyword.translations[0].id, search: `search=${encodeURIComponent(name)}` };
    },
    change: { type: 'place' },
    changeTranslation: { name: 'Changed' },
    locked: { entry: { name: '改名', type: 'temporal' }, translation: { name: 'Locked' } },
  },
  {
    name: 'fund',
    table: 'funds',
    link: { table: 'meta_fund', column: 'fund_id' },
    async make(token, recordId) {
      const name = uniqueName('共享基金');
      const fund = await postResource(portal, token, 'fund', { name, name_en: 'Shared fund', metadata: recordId });
      return { id: fund.id, search: `search=${encodeURIComponent(name)}` };
    },
    change: { phone: '123' },
  },
];

/** Links an entry to a record as the record's own row would (as staff could through the API). */
const linkDirectly = (kind: SharedKind, metadataId: string, id: string) =>
  (portal.database.db as any)
    .insertInto(kind.link.table)
    .values({ id: randomUUID(), metadata_id: metadataId, [kind.link.column]: id, ...(kind.name === 'author' ? { role: 'owner', event_date: '2024-05-01' } : {}) })
    .execute();

describe('who sees a shared entry', () => {
  for (const kind of SHARED_KINDS) {
    it(`${kind.name}: one only another user's record in review uses is hidden from them (lists, GET, translations) until it is published`, async () => {
      const record = await createRecord(portal, owner.token);
      const entry = await kind.make(owner.token, record.id);
      const listed = async (token: string, query: string) => idsOf(await listOf(token, kind.name, query));
      const expectHidden = async () => {
        expectRefusal(await get(other.token, resourceUrl(kind.name, entry.id)), 404, NOT_FOUND);
        expect(await listed(other.token, entry.search)).toEqual([]);
        expect(await listed(other.token, 'pageSize=1000')).not.toContain(entry.id);
        if (kind.name === 'author') {
          expect(idsOf(expectStatus(await get(other.token, `/api/metadata/like_author/?${entry.search}&pageSize=1000`), 200))).toEqual([]);
          expect(await listed(other.token, 'like_author=%E5%85%B1%E4%BA%AB%E4%BD%9C%E8%80%85&pageSize=1000')).not.toContain(entry.id);
        }
        if (kind.recordFilter) expectRefusal(await get(other.token, `${resourceUrl(kind.name)}?${kind.recordFilter}=${record.id}`), 404, 'The metadata was not found');
        if (kind.i18n) {
          expectRefusal(await get(other.token, `${resourceUrl(kind.i18n.name)}?${kind.i18n.filter}=${entry.id}`), 404, NOT_FOUND);
          expectRefusal(await get(other.token, resourceUrl(kind.i18n.name, entry.translationId)), 404, NOT_FOUND);
        }
      };
      const expectShown = async (token: string) => {
        expect(expectStatus(await get(token, resourceUrl(kind.name, entry.id)), 200).id).toBe(entry.id);
        expect(await listed(token, entry.search)).toEqual([entry.id]);
        if (kind.name === 'author') expect(idsOf(expectStatus(await get(token, `/api/metadata/like_author/?${entry.search}`), 200))).toEqual([entry.id]);
        if (kind.recordFilter) expect(await listed(token, `${kind.recordFilter}=${record.id}&pageSize=100`)).toContain(entry.id);
        if (kind.i18n) {
          expect(idsOf(await listOf(token, kind.i18n.name, `${kind.i18n.filter}=${entry.id}`))).toEqual([entry.translationId]);
          expect(expectStatus(await get(token, resourceUrl(kind.i18n.name, entry.translationId)), 200).id).toBe(entry.translationId);
        }
      };
      await expectHidden();
      await expectShown(owner.token);
      await expectShown(staff.token);
      await setStatus(portal, record.id, 'submitted');
      await expectHidden();
      await setStatus(portal, record.id, 'published');
      await expectShown(other.token);
    });
  }

  for (const kind of SHARED_KINDS) {
    it(`${kind.name}: one somebody made is shown to the user whose record it is linked to, and to nobody else`, async () => {
      const record = await createRecord(portal, owner.token);
      const staging = await createRecord(portal, staff.token);
      const entry = await kind.make(staff.token, staging.id);
      expectRefusal(await get(owner.token, resourceUrl(kind.name, entry.id)), 404, NOT_FOUND);
      await linkDirectly(kind, record.id, entry.id);
      expect(expectStatus(await get(owner.token, resourceUrl(kind.name, entry.id)), 200).id).toBe(entry.id);
      expect(idsOf(await listOf(owner.token, kind.name, entry.search))).toEqual([entry.id]);
      if (kind.i18n) expect(idsOf(await listOf(owner.token, kind.i18n.name, `${kind.i18n.filter}=${entry.id}`))).toEqual([entry.translationId]);
      expectRefusal(await get(other.token, resourceUrl(kind.name, entry.id)), 404, NOT_FOUND);
      expect((await listOf(other.token, kind.name, entry.search)).count).toBe(0);
    });
  }

  it("shows everybody the programme funds, and a user's own unlinked fund to them alone", async () => {
    const fund = await postResource(portal, other.token, 'fund', { name: '私有基金', name_en: 'Private fund' });
    expect(expectStatus(await get(other.token, resourceUrl('fund', fund.id)), 200).id).toBe(fund.id);
    expectRefusal(await get(owner.token, resourceUrl('fund', fund.id)), 404, NOT_FOUND);
    expect(idsOf(await listOf(owner.token, 'fund', 'pageSize=1000'))).not.toContain(fund.id);
    expect(idsOf(await listOf(other.token, 'fund', 'pageSize=1000'))).toContain(fund.id);
    expect(idsOf(await listOf(staff.token, 'fund', 'pageSize=1000'))).toContain(fund.id);
    for (const token of [owner.token, other.token]) {
      expect(idsOf(await listOf(token, 'fund', 'is_core=true')).sort()).toEqual(['5', '6']);
      expect(expectStatus(await get(token, resourceUrl('fund', '6')), 200).is_core).toBe(true);
    }
  });

  it('needs keyword__id or keyword_id in a list of keyword translations, except from staff', async () => {
    const keyword = await addKeyword(portal, owner.token, draft.id, 'theme');
    expectRefusal(await get(owner.token, resourceUrl('keyword-i18n')), 400, 'This filter value is not valid.', 'keyword__id');
    expectRefusal(await get(other.token, `${resourceUrl('keyword-i18n')}?keyword__id=`), 400, 'This filter value is not valid.', 'keyword__id');
    expect(expectStatus(await get(staff.token, `${resourceUrl('keyword-i18n')}?pageSize=1000`), 200).count).toBeGreaterThan(0);
    for (const filter of ['keyword__id', 'keyword_id']) {
      expect(idsOf(await listOf(owner.token, 'keyword-i18n', `${filter}=${keyword.id}`))).toEqual([keyword.translations[0].id]);
      expectRefusal(await get(other.token, `${resourceUrl('keyword-i18n')}?${filter}=${keyword.id}`), 404, NOT_FOUND);
    }
  });
});

describe('who changes a shared entry', () => {
  for (const kind of SHARED_KINDS.filter((k) => k.name !== 'fund')) {
    it(`${kind.name}: in place by its creator while drafts of theirs alone use it, by staff always; otherwise on the writer's copy`, async () => {
      const first = await createRecord(portal, owner.token);
      const second = await createRecord(portal, owner.token);
      const entry = await kind.make(owner.token, first.id);
      await linkDirectly(kind, second.id, entry.id);
      const translation = kind.i18n!;
      const column = `${kind.name}_id`;
      const linkedFrom = async (recordId: string) =>
        ((await (portal.database.db as any).selectFrom(kind.link.table).select(kind.link.column).where('metadata_id', '=', recordId).execute()) as Record<string, string>[]).map(
          (row) => row[kind.link.column],
        );
      // Drafts of the creator's only: the creator changes it in place (and may not delete what records use).
      expect(expectStatus(await put(owner.token, kind.name, entry.id, kind.change), 200).id).toBe(entry.id);
      expect(expectStatus(await patch(owner.token, translation.name, entry.translationId!, kind.changeTranslation!), 200).id).toBe(entry.translationId);
      expectRefusal(await del(owner.token, kind.name, entry.id), 409, 'Other metadata records use this entry, so it cannot be deleted.');

      /** Every write of the creator's goes to a copy linked from `drafts`; the records in `kept` keep the original, which stays as it was. */
      const expectCopied = async (drafts: string[], kept: string[]) => {
        const entryBefore = await storedRow(kind.table, entry.id);
        const translationBefore = await storedRow(translation.table, entry.translationId!);
        const translations = await countRows(portal, translation.table, { [column]: entry.id });
        const writes: [string, () => Promise<LightMyRequestResponse>, number, Record<string, unknown> | null][] = [
          ['PUT', () => put(owner.token, kind.name, entry.id, kind.locked!.entry), 200, kind.locked!.entry],
          ['PATCH', () => patch(owner.token, kind.name, entry.id, kind.locked!.entry), 200, kind.locked!.entry],
          ['PUT translation', () => put(owner.token, translation.name, entry.translationId!, kind.locked!.translation), 200, kind.locked!.translation],
          ['PATCH translation', () => patch(owner.token, translation.name, entry.translationId!, kind.locked!.translation), 200, kind.locked!.translation],
          ['DELETE translation', () => del(owner.token, translation.name, entry.translationId!), 204, null],
        ];
        for (const [name, write, status, change] of writes) {
          const response = await write();
          expect({ name, status: response.statusCode }).toEqual({ name, status });
          const [copyId, ...others] = new Set((await Promise.all(drafts.map(linkedFrom))).flat());
          expect({ name, copies: others.length, copied: copyId !== entry.id }).toEqual({ name, copies: 0, copied: true });
          for (const record of kept) expect(await linkedFrom(record)).toEqual([entry.id]);
          expect(await storedRow(kind.table, copyId!)).toMatchObject({ created_by: owner.id });
          if (change && !name.includes('translation')) expect(response.json()).toMatchObject({ ...change, id: copyId, copied_from: entry.id });
          if (change && name.includes('translation')) expect(response.json()).toMatchObject({ ...change, [column]: copyId, copied_from: entry.id });
          if (!change) expect(await countRows(portal, translation.table, { [column]: copyId! })).toBe(translations - 1);
          // Back to the original for the next write.
          await (portal.database.db as any)
            .updateTable(kind.link.table)
            .set({ [kind.link.column]: entry.id })
            .where('metadata_id', 'in', drafts)
            .execute();
        }
        expectRefusal(await del(owner.token, kind.name, entry.id), 409, 'Other metadata records use this entry, so it cannot be deleted.');
        expect(await storedRow(kind.table, entry.id)).toEqual(entryBefore);
        expect(await storedRow(translation.table, entry.translationId!)).toEqual(translationBefore);
        expect(await countRows(portal, translation.table, { [column]: entry.id })).toBe(translations);
      };

      // Also a draft of somebody else's.
      const othersDraft = await createRecord(portal, other.token);
      await linkDirectly(kind, othersDraft.id, entry.id);
      await expectCopied([first.id, second.id], [othersDraft.id]);
      expect(expectStatus(await patch(staff.token, translation.name, entry.translationId!, kind.changeTranslation!), 200).id).toBe(entry.translationId);
      expect(expectStatus(await put(staff.token, kind.name, entry.id, kind.change), 200).id).toBe(entry.id);
      await (portal.database.db as any).deleteFrom(kind.link.table).where('metadata_id', '=', othersDraft.id).execute();
      expect(expectStatus(await put(owner.token, kind.name, entry.id, kind.change), 200).id).toBe(entry.id);

      // One of the creator's own records leaves the drafts.
      for (const status of ['submitted', 'underReview', 'published']) {
        await setStatus(portal, second.id, status);
        await expectCopied([first.id], [second.id]);
      }
      expect(expectStatus(await patch(staff.token, kind.name, entry.id, kind.change), 200).id).toBe(entry.id);

      // No draft of the creator's uses it: there is nothing to copy for, and it stays as it is.
      await setStatus(portal, first.id, 'submitted');
      const before = await storedRow(kind.table, entry.id);
      expectRefusal(await patch(owner.token, kind.name, entry.id, kind.locked!.entry), 409, SHARED_LOCKED);
      expectRefusal(await patch(owner.token, translation.name, entry.translationId!, kind.locked!.translation), 409, SHARED_LOCKED);
      const chinese = await call(portal, 'PATCH', resourceUrl(kind.name, entry.id), owner.token, { body: kind.locked!.entry });
      expect({ status: chinese.statusCode, body: chinese.json() }).toEqual({ status: 409, body: { detail: SHARED_LOCKED_ZH } });
      // Another user who sees it (a published record uses it) and uses it in no draft has no right to it.
      expectRefusal(await patch(other.token, kind.name, entry.id, kind.locked!.entry), 403, NO_RIGHT);
      expect(await storedRow(kind.table, entry.id)).toEqual(before);
      await setStatus(portal, first.id, 'draft');
      await setStatus(portal, second.id, 'draft');
      expect(expectStatus(await patch(owner.token, translation.name, entry.translationId!, kind.changeTranslation!), 200).id).toBe(entry.translationId);
    });
  }

  it('gives anybody who adds a translation to an author they use in a draft of theirs their own copy, and leaves the original alone', async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm({ name: '无英文名作者' }));
    expect((await del(owner.token, 'author-i18n', author.translations[0].id)).statusCode).toBe(204);
    const record = await createRecord(portal, owner.token);
    await postResource(portal, owner.token, 'meta-author', { metadata: record.id, author: author.id, role: 'owner', event_date: '2024-05-01' });
    await setStatus(portal, record.id, 'published');
    const english = { author: author.id, language: 'en', name: 'Author Without English' };
    // Found through like_author, but used in no draft of theirs: no right.
    expect(idsOf(expectStatus(await get(other.token, `/api/metadata/like_author/?like_author=${encodeURIComponent('无英文名')}`), 200))).toEqual([author.id]);
    expectRefusal(await post(other.token, 'author-i18n', english), 403, NO_RIGHT);
    // Used in a record of theirs that is not a draft: no right either.
    const submitted = await createRecord(portal, other.token);
    await postResource(portal, other.token, 'meta-author', { metadata: submitted.id, author: author.id, role: 'owner', event_date: '2024-05-01' });
    await setStatus(portal, submitted.id, 'submitted');
    expectRefusal(await post(other.token, 'author-i18n', english), 403, NO_RIGHT);
    expect(await countRows(portal, 'author_i18n', { author_id: author.id })).toBe(0);

    const othersDraft = await createRecord(portal, other.token);
    await postResource(portal, other.token, 'meta-author', { metadata: othersDraft.id, author: author.id, role: 'owner', event_date: '2024-05-01' });
    const added = expectStatus(await post(other.token, 'author-i18n', english), 201);
    expect(added).toMatchObject({ language: 'en', name: 'Author Without English', copied_from: author.id });
    expect(added.author_id).not.toBe(author.id);
    expect(expectStatus(await get(other.token, resourceUrl('author', added.author_id)), 200)).toMatchObject({
      name: '无英文名作者',
      created_by: other.id,
      translations: [expect.objectContaining({ id: added.id })],
    });
    expect(expectStatus(await get(other.token, resourceUrl('author', author.id)), 200).translations).toEqual([]);
    expect(await countRows(portal, 'meta_author', { metadata_id: othersDraft.id, author_id: added.author_id })).toBe(1);
    expect(await countRows(portal, 'meta_author', { metadata_id: submitted.id, author_id: author.id })).toBe(1);
    // Their copy is theirs to change in place.
    expect(expectStatus(await put(other.token, 'author-i18n', added.id, { name: 'Changed' }), 200)).toMatchObject({ id: added.id, name: 'Changed' });
    expect(expectStatus(await put(other.token, 'author', added.author_id, { phone: '1' }), 200)).toMatchObject({ id: added.author_id, phone: '1' });
    // The original stays the creator's, who uses it in no draft now (a published record uses it); staff change it in place.
    expectRefusal(await put(owner.token, 'author', author.id, { phone: '2' }), 409, SHARED_LOCKED);
    expect(expectStatus(await put(staff.token, 'author', author.id, { phone: '3' }), 200)).toMatchObject({ id: author.id, phone: '3' });
  });

  it('gives a user who translates a keyword or literature entry they use in a draft a copy, never a change of the original', async () => {
    // Entries of the owner's, used by a published record of theirs, without an English version.
    const record = await createRecord(portal, owner.token);
    const keyword = await addKeyword(portal, owner.token, record.id, 'theme', '缺译关键词');
    expect((await del(owner.token, 'keyword-i18n', keyword.translations[0].id)).statusCode).toBe(204);
    const entry = await postResource(portal, owner.token, 'literature', { title: '缺译文献', type: 'reference', metadata: record.id });
    await setStatus(portal, record.id, 'published');
    expectRefusal(await post(other.token, 'keyword-i18n', { keyword: keyword.id, language: 'en', name: 'Untranslated' }), 403, NO_RIGHT);
    expectRefusal(await post(other.token, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Untranslated' }), 403, NO_RIGHT);
    const othersDraft = await createRecord(portal, other.token);
    for (const kind of SHARED_KINDS.slice(1, 3)) await linkDirectly(kind, othersDraft.id, kind.name === 'keyword' ? keyword.id : entry.id);
    const keywordCopy = expectStatus(await post(other.token, 'keyword-i18n', { keyword: keyword.id, language: 'en', name: 'Untranslated' }), 201).keyword_id;
    const literatureCopy = expectStatus(await post(other.token, 'literature-i18n', { literature: entry.id, language: 'en', title: 'Untranslated' }), 201).literature_id;
    expect(await countRows(portal, 'keyword_i18n', { keyword_id: keyword.id })).toBe(0);
    expect(await countRows(portal, 'literature_i18n', { literature_id: entry.id })).toBe(0);
    expect(await countRows(portal, 'keyword_i18n', { keyword_id: keywordCopy })).toBe(1);
    expect(await countRows(portal, 'literature_i18n', { literature_id: literatureCopy })).toBe(1);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: othersDraft.id, keyword_id: keywordCopy })).toBe(1);
    expect(await countRows(portal, 'citations', { metadata_id: othersDraft.id, literature_id: literatureCopy })).toBe(1);
  });
});
