import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildAccount, buildCatalogue, buildFund, buildProgram, linkAuthors, type CatalogueEntry } from './factories.js';
import { type TestPortal, createTestPortal } from './helpers.js';
import { foundIds, getOk, search, searchCall, type Params } from './search-builders.js';

/**
 * The public catalogue's search on one small bilingual catalogue: words in both languages, every
 * filter and its facet counts, boxes across the 180th meridian and around the poles, time overlap,
 * paging and sorting, and records that are not published, which are never found. Every expectation
 * is worked out from the catalogue below, never from the code under test.
 */

const NSFC = 'fund-nsfc-test';

/** The published records. */
const PUBLISHED: CatalogueEntry[] = [
  {
    key: 'A',
    language: 'zh-hans',
    zh: { title: '青藏高原冰川物质平衡数据集（2000-2020）', abstract: '本数据集提供青藏高原主要冰川的年度物质平衡观测与模拟结果。' },
    en: {
      title: 'Glacier mass balance of the Tibetan Plateau (2000-2020)',
      abstract: 'Annual mass balance of the main glaciers on the Tibetan Plateau from observations and models.',
    },
    themes: [['冰川', 'Glacier']],
    places: [['青藏高原', 'Tibetan Plateau']],
    standards: [['冰川学', 'Glaciology']],
    authors: [['张冰', 'Zhang Bing']],
    funds: ['5'],
    threePole: 'XDA20-01',
    license: 'CC BY 4.0',
    sharing: 'online',
    resolution: 'yearly',
    published: '2023-05-10',
    time: ['2000-01-01', '2020-12-31'],
    box: [73, 26, 105, 40],
    doi: '10.11888/Glacio.tpdc.270001',
    hits: 5,
    files: [1000, 2500],
  },
  {
    key: 'B',
    language: 'zh-hans',
    zh: { title: '青藏高原多年冻土温度观测数据', abstract: '在青藏公路沿线钻孔中测量的多年冻土地温。' },
    en: { title: 'Permafrost temperature observations on the Tibetan Plateau', abstract: 'Ground temperature in boreholes along the Qinghai-Tibet highway.' },
    themes: [['冻土', 'Permafrost']],
    places: [['青藏高原', 'Tibetan Plateau']],
    disciplines: [['水文学', 'Hydrology']],
    authors: [['李冻', 'Li Dong']],
    funds: ['6'],
    thirdPole: 'XDA19-02',
    license: 'CC BY-SA 4.0',
    sharing: 'offlineEmail',
    resolution: 'daily',
    published: '2022-03-01',
    time: ['2010-01-01', '2015-12-31'],
    box: [90, 30, 95, 36],
    doi: '10.11888/Geocry.tpdc.270002',
    hits: 12,
    files: [4000],
  },
  {
    key: 'C',
    language: 'en',
    zh: { title: '北极海冰密集度逐日数据', abstract: '基于被动微波卫星反演的逐日海冰密集度。' },
    en: { title: 'Arctic sea ice concentration, daily', abstract: 'Daily sea ice concentration from passive microwave satellites.' },
    themes: [['海冰', 'Sea ice']],
    places: [['北极', 'Arctic']],
    authors: [['王海', 'Wang Hai']],
    funds: [NSFC],
    license: 'CC BY 4.0',
    sharing: 'online',
    resolution: 'daily',
    published: '2024-01-15',
    time: ['1979-01-01', '2022-12-31'],
    box: [-180, 66, 180, 90],
    doi: '10.11888/Ocean.tpdc.270003',
    hits: 40,
  },
  {
    key: 'D',
    language: 'en',
    zh: { title: '南极冰盖表面高程', abstract: '利用激光测高得到的南极冰盖表面高程变化。' },
    en: { title: 'Antarctic ice sheet surface elevation', abstract: 'Surface elevation changes of the Antarctic ice sheet from ICESat laser altimetry.' },
    themes: [['冰盖', 'Ice sheet']],
    places: [['南极', 'Antarctica']],
    authors: [['扎西多吉', 'Tashi Dorje']],
    license: 'CC BY-NC 4.0',
    sharing: 'offlineCenter',
    resolution: 'monthly',
    published: '2021-07-01',
    time: ['2003-01-01', '2009-12-31'],
    box: [-180, -90, 180, -60],
    hits: 3,
    files: [700],
  },
  {
    key: 'E',
    language: 'en',
    zh: { title: '白令海锚系温度观测' },
    en: { title: 'Bering Sea mooring temperatures' },
    themes: [['海洋', 'Ocean']],
    places: [['白令海', 'Bering Sea']],
    license: 'CC BY 4.0',
    sharing: 'online',
    resolution: 'hourly',
    published: '2023-09-01',
    time: ['2015-06-01', '2018-06-30'],
    // Across the 180th meridian.
    box: [170, 55, -170, 66],
  },
  {
    key: 'F',
    language: 'zh-hans',
    zh: { title: '堪察加半岛积雪深度', abstract: '堪察加半岛火山区边界附近的积雪深度。' },
    en: { title: 'Snow depth on the Kamchatka Peninsula', abstract: 'Snow depth along the boundaries of the volcanic zones of Kamchatka.' },
    themes: [['积雪', 'Snow']],
    places: [['堪察加', 'Kamchatka']],
    license: 'CC BY 4.0',
    sharing: 'online',
    resolution: 'daily',
    published: '2020-11-20',
    time: ['1990-01-01', '1995-12-31'],
    box: [155, 50, 165, 60],
  },
  {
    key: 'G',
    language: 'en',
    zh: { title: '阿拉斯加沿海河流径流' },
    en: { title: 'Alaska coastal river discharge' },
    themes: [['径流', 'Runoff']],
    places: [['阿拉斯加', 'Alaska']],
    license: 'CC BY-NC-SA 4.0',
    sharing: 'online',
    resolution: 'monthly',
    published: '2024-06-30',
    time: ['2019-01-01', '2021-12-31'],
    box: [-165, 55, -150, 65],
  },
  {
    key: 'H',
    language: 'zh-hans',
    zh: { title: '格陵兰冰芯同位素记录' },
    en: { title: 'Greenland ice core isotope record' },
    themes: [['冰芯', 'Ice core']],
    places: [
      ['格陵兰', 'Greenland'],
      ['北大西洋', 'North Atlantic'],
    ],
    standards: [['冰川学', 'Glaciology']],
    license: 'CC BY 4.0',
    sharing: 'online',
    resolution: 'yearly',
    published: '2019-04-01',
    time: ['1950-01-01', '1960-12-31'],
    box: [-40, 70, -30, 79],
  },
  {
    key: 'I',
    language: 'zh-hans',
    zh: { title: '黑河流域水文气象观测网', abstract: '本数据集包含祁连山冰川融水对河流径流贡献的长期观测。' },
    en: { title: 'Heihe River basin hydrometeorological network', abstract: 'Long-term observations of glacier melt water contributing to river runoff in the Qilian Mountains.' },
    themes: [['径流', 'Runoff']],
    places: [['祁连山', 'Qilian Mountains']],
    disciplines: [['水文学', 'Hydrology']],
    funds: [NSFC],
    threePole: 'XDA20-03',
    license: 'CC BY 4.0',
    sharing: 'online',
    resolution: 'hourly',
    published: '2024-03-01',
    // No box and no time range.
  },
  {
    key: 'L',
    language: 'zh-hans',
    // 冰 only at the end of a run of Chinese.
    zh: { title: '纳木错湖冰' },
    en: { title: 'Lake ice phenology of Nam Co' },
    themes: [['湖冰', 'Lake ice']],
    places: [['青藏高原', 'Tibetan Plateau']],
    license: 'CC BY-ND 4.0',
    sharing: 'online',
    resolution: 'daily',
    published: '2022-12-31',
    time: ['2016-01-01', '2016-12-31'],
    box: [90.3, 30.5, 91, 31],
  },
];

