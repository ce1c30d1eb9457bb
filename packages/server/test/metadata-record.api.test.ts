import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataI18nFields, metadataUpdateSchema, PROJECTIONS } from '@portal/shared';
import { buildAttachment, buildCatalogue, buildDataFile, buildRecord, buildThumbnail, buildUser, type Person } from './factories.js';
import { createTestPortal, EN, form, FORM, tokenHeader, type TestPortal } from './helpers.js';
import {
  addAuthor,
  addKeyword,
  call,
  countRows,
  createRecord,
  expectStatus,
  getRecord,
  patchRecord,
  postResource,
  recordUrl,
  resourceUrl,
  setStatus,
  storedStatus,
} from './metadata-builders.js';

type User = Person;

let portal: TestPortal;
let owner: User;
let other: User;
let staff: User;
/** A user with no records but those a test gives them: lists of theirs are exact. */
let lister: User;
beforeAll(async () => {
  portal = await createTestPortal();
  [owner, other, staff, lister] = await Promise.all([buildUser(portal, { realname: '卓玛' }), buildUser(portal), buildUser(portal, { staff: true }), buildUser(portal)]);
});
afterAll(async () => {
  await portal.close();
});

const NO_RIGHT_EN = 'Sorry, you have no right to modify the data entity of this metadata';
const NO_RIGHT_ZH = '对不起，您无权修改该元数据的数据实体';
/** Another user's draft answers as an unknown record does (no existence leak). */
const HIDDEN_EN = 'The metadata was not found';
const HIDDEN_ZH = '未找到该元数据';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PERSONAL = { personal: 'true' };
const list = (token: string | null, query = '', headers: Record<string, string> = {}) => call(portal, 'GET', `/api/metadata/metadata/${query}`, token, { headers });
const ids = (page: { results: { id: string }[] }) => page.results.map((r) => r.id);

