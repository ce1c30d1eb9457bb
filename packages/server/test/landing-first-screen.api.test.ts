import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue, buildUser, type Person } from './factories.js';
import { createTestPortal, tokenHeader, type TestPortal } from './helpers.js';
import { expectStatus } from './metadata-builders.js';
import { decide } from './review-builders.js';

/**
 * The first screen the server writes into a published record's landing page for a visitor who is
 * not signed in (modules/landing/first-screen.ts): the header, breadcrumb, title, version buttons and
 * abstract in the page's language, escaped; the entry fetched at once but run after the first paint
 * (public/after-paint.js). A built web app of its own: index.html with the entry's tag as Vite writes
 * it, the header's icons (.vite/frame-icons.json) and the landing chunk in the manifest. That it
 * matches the app's own drawing, pixel for pixel, is e2e/landing.spec.ts's.
 */
let portal: TestPortal;
let webDist: string;
let owner: Person;
let ids: Record<string, string>;

const ENTRY = '/assets/index-Abc123.js';

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    `<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title><script type="module" crossorigin src="${ENTRY}"></script></head><body><div id="root"></div></body></html>`,
  );
  fs.mkdirSync(path.join(webDist, '.vite'));
  fs.writeFileSync(path.join(webDist, '.vite', 'frame-icons.json'), JSON.stringify({ menu: '<svg data-icon="menu"></svg>', global: '<svg data-icon="global"></svg>' }));
  fs.writeFileSync(
    path.join(webDist, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-Abc123.js', isEntry: true, imports: [] },
      'src/features/landing/LandingPage.tsx': { file: 'assets/LandingPage-Def456.js', css: ['assets/LandingPage-Ghi789.css'], imports: [] },
    }),
  );
  portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  owner = await buildUser(portal, { realname: 'Provider Pan' });
  const staff = await buildUser(portal, { staff: true, realname: 'Desk Du' });
  ids = await buildCatalogue(portal, owner.id, [
    {
      key: 'glaciers',
      language: 'zh-hans',
      zh: { title: '青藏高原冰川编目 <1990–2020> & $& 更新', abstract: '第一段 <b>冰川</b>\n\n第二段' },
      en: { title: 'Glacier inventory <1990–2020>', abstract: 'Annual outlines & areas.' },
      published: '2024-03-01',
    },
    { key: 'chineseOnly', language: 'zh-hans', zh: { title: '南极海冰', abstract: '' }, en: { title: '', abstract: '' }, published: '2024-04-01' },
    { key: 'gone', language: 'en', zh: { title: '撤销', abstract: '' }, en: { title: 'Withdrawn lakes', abstract: 'Lakes.' }, published: '2023-01-01' },
  ]);
  expectStatus(await decide(portal, staff.token, ids.gone!, { review_status: 'unpublish', content: 'Duplicates another dataset.' }), 200);
}, 120_000);