/** Records that are not published, holding every word, place and date the tests look for. */
const everything = (key: string, status: string): CatalogueEntry => ({
  key,
  status,
  language: 'zh-hans',
  zh: { title: `青藏高原冰川冻土海冰纳木错湖冰 ${status}`, abstract: '冰川 冻土 海冰 青藏 南极冰盖 北大西洋' },
  en: { title: `Glacier permafrost sea ice mass balance ${status}`, abstract: 'Glaciers boundaries Dorje Atlantic Heihe' },
  themes: [['冰川', 'Glacier']],
  places: [['青藏高原', 'Tibetan Plateau']],
  standards: [['冰川学', 'Glaciology']],
  authors: [['扎西多吉', 'Tashi Dorje']],
  funds: ['5', NSFC],
  threePole: 'XDA20-09',
  license: 'CC BY 4.0',
  sharing: 'online',
  resolution: 'daily',
  published: '2025-01-01',
  time: ['1900-01-01', '2100-12-31'],
  box: [-180, -90, 180, 90],
  doi: '10.11888/Glacio.tpdc.270001',
  hits: 999,
  files: [999_999],
});
const UNPUBLISHED: CatalogueEntry[] = [
  everything('U-draft', 'draft'),
  everything('U-submitted', 'submitted'),
  everything('U-approved', 'approved'),
  everything('U-unpublished', 'NotPublished'),
];

const byKey = Object.fromEntries(PUBLISHED.map((e) => [e.key, e]));

let portal: TestPortal;
let ids: Record<string, string>;
let keyOf: Record<string, string>;

beforeAll(async () => {
  portal = await createTestPortal();
  const owner = await buildAccount(portal, { realname: 'Catalogue Owner' });
  const now = new Date().toISOString();
  await buildFund(portal, { id: NSFC, name: '国家自然科学基金', name_en: 'National Natural Science Foundation of China' });
  await buildProgram(portal, { id: 'program-xda20', code: 'XDA20', name: '泛第三极环境变化', name_en: 'Pan-Third Pole Environment' });
  await buildProgram(portal, { id: 'program-xda19', code: 'XDA19', name: '地球大数据科学工程', name_en: 'Big Earth Data' });
  ids = await buildCatalogue(portal, owner.id, [...PUBLISHED, ...UNPUBLISHED]);
  keyOf = Object.fromEntries(Object.entries(ids).map(([key, id]) => [id, key]));
  // A thumbnail and an attachment are no data files: the home page's counts leave them out.
  for (const table of ['meta_media', 'meta_attach'] as const) {
    await portal.database.db
      .insertInto(table)
      .values({
        id: `${table}-a`,
        metadata_id: ids.A!,
        name: 'x.png',
        mime: 'image/png',
        storage_key: `test/${table}`,
        sha256: '',
        size: 123_456,
        created_by: owner.id,
        created_at: now,
        ...(table === 'meta_media' ? { type: 'thumbnail', resized_key: '' } : {}),
      } as never)
      .execute();
  }
}, 60_000);

afterAll(() => portal?.close());

/** The keys a search finds, in the order found. */
async function found(params: Params): Promise<string[]> {
  return (await foundIds(portal, params)).map((id) => keyOf[id] ?? id);
}
/** The keys a search finds, sorted (for checks of which, not in which order). */
const foundSet = async (params: Params) => (await found(params)).sort();
const keys = (entries: CatalogueEntry[]) => entries.map((e) => e.key).sort();
const where = (test: (e: CatalogueEntry) => boolean) => keys(PUBLISHED.filter(test));

