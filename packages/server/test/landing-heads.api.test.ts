import { randomUUID } from 'node:crypto';
import { load, type CheerioAPI } from 'cheerio';
import LinkHeader from 'http-link-header';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { metaDescription } from '../src/modules/landing/index.js';
import { buildDataFile, buildExportRecord, buildThumbnail, buildUser, type Person } from './factories.js';
import { tokenHeader, type TestPortal } from './helpers.js';
import { createLandingTestPortal } from './exports-builders.js';
import { expectStatus } from './metadata-builders.js';
import { decide } from './review-builders.js';

/**
 * What a dataset's landing page tells machines (issue 17): its head as a crawler and a link preview
 * read it (Open Graph, Twitter card, citation_* tags, `<html lang>`, typed alternates of each export,
 * JSON-LD), parsed with a real HTML parser (cheerio, parse5 underneath) whatever the title holds; FAIR
 * Signposting in the Link header (parsed per RFC 8288 by http-link-header) on the page and on a data
 * file's download, and the linkset (RFC 9264) in JSON and text under each language's address.
 */
let portal: TestPortal;
let close: () => Promise<void>;
let staff: Person;
const ids = {} as Record<'chinese' | 'english' | 'nasty' | 'many' | 'withdrawn', string>;
let thumbnailId: string;

const DOI = '10.11888/Glacio.tpdc.270201';
const SITE = { 'zh-hans': '三极科学数据门户', en: 'Three Poles Data Portal' };
/** Closes the script element, quotes an attribute, opens markup: none of it may leave its place in the head. */
const NASTY_TITLE = '</script><script>window.pwned=1</script> "quoted" {braces} } <b>bold</b> & 𠮷';
const CHINESE_ABSTRACT = '本数据集记录了青藏高原冰川面积与物质平衡的长期变化，基于陆地卫星影像逐年提取冰川边界。';
const ENGLISH_ABSTRACT = 'Annual glacier outlines of the Tibetan Plateau derived from Landsat imagery, checked by hand, 1990 to 2020.';
/** The exports a landing page names, in its order: [media type, format]. */
const EXPORTS_WITH_DOI = [
  ['application/vnd.datacite.datacite+xml', 'datacite'],
  ['application/xml', 'iso19139'],
  ['application/ld+json', 'dcat'],
  ['text/turtle', 'turtle'],
  ['application/rdf+xml', 'rdfxml'],
  ['application/ld+json', 'schemaorg'],
  ['application/vnd.citationstyles.csl+json', 'csl'],
  ['application/x-research-info-systems', 'ris'],
  ['application/x-bibtex', 'bibtex'],
];

beforeAll(async () => {
  ({ portal, close } = await createLandingTestPortal());
  const owner = await buildUser(portal);
  staff = await buildUser(portal, { staff: true });
  ids.chinese = await buildExportRecord(portal, owner.id, {
    key: 'chinese',
    language: 'zh-hans',
    zh: { title: '青藏高原冰川编目', abstract: CHINESE_ABSTRACT },
    en: { title: 'Glacier inventory of the Tibetan Plateau', abstract: ENGLISH_ABSTRACT },
    themes: [['冰川', 'glacier']],
    places: [['青藏高原', 'Tibetan Plateau']],
    authors: [['张冰川', 'Zhang Bingchuan']],
    license: 'CC BY-NC-SA 4.0',
    sharing: 'online',
    published: '2021-05-01',
    doi: DOI,
    files: [1_000_000, 2_500_000],
  });
  thumbnailId = await buildThumbnail(portal, ids.chinese, owner);
  ids.english = await buildExportRecord(portal, owner.id, {
    key: 'english',
    language: 'en',
    zh: { title: '南极海冰' },
    en: { title: 'Antarctic sea ice', abstract: 'Daily Antarctic sea ice extent from passive microwave radiometers.' },
    sharing: 'offlineEmail',
    published: '2022-03-10',
  });
  ids.nasty = await buildExportRecord(portal, owner.id, {
    key: 'nasty',
    language: 'en',
    zh: { title: '标题测试' },
    en: { title: NASTY_TITLE, abstract: `An abstract that says ${NASTY_TITLE} too, long enough to be a description.` },
    themes: [['测试</script>', 'test</script>"']],
    published: '2023-02-01',
  });
  ids.many = await buildExportRecord(portal, owner.id, {
    key: 'many',
    language: 'en',
    zh: { title: '十一个文件' },
    en: { title: 'Eleven files', abstract: 'A record with more files than a Link header names.' },
    published: '2023-03-01',
    files: Array.from({ length: 11 }, (_, i) => 1000 + i),
  });
  ids.withdrawn = await buildExportRecord(portal, owner.id, {
    key: 'withdrawn',
    language: 'en',
    zh: { title: '撤销' },
    en: { title: 'Withdrawn', abstract: 'Gone.' },
    published: '2023-01-01',
  });
  expectStatus(await decide(portal, staff.token, ids.withdrawn, { review_status: 'unpublish', content: 'Withdrawn by its provider.' }), 200);
}, 60_000);