describe('GET /api/metadata/metadata/', () => {
  let draft: string;
  let published: string;
  let othersDraft: string;
  beforeAll(async () => {
    draft = await buildRecord(portal, { owner, title: '草稿记录' });
    published = await buildRecord(portal, { owner, title: '已发布记录' });
    await setStatus(portal, published, 'published');
    othersDraft = await buildRecord(portal, { owner: other, title: '别人的草稿' });
  });

  it('shows an anonymous visitor the published records only', async () => {
    const page = expectStatus(await list(null, '?pageSize=1000'), 200);
    expect(ids(page)).toContain(published);
    expect(ids(page)).not.toContain(draft);
    expect(ids(page)).not.toContain(othersDraft);
    expect(page.results.every((r: { status: string }) => r.status === 'published')).toBe(true);
  });

  it('gives every row the title of its version in the other language, for a list in that language', async () => {
    const chinese = await buildRecord(portal, { owner, title: '冰湖编目', translation: { title: 'Glacial lakes of the Himalaya' } });
    const english = await buildRecord(portal, { owner, language: 'en', title: 'Glacial lake inventory', translation: { title: '喜马拉雅冰湖' } });
    const untranslated = await buildRecord(portal, { owner, title: '未翻译' });
    const page = expectStatus(await list(owner.token, '?pageSize=1000', PERSONAL), 200);
    const row = (id: string) => page.results.find((r: { id: string }) => r.id === id);
    expect(row(chinese)).toMatchObject({ title: '冰湖编目', translation_title: 'Glacial lakes of the Himalaya' });
    expect(row(english)).toMatchObject({ title: 'Glacial lake inventory', translation_title: '喜马拉雅冰湖' });
    expect(row(untranslated).translation_title ?? '').toBe('');
  });

  it('shows an anonymous visitor nothing when asked for drafts', async () => {
    expect(expectStatus(await list(null, '?status=draft'), 200)).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('shows an anonymous visitor nothing of theirs with the Personal header', async () => {
    const page = expectStatus(await list(null, '?pageSize=1000', PERSONAL), 200);
    expect(ids(page)).not.toContain(draft);
    expect(page.results.every((r: { status: string }) => r.status === 'published')).toBe(true);
  });

  it("shows a user their own records and the published ones, not others' drafts", async () => {
    const page = expectStatus(await list(other.token, '?pageSize=1000'), 200);
    expect(ids(page)).toContain(othersDraft);
    expect(ids(page)).toContain(published);
    expect(ids(page)).not.toContain(draft);
  });

  it("restricts the list to the caller's own records with the Personal header", async () => {
    const page = expectStatus(await list(other.token, '?pageSize=1000', PERSONAL), 200);
    expect(ids(page)).toContain(othersDraft);
    expect(ids(page)).not.toContain(published);
    expect(page.results.every((r: { owner: string }) => r.owner === other.id)).toBe(true);
  });

  it('shows staff every record, and only their own with the Personal header', async () => {
    const all = expectStatus(await list(staff.token, '?pageSize=1000'), 200);
    expect(ids(all)).toEqual(expect.arrayContaining([draft, published, othersDraft]));
    const own = expectStatus(await list(staff.token, '?pageSize=1000', PERSONAL), 200);
    expect(ids(own)).not.toContain(draft);
    expect(ids(own)).not.toContain(othersDraft);
    const adminPage = expectStatus(await list(staff.token, '?pageSize=1000', { personal: 'false' }), 200);
    expect(ids(adminPage)).toContain(draft);
  });

  it('shows each record with its owner, owner name and fund ids', async () => {
    const page = expectStatus(await list(owner.token, '?pageSize=1000', PERSONAL), 200);
    const shown = page.results.find((r: { id: string }) => r.id === draft);
    expect(shown).toMatchObject({ id: draft, title: '草稿记录', status: 'draft', owner: owner.id, owner_name: '卓玛', fund: [], language: 'zh-hans' });
  });

  describe('paging', () => {
    const made: string[] = [];
    beforeAll(async () => {
      // Newest first: the list sorts by the time of the last change.
      for (const title of ['一', '二', '三']) {
        made.unshift(await buildRecord(portal, { owner: lister, title }));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });

    it('answers {count, next, previous, results} with links keeping the other parameters', async () => {
      const first = expectStatus(await list(lister.token, '?pageSize=2&_r=0.123', PERSONAL), 200);
      expect(first.count).toBe(3);
      expect(first.previous).toBeNull();
      expect(first.next).toBe('/api/metadata/metadata/?pageSize=2&page=2');
      expect(ids(first)).toEqual(made.slice(0, 2));
      const second = expectStatus(await list(lister.token, '?pageSize=2&page=2', PERSONAL), 200);
      expect(second).toMatchObject({ count: 3, next: null, previous: '/api/metadata/metadata/?pageSize=2&page=1' });
      expect(ids(second)).toEqual(made.slice(2));
    });

    it('answers an empty page past the end', async () => {
      const page = expectStatus(await list(lister.token, '?pageSize=2&page=5', PERSONAL), 200);
      expect(page).toMatchObject({ count: 3, next: null, results: [] });
    });

    it('refuses a page size over the maximum and a page 0', async () => {
      expect((await list(lister.token, '?pageSize=100000', PERSONAL)).statusCode).toBe(400);
      expect((await list(lister.token, '?page=0', PERSONAL)).statusCode).toBe(400);
    });
  });

  describe('status filters', () => {
    let submitted: string;
    let refused: string;
    let draftOfLister: string;
    beforeAll(async () => {
      submitted = await buildRecord(portal, { owner: lister, title: '审核中' });
      await setStatus(portal, submitted, 'submitted');
      refused = await buildRecord(portal, { owner: lister, title: '未通过' });
      await setStatus(portal, refused, 'refuse');
      draftOfLister = await buildRecord(portal, { owner: lister, title: '又一个草稿' });
    });

    it('filters by one status', async () => {
      const page = expectStatus(await list(lister.token, '?status=submitted&pageSize=100', PERSONAL), 200);
      expect(ids(page)).toEqual([submitted]);
    });

    it('filters by several statuses sent as status[]', async () => {
      const page = expectStatus(await list(lister.token, '?status[]=submitted&status[]=refuse&pageSize=100', PERSONAL), 200);
      expect(ids(page).sort()).toEqual([submitted, refused].sort());
      expect(ids(page)).not.toContain(draftOfLister);
    });

    it('filters by one status sent as status[]', async () => {
      const page = expectStatus(await list(lister.token, `?status%5B%5D=refuse&pageSize=100`, PERSONAL), 200);
      expect(ids(page)).toEqual([refused]);
    });

    it('filters by a repeated status', async () => {
      const page = expectStatus(await list(lister.token, '?status=submitted&status=refuse&pageSize=100', PERSONAL), 200);
      expect(ids(page).sort()).toEqual([submitted, refused].sort());
    });

    it('refuses a status that does not exist', async () => {
      const response = await list(lister.token, '?status=lost', EN);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toBe('Please choose one of the listed options.');
      expect((await list(lister.token, '?status[]=draft&status[]=lost')).statusCode).toBe(400);
    });
  });

  it('finds records by their title or their English title', async () => {
    const record = await buildRecord(portal, { owner, title: '纳木错湖冰物候', translation: { title: 'Nam Co lake ice phenology' } });
    expect(ids(expectStatus(await list(owner.token, `?search=${encodeURIComponent('纳木错')}`, PERSONAL), 200))).toEqual([record]);
    expect(ids(expectStatus(await list(owner.token, '?search=LAKE%20ICE', PERSONAL), 200))).toEqual([record]);
    expect(expectStatus(await list(owner.token, '?search=%25', PERSONAL), 200).count).toBe(0);
  });
});

describe('POST /api/metadata/metadata/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const response = await call(portal, 'POST', '/api/metadata/metadata/', null, { body: { language: 'zh-hans' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
  });

  it('creates a draft of the caller with an unguessable id', async () => {
    const response = await call(portal, 'POST', '/api/metadata/metadata/', owner.token, { body: { language: 'zh-hans', title: '冻土温度' } });
    expect(response.statusCode).toBe(201);
    const record = response.json();
    expect(record).toMatchObject({ status: 'draft', language: 'zh-hans', title: '冻土温度', owner: owner.id, fund: [], hit_count: 0 });
    expect(record.id).toMatch(UUID);
    expect(await getRecord(portal, owner.token, record.id)).toMatchObject({ id: record.id, title: '冻土温度' });
  });

  it('gives two records unrelated ids', async () => {
    const a = (await createRecord(portal, owner.token)).id as string;
    const b = (await createRecord(portal, owner.token)).id as string;
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    const differing = [...a.replace(/-/g, '')].filter((c, i) => c !== b.replace(/-/g, '')[i]).length;
    expect(differing).toBeGreaterThan(10);
  });

  it('creates the English version of a Chinese record', async () => {
    const record = await createRecord(portal, owner.token, { language: 'zh-hans' });
    expect(record.translations).toHaveLength(1);
    expect(record.translations[0]).toMatchObject({ metadata_id: record.id, language: 'en', title: '' });
    const versions = expectStatus(await call(portal, 'GET', `${resourceUrl('metadata-i18n')}?metadata__id=${record.id}`, owner.token), 200);
    expect(versions.results.map((v: { language: string }) => v.language)).toEqual(['en']);
  });

  it("keeps the distributor's organisation and address (street, city, province, country) of the translation (issue 16)", async () => {
    const record = await createRecord(portal, owner.token, { language: 'zh-hans' });
    const url = resourceUrl('metadata-i18n', record.translations[0].id);
    const distributor = {
      dist_unit: 'National Tibetan Plateau Data Center',
      dist_address: '16 Lincui Road, Beijing',
      dist_city: 'Lhasa',
      dist_province: 'Tibet',
      dist_country: 'China',
    };
    expect(expectStatus(await call(portal, 'PATCH', url, owner.token, { body: distributor }), 200)).toMatchObject(distributor);
    expect(expectStatus(await call(portal, 'GET', url, owner.token), 200)).toMatchObject({ language: 'en', ...distributor });
    expect((await getRecord(portal, owner.token, record.id)).translations[0]).toMatchObject(distributor);
    // The same limits as the record's own fields.
    expect((await call(portal, 'PATCH', url, owner.token, { body: { dist_unit: 'x'.repeat(10_000) } })).statusCode).toBe(400);
    for (const field of ['dist_city', 'dist_province', 'dist_country']) {
      expect((await call(portal, 'PATCH', url, owner.token, { body: { [field]: 'x'.repeat(10_000) } })).statusCode, field).toBe(400);
    }
    expect(expectStatus(await call(portal, 'GET', url, owner.token), 200)).toMatchObject(distributor);
  });

  it('creates the Chinese version of an English record', async () => {
    const record = await createRecord(portal, owner.token, { language: 'en', title: 'Permafrost temperature' });
    expect(record.translations.map((t: { language: string }) => t.language)).toEqual(['zh-hans']);
  });

  it('needs the language first: Chinese message by default, English when asked', async () => {
    const response = await call(portal, 'POST', '/api/metadata/metadata/', owner.token, { body: { title: '没有语言' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ language: ['请先选择元数据的语言。'], detail: '请先选择元数据的语言。' });
    const english = await call(portal, 'POST', '/api/metadata/metadata/', owner.token, { body: { title: 'No language' }, headers: EN });
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({ language: ['Please choose the language of the metadata first.'], detail: 'Please choose the language of the metadata first.' });
  });

  it('refuses a language that is not offered and a title that is too long, creating nothing', async () => {
    const before = await countRows(portal, 'metadata', { owner_id: owner.id });
    const french = await call(portal, 'POST', '/api/metadata/metadata/', owner.token, { body: { language: 'fr' }, headers: EN });
    expect(french.statusCode).toBe(400);
    expect(french.json().language).toEqual(['Please choose the language of the metadata first.']);
    const long = await call(portal, 'POST', '/api/metadata/metadata/', owner.token, { body: { language: 'en', title: 'x'.repeat(501) }, headers: EN });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ title: ['This text is too long.'], detail: 'This text is too long.' });
    expect(await countRows(portal, 'metadata', { owner_id: owner.id })).toBe(before);
  });

  it('accepts a form post', async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/api/metadata/metadata/',
      headers: { ...FORM, ...tokenHeader(owner.token) },
      payload: form({ language: 'en', title: 'Lake levels' }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ language: 'en', title: 'Lake levels' });
  });
});