/** Every text of a record the index holds: titles, abstracts, keywords, authors, DOI, funds' names. */
function textsOf(e: CatalogueEntry): string {
  const pairs = [...(e.themes ?? []), ...(e.places ?? []), ...(e.disciplines ?? []), ...(e.authors ?? [])].flat();
  const funds = (e.funds ?? []).map((f) => (f === NSFC ? '国家自然科学基金 National Natural Science Foundation of China' : f === '5' ? '三极平台' : '第三极（青藏高原）中心'));
  return [e.zh.title, e.zh.abstract, e.en.title, e.en.abstract, e.doi, ...pairs, ...funds].join(' ');
}
/** The published records whose texts hold these Chinese characters as they are. */
const holding = (chinese: string) => where((e) => textsOf(e).includes(chinese));

describe('Chinese words', () => {
  it.each(['冰川', '冻土', '青藏', '海冰', '湖冰', '冰芯'])('%s finds the records that hold it, and no others', async (word) => {
    const expected = holding(word);
    expect(expected.length).toBeGreaterThan(0);
    expect(await foundSet({ q: word })).toEqual(expected);
  });

  it('holds what the catalogue was written to hold', () => {
    expect(holding('冰川')).toEqual(['A', 'I']);
    expect(holding('冻土')).toEqual(['B']);
    expect(holding('青藏')).toEqual(['A', 'B', 'L']);
    expect(holding('海冰')).toEqual(['C']);
  });

  it('finds a word inside a longer sentence of the abstract', async () => {
    // I holds 冰川 only in "本数据集包含祁连山冰川融水对河流径流贡献的长期观测。"
    expect(byKey.I!.zh.title).not.toContain('冰川');
    expect(await found({ q: '冰川' })).toContain('I');
    expect(await foundSet({ q: '融水' })).toEqual(['I']);
  });

  it('a sentence typed as a query finds the record that holds all its pieces', async () => {
    expect(await foundSet({ q: '祁连山冰川融水' })).toEqual(['I']);
    expect(await foundSet({ q: '多年冻土温度' })).toEqual(['B']);
    // Two words, each held by some record, never both by one.
    expect(await foundSet({ q: '冻土 海冰' })).toEqual([]);
  });

  it('one character finds every record that holds it, wherever it stands in a word', async () => {
    // L holds 冰 only as the last character of "纳木错湖冰".
    expect(holding('冰')).toContain('L');
    expect(await foundSet({ q: '冰' })).toEqual(holding('冰'));
    expect(await foundSet({ q: '冻' })).toEqual(holding('冻'));
  });
});

describe('English words', () => {
  it('a plural finds the singular, a word its plural, a beginning the words it begins', async () => {
    expect(await foundSet({ q: 'glaciers' })).toEqual(['A', 'I']);
    expect(await foundSet({ q: 'glacier' })).toEqual(['A', 'I']);
    expect(await foundSet({ q: 'glac' })).toEqual(['A', 'I']);
    expect(await foundSet({ q: 'GLACIER' })).toEqual(['A', 'I']);
    expect(await foundSet({ q: 'boundary' })).toEqual(['F']);
    expect(await foundSet({ q: 'permafrost' })).toEqual(['B']);
  });

  it('every word must match', async () => {
    // E holds "sea", D, H and L hold "ice": only C holds both.
    expect(await foundSet({ q: 'sea ice' })).toEqual(['C']);
    expect(await foundSet({ q: 'ice' })).toEqual(['C', 'D', 'H', 'L']);
    expect(await foundSet({ q: 'glacier permafrost' })).toEqual([]);
  });

  it('mixed Chinese and English', async () => {
    // I holds 冰川 but no mass balance.
    expect(await foundSet({ q: '冰川 mass balance' })).toEqual(['A']);
    expect(await foundSet({ q: '海冰 daily' })).toEqual(['C']);
    expect(await foundSet({ q: '冰川 permafrost' })).toEqual([]);
  });

  it('finds a record by the title and abstract of its other language', async () => {
    // B and F are Chinese records, C and D English ones.
    expect(await foundSet({ q: 'Permafrost temperature' })).toEqual(['B']);
    expect(await foundSet({ q: 'volcanic' })).toEqual(['F']);
    expect(await foundSet({ q: '南极冰盖' })).toEqual(['D']);
    expect(await foundSet({ q: '被动微波' })).toEqual(['C']);
  });

  it('finds a record by its keywords in either language', async () => {
    // North Atlantic / 北大西洋 is only a place keyword of H.
    expect(textsOf(byKey.H!).replace(/North Atlantic|北大西洋/g, '')).not.toMatch(/Atlantic|大西洋/);
    expect(await foundSet({ q: 'Atlantic' })).toEqual(['H']);
    expect(await foundSet({ q: '北大西洋' })).toEqual(['H']);
  });

  it('finds a record by its authors’ names in either language', async () => {
    expect(await foundSet({ q: 'Dorje' })).toEqual(['D']);
    expect(await foundSet({ q: '扎西多吉' })).toEqual(['D']);
    expect(await foundSet({ q: 'Tashi Dorje' })).toEqual(['D']);
  });

  it('finds a record by its DOI and by the names of its funds', async () => {
    expect(await foundSet({ q: '10.11888/Glacio.tpdc.270001' })).toEqual(['A']);
    expect(await foundSet({ q: '10.11888/Geocry.tpdc.270002' })).toEqual(['B']);
    expect(await foundSet({ q: '自然科学基金' })).toEqual(['C', 'I']);
  });

  it('punctuation alone finds nothing', async () => {
    const reply = await search(portal, { q: '…，。!?' });
    expect(reply).toMatchObject({ count: 0, results: [] });
  });
});