afterAll(async () => {
  await close();
});

const get = (url: string, headers: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url, headers });
const pageOf = async (url: string): Promise<{ $: CheerioAPI; link: LinkHeader }> => {
  const response = await get(url, { accept: 'text/html' });
  expect(response.statusCode, url).toBe(200);
  return { $: load(response.body), link: LinkHeader.parse(String(response.headers.link ?? '')) };
};
const metaContent = ($: CheerioAPI, attribute: 'name' | 'property', key: string) =>
  $(`meta[${attribute}="${key}"]`)
    .map((_, el) => $(el).attr('content'))
    .get();
const fileUrls = async (id: string) =>
  (await portal.database.db.selectFrom('meta_file').select(['id', 'mime']).where('metadata_id', '=', id).orderBy('created_at').orderBy('id').execute()).map((file) => ({
    href: `http://portal.test/api/metadata/meta-file/${file.id}/download/`,
    type: file.mime,
  }));

describe('the head of a landing page', () => {
  it('says the page language as hreflang and the JSON-LD do: zh-Hans for the Chinese pages, en for the English', async () => {
    for (const [url, tag] of [
      [`/data/${ids.chinese}/`, 'zh-Hans'],
      [`/zh-hans/data/${ids.chinese}/`, 'zh-Hans'],
      [`/en/data/${ids.chinese}/`, 'en'],
    ] as const) {
      const { $ } = await pageOf(url);
      expect($('html').attr('lang'), url).toBe(tag);
      expect(JSON.parse($('script[type="application/ld+json"]').text()).inLanguage, url).toBe(tag);
      const hreflangs = $('link[rel="alternate"][hreflang]')
        .map((_, el) => $(el).attr('hreflang'))
        .get();
      expect(hreflangs).toEqual(['zh-Hans', 'en', 'x-default']);
      expect(hreflangs).toContain(tag);
    }
    // The other pages too.
    const home = load((await get('/', { accept: 'text/html' })).body);
    expect(home('html').attr('lang')).toBe('zh-Hans');
  });

  it('has the Open Graph and Twitter card tags of a link preview, in the page language', async () => {
    for (const [url, language] of [
      [`/data/${ids.chinese}/`, 'zh-hans'],
      [`/en/data/${ids.chinese}/`, 'en'],
    ] as const) {
      const { $ } = await pageOf(url);
      const title = language === 'en' ? 'Glacier inventory of the Tibetan Plateau' : '青藏高原冰川编目';
      const description = metaDescription(language === 'en' ? ENGLISH_ABSTRACT : CHINESE_ABSTRACT);
      const canonical = `http://portal.test${language === 'en' ? '/en' : ''}/data/${ids.chinese}/`;
      const image = `http://portal.test/api/metadata/meta-media/${thumbnailId}/image/`;
      const og = (key: string) => metaContent($, 'property', key);
      expect(og('og:type')).toEqual(['website']);
      expect(og('og:title')).toEqual([title]);
      expect(og('og:description')).toEqual([description]);
      expect(og('og:url')).toEqual([canonical]);
      expect(og('og:url')).toEqual([$('link[rel="canonical"]').attr('href')]);
      expect(og('og:site_name')).toEqual([SITE[language]]);
      expect(og('og:locale')).toEqual([language === 'en' ? 'en_US' : 'zh_CN']);
      expect(og('og:locale:alternate')).toEqual([language === 'en' ? 'zh_CN' : 'en_US']);
      expect(og('og:image')).toEqual([image]);
      const twitter = (key: string) => metaContent($, 'name', key);
      expect(twitter('twitter:card')).toEqual(['summary']);
      expect(twitter('twitter:title')).toEqual([title]);
      expect(twitter('twitter:description')).toEqual([description]);
      expect(twitter('twitter:image')).toEqual([image]);
    }
    // No thumbnail, no image.
    const { $ } = await pageOf(`/en/data/${ids.english}/`);
    expect(metaContent($, 'property', 'og:image')).toEqual([]);
    expect(metaContent($, 'property', 'og:title')).toEqual(['Antarctic sea ice']);
  });

  it('has citation_keywords, citation_language and citation_abstract for Google Scholar', async () => {
    const chinese = (await pageOf(`/data/${ids.chinese}/`)).$;
    expect(
      metaContent(chinese, 'name', 'citation_keywords')
        .flatMap((k) => k.split('; '))
        .sort(),
    ).toEqual(['冰川', '青藏高原'].sort());
    expect(metaContent(chinese, 'name', 'citation_language')).toEqual(['zh-Hans']);
    expect(metaContent(chinese, 'name', 'citation_abstract')).toEqual([CHINESE_ABSTRACT]);
    const english = (await pageOf(`/en/data/${ids.chinese}/`)).$;
    expect(
      metaContent(english, 'name', 'citation_keywords')
        .flatMap((k) => k.split('; '))
        .sort(),
    ).toEqual(['Tibetan Plateau', 'glacier']);
    expect(metaContent(english, 'name', 'citation_language')).toEqual(['en']);
    expect(metaContent(english, 'name', 'citation_abstract')).toEqual([ENGLISH_ABSTRACT]);
    // The language of the title the page shows: an English record's Chinese page shows its Chinese title.
    const fallback = (await pageOf(`/data/${ids.english}/`)).$;
    expect(metaContent(fallback, 'name', 'citation_language')).toEqual(['zh-Hans']);
    expect(metaContent(fallback, 'name', 'citation_keywords')).toEqual([]);
  });

  it('links each export with its media type, each answering as it says', async () => {
    for (const [url, language] of [
      [`/data/${ids.chinese}/`, 'zh-hans'],
      [`/en/data/${ids.chinese}/`, 'en'],
    ] as const) {
      const { $ } = await pageOf(url);
      const alternates = $('link[rel="alternate"][type]')
        .map((_, el) => ({ type: $(el).attr('type')!, href: $(el).attr('href')!, title: $(el).attr('title') }))
        .get();
      expect(alternates.map((a) => [a.type, a.title])).toEqual(EXPORTS_WITH_DOI);
      for (const alternate of alternates) {
        expect(alternate.href.startsWith('http://portal.test/api/metadata/metadata/')).toBe(true);
        const response = await get(alternate.href.slice('http://portal.test'.length));
        expect(response.statusCode, alternate.href).toBe(200);
        expect(response.headers['content-type'], alternate.href).toBe(`${alternate.type}; charset=utf-8`);
        if (alternate.title === 'schemaorg') expect(response.json().inLanguage).toBe(language === 'en' ? 'en' : 'zh-Hans');
      }
    }
    // Without a DOI, no DataCite form is offered.
    const { $ } = await pageOf(`/en/data/${ids.english}/`);
    expect(
      $('link[rel="alternate"][type]')
        .map((_, el) => $(el).attr('title'))
        .get(),
    ).toEqual(EXPORTS_WITH_DOI.slice(1).map(([, format]) => format));
  });

  it('keeps a title holding </script>, quotes, braces and markup as text, in the head and in the JSON-LD', async () => {
    const response = await get(`/en/data/${ids.nasty}/`, { accept: 'text/html' });
    const $ = load(response.body);
    // One script element: the JSON-LD; nothing the title held became an element.
    expect($('script').length).toBe(1);
    expect($('b').length).toBe(0);
    expect(
      $('body')
        .children()
        .map((_, el) => $(el).attr('id'))
        .get(),
    ).toEqual(['root']);
    const jsonLd = JSON.parse($('script[type="application/ld+json"]').text());
    expect(jsonLd.name).toBe(NASTY_TITLE);
    expect(jsonLd.keywords).toEqual(['test</script>"']);
    expect($('title').text()).toBe(`${NASTY_TITLE} - ${SITE.en}`);
    expect(metaContent($, 'property', 'og:title')).toEqual([NASTY_TITLE]);
    expect(metaContent($, 'name', 'twitter:title')).toEqual([NASTY_TITLE]);
    expect(metaContent($, 'name', 'citation_title')).toEqual([NASTY_TITLE]);
    expect(metaContent($, 'name', 'citation_keywords')).toEqual(['test</script>"']);
    expect(metaContent($, 'name', 'citation_abstract')[0]).toContain(NASTY_TITLE);
  });
});