describe('GET /api/metadata/metadata/{id}/', () => {
  let draft: string;
  beforeAll(async () => {
    draft = await buildRecord(portal, { owner, title: '读取测试' });
  });

  it('shows a draft to its creator, with its translations', async () => {
    const record = await getRecord(portal, owner.token, draft);
    expect(record).toMatchObject({ id: draft, status: 'draft', owner: owner.id, owner_name: '卓玛' });
    expect(record.translations).toHaveLength(1);
  });

  it('shows a draft to staff', async () => {
    expect((await getRecord(portal, staff.token, draft)).id).toBe(draft);
  });

  it('answers 404 to another user and to a visitor, in their language', async () => {
    const response = await call(portal, 'GET', recordUrl(draft), other.token);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: '未找到该元数据' });
    const english = await call(portal, 'GET', recordUrl(draft), null, { headers: EN });
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ detail: 'The metadata was not found' });
  });

  it('answers the same 404 for an id that does not exist', async () => {
    const response = await call(portal, 'GET', recordUrl('00000000-0000-4000-8000-000000000000'), owner.token, { headers: EN });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'The metadata was not found' });
  });

  it('shows a published record to everybody', async () => {
    const record = await buildRecord(portal, { owner, title: '公开' });
    await setStatus(portal, record, 'published');
    expect((await getRecord(portal, null, record)).title).toBe('公开');
    expect((await getRecord(portal, other.token, record)).title).toBe('公开');
  });

  it('answers a published record kept in memory with the counts of now, whatever its texts hold', async () => {
    const title = 'Counts "hit_count":-1, "download_count":-1 } {';
    const { kept } = await buildCatalogue(portal, owner.id, [{ key: 'kept', language: 'en', published: '2026-01-01', zh: { title: '计数' }, en: { title } }]);
    const record = { id: kept! };
    const first = await getRecord(portal, null, record.id);
    expect(first).toMatchObject({ title, hit_count: 0, download_count: 0 });
    await portal.database.db.updateTable('search_entries').set({ hit_count: 7, download_count: 3 }).where('metadata_id', '=', record.id).execute();
    const second = await getRecord(portal, null, record.id);
    expect(second).toEqual({ ...first, hit_count: 7, download_count: 3 });
  });

  it("answers the record's fields, not the review's facts kept on its row (the review state answers those)", async () => {
    const record = await buildRecord(portal, { owner, title: '审核事实' });
    await setStatus(portal, record, 'published');
    const shown = await getRecord(portal, null, record);
    expect(shown).toMatchObject({ id: record, status: 'published', embargo_until: null, fund: [] });
    for (const field of ['topic_review_status', 'is_pre_review', 'review_round', 'published_without_review', 'unpublish_reason']) {
      expect(shown, field).not.toHaveProperty(field);
    }
    const listed = expectStatus(await call(portal, 'GET', `/api/metadata/metadata/?search=${encodeURIComponent('审核事实')}`, null), 200);
    expect(listed.results).toHaveLength(1);
    expect(listed.results[0]).not.toHaveProperty('is_pre_review');
  });
});