describe('highlights', () => {
  /** Each range of a text, as the text it points at. */
  const pieces = (text: string, ranges: [number, number][]) => ranges.map(([a, b]) => text.slice(a, b));

  it('point at a Chinese word in the title and the abstract line', async () => {
    const reply = await search(portal, { q: '冰川', sort: 'relevance' }, 'zh-hans');
    const a = reply.results.find((r: { id: string }) => r.id === ids.A);
    expect(a.title).toBe(byKey.A!.zh.title);
    expect(pieces(a.title, a.highlights.title)).toEqual(['冰川']);
    expect(pieces(a.snippet, a.highlights.snippet)).toEqual(['冰川']);
    const i = reply.results.find((r: { id: string }) => r.id === ids.I);
    expect(i.highlights.title).toEqual([]);
    expect(pieces(i.snippet, i.highlights.snippet)).toEqual(['冰川']);
  });

  it('point at English words however they were typed, plurals too', async () => {
    const reply = await search(portal, { q: 'GLACIERS mass' });
    const [a] = reply.results;
    expect(a.id).toBe(ids.A);
    expect(a.title).toBe(byKey.A!.en.title);
    expect(pieces(a.title, a.highlights.title)).toEqual(['Glacier', 'mass']);
    expect(pieces(a.snippet, a.highlights.snippet)).toEqual(['mass', 'glaciers']);
  });

  it('point at a plural typed as the text holds it', async () => {
    const [f] = (await search(portal, { q: 'boundaries' })).results;
    expect(f.id).toBe(ids.F);
    expect(pieces(f.snippet, f.highlights.snippet)).toEqual(['boundaries']);
  });

  it('point at both languages of a mixed query', async () => {
    const [a] = (await search(portal, { q: '冰川 balance' }, 'zh-hans')).results;
    expect(a.id).toBe(ids.A);
    expect(pieces(a.title, a.highlights.title)).toEqual(['冰川']);
    const [en] = (await search(portal, { q: '冰川 balance' }, 'en')).results;
    expect(pieces(en.title, en.highlights.title)).toEqual(['balance']);
  });
});

/** The values of every facet a result should show, counted from the catalogue. */
function expectedFacets(entries: CatalogueEntry[]): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  const add = (facet: string, values: string[]) => {
    for (const value of new Set(values.filter(Boolean))) {
      counts[facet] ??= {};
      counts[facet][value] = (counts[facet][value] ?? 0) + 1;
    }
  };
  const lower = (pairs: [string, string][] | undefined) => (pairs ?? []).map(([, en]) => en.toLowerCase());
  for (const e of entries) {
    add('theme', lower(e.themes));
    add('place', lower(e.places));
    add('discipline', [...lower(e.disciplines), ...lower(e.standards)]);
    add(
      'program',
      [e.threePole, e.thirdPole].filter((s): s is string => !!s).map((s) => s.split('-')[0]!),
    );
    add('fund', e.funds ?? []);
    add('license', [e.license ?? '']);
    add('sharing', [e.sharing ?? '']);
    add('temporal_resolution', [e.resolution ?? '']);
    add('language', [e.language]);
    add('year', [e.published!.slice(0, 4)]);
  }
  return counts;
}

/** The facets of a reply as facet -> value -> count (empty facets left out). */
function facetCounts(reply: { facets: Record<string, { value: string; count: number }[]> }) {
  return Object.fromEntries(
    Object.entries(reply.facets)
      .filter(([, values]) => values.length)
      .map(([facet, values]) => [facet, Object.fromEntries(values.map((v) => [v.value, v.count]))]),
  );
}

