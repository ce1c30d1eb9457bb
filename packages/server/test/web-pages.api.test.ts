import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';

/**
 * Serving the web app: a built app in a folder of its own (the same markers as packages/web's
 * index.html), the site variant heihe, PUBLIC_URL http://portal.test.
 */
let portal: TestPortal;
let webDist: string;

/** Large enough to be worth compressing, as a real chunk is. */
const ENTRY_SCRIPT = `${'export const glacier = "Mass balance of the glaciers of the Third Pole";\n'.repeat(80)}console.log(glacier);\n`;
const PREBUILT_SCRIPT = `${'export const lake = "Lake ice phenology on the Tibetan Plateau";\n'.repeat(80)}`;
/** What the build wrote beside the prebuilt script: gzip -1 and brotli 1, not what the server would make itself. */
const PREBUILT_GZIP = gzipSync(PREBUILT_SCRIPT, { level: 1 });
const PREBUILT_BROTLI = brotliCompressSync(PREBUILT_SCRIPT, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } });

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.mkdirSync(path.join(webDist, 'logos'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), ENTRY_SCRIPT);
  fs.writeFileSync(path.join(webDist, 'assets', 'lake-def456.js'), PREBUILT_SCRIPT);
  fs.writeFileSync(path.join(webDist, 'assets', 'lake-def456.js.gz'), PREBUILT_GZIP);
  fs.writeFileSync(path.join(webDist, 'assets', 'lake-def456.js.br'), PREBUILT_BROTLI);
  fs.writeFileSync(path.join(webDist, 'logos', 'heihe.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  portal = await createTestPortal({ env: { WEB_DIST: webDist, SITE_VARIANT: 'heihe' } });
});

afterAll(async () => {
  await portal.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, accept = 'text/html', headers: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url, headers: { accept, ...headers } });

/** The attribute of the first tag matching `selector` (a regular expression source), or undefined. */
function tagAttribute(html: string, selector: string, attribute: string): string | undefined {
  const tag = new RegExp(`<${selector}[^>]*>`).exec(html)?.[0];
  return tag ? new RegExp(`${attribute}="([^"]*)"`).exec(tag)?.[1] : undefined;
}