describe('PUT and PATCH /api/metadata/metadata/{id}/', () => {
  let record: string;
  beforeAll(async () => {
    record = await buildRecord(portal, { owner, title: '编辑测试' });
  });

  it('refuses an anonymous caller with 401', async () => {
    const response = await call(portal, 'PUT', recordUrl(record), null, { body: { title: '匿名' } });
    expect(response.statusCode).toBe(401);
    expect((await getRecord(portal, owner.token, record)).title).toBe('编辑测试');
  });

  it("answers another user 404 for a draft they cannot see, and 403 with the spec's text for a published one", async () => {
    const hidden = await call(portal, 'PUT', recordUrl(record), other.token, { body: { title: '别人改' }, headers: EN });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ detail: HIDDEN_EN });
    const hiddenZh = await call(portal, 'PATCH', recordUrl(record), other.token, { body: { title: '别人改' } });
    expect(hiddenZh.statusCode).toBe(404);
    expect(hiddenZh.json()).toEqual({ detail: HIDDEN_ZH });
    // Refused a write, the draft stays unreadable to them.
    const read = await call(portal, 'GET', recordUrl(record), other.token, { headers: EN });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ detail: 'The metadata was not found' });
    const visible = await buildRecord(portal, { owner, title: '已发布' });
    await setStatus(portal, visible, 'published');
    const response = await call(portal, 'PATCH', recordUrl(visible), other.token, { body: { title: '别人改' }, headers: EN });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: NO_RIGHT_EN });
    expect((await getRecord(portal, owner.token, record)).title).toBe('编辑测试');
    expect((await getRecord(portal, owner.token, visible)).title).toBe('已发布');
  });

  it('saves every kind of field and answers the record', async () => {
    const response = await call(portal, 'PUT', recordUrl(record), owner.token, {
      body: {
        title: '  青海湖水位  ',
        description: '青海湖逐日水位观测。',
        license: 'CC BY-NC-SA 4.0',
        projection: 'Albers',
        temporal_resolution: '1-10years',
        doi_category: 'own',
        protection_period: 'oneYear',
        sharing_policy: 'offlineCenter',
        submitting_type: 'paper',
        platform: 'ptpe',
        file_size: '3.25',
        east: 100.5,
        west: -179.9,
        south: -90,
        north: 90,
        scale: 250000,
        time_start: '2000-02-29',
        time_end: '2000-02-29',
        dist_email: 'data@example.org',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: record,
      title: '青海湖水位',
      license: 'CC BY-NC-SA 4.0',
      projection: 'Albers',
      temporal_resolution: '1-10years',
      platform: 'ptpe',
      file_size: 3.25,
      east: 100.5,
      west: -179.9,
      south: -90,
      north: 90,
      scale: 250000,
      time_start: '2000-02-29',
      status: 'draft',
    });
    expect(await getRecord(portal, owner.token, record)).toMatchObject({ title: '青海湖水位', scale: 250000, file_size: 3.25 });
  });

  it('keeps the fields a PATCH leaves out and clears a number sent empty', async () => {
    await patchRecord(portal, owner.token, record, { file_size: 7, category: '水文' });
    const after = await patchRecord(portal, owner.token, record, { file_size: '' });
    expect(after).toMatchObject({ file_size: null, category: '水文', title: '青海湖水位' });
  });

  it('accepts a form post, numbers as text', async () => {
    const response = await call(portal, 'PATCH', recordUrl(record), owner.token, { body: { east: '101', scale: '100000' }, asForm: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ east: 101, scale: 100000 });
  });

  it('never lets a caller change the status, the owner or the id', async () => {
    const response = await call(portal, 'PUT', recordUrl(record), owner.token, { body: { status: 'published', owner_id: other.id, id: 'mine', hit_count: 99 } });
    expect(response.statusCode).toBe(200);
    const shown = await getRecord(portal, owner.token, record);
    expect(shown).toMatchObject({ id: record, status: 'draft', owner: owner.id, hit_count: 0 });
  });

  describe('refuses bad values and changes nothing', () => {
    const OPTION = ['请从列出的选项中选择。', 'Please choose one of the listed options.'] as const;
    const NUMBER = ['请输入数字。', 'Please enter a number.'] as const;
    const LONGITUDE = ['经度必须在 -180 到 180 之间。', 'Longitude must be between -180 and 180.'] as const;
    const LATITUDE = ['纬度必须在 -90 到 90 之间。', 'Latitude must be between -90 and 90.'] as const;
    const DATE = ['请按 YYYY-MM-DD 格式输入日期。', 'Please enter a date as YYYY-MM-DD.'] as const;
    const TOO_LONG = ['内容过长。', 'This text is too long.'] as const;
    const cases: [name: string, fields: Record<string, unknown>, field: string, texts: readonly [string, string]][] = [
      ['a licence not in the list', { license: 'CC0' }, 'license', OPTION],
      ['a projection not in the list', { projection: 'Mercator' }, 'projection', OPTION],
      ['the placeholder of the spec text as a projection', { projection: '{token}' }, 'projection', OPTION],
      ['a temporal resolution not in the list', { temporal_resolution: 'weekly' }, 'temporal_resolution', OPTION],
      ['a platform that is no site', { platform: 'elsewhere' }, 'platform', OPTION],
      ['a sharing policy not in the list', { sharing_policy: 'closed' }, 'sharing_policy', OPTION],
      ['a protection period not in the list', { protection_period: 'forever' }, 'protection_period', OPTION],
      ['a file size that is no number', { file_size: 'big' }, 'file_size', NUMBER],
      ['a negative file size', { file_size: -1 }, 'file_size', ['文件大小以 MB 计，不小于 0。', 'The file size is a number of MB, 0 or more.']],
      ['an east longitude over 180', { east: 180.01 }, 'east', LONGITUDE],
      ['a west longitude under -180', { west: '-181' }, 'west', LONGITUDE],
      ['a south latitude under -90', { south: -90.5 }, 'south', LATITUDE],
      ['a north latitude over 90', { north: 91 }, 'north', LATITUDE],
      ['a longitude that is no number', { east: 'east' }, 'east', NUMBER],
      ['a scale that is no whole number', { scale: 1.5 }, 'scale', ['比例尺分母为不小于 1 的整数。', 'The scale denominator is a whole number, 1 or more.']],
      ['a date in another format', { time_start: '2020/01/01' }, 'time_start', DATE],
      ['a date that does not exist', { time_end: '2021-02-29' }, 'time_end', DATE],
      ['a month that does not exist', { time_start: '2021-13-01' }, 'time_start', DATE],
      [
        'a time range ending before it starts',
        { time_start: '2020-01-02', time_end: '2020-01-01' },
        'time_end',
        ['时间范围的结束不能早于开始。', 'The end of the time range must not be before its start.'],
      ],
      ['a north latitude south of the south one', { south: 30, north: 20 }, 'north', ['北纬不能小于南纬。', 'The north latitude must not be south of the south latitude.']],
      ['a title that is too long', { title: '冰'.repeat(501) }, 'title', TOO_LONG],
      ['an abstract that is too long', { description: 'a'.repeat(20_001) }, 'description', TOO_LONG],
      ['a category that is too long', { category: 'c'.repeat(201) }, 'category', TOO_LONG],
      ['a distribution e-mail that is no address', { dist_email: 'nowhere' }, 'dist_email', ['电子邮箱格式不正确！', 'The input is not valid E-mail!']],
      ['a title that is no text', { title: 42 }, 'title', ['输入的值无效。', 'This value is not valid.']],
    ];
    for (const [name, fields, field, [zh, en]] of cases) {
      it(name, async () => {
        const before = await getRecord(portal, owner.token, record);
        const response = await call(portal, 'PUT', recordUrl(record), owner.token, { body: { ...fields, data_source: '不该保存' } });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ [field]: [zh], detail: zh });
        const english = await call(portal, 'PATCH', recordUrl(record), owner.token, { body: fields, headers: EN });
        expect(english.statusCode).toBe(400);
        expect(english.json()).toEqual({ [field]: [en], detail: en });
        expect(await getRecord(portal, owner.token, record)).toEqual(before);
      });
    }
  });

  it('refuses an end date before the stored start date', async () => {
    const dated = await buildRecord(portal, { owner });
    await patchRecord(portal, owner.token, dated, { time_start: '2010-06-01', time_end: '2012-01-01' });
    const response = await call(portal, 'PATCH', recordUrl(dated), owner.token, { body: { time_end: '2009-01-01' }, headers: EN });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ time_end: ['The end of the time range must not be before its start.'], detail: 'The end of the time range must not be before its start.' });
    const later = await call(portal, 'PATCH', recordUrl(dated), owner.token, { body: { time_start: '2013-01-01' } });
    expect(later.statusCode).toBe(400);
    expect(await getRecord(portal, owner.token, dated)).toMatchObject({ time_start: '2010-06-01', time_end: '2012-01-01' });
  });

  it('refuses a north latitude south of the stored south latitude', async () => {
    const placed = await buildRecord(portal, { owner });
    await patchRecord(portal, owner.token, placed, { south: 30, north: 35 });
    const response = await call(portal, 'PATCH', recordUrl(placed), owner.token, { body: { north: 29 }, headers: EN });
    expect(response.statusCode).toBe(400);
    expect(response.json().north).toEqual(['The north latitude must not be south of the south latitude.']);
    expect(await getRecord(portal, owner.token, placed)).toMatchObject({ south: 30, north: 35 });
  });

  it('lets staff change a record of somebody else', async () => {
    const response = await call(portal, 'PATCH', recordUrl(record), staff.token, { body: { category: '冰冻圈' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ category: '冰冻圈', owner: owner.id });
  });

  it('answers 404 for a record that does not exist', async () => {
    const response = await call(portal, 'PATCH', recordUrl('00000000-0000-4000-8000-000000000000'), owner.token, { body: { title: 'x' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('DELETE /api/metadata/metadata/{id}/', () => {
  it('refuses an anonymous caller with 401 and another user, who cannot see the draft, with 404, deleting nothing', async () => {
    const record = await buildRecord(portal, { owner });
    await addKeyword(portal, owner.token, record, 'place');
    expect((await call(portal, 'DELETE', recordUrl(record), null)).statusCode).toBe(401);
    const english = await call(portal, 'DELETE', recordUrl(record), other.token, { headers: EN });
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ detail: HIDDEN_EN });
    const chinese = await call(portal, 'DELETE', recordUrl(record), other.token);
    expect(chinese.statusCode).toBe(404);
    expect(chinese.json()).toEqual({ detail: HIDDEN_ZH });
    expect(await storedStatus(portal, record)).toBe('draft');
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record })).toBe(1);
    expect(await countRows(portal, 'metadata_i18n', { metadata_id: record })).toBe(1);
  });

  it('refuses another user a published record with 403', async () => {
    const record = await buildRecord(portal, { owner });
    await setStatus(portal, record, 'published');
    const response = await call(portal, 'DELETE', recordUrl(record), other.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: NO_RIGHT_ZH });
    expect(await storedStatus(portal, record)).toBe('published');
  });

  it('deletes a draft of the caller with everything attached to it', async () => {
    const record = await buildRecord(portal, { owner });
    const { author } = await addAuthor(portal, owner.token, record);
    await addKeyword(portal, owner.token, record, 'place');
    const response = await call(portal, 'DELETE', recordUrl(record), owner.token);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await call(portal, 'GET', recordUrl(record), owner.token)).statusCode).toBe(404);
    expect(await countRows(portal, 'meta_author', { metadata_id: record })).toBe(0);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: record })).toBe(0);
    expect(await countRows(portal, 'metadata_i18n', { metadata_id: record })).toBe(0);
    // The shared author stays for the other records.
    expect(await countRows(portal, 'authors', { id: author.id })).toBe(1);
  });

  it('refuses its creator a record in review with 409, and lets staff delete it', async () => {
    const record = await buildRecord(portal, { owner });
    await setStatus(portal, record, 'submitted');
    const response = await call(portal, 'DELETE', recordUrl(record), owner.token, { headers: EN });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: 'The metadata is in review and cannot be changed. Return it to draft first.' });
    expect(await storedStatus(portal, record)).toBe('submitted');
    expect((await call(portal, 'DELETE', recordUrl(record), staff.token)).statusCode).toBe(204);
    expect(await storedStatus(portal, record)).toBeUndefined();
  });
});