describe('filters and facets', () => {
  const cases: [string, Params, (e: CatalogueEntry) => boolean][] = [
    ['theme', { theme: 'glacier' }, (e) => !!e.themes?.some(([, en]) => en === 'Glacier')],
    ['theme, two values', { theme: 'glacier,permafrost' }, (e) => !!e.themes?.some(([, en]) => en === 'Glacier' || en === 'Permafrost')],
    ['theme, as the label is written', { theme: 'Runoff' }, (e) => !!e.themes?.some(([, en]) => en === 'Runoff')],
    ['discipline (a standard)', { discipline: 'glaciology' }, (e) => !!e.standards?.length],
    ['discipline (a keyword)', { discipline: 'hydrology' }, (e) => !!e.disciplines?.length],
    ['discipline, both', { discipline: ['glaciology', 'hydrology'] }, (e) => !!e.standards?.length || !!e.disciplines?.length],
    ['place', { place: 'tibetan plateau' }, (e) => !!e.places?.some(([zh]) => zh === '青藏高原')],
    ['place, two values repeated', { place: ['arctic', 'antarctica'] }, (e) => ['C', 'D'].includes(e.key)],
    ['program', { program: 'XDA20' }, (e) => !!e.threePole?.startsWith('XDA20')],
    ['program, two values', { program: 'XDA20,XDA19' }, (e) => !!(e.threePole || e.thirdPole)],
    ['fund', { fund: NSFC }, (e) => !!e.funds?.includes(NSFC)],
    ['fund, two values', { fund: `5,${NSFC}` }, (e) => !!e.funds?.some((f) => f === '5' || f === NSFC)],
    ['license', { license: 'CC BY 4.0' }, (e) => e.license === 'CC BY 4.0'],
    ['license, two values', { license: ['CC BY 4.0', 'CC BY-NC 4.0'] }, (e) => e.license === 'CC BY 4.0' || e.license === 'CC BY-NC 4.0'],
    ['sharing', { sharing: 'offlineEmail,offlineCenter' }, (e) => e.sharing !== 'online'],
    ['temporal_resolution', { temporal_resolution: 'daily' }, (e) => e.resolution === 'daily'],
    ['language', { language: 'en' }, (e) => e.language === 'en'],
    ['year', { year: '2024' }, (e) => e.published!.startsWith('2024')],
    ['year, two values', { year: '2024,2019' }, (e) => /^(2024|2019)/.test(e.published!)],
    ['license and resolution', { license: 'CC BY 4.0', temporal_resolution: 'daily' }, (e) => e.license === 'CC BY 4.0' && e.resolution === 'daily'],
    ['license, resolution and language', { license: 'CC BY 4.0', temporal_resolution: 'daily', language: 'en' }, (e) => e.key === 'C'],
    ['theme and place', { theme: 'runoff', place: 'alaska' }, (e) => e.key === 'G'],
    ['program and fund', { program: 'XDA20', fund: NSFC }, (e) => e.key === 'I'],
    ['words and a filter', { q: 'ice', place: 'arctic' }, (e) => e.key === 'C'],
    ['words and two filters', { q: '冰', license: 'CC BY 4.0', year: '2019,2024' }, (e) => ['C', 'H', 'I'].includes(e.key)],
    ['nothing', {}, () => true],
  ];

  it.each(cases)('%s narrows the result, and the facets count that result', async (_name, params, test) => {
    const expected = PUBLISHED.filter(test);
    const reply = await search(portal, { ...params, pageSize: 100 });
    expect(reply.results.map((r: { id: string }) => keyOf[r.id]).sort()).toEqual(keys(expected));
    expect(reply.count).toBe(expected.length);
    expect(facetCounts(reply)).toEqual(expectedFacets(expected));
  });

  // Sorted by title or views the filters run in SQL; by relevance or date, on the facet cache.
  it.each(cases)('%s finds the same records and counts sorted by title and by views', async (_name, params, test) => {
    const expected = PUBLISHED.filter(test);
    for (const sort of ['title', 'views']) {
      const reply = await search(portal, { ...params, sort, pageSize: 100 });
      expect(reply.results.map((r: { id: string }) => keyOf[r.id]).sort()).toEqual(keys(expected));
      expect(reply.count).toBe(expected.length);
      expect(facetCounts(reply)).toEqual(expectedFacets(expected));
    }
  });

  it('the cases above have teeth: each narrows to some records and not all', () => {
    for (const [name, , test] of cases.slice(0, -1)) {
      const n = PUBLISHED.filter(test).length;
      expect([name, n > 0 && n < PUBLISHED.length]).toEqual([name, true]);
    }
  });

  it('a filter value nobody uses finds nothing, with empty facets', async () => {
    const reply = await search(portal, { theme: 'volcano' });
    expect(reply.count).toBe(0);
    expect(facetCounts(reply)).toEqual({});
  });

  it('labels the facet values in the caller’s language', async () => {
    const label = (reply: any, facet: string, value: string) => reply.facets[facet].find((v: { value: string }) => v.value === value)?.label;
    const en = await search(portal, {}, 'en');
    const zh = await search(portal, {}, 'zh-hans');
    expect([label(en, 'theme', 'glacier'), label(zh, 'theme', 'glacier')]).toEqual(['Glacier', '冰川']);
    expect([label(en, 'place', 'tibetan plateau'), label(zh, 'place', 'tibetan plateau')]).toEqual(['Tibetan Plateau', '青藏高原']);
    expect([label(en, 'discipline', 'glaciology'), label(zh, 'discipline', 'glaciology')]).toEqual(['Glaciology', '冰川学']);
    expect([label(en, 'program', 'XDA20'), label(zh, 'program', 'XDA20')]).toEqual(['Pan-Third Pole Environment', '泛第三极环境变化']);
    expect([label(en, 'fund', NSFC), label(zh, 'fund', NSFC)]).toEqual(['National Natural Science Foundation of China', '国家自然科学基金']);
    expect([label(en, 'language', 'en'), label(zh, 'language', 'en')]).toEqual(['English', '英文']);
    expect(label(en, 'year', '2024')).toBe('2024');
    // The most frequent first; years newest first.
    expect(en.facets.license[0]).toMatchObject({ value: 'CC BY 4.0', count: 6 });
    expect(en.facets.year.map((v: { value: string }) => v.value)).toEqual(['2024', '2023', '2022', '2021', '2020', '2019']);
  });
});

describe('the box', () => {
  const box = (bbox: string) => foundSet({ bbox });

  it('an ordinary box finds the records whose boxes meet it', async () => {
    expect(await box('70,20,110,45')).toEqual(['A', 'B', 'L']);
    // Touching at an edge is meeting.
    expect(await box('105,40,110,45')).toEqual(['A']);
  });

  it('a box across the 180th meridian finds records on both sides and none in between', async () => {
    // F lies west of the meridian, G east of it, E across it; A, B and L lie in the same latitudes, between.
    expect(await box('150,20,-150,65')).toEqual(['E', 'F', 'G']);
  });

  it('a record whose own box crosses the meridian is found by a box on either side of it, and not by one elsewhere', async () => {
    expect(await box('172,50,178,65')).toEqual(['E']);
    expect(await box('-178,50,-172,65')).toEqual(['E']);
    expect(await box('100,50,120,65')).toEqual([]);
    expect(await box('-100,50,100,65')).toEqual([]);
  });

  it('a box around the North Pole and one around the South Pole', async () => {
    expect(await box('-180,80,180,90')).toEqual(['C']);
    expect(await box('-180,-90,180,-80')).toEqual(['D']);
  });

  it('records without a box are never found by a box', async () => {
    expect(await box('-180,-90,180,90')).toEqual(where((e) => !!e.box));
    expect(await box('-180,-90,180,90')).not.toContain('I');
  });

  it('a box with words', async () => {
    // D holds "ice" but lies in the south.
    expect(await foundSet({ q: 'ice', bbox: '-180,60,180,90' })).toEqual(['C', 'H']);
  });
});

