import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYWORD_TYPES, SUBMISSION_REASONS, translate, type SubmissionReason } from '@portal/shared';
import { buildRecord, buildUser, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import {
  abstractOf,
  addAuthor,
  buildCompleteRecord,
  call,
  checkSubmit,
  countRows,
  expectStatus,
  getRecord,
  patchRecord,
  postResource,
  recordUrl,
  resourceUrl,
  returnToDraft,
  setStatus,
  storedStatus,
  submit,
  type CompleteRecord,
} from './metadata-builders.js';

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

const NO_RIGHT_EN = 'Sorry, you have no right to modify the data entity of this metadata';
const NO_RIGHT_ZH = '对不起，您无权修改该元数据的数据实体';
/** Another user's draft answers as an unknown record, and its rows as unknown rows (no existence leak). */
const HIDDEN_EN = 'The metadata was not found';
const NOT_FOUND_EN = 'The requested resource was not found.';
const READ_ONLY_EN = 'The metadata is in review and cannot be changed. Return it to draft first.';
const READ_ONLY_ZH = '元数据正在审核中，不能修改。请先退回草稿。';

const KEYWORDS_ZH = '“关键词”总数至少 3 个，学科、地点、时间、主题每种类型至少 1 个，且每个都有翻译';
const KEYWORDS_EN = '“Keywords”: at least 3 in all, with at least one of each type (Discipline, Place, Temporal, Theme), each with its translation';

/** Takes a keyword off a record. */
async function unlink(recordId: string, keywordId: string) {
  expect((await call(portal, 'DELETE', `/api/metadata/keyword/?metadata=${recordId}&keyword=${keywordId}`, owner.token)).statusCode).toBe(204);
}

/** The reply of the check for a list of reasons, in a language. */
function failing(reasons: SubmissionReason[], language: 'en' | 'zh-hans') {
  return { status: 'false', reasons, msg: reasons.map((reason) => translate(language, `metadata.submit.reasons.${reason}`)) };
}

describe('GET /metadata/metadata-submit/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const record = await buildRecord(portal, { owner });
    const response = await checkSubmit(portal, null, record);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: '请先登录。' });
  });

  it('answers another user 404 for a draft that is not theirs, as for an unknown one', async () => {
    const record = await buildRecord(portal, { owner });
    const response = await checkSubmit(portal, other.token, record, EN);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: HIDDEN_EN });
  });

  it('needs an id', async () => {
    const response = await call(portal, 'GET', '/metadata/metadata-submit/', owner.token);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ id: ['请指定元数据。'], detail: '请指定元数据。' });
  });

  it("answers status 'true' for a complete record, to its creator and to staff", async () => {
    const record = await buildCompleteRecord(portal, owner);
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200)).toEqual({ status: 'true', reasons: [], msg: [] });
    expect(expectStatus(await checkSubmit(portal, staff.token, record.id, EN), 200)).toEqual({ status: 'true', reasons: [], msg: [] });
    // Asking changes nothing.
    expect(await storedStatus(portal, record.id)).toBe('draft');
  });

  it('lists every missing item of an empty record, in the checklist order, in both languages', async () => {
    const record = await buildRecord(portal, { owner, title: '' });
    // No author at all: the provider is missing, not an English translation of nobody.
    const reasons = SUBMISSION_REASONS.filter((reason) => reason !== 'subtopic' && reason !== 'authorEnglish');
    expect(expectStatus(await checkSubmit(portal, owner.token, record), 200)).toEqual(failing(reasons, 'zh-hans'));
    const english = expectStatus(await checkSubmit(portal, owner.token, record, EN), 200);
    expect(english).toEqual(failing(reasons, 'en'));
    expect(english.msg).toContain('At least one entry under “Data Resource Providers” is required');
    expect(english.msg).not.toContain('Every data resource provider and author needs an “English translation”');
    expect(english.msg).toContain('“Abstract” needs at least 200 characters (and at most 20,000)');
  });

  describe('names exactly the one item a complete record lacks', () => {
    const breakers: [name: string, reason: SubmissionReason, zh: string, en: string, breakIt: (record: CompleteRecord) => Promise<void>][] = [
      [
        'no title',
        'title',
        '“标题”为必填项（最多 500 个字符，建议多于 10 个字）',
        '“Title” is required (at most 500 characters; more than 10 words are recommended)',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { title: '   ' });
        },
      ],
      [
        'no English title',
        'titleEn',
        '“英文标题”为必填项（最多 500 个字符）',
        '“English title” is required (at most 500 characters)',
        async (r) => {
          expectStatus(await call(portal, 'PATCH', resourceUrl('metadata-i18n', r.englishId), owner.token, { body: { title: '' } }), 200);
        },
      ],
      [
        'an abstract of 199 characters',
        'abstract',
        '“摘要”至少 200 个字符（最多 20000 个字符）',
        '“Abstract” needs at least 200 characters (and at most 20,000)',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { description: `${abstractOf(199)}    ` });
        },
      ],
      [
        'no English abstract',
        'abstractEn',
        '“英文摘要”为必填项（最多 20000 个字符）',
        '“English abstract” is required (at most 20,000 characters)',
        async (r) => {
          expectStatus(await call(portal, 'PATCH', resourceUrl('metadata-i18n', r.englishId), owner.token, { body: { description: ' ' } }), 200);
        },
      ],
      [
        'no file size',
        'fileSize',
        '“文件大小（MB）”为必填项，须为大于 0 的数字',
        '“File size (MB)” is required: a number greater than 0',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { file_size: '' });
        },
      ],
      [
        'a file size of 0',
        'fileSize',
        '“文件大小（MB）”为必填项，须为大于 0 的数字',
        '“File size (MB)” is required: a number greater than 0',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { file_size: 0 });
        },
      ],
      [
        'no end of the time range and no time description',
        'time',
        '须填写“时间范围起”和“时间范围止”，或填写“时间描述”',
        '“Time coverage start” and “Time coverage end”, or a “Time description”, are required',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { time_end: '' });
        },
      ],
      [
        'no naming and use method',
        'usageMethod',
        '“数据文件命名规则及使用方法”为必填项',
        '“Naming convention and use of the data files” is required',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { usage_method: '' });
        },
      ],
      [
        'no east longitude',
        'spatial',
        '“东经”“西经”“南纬”“北纬”均为必填项',
        '“East longitude”, “West longitude”, “South latitude” and “North latitude” are required',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { east: null });
        },
      ],
      [
        'fund 5 without its subtopic number',
        'subtopic',
        '资助项目含“三极平台”时须填写“子课题编号（三极）”，含“第三极（青藏高原）中心”时须填写“子课题编号（第三极）”',
        'With the funding project “Three Poles platform”, “Sub-topic number (Three Poles)” is required; with “Third Pole (Tibetan Plateau) centres”, “Sub-topic number (Third Pole)”',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { subtopic_three_pole: '' });
        },
      ],
      [
        'fund 6 without its subtopic number',
        'subtopic',
        '资助项目含“三极平台”时须填写“子课题编号（三极）”，含“第三极（青藏高原）中心”时须填写“子课题编号（第三极）”',
        'With the funding project “Three Poles platform”, “Sub-topic number (Three Poles)” is required; with “Third Pole (Tibetan Plateau) centres”, “Sub-topic number (Third Pole)”',
        async (r) => {
          await postResource(portal, owner.token, 'meta-fund', { metadata: r.id, fund: '6' });
        },
      ],
      [
        'no temporal keyword',
        'keywords',
        KEYWORDS_ZH,
        KEYWORDS_EN,
        async (r) => {
          for (const keyword of r.keywords.temporal) await unlink(r.id, keyword.id);
        },
      ],
      [
        'no thumbnail',
        'thumbnail',
        '“缩略图”为必填项',
        'A “Thumbnail” is required',
        async (r) => {
          await portal.database.db.deleteFrom('meta_media').where('id', '=', r.thumbnailId).execute();
        },
      ],
      [
        'no data file',
        'dataFile',
        '须在“数据文件”中上传至少一个文件',
        'At least one file under “Data Files” is required',
        async (r) => {
          await portal.database.db.deleteFrom('meta_file').where('id', '=', r.dataFileId).execute();
        },
      ],
      [
        'no publishing platform',
        'platform',
        '须选择“发布平台”',
        'A “Publishing platform” must be chosen',
        async (r) => {
          await patchRecord(portal, owner.token, r.id, { platform: '' });
        },
      ],
      [
        'an author without English translation',
        'authorEnglish',
        '每位数据资源提供者和作者都须有“英文翻译”',
        'Every data resource provider and author needs an “English translation”',
        async (r) => {
          const versions = expectStatus(await call(portal, 'GET', `${resourceUrl('author-i18n')}?author__id=${r.provider.author.id}`, owner.token), 200);
          const english = versions.results.find((v: { language: string }) => v.language === 'en');
          expect((await call(portal, 'DELETE', resourceUrl('author-i18n', english.id), owner.token)).statusCode).toBe(204);
        },
      ],
      [
        'a second author whose English name is empty',
        'authorEnglish',
        '每位数据资源提供者和作者都须有“英文翻译”',
        'Every data resource provider and author needs an “English translation”',
        async (r) => {
          const { author } = await addAuthor(portal, owner.token, r.id, { role: 'processor' });
          const english = author.translations.find((v: { language: string }) => v.language === 'en');
          expect((await call(portal, 'DELETE', resourceUrl('author-i18n', english.id), owner.token)).statusCode).toBe(204);
        },
      ],
      [
        'no data resource provider',
        'provider',
        '须在“数据资源提供者”中添加至少一个条目',
        'At least one entry under “Data Resource Providers” is required',
        async (r) => {
          expect((await call(portal, 'DELETE', resourceUrl('meta-author', r.provider.link.id), owner.token)).statusCode).toBe(204);
        },
      ],
    ];

    it('has a case for every reason of the checklist', () => {
      expect(new Set(breakers.map(([, reason]) => reason))).toEqual(new Set(SUBMISSION_REASONS));
    });

    for (const [name, reason, zh, en, breakIt] of breakers) {
      it(`${name}: ${reason}`, async () => {
        const record = await buildCompleteRecord(portal, owner);
        await breakIt(record);
        const chinese = expectStatus(await checkSubmit(portal, owner.token, record.id), 200);
        expect(chinese).toEqual({ status: 'false', reasons: [reason], msg: [zh] });
        const english = expectStatus(await checkSubmit(portal, owner.token, record.id, EN), 200);
        expect(english).toEqual({ status: 'false', reasons: [reason], msg: [en] });
      });
    }
  });

  describe('keywords: at least 3 in all, with every one of the four types', () => {
    it('refuses 3 keywords in all when a type is missing', async () => {
      const record = await buildCompleteRecord(portal, owner);
      // One discipline, one place, one theme keyword: 3 in all, no temporal one.
      for (const type of ['discipline', 'place', 'theme'] as const) for (const keyword of record.keywords[type].slice(1)) await unlink(record.id, keyword.id);
      for (const keyword of record.keywords.temporal) await unlink(record.id, keyword.id);
      expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200)).toEqual({ status: 'false', reasons: ['keywords'], msg: [KEYWORDS_ZH] });
      expect(expectStatus(await checkSubmit(portal, owner.token, record.id, EN), 200)).toEqual({ status: 'false', reasons: ['keywords'], msg: [KEYWORDS_EN] });
    });

    it('accepts one keyword of each type (4 in all), and submits the record', async () => {
      const record = await buildCompleteRecord(portal, owner);
      for (const type of KEYWORD_TYPES) for (const keyword of record.keywords[type].slice(1)) await unlink(record.id, keyword.id);
      expect(await countRows(portal, 'meta_keyword', { metadata_id: record.id })).toBe(4);
      expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200)).toEqual({ status: 'true', reasons: [], msg: [] });
      expectStatus(await submit(portal, owner.token, record.id), 200);
      expect(await storedStatus(portal, record.id)).toBe('submitted');
    });
  });

  it('names the data resource provider, not an English translation, when the record has no author at all', async () => {
    const record = await buildCompleteRecord(portal, owner);
    for (const link of [record.provider.link, record.authorLink]) expect((await call(portal, 'DELETE', resourceUrl('meta-author', link.id), owner.token)).statusCode).toBe(204);
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id, EN), 200)).toEqual({
      status: 'false',
      reasons: ['provider'],
      msg: ['At least one entry under “Data Resource Providers” is required'],
    });
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200).msg).toEqual(['须在“数据资源提供者”中添加至少一个条目']);
  });

  it('accepts a time description instead of the time range', async () => {
    const record = await buildCompleteRecord(portal, owner);
    await patchRecord(portal, owner.token, record.id, { time_start: '', time_end: '', time_description: '1990 年至今，每年夏季' });
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200).status).toBe('true');
  });

  it('counts a run of spaces in the abstract as one character', async () => {
    const record = await buildCompleteRecord(portal, owner);
    await patchRecord(portal, owner.token, record.id, { description: `${abstractOf(198)}      ${abstractOf(1)}` });
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200).status).toBe('true');
    await patchRecord(portal, owner.token, record.id, { description: `${abstractOf(197)}      ${abstractOf(1)}` });
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200).reasons).toEqual(['abstract']);
  });

  it('takes the title and abstract of an English record as its English ones', async () => {
    const record = await buildRecord(portal, {
      owner,
      language: 'en',
      title: 'Glacier mass balance of the Qilian Mountains',
      abstract: 'Mass balance measured by the glaciological method.',
    });
    const reasons = expectStatus(await checkSubmit(portal, owner.token, record), 200).reasons;
    expect(reasons).not.toContain('title');
    expect(reasons).not.toContain('titleEn');
    expect(reasons).not.toContain('abstractEn');
    expect(reasons).toContain('abstract');
  });
});