describe('POST /metadata/duplication/{id}', () => {
  const duplicate = (token: string | null, id: string) => call(portal, 'POST', `/metadata/duplication/${id}`, token);
  let source: string;
  let englishId: string;
  beforeAll(async () => {
    source = await buildRecord(portal, { owner, title: '复制源', translation: { title: 'Copy source' }, columns: { east: 90, file_size: 5, scale: 1000 } });
    englishId = (await getRecord(portal, owner.token, source)).translations[0]!.id;
    await addAuthor(portal, owner.token, source);
    await addKeyword(portal, owner.token, source, 'theme', '冰川');
    await postResource(portal, owner.token, 'meta-fund', { metadata: source, fund: '6' });
    await buildThumbnail(portal, source, owner);
    await buildDataFile(portal, source, owner);
  });

  it('refuses an anonymous caller with 401 and another user, who cannot see the draft, with 404, copying nothing', async () => {
    const before = await countRows(portal, 'metadata');
    expect((await duplicate(null, source)).statusCode).toBe(401);
    const english = await call(portal, 'POST', `/metadata/duplication/${source}`, other.token, { headers: EN });
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ detail: HIDDEN_EN });
    const chinese = await duplicate(other.token, source);
    expect(chinese.statusCode).toBe(404);
    expect(chinese.json()).toEqual({ detail: HIDDEN_ZH });
    expect(await countRows(portal, 'metadata')).toBe(before);
  });

  it('makes a new draft with the fields, translations and links, not the stored files', async () => {
    const before = await countRows(portal, 'metadata');
    const response = await duplicate(owner.token, source);
    expect(response.statusCode).toBe(201);
    const copy = response.json();
    expect(copy.id).not.toBe(source);
    expect(copy.id).toMatch(UUID);
    expect(copy).toMatchObject({ status: 'draft', owner: owner.id, title: '复制源', east: 90, file_size: 5, scale: 1000, fund: ['6'] });
    expect(copy.translations).toHaveLength(1);
    expect(copy.translations[0]).toMatchObject({ language: 'en', title: 'Copy source', metadata_id: copy.id });
    expect(copy.translations[0].id).not.toBe(englishId);
    expect(await countRows(portal, 'metadata')).toBe(before + 1);
    expect(await countRows(portal, 'meta_author', { metadata_id: copy.id })).toBe(1);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: copy.id })).toBe(1);
    expect(await countRows(portal, 'meta_media', { metadata_id: copy.id })).toBe(0);
    expect(await countRows(portal, 'meta_file', { metadata_id: copy.id })).toBe(0);
    // The copy is a record of its own: changing it leaves the source alone.
    await patchRecord(portal, owner.token, copy.id, { title: '副本' });
    expect((await getRecord(portal, owner.token, source)).title).toBe('复制源');
  });

  it('makes a draft of a record in review', async () => {
    const inReview = await buildRecord(portal, { owner, title: '审核中' });
    await setStatus(portal, inReview, 'submitted');
    const copy = expectStatus(await duplicate(owner.token, inReview), 201);
    expect(copy.status).toBe('draft');
    expect(await storedStatus(portal, inReview)).toBe('submitted');
  });

  it('lets the copy of a published record change the entries it shares with the original, on copies of its own', async () => {
    const original = await buildRecord(portal, { owner, title: '已发布原件' });
    const literature = await postResource(portal, owner.token, 'literature', { title: '共享文献', type: 'reference', metadata: original });
    const { author } = await addAuthor(portal, owner.token, original);
    const keyword = await addKeyword(portal, owner.token, original, 'theme', '共享主题');
    await setStatus(portal, original, 'published');
    const copy = expectStatus(await duplicate(owner.token, original), 201);
    expect(await countRows(portal, 'citations', { metadata_id: copy.id, literature_id: literature.id })).toBe(1);
    const db = portal.database.db as any;
    const stored = async () => ({
      literature: await db.selectFrom('literature').selectAll().where('id', '=', literature.id).executeTakeFirst(),
      literatureI18n: await db.selectFrom('literature_i18n').selectAll().where('literature_id', '=', literature.id).execute(),
      author: await db.selectFrom('authors').selectAll().where('id', '=', author.id).executeTakeFirst(),
      authorI18n: await db.selectFrom('author_i18n').selectAll().where('author_id', '=', author.id).execute(),
      keyword: await db.selectFrom('keywords').selectAll().where('id', '=', keyword.id).executeTakeFirst(),
      originalLinks: [
        await countRows(portal, 'citations', { metadata_id: original, literature_id: literature.id }),
        await countRows(portal, 'meta_author', { metadata_id: original, author_id: author.id }),
        await countRows(portal, 'meta_keyword', { metadata_id: original, keyword_id: keyword.id }),
      ],
    });
    const before = await stored();
    const literatureCopy = expectStatus(await call(portal, 'PATCH', resourceUrl('literature', literature.id), owner.token, { body: { title: '副本里改题目' } }), 200);
    expect(literatureCopy).toMatchObject({ title: '副本里改题目', copied_from: literature.id });
    const authorCopy = expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), owner.token, { body: { phone: '1', metadata: copy.id } }), 200);
    const keywordCopy = expectStatus(await call(portal, 'PATCH', resourceUrl('keyword-i18n', keyword.translations[0].id), owner.token, { body: { name: 'Renamed' } }), 200);
    expect(await countRows(portal, 'citations', { metadata_id: copy.id, literature_id: literatureCopy.id })).toBe(1);
    expect(await countRows(portal, 'meta_author', { metadata_id: copy.id, author_id: authorCopy.id })).toBe(1);
    expect(await countRows(portal, 'meta_keyword', { metadata_id: copy.id, keyword_id: keywordCopy.keyword_id })).toBe(1);
    // The published original keeps its entries as they were; deleting one it uses stays refused.
    expect(await stored()).toEqual(before);
    expect((await call(portal, 'DELETE', resourceUrl('keyword', keyword.id), owner.token)).statusCode).toBe(409);
  });

  it('refuses another user a published record with 403', async () => {
    const published = await buildRecord(portal, { owner });
    await setStatus(portal, published, 'published');
    const response = await duplicate(other.token, published);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: NO_RIGHT_ZH });
  });
});