describe('time overlap', () => {
  it('start only: records still running at or after it', async () => {
    expect(await foundSet({ start: '2016-01-01' })).toEqual(['A', 'C', 'E', 'G', 'L']);
  });

  it('end only: records that began by then', async () => {
    expect(await foundSet({ end: '1995-06-30' })).toEqual(['C', 'F', 'H']);
  });

  it('both: records overlapping the range', async () => {
    expect(await foundSet({ start: '2004-01-01', end: '2008-12-31' })).toEqual(['A', 'C', 'D']);
    // A range inside one record's time.
    expect(await foundSet({ start: '2016-03-01', end: '2016-03-02' })).toEqual(['A', 'C', 'E', 'L']);
  });

  it('partial dates mean their whole year or month', async () => {
    // D begins on 2003-01-01: inside the year 2003 and its January.
    expect(await foundSet({ end: '2003' })).toEqual(['A', 'C', 'D', 'F', 'H']);
    expect(await foundSet({ end: '2003-01' })).toEqual(['A', 'C', 'D', 'F', 'H']);
    expect(await foundSet({ end: '2002' })).toEqual(['A', 'C', 'F', 'H']);
    // E ends on 2018-06-30: inside 2018, before its July.
    expect(await foundSet({ start: '2018' })).toEqual(['A', 'C', 'E', 'G']);
    expect(await foundSet({ start: '2018-07' })).toEqual(['A', 'C', 'G']);
    expect(await foundSet({ start: '2016', end: '2016' })).toEqual(['A', 'C', 'E', 'L']);
  });

  it('records without a time range are never found by one', async () => {
    expect(await foundSet({ start: '1000', end: '3000' })).toEqual(where((e) => !!e.time));
  });
});

describe('paging and sorting', () => {
  const newestFirst = [...PUBLISHED].sort((a, b) => (a.published! < b.published! ? 1 : -1)).map((e) => e.key);

  it('pages through the result with links that keep the query', async () => {
    const first = await search(portal, { sort: 'newest', pageSize: 3, license: 'CC BY 4.0' });
    const byLicense = newestFirst.filter((k) => byKey[k]!.license === 'CC BY 4.0');
    expect(first.count).toBe(byLicense.length);
    expect(first.results.map((r: { id: string }) => keyOf[r.id])).toEqual(byLicense.slice(0, 3));
    expect(first.previous).toBeNull();
    const next = new URL(first.next, 'http://x');
    expect(next.pathname).toBe('/api/metadata/search/');
    expect(Object.fromEntries(next.searchParams)).toEqual({ sort: 'newest', pageSize: '3', license: 'CC BY 4.0', page: '2' });

    const second = await getOk(portal, first.next);
    expect(second.results.map((r: { id: string }) => keyOf[r.id])).toEqual(byLicense.slice(3, 6));
    expect(new URL(second.previous, 'http://x').searchParams.get('page')).toBe('1');
    expect(second.next).toBeNull();
  });

  it('pages of a result by relevance cover it once, in the order of one long page; title matches first', async () => {
    const whole = await search(portal, { q: '冰', pageSize: 50 });
    const order: string[] = whole.results.map((r: { id: string }) => r.id);
    expect(order).toHaveLength(holding('冰').length);
    const paged: string[] = [];
    for (let page = 1; (page - 1) * 2 < order.length; page += 1) paged.push(...(await search(portal, { q: '冰', pageSize: 2, page })).results.map((r: { id: string }) => r.id));
    expect(paged).toEqual(order);
    // Every record holding the word in its title comes before every one holding it elsewhere only.
    const inTitle = order.map((id) => (byKey[keyOf[id]!]!.zh?.title ?? '').includes('冰'));
    expect(inTitle.some(Boolean) && inTitle.some((t) => !t)).toBe(true);
    expect(inTitle).toEqual([...inTitle].sort((a, b) => Number(b) - Number(a)));
  });

  it('pages cover the whole result once, in order; a page past the end is empty and points back to the last', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const reply = await search(portal, { pageSize: 3, page });
      expect(reply.count).toBe(PUBLISHED.length);
      expect(reply.next === null).toBe(page === 4);
      seen.push(...reply.results.map((r: { id: string }) => keyOf[r.id]));
    }
    expect(seen).toEqual(newestFirst);
    const past = await search(portal, { pageSize: 3, page: 9 });
    expect(past).toMatchObject({ count: PUBLISHED.length, results: [], next: null });
    expect(new URL(past.previous, 'http://x').searchParams.get('page')).toBe('4');
    const pastWithWords = await search(portal, { q: '冰', pageSize: 2, page: 50 });
    expect(pastWithWords).toMatchObject({ count: holding('冰').length, results: [] });
  });

  it('without words the newest come first; with words the best match first', async () => {
    expect(await found({})).toEqual(newestFirst);
    // I is newer than A, but holds "glacier" only in its abstract; A in its title.
    expect(byKey.I!.published! > byKey.A!.published!).toBe(true);
    expect(await found({ q: 'glacier' })).toEqual(['A', 'I']);
    expect(await found({ q: 'glacier', sort: 'relevance' })).toEqual(['A', 'I']);
    expect(await found({ q: 'glacier', sort: 'newest' })).toEqual(['I', 'A']);
    expect(await found({ q: '冰川' })).toEqual(['A', 'I']);
  });

  it('by views, most first (newest first among equals)', async () => {
    const expected = [...PUBLISHED].sort((a, b) => (b.hits ?? 0) - (a.hits ?? 0) || (a.published! < b.published! ? 1 : -1)).map((e) => e.key);
    expect(await found({ sort: 'views' })).toEqual(expected);
    const reply = await search(portal, { sort: 'views', pageSize: 1 });
    expect(reply.results[0]).toMatchObject({ id: ids.C, hit_count: 40 });
  });

  it('by title in the caller’s language', async () => {
    const titled = (language: 'en' | 'zh') => [...PUBLISHED].sort((a, b) => (a[language].title < b[language].title ? -1 : 1));
    const inEnglish = await search(portal, { sort: 'title', pageSize: 100 }, 'en');
    expect(inEnglish.results.map((r: { title: string }) => r.title)).toEqual(titled('en').map((e) => e.en.title));
    const inChinese = await search(portal, { sort: 'title', pageSize: 100 }, 'zh-hans');
    expect(inChinese.results.map((r: { title: string }) => r.title)).toEqual(titled('zh').map((e) => e.zh.title));
    // The two orders differ, so the language was followed.
    expect(titled('en').map((e) => e.key)).not.toEqual(titled('zh').map((e) => e.key));
  });

  it('a result carries what the list shows, in the caller’s language', async () => {
    const [zh] = (await search(portal, { q: 'Dorje' }, 'zh-hans')).results;
    expect(zh).toMatchObject({
      id: ids.D,
      title: '南极冰盖表面高程',
      snippet: byKey.D!.zh.abstract,
      language: 'en',
      authors: ['扎西多吉'],
      time_start: '2003-01-01',
      time_end: '2009-12-31',
      published_at: '2021-07-01T08:00:00.000Z',
      west: -180,
      south: -90,
      east: 180,
      north: -60,
      hit_count: 3,
    });
    const [en] = (await search(portal, { q: 'Dorje' }, 'en')).results;
    expect(en).toMatchObject({ title: byKey.D!.en.title, snippet: byKey.D!.en.abstract, authors: ['Tashi Dorje'] });
    const [a] = (await search(portal, { q: '10.11888/Glacio.tpdc.270001' })).results;
    expect(a.doi).toBe('10.11888/Glacio.tpdc.270001');
  });
});

