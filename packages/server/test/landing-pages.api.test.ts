import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { DESCRIPTION_LENGTH, metaDescription } from '../src/modules/landing/index.js';
import { sitemapLimits } from '../src/plugins/sitemap.js';
import { buildUser, type Person, buildCatalogue } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus, recordUrl } from './metadata-builders.js';
import { decide } from './review-builders.js';

/**
 * Dataset landing pages `/{lang}/data/{id}/` as the server sends them (issue 9): the head of a
 * published record in the page's language, 404 for what was never published, 410 and a tombstone for
 * an unpublished record, the sitemap, and the paged file list a record of 10,000 files is read from.
 * A built web app of its own (the markers of packages/web's index.html), PUBLIC_URL http://portal.test.
 */
let portal: TestPortal;
let webDist: string;
let owner: Person;
let staff: Person;
let ids: Record<string, string>;

const LONG_ENGLISH =
  'Annual outlines of the glaciers of the Tibetan Plateau from Landsat images between 1990 and 2020, checked by hand against high-resolution images, with the area of every glacier and its change in each basin, and a description of the method.';
const LONG_CHINESE = '本数据集记录了青藏高原冰川面积与物质平衡的长期变化，基于陆地卫星影像逐年提取冰川边界并经人工检查。'.repeat(4);
const MANY_FILES = 10_000;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  [owner, staff] = await Promise.all([buildUser(portal, { realname: 'Provider Pan' }), buildUser(portal, { staff: true, realname: 'Desk Du' })]);
  ids = await buildCatalogue(portal, owner.id, [
    {
      key: 'glaciers',
      language: 'zh-hans',
      zh: { title: '青藏高原冰川编目 <1990–2020> & $& 更新', abstract: LONG_CHINESE },
      en: { title: 'Glacier inventory of the Tibetan Plateau <1990–2020>', abstract: LONG_ENGLISH },
      published: '2024-03-01',
      doi: '10.11888/Glacio.tpdc.270001',
    },
    { key: 'short', language: 'en', zh: { title: '南极海冰', abstract: '' }, en: { title: 'Antarctic sea ice', abstract: 'Daily sea ice extent.' }, published: '2024-04-01' },
    { key: 'draft', status: 'draft', language: 'en', zh: { title: '草稿冰川', abstract: '草稿' }, en: { title: 'Draft glacier', abstract: 'A draft.' } },
    { key: 'inReview', status: 'underReview', language: 'en', zh: { title: '评审中', abstract: '' }, en: { title: 'Under review', abstract: 'In review.' } },
    {
      key: 'gone',
      language: 'en',
      zh: { title: '撤销的冰湖数据', abstract: '冰湖' },
      en: { title: 'Withdrawn glacial lakes', abstract: 'Glacial lakes.' },
      published: '2023-01-01',
      doi: '10.11888/Hydro.tpdc.300009',
    },
    { key: 'many', language: 'en', zh: { title: '一万个文件', abstract: '文件很多' }, en: { title: 'Ten thousand files', abstract: 'Many files.' }, published: '2024-05-01' },
  ]);
  expectStatus(await decide(portal, staff.token, ids.gone!, { review_status: 'unpublish', content: 'The data were found to duplicate another dataset.' }), 200);
  // The data files of `many`, as a harvest by FTP would leave them (uploads stop at five).
  const now = Date.now();
  const rows = Array.from({ length: MANY_FILES }, (_, i) => ({
    id: randomUUID(),
    metadata_id: ids.many!,
    name: `tile_${String(i).padStart(5, '0')}.tif`,
    mime: 'image/tiff',
    storage_key: `test/${randomUUID()}`,
    sha256: '',
    size: 1000 + i,
    created_by: owner.id,
    created_at: new Date(now + i).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 500)
    await portal.database.db
      .insertInto('meta_file')
      .values(rows.slice(i, i + 500))
      .execute();
}, 120_000);