describe('GET /metadata/metadata-is-null/', () => {
  const isNull = (token: string | null, id: string) => call(portal, 'GET', `/metadata/metadata-is-null/?id=${id}`, token);

  it("refuses an anonymous caller with 401, another user's hidden draft with 404 and their published record with 403 'no right'", async () => {
    const record = await createRecord(portal, owner.token, { title: undefined });
    expect((await isNull(null, record.id)).statusCode).toBe(401);
    const english = await call(portal, 'GET', `/metadata/metadata-is-null/?id=${record.id}`, other.token, { headers: EN });
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ detail: HIDDEN_EN });
    const chinese = await isNull(other.token, record.id);
    expect(chinese.statusCode).toBe(404);
    expect(chinese.json()).toEqual({ detail: HIDDEN_ZH });
    await setStatus(portal, record.id, 'published');
    const published = await isNull(other.token, record.id);
    expect(published.statusCode).toBe(403);
    expect(published.json()).toEqual({ detail: NO_RIGHT_ZH });
  });

  it('answers true for a record nothing was entered into', async () => {
    const record = await createRecord(portal, owner.token, { title: undefined });
    expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: true });
  });

  it('answers false once a field, a translation or an attached entry is there', async () => {
    const titled = await buildRecord(portal, { owner, title: '有标题' });
    expect(expectStatus(await isNull(owner.token, titled), 200)).toEqual({ is_null: false });

    const translated = await createRecord(portal, owner.token, { title: undefined });
    expectStatus(await call(portal, 'PATCH', resourceUrl('metadata-i18n', translated.translations[0].id), owner.token, { body: { title: 'Only English' } }), 200);
    expect(expectStatus(await isNull(owner.token, translated.id), 200)).toEqual({ is_null: false });

    const keyworded = await createRecord(portal, owner.token, { title: undefined });
    await addKeyword(portal, owner.token, keyworded.id, 'place');
    expect(expectStatus(await isNull(owner.token, keyworded.id), 200)).toEqual({ is_null: false });

    const placed = await createRecord(portal, owner.token, { title: undefined });
    await patchRecord(portal, owner.token, placed.id, { south: 0 });
    expect(expectStatus(await isNull(owner.token, placed.id), 200)).toEqual({ is_null: false });
  });

  /** One value for every field of the record's own, each alone enough to make the record non-empty. */
  const FIELD_VALUES: Record<string, unknown> = {
    title: '标题',
    article_name: '论文',
    article_publication: '期刊',
    category: '冰川学',
    platform: 'portal',
    source_project: '项目',
    data_series: '系列',
    description: '摘要',
    data_source: '来源',
    use_term: '条款',
    usage_method: '方法',
    citation: '引用',
    doi: '10.1000/1',
    doi_category: 'own',
    protection_period: 'halfYear',
    protection_description: '保护',
    time_start: '2020-01-01',
    time_end: '2020-12-31',
    time_description: '夏季',
    coordinate_system: 'WGS84',
    projection: 'Albers',
    license: 'CC BY 4.0',
    temporal_resolution: 'daily',
    spatial_resolution: '30 m',
    subtopic_three_pole: 'XDA20-01',
    subtopic_third_pole: 'XDA19-01',
    dist_unit: '中心',
    dist_country: '中国',
    dist_province: '西藏',
    dist_city: '拉萨',
    dist_address: '路',
    dist_phone: '0891',
    dist_email: 'dist@example.org',
    sharing_policy: 'online',
    submitting_type: 'general',
    file_size: 0,
    east: 0,
    west: 0,
    south: 0,
    north: 0,
    scale: 1,
  };

  it('has a value for every field of the record', () => {
    expect(Object.keys(FIELD_VALUES).sort()).toEqual(Object.keys(metadataUpdateSchema.shape).sort());
  });

  for (const [field, value] of Object.entries(FIELD_VALUES)) {
    it(`answers false for a record with only ${field} (${JSON.stringify(value)}), and true once it is cleared`, async () => {
      const record = await createRecord(portal, owner.token, { title: undefined });
      await patchRecord(portal, owner.token, record.id, { [field]: value });
      expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: false });
      await patchRecord(portal, owner.token, record.id, { [field]: typeof value === 'number' ? null : '' });
      expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: true });
    });
  }

  for (const field of Object.keys(metadataI18nFields)) {
    it(`answers false for a record with only the ${field} of its translation`, async () => {
      const record = await createRecord(portal, owner.token, { title: undefined });
      const url = resourceUrl('metadata-i18n', record.translations[0].id);
      expectStatus(await call(portal, 'PATCH', url, owner.token, { body: { [field]: 'English' } }), 200);
      expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: false });
      expectStatus(await call(portal, 'PATCH', url, owner.token, { body: { [field]: '' } }), 200);
      expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: true });
    });
  }

  describe('answers false for a record with only one row attached', () => {
    let standard: { id: string };
    let special: { id: string };
    beforeAll(async () => {
      standard = await postResource(portal, staff.token, 'keyword-standard', { code: 'N', name: '空判断' });
      special = await postResource(portal, staff.token, 'special', { name: '空判断专题' });
    });
    const attachers: [table: string, attach: (id: string) => Promise<unknown>][] = [
      ['meta_author', (id) => addAuthor(portal, owner.token, id)],
      ['citations', (id) => postResource(portal, owner.token, 'literature', { title: '文献', type: 'reference', metadata: id })],
      ['meta_keyword', (id) => addKeyword(portal, owner.token, id, 'place')],
      ['meta_keyword_standard', (id) => postResource(portal, owner.token, 'meta-keyword-standard', { metadata: id, keyword_standard: standard.id })],
      ['meta_discipline', (id) => postResource(portal, owner.token, 'meta-discipline', { metadata: id, keyword_standard: standard.id, number: 1 })],
      ['meta_fund', (id) => postResource(portal, owner.token, 'meta-fund', { metadata: id, fund: '5' })],
      ['meta_special', (id) => postResource(portal, owner.token, 'meta-special', { metadata: id, special: special.id })],
      ['online_resources', (id) => postResource(portal, owner.token, 'online-resource', { metadata: id, name: '站点', url: 'https://example.org' })],
      ['meta_media', (id) => buildThumbnail(portal, id, owner)],
      ['meta_file', (id) => buildDataFile(portal, id, owner)],
      ['meta_attach', (id) => buildAttachment(portal, id, owner)],
    ];
    for (const [table, attach] of attachers) {
      it(table, async () => {
        const record = await createRecord(portal, owner.token, { title: undefined });
        expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: true });
        await attach(record.id);
        expect(await countRows(portal, table, { metadata_id: record.id })).toBe(1);
        expect(expectStatus(await isNull(owner.token, record.id), 200)).toEqual({ is_null: false });
      });
    }
  });

  it('needs an id', async () => {
    const response = await call(portal, 'GET', '/metadata/metadata-is-null/', owner.token, { headers: EN });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ id: ['Please name the metadata.'], detail: 'Please name the metadata.' });
  });
});