describe('records that are not published', () => {
  const hidden = () => UNPUBLISHED.map((e) => ids[e.key]!);

  it('exist, and hold every word, place and date searched for', async () => {
    const rows = await portal.database.db.selectFrom('metadata').select(['id', 'status']).where('id', 'in', hidden()).execute();
    expect(rows.map((r) => r.status).sort()).toEqual(['NotPublished', 'approved', 'draft', 'submitted']);
  });

  it.each<Params>([
    {},
    { q: '冰川' },
    { q: '冰' },
    { q: 'glaciers' },
    { q: '冰川 mass balance' },
    { q: 'Dorje' },
    { q: '10.11888/Glacio.tpdc.270001' },
    { theme: 'glacier' },
    { fund: NSFC },
    { program: 'XDA20' },
    { year: '2025' },
    { bbox: '-180,-90,180,90' },
    { start: '1900', end: '2100' },
    { sort: 'views' },
  ])('are never found: %o', async (params) => {
    const found = await foundIds(portal, params);
    expect(found.filter((id) => hidden().includes(id))).toEqual([]);
  });

  it('are not counted in the facets', async () => {
    const reply = await search(portal, { pageSize: 1 });
    expect(reply.count).toBe(PUBLISHED.length);
    expect(reply.facets.year.find((v: { value: string }) => v.value === '2025')).toBeUndefined();
  });

  it('are neither hot nor counted on the home page', async () => {
    const hot = await getOk(portal, '/api/metadata/hot/');
    const byViews = [...PUBLISHED].sort((a, b) => (b.hits ?? 0) - (a.hits ?? 0) || (a.published! < b.published! ? 1 : -1));
    expect(hot.results.map((r: { id: string }) => keyOf[r.id])).toEqual(byViews.map((e) => e.key));
    expect(hot.results[0]).toEqual({ id: ids.C, title: byKey.C!.en.title, lineitem_set: 0, hit_count: 40, comment_set: 0, published_at: '2024-01-15T08:00:00.000Z' });

    const stats = await getOk(portal, '/api/metadata/catalogue-stats/', 'zh-hans');
    const files = PUBLISHED.flatMap((e) => e.files ?? []);
    expect(stats).toMatchObject({ datasets: PUBLISHED.length, files: files.length, bytes: files.reduce((a, b) => a + b, 0) });
    expect(stats.newest).toEqual(
      [...PUBLISHED]
        .sort((a, b) => (a.published! < b.published! ? 1 : -1))
        .slice(0, 5)
        .map((e) => ({ id: ids[e.key], title: e.zh.title, published_at: `${e.published}T08:00:00.000Z` })),
    );
    expect(stats.most_viewed).toEqual(byViews.filter((e) => e.hits).map((e) => ({ id: ids[e.key], title: e.zh.title, hit_count: e.hits })));
  });

  it('never show in the suggestions', async () => {
    const reply = await getOk(portal, '/api/metadata/search/suggest/?q=glac');
    // Keywords the most used first: Glaciology (A and H), Glacier (A); then the titles found.
    expect(reply.results).toEqual([
      { text: 'Glaciology', kind: 'keyword', id: null },
      { text: 'Glacier', kind: 'keyword', id: null },
      { text: byKey.A!.en.title, kind: 'title', id: ids.A },
      { text: byKey.I!.en.title, kind: 'title', id: ids.I },
    ]);
  });
});