describe('POST /metadata/metadata-submit/', () => {
  it('refuses an anonymous caller with 401', async () => {
    const record = await buildCompleteRecord(portal, owner);
    expect((await submit(portal, null, record.id)).statusCode).toBe(401);
    expect(await storedStatus(portal, record.id)).toBe('draft');
  });

  it('refuses another user with 404 for a draft that is not theirs', async () => {
    const record = await buildCompleteRecord(portal, owner);
    expect((await submit(portal, other.token, record.id)).statusCode).toBe(404);
    expect(await storedStatus(portal, record.id)).toBe('draft');
  });

  it('moves a complete draft to submitted', async () => {
    const record = await buildCompleteRecord(portal, owner);
    const response = await submit(portal, owner.token, record.id);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'true', reasons: [], msg: translate('zh-hans', 'metadata.submit.success') });
    expect(body.msg).not.toBe('metadata.submit.success');
    expect(body.metadata).toMatchObject({ id: record.id, status: 'submitted', owner: owner.id });
    expect(body.metadata.submitted_at).toEqual(expect.any(String));
    expect(await storedStatus(portal, record.id)).toBe('submitted');
    expect((await getRecord(portal, owner.token, record.id)).status).toBe('submitted');
  });

  it('answers in English when asked', async () => {
    const record = await buildCompleteRecord(portal, owner);
    const response = await submit(portal, owner.token, record.id, EN);
    expect(response.statusCode).toBe(200);
    expect(response.json().msg).toBe('Your metadata has been submitted for review.');
  });

  it('refuses an incomplete draft with 400 and the reasons, and moves nothing', async () => {
    const record = await buildCompleteRecord(portal, owner);
    await patchRecord(portal, owner.token, record.id, { platform: '', usage_method: '' });
    const response = await submit(portal, owner.token, record.id);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(failing(['usageMethod', 'platform'], 'zh-hans'));
    const english = await submit(portal, owner.token, record.id, EN);
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({
      status: 'false',
      reasons: ['usageMethod', 'platform'],
      msg: ['“Naming convention and use of the data files” is required', 'A “Publishing platform” must be chosen'],
    });
    expect(await storedStatus(portal, record.id)).toBe('draft');
    expect((await getRecord(portal, owner.token, record.id)).submitted_at).toBeNull();
  });

  it('refuses to submit twice', async () => {
    const record = await buildCompleteRecord(portal, owner);
    expect((await submit(portal, owner.token, record.id)).statusCode).toBe(200);
    const again = await submit(portal, owner.token, record.id, EN);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'Only a draft can be submitted.' });
    expect(await storedStatus(portal, record.id)).toBe('submitted');
  });

  it('refuses a published record', async () => {
    const record = await buildCompleteRecord(portal, owner);
    await setStatus(portal, record.id, 'published');
    expect((await submit(portal, owner.token, record.id)).statusCode).toBe(409);
    expect(await storedStatus(portal, record.id)).toBe('published');
  });

  it('needs an id', async () => {
    const response = await call(portal, 'POST', '/metadata/metadata-submit/', owner.token, { body: {}, headers: EN });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ id: ['Please name the metadata.'], detail: 'Please name the metadata.' });
  });
});