describe('GET /metadata/projections/', () => {
  it("answers the projection list to anybody: real projections only, not the spec text's {token} placeholder", async () => {
    const page = expectStatus(await call(portal, 'GET', '/metadata/projections/?_r=1', null), 200);
    expect(page.count).toBe(11);
    expect(page.results).not.toContain('{token}');
    expect(page.results.filter((name: string) => !/^[A-Za-z][\w]*$/.test(name))).toEqual([]);
    expect(page.results).toEqual([...PROJECTIONS]);
    expect(page.results).toEqual(expect.arrayContaining(['WGS84', 'Albers', 'UTM', 'Beijing1954', 'GCS_Xian_1980', 'World_Sinusoidal']));
  });
});

describe('GET /api/metadata/applications/', () => {
  const applications = (token: string | null, query = '') => call(portal, 'GET', `/api/metadata/applications/${query}`, token);
  /** Records of the owner's that name `other` (by e-mail) as an author and as a provider. */
  let asAuthor: string;
  let asProvider: string;
  let hiddenDraft: string;
  let othersOwn: string;
  let authorEntry: string;
  beforeAll(async () => {
    asAuthor = await buildRecord(portal, { owner, title: '作者记录' });
    authorEntry = (await addAuthor(portal, owner.token, asAuthor, { role: 'principalInvestigator', author: { email: other.email } })).author.id;
    await setStatus(portal, asAuthor, 'published');
    asProvider = await buildRecord(portal, { owner, title: '提供者记录' });
    await addAuthor(portal, owner.token, asProvider, { role: 'resourceProvider', author: { email: other.email } });
    await setStatus(portal, asProvider, 'published');
    hiddenDraft = await buildRecord(portal, { owner, title: '未发布' });
    await addAuthor(portal, owner.token, hiddenDraft, { role: 'principalInvestigator', author: { email: other.email } });
    othersOwn = await buildRecord(portal, { owner: other, title: '自己的' });
  });

  it('refuses an anonymous caller with 401', async () => {
    expect((await applications(null)).statusCode).toBe(401);
  });

  it("answers the caller's own records for user_type owner, the default", async () => {
    const page = expectStatus(await applications(other.token, '?user_type=owner&page=1&pageSize=100'), 200);
    expect(Object.keys(page).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(ids(page)).toContain(othersOwn);
    expect(page.results.every((r: { owner: string }) => r.owner === other.id)).toBe(true);
    expect(ids(expectStatus(await applications(other.token, '?pageSize=100'), 200))).toEqual(ids(page));
  });

  it('answers the records naming the caller as an author (any role but provider)', async () => {
    const page = expectStatus(await applications(other.token, '?user_type=author&pageSize=100'), 200);
    expect(ids(page)).toEqual([asAuthor]);
  });

  it('answers the records naming the caller as a data resource provider', async () => {
    const page = expectStatus(await applications(other.token, '?user_type=provider&pageSize=100'), 200);
    expect(ids(page)).toEqual([asProvider]);
  });

  it('narrows to one author entry', async () => {
    const page = expectStatus(await applications(other.token, `?user_type=author&author=${authorEntry}`), 200);
    expect(ids(page)).toEqual([asAuthor]);
    const none = expectStatus(await applications(other.token, `?user_type=provider&author=${authorEntry}`), 200);
    expect(none.count).toBe(0);
  });

  it('matches the e-mail of an author entry to the caller whatever its case', async () => {
    const shouted = await buildRecord(portal, { owner, title: '大写邮箱' });
    await addAuthor(portal, owner.token, shouted, { role: 'principalInvestigator', author: { email: other.email.toUpperCase() } });
    await setStatus(portal, shouted, 'published');
    const mixed = await buildRecord(portal, { owner, title: '混合邮箱' });
    const mixedEmail = [...other.email].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
    await addAuthor(portal, owner.token, mixed, { role: 'resourceProvider', author: { email: mixedEmail } });
    await setStatus(portal, mixed, 'published');
    expect(ids(expectStatus(await applications(other.token, '?user_type=author&pageSize=100'), 200)).sort()).toEqual([asAuthor, shouted].sort());
    expect(ids(expectStatus(await applications(other.token, '?user_type=provider&pageSize=100'), 200)).sort()).toEqual([asProvider, mixed].sort());
    // Another address that merely contains the caller's is no match.
    const longer = await buildRecord(portal, { owner, title: '更长邮箱' });
    await addAuthor(portal, owner.token, longer, { role: 'principalInvestigator', author: { email: `x${other.email.toUpperCase()}` } });
    await setStatus(portal, longer, 'published');
    expect(ids(expectStatus(await applications(other.token, '?user_type=author&pageSize=100'), 200))).not.toContain(longer);
    await setStatus(portal, shouted, 'draft');
    await setStatus(portal, mixed, 'draft');
  });

  it("leaves out another user's unpublished records naming the caller", async () => {
    expect(ids(expectStatus(await applications(other.token, '?user_type=author&pageSize=100'), 200))).not.toContain(hiddenDraft);
  });

  it('refuses a user type that does not exist', async () => {
    const response = await applications(other.token, '?user_type=reviewer');
    expect(response.statusCode).toBe(400);
    expect(response.json().user_type).toEqual(['请从列出的选项中选择。']);
  });
});