function alternatesOf(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('public pages', () => {
  it('serves Chinese pages with the variant title, lang and marker', async () => {
    for (const url of ['/', '/index', '/about', '/zh-hans/', '/zh-hans/data/', '/news/', '/personal/']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<html lang="zh-Hans"');
      expect(response.body).toContain('<title>黑河计划数据管理中心</title>');
      expect(response.body).toContain('<meta name="portal-site-variant" content="heihe"');
    }
  });

  it('serves English pages under /en/', async () => {
    for (const url of ['/en/', '/en/about', '/en/data/', '/en/personal/', '/en/admin/', '/en/admin/review']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<html lang="en"');
      expect(response.body).toContain('<title>Heihe Plan Science Data Center</title>');
    }
  });

  it('gives a signed-in browser a csrftoken cookie, an anonymous one none, and a strict content security policy', async () => {
    const response = await get('/');
    expect(response.cookies.find((c) => c.name === 'csrftoken')).toBeUndefined();
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const { token } = await buildUser(portal);
    const signedIn = await portal.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' }, cookies: { token } });
    expect(signedIn.cookies.find((c) => c.name === 'csrftoken')?.value).toMatch(/^[0-9a-f]{48}$/);
  });

  it('adds the trailing slash and the language root', async () => {
    expect((await get('/en')).headers.location).toBe('/en/');
    expect((await get('/en/personal')).headers.location).toBe('/en/personal/');
    expect((await get('/data')).headers.location).toBe('/data/');
  });

  it('leads the account screens into the personal centre, keeping the query', async () => {
    expect((await get('/login')).headers.location).toBe('/personal/#/login');
    expect((await get('/en/register')).headers.location).toBe('/en/personal/#/register');
    expect((await get('/zh-hans/reset?key=abc')).headers.location).toBe('/zh-hans/personal/#/reset?key=abc');
    // With the final slash people type too (issue 16: /login/ was a 404).
    expect((await get('/login/')).headers.location).toBe('/personal/#/login');
    expect((await get('/en/login/?next=%2Fdata')).headers.location).toBe('/en/personal/#/login?next=%2Fdata');
  });

  it('answers an unknown address with the page and 404 for a browser, JSON for others', async () => {
    const page = await get('/en/no/such/page');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<html lang="en"');
    const api = await get('/api/no-such-call/', 'application/json');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: '请求的资源不存在。' });
  });

  it('are compressed for browsers and revalidated by ETag, never cached as they are', async () => {
    const response = await get('/en/', 'text/html', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<html lang="en"');
    const again = await get('/en/', 'text/html', { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': response.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('are never revalidated for a signed-in browser, whose copy is not kept (no-store)', async () => {
    const anonymous = await get('/about');
    const { token } = await buildUser(portal);
    const signedIn = await portal.app.inject({
      method: 'GET',
      url: '/about',
      headers: { accept: 'text/html', 'if-none-match': anonymous.headers.etag as string },
      cookies: { token },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.headers.etag).toBeUndefined();
    expect(signedIn.body).toContain('<html lang="zh-Hans"');
  });
});

describe('the head of a public page', () => {
  it('describes each indexed page in its language, canonical unprefixed in Chinese and under /en in English, with its alternates', async () => {
    for (const [url, page, words] of [
      ['/', '/', '北极、南极和青藏高原的科学数据集'],
      ['/index', '/', '北极、南极和青藏高原的科学数据集'],
      ['/zh-hans/', '/', '北极、南极和青藏高原的科学数据集'],
      ['/zh-hans/data/', '/data/', '检索黑河计划数据管理中心已发布的'],
      ['/news/', '/news/', '黑河计划数据管理中心新闻'],
      ['/about', '/about', '关于黑河计划数据管理中心'],
      ['/en/', '/', 'Heihe Plan Science Data Center: datasets of the Arctic'],
      ['/en/index', '/', 'Heihe Plan Science Data Center: datasets of the Arctic'],
      ['/en/data/', '/data/', 'Search the published datasets of Heihe Plan Science Data Center'],
      ['/en/news/', '/news/', 'News of Heihe Plan Science Data Center'],
      ['/en/about', '/about', 'About Heihe Plan Science Data Center'],
    ] as const) {
      const chinese = `http://portal.test${page}`;
      const english = `http://portal.test/en${page}`;
      const { body } = await get(url);
      expect(tagAttribute(body, 'meta name="description"', 'content'), url).toContain(words);
      expect(tagAttribute(body, 'link rel="canonical"', 'href'), url).toBe(url.startsWith('/en/') ? english : chinese);
      expect(alternatesOf(body), url).toEqual({ 'zh-Hans': chinese, en: english, 'x-default': chinese });
      expect(body, url).not.toContain('noindex');
    }
  });

  it('keeps the personal centre, the admin pages and unknown addresses out of search engines', async () => {
    for (const url of ['/personal/', '/en/personal/', '/zh-hans/personal/', '/admin/', '/en/admin/review', '/no/such/page']) {
      const { body } = await get(url);
      expect(tagAttribute(body, 'meta name="robots"', 'content'), url).toBe('noindex');
      expect(body, url).not.toContain('rel="canonical"');
      expect(body, url).not.toContain('hreflang');
    }
  });
});

describe('static files', () => {
  it('serves hashed assets with brotli to browsers that take it, cached as immutable', async () => {
    const response = await get('/assets/index-abc123.js', '*/*', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBeLessThan(ENTRY_SCRIPT.length / 4);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(ENTRY_SCRIPT);
  });

  it('serves gzip to clients without brotli, and the file as it is to clients without either', async () => {
    for (const acceptEncoding of ['gzip, deflate', 'br;q=0, gzip']) {
      const gzip = await get('/assets/index-abc123.js', '*/*', { 'accept-encoding': acceptEncoding });
      expect(gzip.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(ENTRY_SCRIPT);
    }
    const plain = await get('/assets/index-abc123.js', '*/*');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body).toBe(ENTRY_SCRIPT);
  });

  it('serves the compressed files the build wrote', async () => {
    const gzip = await get('/assets/lake-def456.js', '*/*', { 'accept-encoding': 'gzip' });
    expect(gzip.rawPayload.equals(PREBUILT_GZIP)).toBe(true);
    const brotli = await get('/assets/lake-def456.js', '*/*', { 'accept-encoding': 'br' });
    expect(brotli.rawPayload.equals(PREBUILT_BROTLI)).toBe(true);
    expect((await get('/assets/lake-def456.js.br', '*/*')).statusCode).toBe(404);
  });

  it('answers a revalidation with 304, one ETag per encoding', async () => {
    const brotli = await get('/assets/index-abc123.js', '*/*', { 'accept-encoding': 'br' });
    const gzip = await get('/assets/index-abc123.js', '*/*', { 'accept-encoding': 'gzip' });
    expect(brotli.headers.etag).not.toBe(gzip.headers.etag);
    const again = await get('/assets/index-abc123.js', '*/*', { 'accept-encoding': 'br', 'if-none-match': brotli.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const other = await get('/assets/index-abc123.js', '*/*', { 'accept-encoding': 'br', 'if-none-match': gzip.headers.etag as string });
    expect(other.statusCode).toBe(200);
  });

  it('serves the logos and the favicon, too small to gain from compression, for a day', async () => {
    for (const url of ['/logos/heihe.svg', '/favicon.svg']) {
      const response = await get(url, '*/*', { 'accept-encoding': 'gzip, deflate, br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('image/svg+xml');
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toBeUndefined();
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
    }
  });

  it('never leaves the folder', async () => {
    for (const url of ['/assets/../../etc/passwd', '/assets/%2e%2e/%2e%2e/etc/passwd', '/logos/..%2Fheihe.svg', '/index.html']) {
      const response = await get(url, '*/*');
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('are the same for everyone: a token sent with them is not looked up, a signed-in browser may cache them', async () => {
    const unknownToken = 'a'.repeat(40);
    const page = await portal.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' }, cookies: { token: unknownToken } });
    expect(page.cookies.map((c) => c.name)).toContain('token'); // looked up, found dead, expired
    for (const url of ['/assets/index-abc123.js', '/favicon.svg', '/healthz', '/robots.txt']) {
      const response = await portal.app.inject({ method: 'GET', url, cookies: { token: unknownToken } });
      expect(response.statusCode, url).toBe(200);
      expect(response.cookies, url).toEqual([]);
    }
    const { token } = await buildUser(portal);
    const asset = await portal.app.inject({ method: 'GET', url: '/assets/index-abc123.js', cookies: { token } });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('robots.txt', () => {
  it('lets crawlers read the public pages, keeps them out of the personal centre, the admin pages and the API, and names the sitemap', async () => {
    const response = await get('/robots.txt', 'text/plain');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/personal/', '/en/personal/', '/zh-hans/personal/', '/admin/', '/en/admin/', '/api/', '/account/']) {
      expect(lines, path).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain('Sitemap: http://portal.test/sitemap.xml');
    // Nothing public is disallowed: no rule is a prefix of a public page's path.
    const disallowed = lines.filter((line) => line.startsWith('Disallow: ')).map((line) => line.slice('Disallow: '.length));
    expect(lines).toContain('Allow: /oai');
    for (const page of ['/', '/data/', '/news/', '/about', '/en/', '/en/data/', '/assets/index-abc123.js', '/oai', '/oai?verb=Identify']) {
      expect(
        disallowed.filter((rule) => page.startsWith(rule)),
        page,
      ).toEqual([]);
    }
  });
});

describe('sitemap.xml', () => {
  const schema = path.join(import.meta.dirname, 'xsd/sitemap-with-alternates.xsd');
  /** xmllint's verdict on a document against the sitemap schema: '' when valid, its complaint otherwise. */
  function schemaErrors(xml: string): string {
    try {
      execFileSync('xmllint', ['--noout', '--schema', schema, '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
      return '';
    } catch (error) {
      return String((error as { stderr?: Buffer }).stderr ?? error);
    }
  }

  it('is valid against the sitemaps.org 0.9 schema with xhtml:link alternates', async () => {
    const response = await get('/sitemap.xml', 'application/xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(schemaErrors(response.body)).toBe('');
  });

  it('the schema check refuses what a crawler would refuse', () => {
    const valid =
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">' +
      '<url><loc>http://portal.test/</loc><xhtml:link rel="alternate" hreflang="en" href="http://portal.test/en/"/></url></urlset>';
    expect(schemaErrors(valid)).toBe('');
    expect(schemaErrors(valid.replace('<loc>http://portal.test/</loc>', ''))).toContain('fails to validate');
    expect(schemaErrors(valid.replace('hreflang="en" ', ''))).toContain('fails to validate');
    expect(schemaErrors(valid.replace('<url>', '<url><priority>2</priority>'))).toContain('fails to validate');
  });

  it('lists every public page in both languages, each with its alternates', async () => {
    const { body } = await get('/sitemap.xml', 'application/xml');
    const locations = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locations).toEqual(['/', '/data/', '/news/', '/about'].flatMap((page) => [`http://portal.test${page}`, `http://portal.test/en${page}`]));
    const firstUrl = body.slice(body.indexOf('<url>'), body.indexOf('</url>'));
    expect(firstUrl).toContain('<xhtml:link rel="alternate" hreflang="zh-Hans" href="http://portal.test/"/>');
    expect(firstUrl).toContain('<xhtml:link rel="alternate" hreflang="en" href="http://portal.test/en/"/>');
    expect(firstUrl).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="http://portal.test/"/>');
    expect(body).not.toContain('/personal/');
    expect(body).not.toContain('/admin/');
  });
});