describe('a submitted record', () => {
  let record: CompleteRecord;
  beforeAll(async () => {
    record = await buildCompleteRecord(portal, owner);
    expectStatus(await submit(portal, owner.token, record.id), 200);
  });

  it('is read-only to its creator: PUT answers 409 and the readOnly text, and changes nothing', async () => {
    const before = await getRecord(portal, owner.token, record.id);
    const response = await call(portal, 'PUT', recordUrl(record.id), owner.token, { body: { title: '审核中修改' } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: READ_ONLY_ZH });
    const english = await call(portal, 'PATCH', recordUrl(record.id), owner.token, { body: { title: 'changed in review' }, headers: EN });
    expect(english.statusCode).toBe(409);
    expect(english.json()).toEqual({ detail: READ_ONLY_EN });
    expect(await getRecord(portal, owner.token, record.id)).toEqual(before);
  });

  it('is read-only to its creator in everything attached to it', async () => {
    const writes = [
      call(portal, 'PATCH', resourceUrl('metadata-i18n', record.englishId), owner.token, { body: { title: 'x' } }),
      call(portal, 'POST', resourceUrl('keyword'), owner.token, { body: { name: '新', type: 'place', metadata: record.id, translation: 'New' } }),
      call(portal, 'DELETE', `/api/metadata/keyword/?metadata=${record.id}&keyword=${record.keywords.place[0].id}`, owner.token),
      call(portal, 'DELETE', resourceUrl('meta-author', record.provider.link.id), owner.token),
      call(portal, 'POST', resourceUrl('meta-fund'), owner.token, { body: { metadata: record.id, fund: '6' } }),
      call(portal, 'POST', resourceUrl('online-resource'), owner.token, { body: { metadata: record.id, name: '门户', url: 'https://example.org' } }),
      call(portal, 'DELETE', recordUrl(record.id), owner.token),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: READ_ONLY_ZH });
    }
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200).status).toBe('true');
  });

  it('stays readable to its creator', async () => {
    expect((await getRecord(portal, owner.token, record.id)).status).toBe('submitted');
  });

  it('may still be changed by staff', async () => {
    const response = await call(portal, 'PATCH', recordUrl(record.id), staff.token, { body: { category: '冰川学' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ category: '冰川学', status: 'submitted' });
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('metadata-i18n', record.englishId), staff.token, { body: { citation: 'Cite as ...' } }), 200)).toMatchObject({
      citation: 'Cite as ...',
    });
  });
});