describe('FAIR Signposting on a landing page', () => {
  it('names the DOI, the types, each export, each file, the licence and the linkset in its Link header', async () => {
    for (const [url, language] of [
      [`/data/${ids.chinese}/`, 'zh-hans'],
      [`/en/data/${ids.chinese}/`, 'en'],
      [`/zh-hans/data/${ids.chinese}/`, 'zh-hans'],
    ] as const) {
      const { $, link } = await pageOf(url);
      expect(link.rel('cite-as').map((l) => l.uri)).toEqual([`https://doi.org/${DOI}`]);
      expect(link.rel('type').map((l) => l.uri)).toEqual(['https://schema.org/Dataset', 'https://schema.org/AboutPage']);
      const alternates = $('link[rel="alternate"][type]')
        .map((_, el) => ({ uri: $(el).attr('href'), type: $(el).attr('type') }))
        .get();
      expect(link.rel('describedby').map((l) => ({ uri: l.uri, type: l.type }))).toEqual(alternates);
      expect(
        link
          .rel('describedby')
          .filter((l) => l.type === 'application/ld+json')
          .map((l) => l.profile),
      ).toEqual(['http://www.w3.org/ns/dcat#', 'https://schema.org']);
      expect(link.rel('item').map((l) => ({ href: l.uri, type: l.type }))).toEqual(await fileUrls(ids.chinese!));
      expect(link.rel('license').map((l) => l.uri)).toEqual(['https://creativecommons.org/licenses/by-nc-sa/4.0/']);
      const landing = `http://portal.test${language === 'en' ? '/en' : ''}/data/${ids.chinese}/`;
      expect(link.rel('linkset').map((l) => [l.uri, l.type])).toEqual([
        [`${landing}linkset`, 'application/linkset+json'],
        [`${landing}linkset`, 'application/linkset'],
      ]);
      // No link is anchored elsewhere: each is the page's own.
      expect(link.refs.every((l) => l.anchor === undefined)).toBe(true);
    }
  });

  it('cites a record without DOI by its page, and leaves the files of a large record to the linkset', async () => {
    const english = (await pageOf(`/en/data/${ids.english}/`)).link;
    expect(english.rel('cite-as').map((l) => l.uri)).toEqual([`http://portal.test/en/data/${ids.english}/`]);
    expect(english.rel('describedby').map((l) => l.type)).not.toContain('application/vnd.datacite.datacite+xml');
    expect(english.rel('license')).toEqual([]);
    const many = await get(`/en/data/${ids.many}/`, { accept: 'text/html' });
    const link = LinkHeader.parse(String(many.headers.link));
    expect(link.rel('item')).toEqual([]);
    expect(link.rel('linkset')).toHaveLength(2);
    expect(String(many.headers.link).length).toBeLessThan(4000);
  });

  it('gives no signposts on a page that is not a published record', async () => {
    expect((await get(`/en/data/${ids.withdrawn}/`, { accept: 'text/html' })).headers.link).toBeUndefined();
    expect((await get(`/en/data/${randomUUID()}/`, { accept: 'text/html' })).headers.link).toBeUndefined();
  });
});

