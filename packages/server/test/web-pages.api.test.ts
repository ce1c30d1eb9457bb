import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, createUserWithToken, type TestPortal } from './helpers.js';

/**
 * Serving the web app: a built app in a folder of its own (the same markers as packages/web's
 * index.html), the site variant heihe.
 */
let portal: TestPortal;
let webDist: string;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.mkdirSync(path.join(webDist, 'logos'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webDist, 'logos', 'heihe.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  portal = await createTestPortal({ env: { WEB_DIST: webDist, SITE_VARIANT: 'heihe' } });
});

afterAll(async () => {
  await portal.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, accept = 'text/html') => portal.app.inject({ method: 'GET', url, headers: { accept } });

describe('public pages', () => {
  it('serves Chinese pages with the variant title, lang and marker', async () => {
    for (const url of ['/', '/index', '/about', '/zh-hans/', '/zh-hans/data/', '/news/', '/personal/']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<html lang="zh-CN"');
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
    const { token } = await createUserWithToken(portal);
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
  });

  it('answers an unknown address with the page and 404 for a browser, JSON for others', async () => {
    const page = await get('/en/no/such/page');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<html lang="en"');
    const api = await get('/api/no-such-call/', 'application/json');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: '请求的资源不存在。' });
  });
});

describe('static files', () => {
  it('serves hashed assets with a long cache', async () => {
    const response = await get('/assets/index-abc123.js', '*/*');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('serves the logos and the favicon', async () => {
    expect((await get('/logos/heihe.svg', '*/*')).statusCode).toBe(200);
    expect((await get('/favicon.svg', '*/*')).statusCode).toBe(200);
  });

  it('never leaves the folder', async () => {
    for (const url of ['/assets/../../etc/passwd', '/assets/%2e%2e/%2e%2e/etc/passwd', '/logos/..%2Fheihe.svg']) {
      const response = await get(url, '*/*');
      expect(response.statusCode, url).toBe(404);
    }
  });
});