const SHARED_LOCKED_EN = "This entry is also used by metadata that cannot be changed now (in review, published, or somebody else's), so it stays as it is.";
const SHARED_LOCKED_ZH = '此条目还被当前不能修改的元数据（审核中、已发布或他人的）使用，因此不能修改。';

describe('the shared entries of a submitted record', () => {
  let record: CompleteRecord;
  let literature: { id: string };
  let literatureEnglish: { id: string };
  let authorEnglish: { id: string };
  let keyword: { id: string; translations: { id: string }[] };
  beforeAll(async () => {
    record = await buildCompleteRecord(portal, owner);
    literature = await postResource(portal, owner.token, 'literature', { title: '冰川编目', type: 'reference', metadata: record.id });
    literatureEnglish = await postResource(portal, owner.token, 'literature-i18n', { literature: literature.id, language: 'en', title: 'Glacier inventory' });
    authorEnglish = record.provider.author.translations.find((t: { language: string }) => t.language === 'en');
    keyword = record.keywords.place[0];
    expectStatus(await submit(portal, owner.token, record.id), 200);
  });

  /** Every stored row the writes below could touch, to compare after they were refused. */
  const snapshot = async () => {
    const db = portal.database.db as any;
    const row = (table: string, id: string) => db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
    const rows = (table: string, column: string, id: string) => db.selectFrom(table).selectAll().where(column, '=', id).orderBy('id').execute();
    return {
      author: await row('authors', record.provider.author.id),
      authorI18n: await rows('author_i18n', 'author_id', record.provider.author.id),
      literature: await row('literature', literature.id),
      literatureI18n: await rows('literature_i18n', 'literature_id', literature.id),
      keyword: await row('keywords', keyword.id),
      keywordI18n: await rows('keyword_i18n', 'keyword_id', keyword.id),
    };
  };

  const writes = (token: string, headers: Record<string, string>): [string, () => ReturnType<typeof call>][] => [
    ['PATCH its literature', () => call(portal, 'PATCH', resourceUrl('literature', literature.id), token, { body: { title: '审核中改题目' }, headers })],
    ['PUT its literature', () => call(portal, 'PUT', resourceUrl('literature', literature.id), token, { body: { publisher: 'Other Press' }, headers })],
    ['DELETE its literature', () => call(portal, 'DELETE', resourceUrl('literature', literature.id), token, { headers })],
    ['PATCH the literature translation', () => call(portal, 'PATCH', resourceUrl('literature-i18n', literatureEnglish.id), token, { body: { title: 'Changed' }, headers })],
    ['DELETE the literature translation', () => call(portal, 'DELETE', resourceUrl('literature-i18n', literatureEnglish.id), token, { headers })],
    ['PATCH its keyword', () => call(portal, 'PATCH', resourceUrl('keyword', keyword.id), token, { body: { name: '改过的地名' }, headers })],
    ['PUT its keyword', () => call(portal, 'PUT', resourceUrl('keyword', keyword.id), token, { body: { type: 'theme' }, headers })],
    ['DELETE its keyword', () => call(portal, 'DELETE', resourceUrl('keyword', keyword.id), token, { headers })],
    ['PATCH the keyword translation', () => call(portal, 'PATCH', resourceUrl('keyword-i18n', keyword.translations[0]!.id), token, { body: { name: 'Changed' }, headers })],
    ['DELETE the keyword translation', () => call(portal, 'DELETE', resourceUrl('keyword-i18n', keyword.translations[0]!.id), token, { headers })],
    ['PATCH its author', () => call(portal, 'PATCH', resourceUrl('author', record.provider.author.id), token, { body: { phone: '0931-1', city: '兰州' }, headers })],
    ['PUT its author', () => call(portal, 'PUT', resourceUrl('author', record.provider.author.id), token, { body: { email: 'changed@example.org' }, headers })],
    ['DELETE its author', () => call(portal, 'DELETE', resourceUrl('author', record.provider.author.id), token, { headers })],
    ['PATCH the English of its author', () => call(portal, 'PATCH', resourceUrl('author-i18n', authorEnglish.id), token, { body: { name: 'Changed Name' }, headers })],
    ['PUT the English of its author', () => call(portal, 'PUT', resourceUrl('author-i18n', authorEnglish.id), token, { body: { affiliation: 'Elsewhere' }, headers })],
    ['DELETE the English of its author', () => call(portal, 'DELETE', resourceUrl('author-i18n', authorEnglish.id), token, { headers })],
  ];

  it('refuses its creator, who uses them in no draft, every change of them with 409, in English and Chinese, and changes nothing', async () => {
    const before = await snapshot();
    for (const [headers, detail, inUse] of [
      [EN, SHARED_LOCKED_EN, 'Other metadata records use this entry, so it cannot be deleted.'],
      [{}, SHARED_LOCKED_ZH, '其他元数据正在使用此条目，不能删除。'],
    ] as const) {
      for (const [name, write] of writes(owner.token, headers)) {
        const response = await write();
        // Deleting an entry records use is refused as such; every other change because nothing of the caller's may follow it.
        const expected = /^DELETE its /.test(name) ? inUse : detail;
        expect({ name, status: response.statusCode, body: response.json() }).toEqual({ name, status: 409, body: { detail: expected } });
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(expectStatus(await checkSubmit(portal, owner.token, record.id), 200).status).toBe('true');
    expect(await storedStatus(portal, record.id)).toBe('submitted');
  });

  it('answers another user, who cannot see them (the record is in review), 404, changing nothing', async () => {
    const before = await snapshot();
    for (const [name, write] of writes(other.token, EN)) {
      const response = await write();
      expect({ name, status: response.statusCode, body: response.json() }).toEqual({ name, status: 404, body: { detail: NOT_FOUND_EN } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets staff change them', async () => {
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('literature', literature.id), staff.token, { body: { publisher: 'Staff Press' } }), 200).publisher).toBe(
      'Staff Press',
    );
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('keyword-i18n', keyword.translations[0]!.id), staff.token, { body: { name: 'Staff place' } }), 200).name).toBe(
      'Staff place',
    );
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('author', record.provider.author.id), staff.token, { body: { city: '拉萨' } }), 200).city).toBe('拉萨');
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('author-i18n', authorEnglish.id), staff.token, { body: { address: 'Lhasa' } }), 200).address).toBe('Lhasa');
  });

  it('gives them back to their creator when the record returns to draft', async () => {
    expectStatus(await returnToDraft(portal, owner.token, record.id), 200);
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('literature', literature.id), owner.token, { body: { publisher: 'Own Press' } }), 200).publisher).toBe('Own Press');
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('author', record.provider.author.id), owner.token, { body: { city: '西宁' } }), 200).city).toBe('西宁');
    expect(expectStatus(await call(portal, 'PATCH', resourceUrl('author-i18n', authorEnglish.id), owner.token, { body: { address: 'Xining' } }), 200).address).toBe('Xining');
    expect(expectStatus(await submit(portal, owner.token, record.id), 200).metadata.status).toBe('submitted');
  });
});