afterAll(async () => {
  await portal.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const page = (url: string) => portal.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

function tagAttribute(html: string, selector: string, attribute: string): string | undefined {
  const tag = new RegExp(`<${selector}[^>]*>`).exec(html)?.[0];
  return tag ? new RegExp(`${attribute}="([^"]*)"`).exec(tag)?.[1] : undefined;
}
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const alternatesOf = (html: string) => Object.fromEntries([...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('metaDescription', () => {
  it('keeps a short text as it is, white space folded', () => {
    expect(metaDescription('  Daily   sea ice\nextent. ')).toBe('Daily sea ice extent.');
  });

  it('cuts a long English text at a word, within the length, with an ellipsis', () => {
    const description = metaDescription(LONG_ENGLISH);
    expect([...description].length).toBeLessThanOrEqual(DESCRIPTION_LENGTH);
    expect(description.endsWith('…')).toBe(true);
    const words = description.slice(0, -1);
    expect(LONG_ENGLISH.startsWith(words)).toBe(true);
    expect(LONG_ENGLISH[words.length]).toBe(' ');
  });

  it('cuts a Chinese text at a character, counting characters rather than UTF-16 units', () => {
    const description = metaDescription(`𠀀${LONG_CHINESE}`);
    expect([...description]).toHaveLength(DESCRIPTION_LENGTH);
    expect(description.startsWith('𠀀本数据集')).toBe(true);
    expect(description.endsWith('…')).toBe(true);
  });
});

describe('GET /{lang}/data/{id}/ of a published record', () => {
  it('holds the title and description in the page language, canonical and alternates', async () => {
    const id = ids.glaciers!;
    const chinese = `http://portal.test/data/${id}/`;
    const english = `http://portal.test/en/data/${id}/`;
    for (const [url, language] of [
      [`/data/${id}/`, 'zh-hans'],
      [`/zh-hans/data/${id}/`, 'zh-hans'],
      [`/en/data/${id}/`, 'en'],
    ] as const) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      const html = response.body;
      expect(html).toContain(language === 'en' ? '<html lang="en"' : '<html lang="zh-Hans"');
      expect(unescape(titleOf(html)!), url).toBe(
        language === 'en' ? 'Glacier inventory of the Tibetan Plateau <1990–2020> - Three Poles Data Portal' : '青藏高原冰川编目 <1990–2020> & $& 更新 - 三极科学数据门户',
      );
      // Escaped: the record's text never becomes markup.
      expect(html).not.toContain('<1990');
      const description = unescape(tagAttribute(html, 'meta name="description"', 'content')!);
      expect(description, url).toBe(metaDescription(language === 'en' ? LONG_ENGLISH : LONG_CHINESE));
      expect(tagAttribute(html, 'link rel="canonical"', 'href'), url).toBe(language === 'en' ? english : chinese);
      expect(alternatesOf(html), url).toEqual({ 'zh-Hans': chinese, en: english, 'x-default': chinese });
      expect(html, url).not.toContain('noindex');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it("falls back to the record's own language where the other version has no text", async () => {
    const html = (await page(`/data/${ids.short}/`)).body;
    expect(titleOf(html)).toBe('南极海冰 - 三极科学数据门户');
    expect(tagAttribute(html, 'meta name="description"', 'content')).toBe('Daily sea ice extent.');
  });

  it('adds the trailing slash, keeping the language', async () => {
    expect((await page(`/en/data/${ids.glaciers}`)).headers.location).toBe(`/en/data/${ids.glaciers}/`);
    expect((await page(`/data/${ids.glaciers}`)).headers.location).toBe(`/data/${ids.glaciers}/`);
  });

  it('is compressed for browsers that take it', async () => {
    const response = await portal.app.inject({ method: 'GET', url: `/en/data/${ids.glaciers}/`, headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
  });
});

describe('GET /{lang}/data/ with a search', () => {
  /** The search page's own results, as its HTML carries them. */
  const embedded = (html: string) => {
    const text = /<script type="application\/json" id="portal-search">([^<]*)<\/script>/.exec(html)?.[1];
    return text === undefined ? undefined : (JSON.parse(text) as { search: string; language: string; reply: { count: number; results: { id: string; title: string }[] } });
  };
  const apiReply = async (query: string, language: string) =>
    JSON.parse((await portal.app.inject({ method: 'GET', url: `/api/metadata/search/?${query}`, headers: { 'accept-language': language } })).body);

  it('carries the first results, the reply the API gives to the same query in the page language', async () => {
    const response = await page('/en/data/?q=glacier&map=arctic');
    expect(response.statusCode).toBe(200);
    const data = embedded(response.body)!;
    expect(data).toBeDefined();
    expect(data.search).toBe('?q=glacier&map=arctic');
    expect(data.language).toBe('en');
    expect(data.reply).toEqual(await apiReply('q=glacier', 'en'));
    expect(data.reply.results.map((r) => r.id)).toContain(ids.glaciers);
    // The title holds `<` and `&`: inside the element they are JSON escapes, so nothing in it can close it.
    expect(data.reply.results.find((r) => r.id === ids.glaciers)!.title).toBe('Glacier inventory of the Tibetan Plateau <1990–2020>');

    const chinese = embedded((await page(`/data/?q=${encodeURIComponent('冰川')}`)).body)!;
    expect(chinese.language).toBe('zh-hans');
    expect(chinese.reply).toEqual(await apiReply(`q=${encodeURIComponent('冰川')}`, 'zh-hans'));
    expect(chinese.reply.results.find((r) => r.id === ids.glaciers)!.title).toBe('青藏高原冰川编目 <1990–2020> & $& 更新');
  });

  it('carries the whole catalogue without a query, and never an unpublished record', async () => {
    const data = embedded((await page('/en/data/')).body)!;
    expect(data.search).toBe('');
    const found = data.reply.results.map((r) => r.id);
    expect(found).toEqual(expect.arrayContaining([ids.glaciers, ids.short, ids.many]));
    for (const hidden of [ids.draft, ids.inReview, ids.gone]) expect(found).not.toContain(hidden);
  });

  it('is the page alone for a query the API refuses: the page asks and shows why', async () => {
    for (const url of ['/en/data/?sort=loudest', '/data/?page=0', '/en/data/?bbox=1,2,3']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root">');
      expect(embedded(response.body), url).toBeUndefined();
    }
  });

  it('is compressed in the encoding the browser takes', async () => {
    for (const encoding of ['br', 'gzip']) {
      const response = await portal.app.inject({ method: 'GET', url: '/en/data/?q=glacier', headers: { accept: 'text/html', 'accept-encoding': encoding } });
      expect(response.headers['content-encoding']).toBe(encoding);
    }
  });
});

describe('GET / and /en/, the home page', () => {
  it('carries the hot list and the counts it shows, the replies the API gives in the page language', async () => {
    for (const [url, language] of [
      ['/', 'zh-hans'],
      ['/en/', 'en'],
      ['/en/index', 'en'],
    ] as const) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      const text = /<script type="application\/json" id="portal-home">([^<]*)<\/script>/.exec(response.body)?.[1];
      expect(text, url).toBeDefined();
      const data = JSON.parse(text!);
      expect(data.language).toBe(language);
      const api = async (path: string) => JSON.parse((await portal.app.inject({ method: 'GET', url: path, headers: { 'accept-language': language } })).body);
      expect(data.hot).toEqual(await api('/api/metadata/hot/'));
      expect(data.stats).toEqual(await api('/api/metadata/catalogue-stats/'));
      expect(data.stats.datasets).toBeGreaterThan(0);
    }
  });
});

describe('GET /{lang}/data/{id}/ of anything never published', () => {
  it('answers 404 with the not-found page, never indexed, naming nothing of the record', async () => {
    for (const [url, hidden] of [
      [`/data/${randomUUID()}/`, ''],
      [`/en/data/no-such-record/`, ''],
      [`/en/data/${ids.draft}/`, 'Draft glacier'],
      [`/data/${ids.inReview}/`, '评审中'],
      [`/en/data/${ids.inReview}/`, 'Under review'],
    ] as const) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(404);
      expect(tagAttribute(response.body, 'meta name="robots"', 'content'), url).toBe('noindex');
      expect(response.body, url).not.toContain('rel="canonical"');
      if (hidden) expect(response.body, url).not.toContain(hidden);
    }
  });

  it("is not found for the record's own creator either: the page is the public one", async () => {
    const response = await portal.app.inject({ method: 'GET', url: `/en/data/${ids.draft}/`, headers: { accept: 'text/html' }, cookies: { token: owner.token } });
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /{lang}/data/{id}/ of an unpublished record (NotPublished)', () => {
  it('answers 410 with its title, never indexed', async () => {
    for (const [url, title] of [
      [`/en/data/${ids.gone}/`, 'Withdrawn glacial lakes - Three Poles Data Portal'],
      [`/data/${ids.gone}/`, '撤销的冰湖数据 - 三极科学数据门户'],
    ] as const) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(410);
      expect(titleOf(response.body), url).toBe(title);
      expect(tagAttribute(response.body, 'meta name="robots"', 'content'), url).toBe('noindex');
      expect(response.body, url).not.toContain('rel="canonical"');
      expect(response.body, url).not.toContain('name="description"');
    }
  });
});

describe('GET /api/metadata/metadata/{id}/tombstone/', () => {
  it('tells anyone the title in both languages, the DOI, the dates and the reason of an unpublished record', async () => {
    const tombstone = expectStatus(await call(portal, 'GET', `${recordUrl(ids.gone!)}tombstone/`, null), 200);
    expect(tombstone).toEqual({
      id: ids.gone,
      language: 'en',
      title: 'Withdrawn glacial lakes',
      translation_title: '撤销的冰湖数据',
      doi: '10.11888/Hydro.tpdc.300009',
      published_at: '2023-01-01T08:00:00.000Z',
      unpublished_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      reason: 'The data were found to duplicate another dataset.',
      // Still citable: GB/T 7714 for a Chinese reader (the default), APA for an English one.
      citation: expect.stringMatching(/^.*撤销的冰湖数据\[DS\/OL\].*DOI:10\.11888\/Hydro\.tpdc\.300009\.$/),
    });
    const english = expectStatus(await call(portal, 'GET', `${recordUrl(ids.gone!)}tombstone/`, null, { headers: EN }), 200);
    expect(english.citation).toMatch(/\(2023\)\. Withdrawn glacial lakes \[Data set\]\..*https:\/\/doi\.org\/10\.11888\/Hydro\.tpdc\.300009$/);
    // The record itself is no longer public.
    expect((await call(portal, 'GET', recordUrl(ids.gone!), null)).statusCode).toBe(404);
  });

  it("is not found for a published record, a draft and an unknown id, in the caller's language", async () => {
    for (const id of [ids.glaciers!, ids.draft!, randomUUID()]) {
      const response = await call(portal, 'GET', `${recordUrl(id)}tombstone/`, null, { headers: EN });
      expect(response.statusCode, id).toBe(404);
      expect(response.json().detail).toBe(translate('en', 'metadata.notFound'));
    }
    const chinese = await call(portal, 'GET', `${recordUrl(ids.draft!)}tombstone/`, null, { headers: { 'accept-language': 'zh-hans' } });
    expect(chinese.json().detail).toBe(translate('zh-hans', 'metadata.notFound'));
  });
});

describe("the record's reply for its landing page", () => {
  it('carries the downloads of a published record, as the catalogue counts them', async () => {
    const record = expectStatus(await call(portal, 'GET', recordUrl(ids.glaciers!), null), 200);
    expect(record.download_count).toBe(0);
    const draft = expectStatus(await call(portal, 'GET', recordUrl(ids.draft!), owner.token), 200);
    expect(draft.download_count).toBeUndefined();
  });
});

describe('a record of 10,000 data files', () => {
  it('lists one page with the count and the bytes of all, quickly', async () => {
    const started = performance.now();
    const reply = expectStatus(await call(portal, 'GET', `/api/metadata/meta-file/?metadata__id=${ids.many}&page=2&pageSize=20`, null), 200);
    const elapsed = performance.now() - started;
    expect(reply.count).toBe(MANY_FILES);
    // 1000 + 1001 + ... + 10999.
    expect(reply.total_size).toBe(MANY_FILES * 1000 + (MANY_FILES * (MANY_FILES - 1)) / 2);
    expect(reply.results.map((file: { name: string }) => file.name)).toEqual(Array.from({ length: 20 }, (_, i) => `tile_${String(20 + i).padStart(5, '0')}.tif`));
    expect(reply.next).toContain('page=3');
    expect(elapsed).toBeLessThan(1000);
  });

  it('answers its landing page within a second', async () => {
    const started = performance.now();
    expect((await page(`/en/data/${ids.many}/`)).statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('gives an empty list of documents with a total of 0', async () => {
    const reply = expectStatus(await call(portal, 'GET', `/api/metadata/meta-attach/?metadata__id=${ids.many}`, null), 200);
    expect(reply).toMatchObject({ count: 0, total_size: 0, results: [] });
  });

  it("refuses a page size over the limit with a message in the caller's language", async () => {
    const response = await call(portal, 'GET', `/api/metadata/meta-file/?metadata__id=${ids.many}&pageSize=100000`, null, { headers: EN });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBeTruthy();
  });
});

describe('sitemap.xml', () => {
  const schema = path.join(import.meta.dirname, 'xsd/sitemap-with-alternates.xsd');
  const sitemap = async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

  it("lists every published record's landing page in both languages, with alternates, and no other record", async () => {
    const xml = await sitemap();
    for (const key of ['glaciers', 'short', 'many']) {
      expect(locations(xml)).toEqual(expect.arrayContaining([`http://portal.test/data/${ids[key]}/`, `http://portal.test/en/data/${ids[key]}/`]));
    }
    for (const key of ['draft', 'inReview', 'gone']) expect(xml, key).not.toContain(ids[key]!);
    const entry = xml.slice(xml.indexOf(`<loc>http://portal.test/en/data/${ids.glaciers}/</loc>`));
    expect(entry.slice(0, entry.indexOf('</url>'))).toContain(`<xhtml:link rel="alternate" hreflang="zh-Hans" href="http://portal.test/data/${ids.glaciers}/"/>`);
    execFileSync('xmllint', ['--noout', '--schema', schema, '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
  });

  it('gives every record address its last change: the OAI-PMH datestamp of the record', async () => {
    const xml = await sitemap();
    const items = await portal.database.db.selectFrom('oai_items').select(['metadata_id', 'datestamp']).execute();
    const urls = xml.split('<url>').slice(1);
    const recordUrls = urls.filter((url) => /\/data\/[^/<]+\/<\/loc>/.test(url));
    expect(recordUrls).toHaveLength(3 * 2);
    for (const url of recordUrls) {
      const id = /\/data\/([^/<]+)\/<\/loc>/.exec(url)![1]!;
      expect(url, id).toContain(`<lastmod>${items.find((item) => item.metadata_id === id)!.datestamp}</lastmod>`);
    }
    execFileSync('xmllint', ['--noout', '--schema', schema, '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
  });

  it('past the limit of addresses is an index of sitemaps, each valid, together every address once', async () => {
    // The limit lowered from 50,000 to 8 addresses: 4 entries (pages or records) of two languages a file.
    sitemapLimits.maxUrls = 8;
    try {
      const index = await sitemap();
      execFileSync('xmllint', ['--noout', '--schema', path.join(import.meta.dirname, 'xsd/siteindex.xsd'), '-'], { input: index, stdio: ['pipe', 'pipe', 'pipe'] });
      const parts = locations(index);
      expect(parts).toEqual(['http://portal.test/sitemap-1.xml', 'http://portal.test/sitemap-2.xml']);
      // The second part has the records after the four pages: its lastmod is the newest of theirs.
      expect(index).toMatch(/<loc>http:\/\/portal.test\/sitemap-2.xml<\/loc>\s*<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/);
      const all: string[] = [];
      for (const part of parts) {
        const response = await portal.app.inject({ method: 'GET', url: new URL(part).pathname });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
        execFileSync('xmllint', ['--noout', '--schema', schema, '-'], { input: response.body, stdio: ['pipe', 'pipe', 'pipe'] });
        expect(locations(response.body).length).toBeLessThanOrEqual(8);
        all.push(...locations(response.body));
      }
      expect(all).toHaveLength((4 + 3) * 2);
      expect(new Set(all).size).toBe(all.length);
      for (const key of ['glaciers', 'short', 'many']) expect(all).toContain(`http://portal.test/en/data/${ids[key]}/`);
      for (const missing of ['/sitemap-3.xml', '/sitemap-0.xml', '/sitemap-x.xml'])
        expect((await portal.app.inject({ method: 'GET', url: missing })).statusCode, missing).toBe(404);
    } finally {
      sitemapLimits.maxUrls = 50_000;
    }
    // Back under the limit: one sitemap again.
    expect(await sitemap()).toContain('<urlset ');
  });

  it('follows publication and unpublication', async () => {
    expect(await sitemap()).toContain(ids.short!);
    expectStatus(await decide(portal, staff.token, ids.short!, { review_status: 'unpublish', content: 'Withdrawn by its provider.' }), 200);
    expect(await sitemap()).not.toContain(ids.short!);
    expect((await page(`/en/data/${ids.short}/`)).statusCode).toBe(410);
    expectStatus(await decide(portal, staff.token, ids.short!, { review_status: 'publish' }), 200);
    expect(await sitemap()).toContain(ids.short!);
    expect((await page(`/en/data/${ids.short}/`)).statusCode).toBe(200);
  });
});