describe('bad input', () => {
  const cases: [string, Params, string, { en: string; zh: string }][] = [
    ['a box of three numbers', { bbox: '1,2,3' }, 'bbox', { en: 'Give the box as west,south,east,north', zh: '范围请按 西,南,东,北' }],
    ['a box of words', { bbox: 'a,b,c,d' }, 'bbox', { en: 'Give the box as west,south,east,north', zh: '范围请按 西,南,东,北' }],
    ['a box beyond 180 degrees', { bbox: '170,0,190,10' }, 'bbox', { en: 'Give the box as west,south,east,north', zh: '范围请按 西,南,东,北' }],
    ['a box with south above north', { bbox: '0,50,10,40' }, 'bbox', { en: 'Give the box as west,south,east,north', zh: '范围请按 西,南,东,北' }],
    ['an unknown sort', { sort: 'popularity' }, 'sort', { en: 'Choose one of the sort orders offered.', zh: '请选择所列的排序方式之一。' }],
    ['an unknown licence', { license: 'CC0 1.0' }, 'license', { en: 'One of the filter values is not one the catalogue offers.', zh: '筛选条件中有目录不提供的取值。' }],
    ['a query over 200 characters', { q: '冰'.repeat(201) }, 'q', { en: 'A search may have at most 200 characters.', zh: '检索词最多 200 个字符。' }],
    [
      'a start after the end',
      { start: '2020-01-01', end: '2019-12-31' },
      'end',
      { en: 'The end of the time range must not come before its start.', zh: '时间范围的结束不能早于开始。' },
    ],
    ['a date that is none', { start: '2020/01/01' }, 'start', { en: 'Enter dates as YYYY, YYYY-MM or YYYY-MM-DD.', zh: '日期请按 YYYY、YYYY-MM 或 YYYY-MM-DD 填写。' }],
  ];

  it.each(cases)('%s is refused with the message in the caller’s language, and nothing else', async (_name, params, field, message) => {
    for (const language of ['en', 'zh-hans'] as const) {
      const response = await searchCall(portal, params, language);
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['detail', field].sort());
      expect(body[field]).toHaveLength(1);
      expect(body[field][0]).toBe(body.detail);
      expect(body.detail).toContain(language === 'en' ? message.en : message.zh);
    }
  });

  it('200 characters are still a query', async () => {
    const reply = await search(portal, { q: '冰'.repeat(200) });
    expect(reply.count).toBe(0);
  });
});

describe('the replies as sent', () => {
  const get = (url: string, headers: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...headers } });
  const calls = ['/api/metadata/search/?q=glacier', '/api/metadata/search/?q=glacier&sort=views', '/api/metadata/hot/', '/api/metadata/catalogue-stats/'];

  it('are compressed in the encoding the client takes, and the same JSON unpacked', async () => {
    for (const url of calls) {
      const plain = await get(url);
      expect(plain.statusCode, url).toBe(200);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers['content-type'], url).toBe('application/json; charset=utf-8');
      for (const [encoding, unpack] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const packed = await get(url, { 'accept-encoding': encoding });
        expect(packed.headers['content-encoding'], url).toBe(encoding);
        expect(JSON.parse(unpack(packed.rawPayload).toString('utf8')), url).toEqual(plain.json());
      }
    }
  });

  it('may be kept 30 seconds by browsers and proxies, per language and encoding, and revalidated by their ETag', async () => {
    for (const url of calls) {
      const first = await get(url, { 'accept-encoding': 'br' });
      expect(first.headers['cache-control'], url).toBe('public, max-age=30');
      expect(first.headers.vary, url).toBe('Accept-Language, Accept-Encoding');
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^"[\w-]+-br"$/);
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
      // Another language is another reply.
      const chinese = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag, 'accept-language': 'zh-hans' });
      expect(chinese.statusCode, url).toBe(200);
    }
  });
});

describe("a kept reply and the client's _r", () => {
  // Issue 16: the portal's client adds a random _r to every GET; keyed with it, no kept reply was reused.
  it('is kept under the query without _r, whatever _r says', async () => {
    const first = await portal.app.inject({ method: 'GET', url: '/api/metadata/search/?q=permafrost&_r=0.123', headers: { 'accept-language': 'en' } });
    expect(first.statusCode).toBe(200);
    const kept = portal.search.keptReply('en\u0000/api/metadata/search/?q=permafrost');
    expect(kept).toBeDefined();
    const second = await portal.app.inject({ method: 'GET', url: '/api/metadata/search/?_r=0.987&q=permafrost', headers: { 'accept-language': 'en' } });
    expect(second.body).toBe(first.body);
    expect(portal.search.keptReply('en\u0000/api/metadata/search/?q=permafrost')).toBe(kept);
    expect(first.json().next ?? '').not.toContain('_r=');
  });
});

describe('authors in a result', () => {
  // Issue 16: the result listed every linked person; it lists those a citation names, in its order.
  it("are the creators only, in the record's author order", async () => {
    await linkAuthors(portal, ids.B!, [
      { name: '王经理', role: 'manager', sort: 0 },
      { name: '赵所有', role: 'owner', sort: 5 },
    ]);
    const [hit] = (await search(portal, { q: 'borehole' }, 'zh-hans')).results;
    expect(hit.id).toBe(ids.B);
    expect(hit.authors).toEqual(['李冻', '赵所有']);
  });
});