describe('POST /metadata/return-draft/', () => {
  it('refuses an anonymous caller with 401 and another user, who cannot see the record, with 404', async () => {
    const record = await buildRecord(portal, { owner, status: 'submitted' });
    expect((await returnToDraft(portal, null, record)).statusCode).toBe(401);
    expect((await returnToDraft(portal, other.token, record)).statusCode).toBe(404);
    expect(await storedStatus(portal, record)).toBe('submitted');
  });

  it('brings a submitted record back to draft, editable and submittable again', async () => {
    const record = await buildCompleteRecord(portal, owner);
    expectStatus(await submit(portal, owner.token, record.id), 200);
    const response = await returnToDraft(portal, owner.token, record.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'true', msg: '元数据已退回草稿。', metadata: { id: record.id, status: 'draft' } });
    expect(await storedStatus(portal, record.id)).toBe('draft');
    expect(await patchRecord(portal, owner.token, record.id, { category: '退回后修改' })).toMatchObject({ category: '退回后修改' });
    expect((await submit(portal, owner.token, record.id)).statusCode).toBe(200);
  });

  for (const status of ['receive', 'invited']) {
    it(`brings a record back from ${status}`, async () => {
      const record = await buildRecord(portal, { owner, status });
      expect((await returnToDraft(portal, owner.token, record, EN)).json()).toMatchObject({ msg: 'The metadata is a draft again.', metadata: { status: 'draft' } });
    });
  }

  // Once an expert has opened the review, only the data centre sends it back.
  for (const status of ['underReview', 'approved']) {
    it(`refuses a record in ${status} with 409`, async () => {
      const record = await buildRecord(portal, { owner, status });
      const response = await returnToDraft(portal, owner.token, record, EN);
      expect(response.statusCode).toBe(409);
      expect(response.json().detail).toMatch(/expert/);
      expect(await storedStatus(portal, record)).toBe(status);
    });
  }

  it('refuses a draft and a published record with 409', async () => {
    const draft = await buildRecord(portal, { owner });
    const response = await returnToDraft(portal, owner.token, draft, EN);
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toMatch(/^Only metadata in review/);
    const published = await buildRecord(portal, { owner, status: 'published' });
    expect((await returnToDraft(portal, owner.token, published)).statusCode).toBe(409);
    expect(await storedStatus(portal, published)).toBe('published');
  });

  it('refuses staff, who send a record back with the review decision "return", with 403', async () => {
    const record = await buildRecord(portal, { owner, status: 'submitted' });
    expect((await returnToDraft(portal, staff.token, record)).statusCode).toBe(403);
    expect(await storedStatus(portal, record)).toBe('submitted');
  });
});

