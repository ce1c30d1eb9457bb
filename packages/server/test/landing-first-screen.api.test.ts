import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { createTestPortal, createUserWithToken, testWebDist, type TestAccount, type TestPortal } from './helpers.js';
import { expectStatus, recordUrl } from './metadata-builders.js';
import { insertCatalogue } from './search-builders.js';

/**
 * A published record's landing page carries its first screen (breadcrumb, title, abstract, in the
 * page's language, escaped) and the replies the page waits for as JSON (plugins/web.ts,
 * plugins/landing-first-screen.ts); serving it counts the view the page no longer asks for, once per
 * visitor, together with the record's API call.
 */
let portal: TestPortal;
let webDist: string;
let owner: TestAccount & { token: string };
let ids: Record<string, string>;

const ZH_TITLE = '冰川</script><script>alert(1)</script> & 𠮷 <b>';
const ZH_ABSTRACT = '第一段 </script> & <i>𠮷</i>\n\n第二段 a<b';
const EN_TITLE = 'Glaciers </script> & <𠮷>';
const EN_ABSTRACT = 'One </SCRIPT> & <b>bold</b>\nTwo 𠮷';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

beforeAll(async () => {
  webDist = await testWebDist();
  portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  owner = await createUserWithToken(portal, { realname: 'Provider Pan' });
  ids = await insertCatalogue(portal, owner.id, [
    { key: 'marked', language: 'zh-hans', zh: { title: ZH_TITLE, abstract: ZH_ABSTRACT }, en: { title: EN_TITLE, abstract: EN_ABSTRACT }, published: '2024-03-01' },
    { key: 'viewed', language: 'en', zh: { title: '纳木错', abstract: '' }, en: { title: 'Nam Co', abstract: 'Lake levels.' }, published: '2024-03-01' },
    { key: 'again', language: 'en', zh: { title: '色林错', abstract: '' }, en: { title: 'Siling Co', abstract: 'Lake area.' }, published: '2024-03-01' },
  ]);
}, 60_000);

afterAll(async () => {
  await portal.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

type Visitor = { ip?: string; ua?: string; token?: string };
const headersOf = (visitor: Visitor, accept: string) => {
  const headers: Record<string, string> = { accept, 'user-agent': visitor.ua ?? FIREFOX };
  if (visitor.token) headers.authorization = `Token ${visitor.token}`;
  return headers;
};
const page = (url: string, visitor: Visitor = {}) =>
  portal.app.inject({ method: 'GET', url, headers: headersOf(visitor, 'text/html'), remoteAddress: visitor.ip ?? '198.51.100.7' });
const apiRecord = (id: string, visitor: Visitor = {}) =>
  portal.app.inject({ method: 'GET', url: recordUrl(id), headers: headersOf(visitor, 'application/json'), remoteAddress: visitor.ip ?? '198.51.100.7' });

/** The page's `#root` as sent, and its embedded data. */
function parts(html: string) {
  const root = /<div id="root">([\s\S]*?)<\/div><\/article><\/main><\/div><\/div>/.exec(html)?.[1];
  const data = /<script type="application\/json" id="portal-landing">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return { root: root ?? '', data: data === undefined ? undefined : (JSON.parse(data) as Record<string, any>), dataText: data ?? '' };
}

async function hits(id: string): Promise<number> {
  await portal.usage.flush();
  const row = await portal.database.db.selectFrom('metadata').select('hit_count').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.hit_count);
}

describe('the first screen in the landing page', () => {
  it('shows breadcrumb, title and abstract in the page language, escaped, and carries the replies the page waits for', async () => {
    const cases = [
      { url: `/data/${ids.marked}/`, language: 'zh-hans' as const, title: ZH_TITLE, paragraphs: ['第一段 </script> & <i>𠮷</i>', '第二段 a<b'], prefix: '', lang: 'zh-Hans' },
      { url: `/en/data/${ids.marked}/`, language: 'en' as const, title: EN_TITLE, paragraphs: ['One </SCRIPT> & <b>bold</b>', 'Two 𠮷'], prefix: '/en', lang: 'en' },
    ];
    for (const { url, language, title, paragraphs, prefix, lang } of cases) {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      const html = response.body;
      const { root, data, dataText } = parts(html);
      const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(root).toContain(`<h1 id="lp-title" lang="${lang}">${escape(title)}</h1>`);
      for (const paragraph of paragraphs) expect(root).toContain(`<p>${escape(paragraph)}</p>`);
      expect(root).toContain(`<a href="${prefix}/">${translate(language, 'nav.home')}</a>`);
      expect(root).toContain(`<a href="${prefix}/data/">${translate(language, 'nav.data')}</a>`);
      expect(root).toContain(`<h2 id="lp-abstract">${translate(language, 'landing.sections.abstract')}</h2>`);
      // Both versions exist: the buttons the page draws under the title, the page's own pressed.
      expect(root).toContain(`<button type="button" lang="${lang}" aria-pressed="true">`);
      // No text of the record opens or closes an element: one script element of data, one h1.
      expect(root).not.toMatch(/<script|<\/script|<b>|<i>/i);
      expect(html.match(/<script type="application\/json" id="portal-landing">/g)).toHaveLength(1);
      expect(dataText).not.toMatch(/<\/script/i);
      // The data: the record as its API call gives it (the view counts aside), its thumbnail and people.
      expect(data).toMatchObject({ language, id: ids.marked, thumbnail: { count: 0, results: [] }, authors: { results: [] } });
      const api = JSON.parse((await apiRecord(ids.marked!, { ip: '203.0.113.200' })).body);
      expect({ ...data!.record, hit_count: 0 }).toEqual({ ...api, hit_count: 0 });
      expect(data!.record.title).toBe(ZH_TITLE);
    }
  });

  it('a record that is not published gets no first screen and no data', async () => {
    const response = await page('/en/data/no-such-record/');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).not.toContain('portal-landing');
  });
});

describe('a view counts once per visit, page and API together', () => {
  it('serving the page counts the view; the API call of the same visitor within 30 s does not count it again', async () => {
    const id = ids.viewed!;
    expect(await hits(id)).toBe(0);
    expect((await page(`/en/data/${id}/`)).statusCode).toBe(200);
    expect(await hits(id)).toBe(1);
    expectStatus(await apiRecord(id), 200);
    expect((await page(`/data/${id}/`)).statusCode).toBe(200);
    expect(await hits(id)).toBe(1);
    // Another visitor counts; robots and the record's creator never do.
    expect((await page(`/en/data/${id}/`, { ip: '203.0.113.9' })).statusCode).toBe(200);
    expect(await hits(id)).toBe(2);
    expect((await page(`/en/data/${id}/`, { ip: '203.0.113.10', ua: GOOGLEBOT })).statusCode).toBe(200);
    expect((await page(`/en/data/${id}/`, { ip: '203.0.113.11', token: owner.token })).statusCode).toBe(200);
    expect(await hits(id)).toBe(2);
  });

  it('an API call first and the page after count once as well', async () => {
    const id = ids.again!;
    expectStatus(await apiRecord(id, { ip: '203.0.113.30' }), 200);
    expect((await page(`/en/data/${id}/`, { ip: '203.0.113.30' })).statusCode).toBe(200);
    expect(await hits(id)).toBe(1);
  });
});