afterAll(async () => {
  await portal.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const page = async (url: string, headers: Record<string, string> = {}) => {
  const response = await portal.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  return { status: response.statusCode, html: response.body, $: load(response.body) };
};
const texts = ($: CheerioAPI, selector: string) =>
  $(selector)
    .map((_, element) => $(element).text())
    .get();

describe('the first screen of a landing page, for a visitor who is not signed in', () => {
  it("holds the header, breadcrumb, title, version buttons (the record's language first) and abstract in the page's language, escaped", async () => {
    const { status, html, $ } = await page(`/data/${ids.glaciers}/`);
    expect(status).toBe(200);
    expect($('#root h1#lp-title').text()).toBe('青藏高原冰川编目 <1990–2020> & $& 更新');
    expect($('#root h1#lp-title').attr('lang')).toBe('zh-Hans');
    // Paragraphs as the app splits them; the record's markup is text, never elements.
    expect(texts($, '#root .lp-abstract p')).toEqual(['第一段 <b>冰川</b>', '第二段']);
    expect($('#root .lp-abstract b')).toHaveLength(0);
    expect(html).not.toContain('<1990');
    expect(texts($, '#root .lp-versions button')).toEqual(['中文', 'English']);
    expect(
      $('#root .lp-versions button')
        .map((_, b) => $(b).attr('aria-pressed'))
        .get(),
    ).toEqual(['true', 'false']);
    expect(texts($, '#root .lp-breadcrumb a')).toEqual(['首页', '数据']);
    // A phone's header and a desktop's, the icons as the app draws them; the menu's current section is Data.
    expect($('#root header[data-first-screen="phone"] button svg[data-icon="menu"]')).toHaveLength(1);
    expect($('#root header[data-first-screen="desktop"] .site-nav-list a[aria-current="page"]').text()).toBe('数据');
    expect($('#root header[data-first-screen="desktop"] .site-header-actions button span').text()).toBe('English');
    expect($('#root .header-login')).toHaveLength(2);
  });

  it('is in English on English pages, the English version pressed', async () => {
    const { $ } = await page(`/en/data/${ids.glaciers}/`);
    expect($('#root h1#lp-title').text()).toBe('Glacier inventory <1990–2020>');
    expect($('#root h1#lp-title').attr('lang')).toBe('en');
    expect(texts($, '#root .lp-abstract p')).toEqual(['Annual outlines & areas.']);
    expect($('#root .lp-versions button[aria-pressed="true"]').text()).toBe('English');
    expect($('#root .lp-section h2').text()).toBe('Abstract');
  });

  it("shows the record's own language, without version buttons, where the other has no text", async () => {
    const { $ } = await page(`/en/data/${ids.chineseOnly}/`);
    expect($('#root h1#lp-title').text()).toBe('南极海冰');
    expect($('#root h1#lp-title').attr('lang')).toBe('zh-Hans');
    expect($('#root .lp-versions')).toHaveLength(0);
    expect($('#root .lp-abstract .lp-muted')).toHaveLength(1);
  });

  it('runs the entry after the first paint: preloaded in the head, started by after-paint.js; the page styles apply at once', async () => {
    const { $ } = await page(`/en/data/${ids.glaciers}/`);
    expect($(`script[type="module"][src="${ENTRY}"]`)).toHaveLength(0);
    expect($(`head link[rel="modulepreload"][href="${ENTRY}"]`)).toHaveLength(1);
    expect($('script[src="/after-paint.js"]').attr('data-entry')).toBe(ENTRY);
    expect($('script[src="/after-paint.js"]').attr('defer')).toBeDefined();
    expect($('head link[rel="stylesheet"][href="/assets/LandingPage-Ghi789.css"]')).toHaveLength(1);
    expect($('head link[rel="modulepreload"][href="/assets/LandingPage-Def456.js"]')).toHaveLength(1);
  });
});

describe('no first screen', () => {
  it('for a signed-in visitor, whose header the app draws with the user: the page as before', async () => {
    const { status, $ } = await page(`/en/data/${ids.glaciers}/`, tokenHeader(owner.token));
    expect(status).toBe(200);
    expect($('#root').children()).toHaveLength(0);
    expect($(`script[type="module"][src="${ENTRY}"]`)).toHaveLength(1);
    expect($('script[src="/after-paint.js"]')).toHaveLength(0);
    expect($('head link[rel="preload"][as="style"][href="/assets/LandingPage-Ghi789.css"]')).toHaveLength(1);
  });

  it('for an unpublished record (410) and an unknown one (404)', async () => {
    for (const [url, code] of [
      [`/en/data/${ids.gone}/`, 410],
      ['/en/data/00000000-0000-4000-8000-000000000000/', 404],
    ] as const) {
      const { status, $ } = await page(url);
      expect(status, url).toBe(code);
      expect($('#root').children(), url).toHaveLength(0);
      expect($(`script[type="module"][src="${ENTRY}"]`), url).toHaveLength(1);
    }
  });
});