describe('another user', () => {
  let draft: CompleteRecord;
  let published: CompleteRecord;
  beforeAll(async () => {
    draft = await buildCompleteRecord(portal, owner);
    published = await buildCompleteRecord(portal, owner);
    await setStatus(portal, published.id, 'published');
  });

  /** Every write of the record and its attached entries, as `other`. */
  const writes = (record: CompleteRecord, headers: Record<string, string>): [string, () => ReturnType<typeof call>][] => [
    ['PUT the record', () => call(portal, 'PUT', recordUrl(record.id), other.token, { body: { title: '别人改' }, headers })],
    ['PATCH the record', () => call(portal, 'PATCH', recordUrl(record.id), other.token, { body: { title: '别人改' }, headers })],
    ['DELETE the record', () => call(portal, 'DELETE', recordUrl(record.id), other.token, { headers })],
    ['submit it', () => submit(portal, other.token, record.id, headers)],
    ['return it to draft', () => returnToDraft(portal, other.token, record.id, headers)],
    ['duplicate it', () => call(portal, 'POST', `/metadata/duplication/${record.id}`, other.token, { headers })],
    ['change its English version', () => call(portal, 'PATCH', resourceUrl('metadata-i18n', record.englishId), other.token, { body: { title: 'x' }, headers })],
    ['delete its English version', () => call(portal, 'DELETE', resourceUrl('metadata-i18n', record.englishId), other.token, { headers })],
    [
      'link an author',
      () =>
        call(portal, 'POST', resourceUrl('meta-author'), other.token, {
          body: { metadata: record.id, author: record.provider.author.id, role: 'owner', event_date: '2024-01-01' },
          headers,
        }),
    ],
    ['change an author link', () => call(portal, 'PATCH', resourceUrl('meta-author', record.provider.link.id), other.token, { body: { sort: 3 }, headers })],
    ['unlink an author', () => call(portal, 'DELETE', resourceUrl('meta-author', record.provider.link.id), other.token, { headers })],
    [
      'add a keyword',
      () => call(portal, 'POST', resourceUrl('keyword'), other.token, { body: { name: '别人的', type: 'place', metadata: record.id, translation: "Another's" }, headers }),
    ],
    ['remove a keyword', () => call(portal, 'DELETE', `/api/metadata/keyword/?metadata=${record.id}&keyword=${record.keywords.place[0].id}`, other.token, { headers })],
    ['add a fund', () => call(portal, 'POST', resourceUrl('meta-fund'), other.token, { body: { metadata: record.id, fund: '6' }, headers })],
    ['create a fund for it', () => call(portal, 'POST', resourceUrl('fund'), other.token, { body: { name: '基金', name_en: 'Fund', metadata: record.id }, headers })],
    ['cite a literature', () => call(portal, 'POST', resourceUrl('literature'), other.token, { body: { title: '文献', type: 'reference', metadata: record.id }, headers })],
    [
      'add an online resource',
      () => call(portal, 'POST', resourceUrl('online-resource'), other.token, { body: { metadata: record.id, name: '站点', url: 'https://example.org' }, headers }),
    ],
    ['add a translation', () => call(portal, 'POST', resourceUrl('metadata-i18n'), other.token, { body: { metadata: record.id, language: 'zh-hans' }, headers })],
  ];

  it("gets 403 and the spec's text in English on every write of a published record", async () => {
    for (const [name, write] of writes(published, EN)) {
      const response = await write();
      expect({ name, status: response.statusCode, body: response.json() }).toEqual({ name, status: 403, body: { detail: NO_RIGHT_EN } });
    }
  });

  it("gets 403 and the spec's text in Chinese on every write of a published record", async () => {
    for (const [name, write] of writes(published, {})) {
      const response = await write();
      expect({ name, status: response.statusCode, body: response.json() }).toEqual({ name, status: 403, body: { detail: NO_RIGHT_ZH } });
    }
  });

  it('changed nothing of the published record', async () => {
    const record = await getRecord(portal, owner.token, published.id);
    expect(record).toMatchObject({ title: '青藏高原冰川面积变化数据集（1990-2020）', status: 'published', fund: ['5'] });
    expect(record.translations[0].title).toBe('Glacier area changes of the Tibetan Plateau (1990-2020)');
    expect(expectStatus(await checkSubmit(portal, owner.token, published.id), 200).status).toBe('true');
  });

  it('may read a published record but not check it for submission', async () => {
    expect((await getRecord(portal, other.token, published.id)).id).toBe(published.id);
    const response = await checkSubmit(portal, other.token, published.id, EN);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: NO_RIGHT_EN });
  });

  it('gets 404 on every read of a draft that is not theirs', async () => {
    const reads = [
      recordUrl(draft.id),
      `${resourceUrl('metadata-i18n')}?metadata__id=${draft.id}`,
      resourceUrl('metadata-i18n', draft.englishId),
      `${resourceUrl('meta-author')}?metadata__id=${draft.id}`,
      resourceUrl('meta-author', draft.provider.link.id),
      `${resourceUrl('meta-fund')}?metadata__id=${draft.id}`,
      `${resourceUrl('author')}?metadata__id=${draft.id}`,
      `${resourceUrl('keyword')}?metadatakeyword__metadata__id=${draft.id}`,
      `${resourceUrl('literature')}?metadata__id=${draft.id}`,
    ];
    for (const url of reads) {
      const response = await call(portal, 'GET', url, other.token, { headers: EN });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
  });

  it('gets 404 on the owner-only checks of a draft not theirs', async () => {
    for (const url of [`/metadata/metadata-submit/?id=${draft.id}`, `/metadata/metadata-is-null/?id=${draft.id}`]) {
      const response = await call(portal, 'GET', url, other.token, { headers: EN });
      expect({ url, status: response.statusCode, body: response.json() }).toEqual({ url, status: 404, body: { detail: HIDDEN_EN } });
    }
  });

  it('gets 404 on every write of a draft not theirs (the record or the row named, as an unknown one), which stays as it was', async () => {
    for (const [name, write] of writes(draft, EN)) {
      const response = await write();
      // A row named by its own id answers as an unknown row; a record named as an unknown record.
      const detail = /^(change its English|delete its English|change an author link|unlink an author)/.test(name) ? NOT_FOUND_EN : HIDDEN_EN;
      expect({ name, status: response.statusCode, body: response.json() }).toEqual({ name, status: 404, body: { detail } });
    }
    expect(expectStatus(await checkSubmit(portal, owner.token, draft.id), 200).status).toBe('true');
    expect(await storedStatus(portal, draft.id)).toBe('draft');
  });
});