describe('GET /{lang}/data/{id}/linkset', () => {
  it("gives the landing page's links as application/linkset+json, every file, each file and export linking back", async () => {
    for (const [prefix, language] of [
      ['', 'zh-hans'],
      ['/zh-hans', 'zh-hans'],
      ['/en', 'en'],
    ] as const) {
      const response = await get(`${prefix}/data/${ids.many}/linkset`, { accept: 'application/linkset+json' });
      expect(response.statusCode, prefix).toBe(200);
      expect(response.headers['content-type']).toBe('application/linkset+json; charset=utf-8');
      expect(response.headers.vary).toBe('Accept');
      const { linkset } = response.json() as { linkset: ({ anchor: string } & Record<string, { href: string; type?: string }[]>)[] };
      const landing = `http://portal.test${language === 'en' ? '/en' : ''}/data/${ids.many}/`;
      const page = linkset.find((context) => context.anchor === landing)!;
      expect(page).toBeDefined();
      const files = await fileUrls(ids.many!);
      expect(files).toHaveLength(11);
      expect(page.item).toEqual(files);
      expect(page['cite-as']).toEqual([{ href: landing }]);
      expect(page.describedby!.map((d) => d.type)).toEqual(EXPORTS_WITH_DOI.slice(1).map(([type]) => type));
      for (const file of files) expect(linkset.find((context) => context.anchor === file.href)?.collection).toEqual([{ href: landing, type: 'text/html' }]);
      for (const described of page.describedby!) expect(linkset.find((context) => context.anchor === described.href)?.describes).toEqual([{ href: landing, type: 'text/html' }]);
      // JSON by default too.
      expect((await get(`${prefix}/data/${ids.many}/linkset`)).json()).toEqual(response.json());
    }
  });

  it('gives the same links as application/linkset, each with its anchor, as RFC 8288 reads them', async () => {
    const json = (await get(`/en/data/${ids.chinese}/linkset`)).json() as {
      linkset: ({ anchor: string } & Record<string, { href: string; type?: string; profile?: string[] }[]>)[];
    };
    const fromJson = json.linkset.flatMap(({ anchor, ...relations }) =>
      Object.entries(relations).flatMap(([rel, targets]) => targets.map((target) => [anchor, rel, target.href, target.type ?? '', target.profile?.[0] ?? ''].join(' '))),
    );
    const response = await get(`/en/data/${ids.chinese}/linkset`, { accept: 'application/linkset' });
    expect(response.headers['content-type']).toBe('application/linkset; charset=utf-8');
    const text = LinkHeader.parse(response.body.replace(/\n/g, ' '));
    expect(text.refs.every((ref) => ref.anchor)).toBe(true);
    expect(text.refs.map((ref) => [ref.anchor, ref.rel, ref.uri, ref.type ?? '', ref.profile ?? ''].join(' ')).sort()).toEqual(fromJson.sort());
    expect(fromJson).toContain(`http://portal.test/en/data/${ids.chinese}/ cite-as https://doi.org/${DOI}  `);
  });

  it('answers 410 for a withdrawn record and 404 for an unknown one, in the language of its address', async () => {
    const gone = await get(`/en/data/${ids.withdrawn}/linkset`, { 'accept-language': 'zh-hans' });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ detail: translate('en', 'metadata.exports.withdrawn'), title: 'Withdrawn', reason: 'Withdrawn by its provider.' });
    const unknown = await get(`/data/${randomUUID()}/linkset`, { 'accept-language': 'en' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: translate('zh-hans', 'metadata.notFound') });
  });
});

describe('signposts of a file and of an export', () => {
  it("a data file's download names its landing page (collection)", async () => {
    // A published record's files are written as an upload leaves them (no upload changes them: record-policy.ts changeFiles).
    const fileId = await buildDataFile(portal, ids.english!, staff, { name: 'extent.csv', content: 'day,extent\n1,15.2\n', mime: 'text/csv' });
    const response = await get(`/api/metadata/meta-file/${fileId}/download/`, { ...tokenHeader(staff.token), 'accept-language': 'en' });
    expect(response.statusCode).toBe(200);
    const link = LinkHeader.parse(String(response.headers.link));
    expect(link.rel('collection').map((l) => [l.uri, l.type])).toEqual([[`http://portal.test/en/data/${ids.english}/`, 'text/html']]);
  });

  it('an export names the landing page it describes', async () => {
    const response = await get(`/api/metadata/metadata/${ids.chinese}/export/?format=datacite`, { 'accept-language': 'zh-hans' });
    const link = LinkHeader.parse(String(response.headers.link));
    expect(link.rel('describes').map((l) => [l.uri, l.type])).toEqual([[`http://portal.test/data/${ids.chinese}/`, 'text/html']]);
  });
});
