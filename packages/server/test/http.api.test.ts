import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUsers, createTestPortal, EN, FORM, form, type TestPortal } from './helpers.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

const MIB = 1024 * 1024;

describe('request bodies', () => {
  it('refuses a JSON body over 1 MiB with 413 and a translated message', async () => {
    const payload = JSON.stringify({ username: 'someone', password: 'p'.repeat(MIB) });
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: '请求内容过大。' });
    const english = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      headers: { 'content-type': 'application/json', ...EN },
      payload,
    });
    expect(english.statusCode).toBe(413);
    expect(english.json()).toEqual({ detail: 'The request is too large.' });
  });

  it('refuses a form body over 1 MiB with 413, and registers nobody', async () => {
    const before = await countUsers(portal);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/register/',
      headers: FORM,
      payload: form({ username: 'someone', address: 'a'.repeat(MIB + 1) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: '请求内容过大。' });
    expect(await countUsers(portal)).toBe(before);
  });

  it('accepts a body just under the limit as far as the schema', async () => {
    // Under the limit the body is read, and the schema refuses the field that is too long.
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/profile-login/',
      headers: FORM,
      payload: form({ username: 'someone', password: 'p'.repeat(MIB - 100) }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ password: ['登录失败，请稍后再试'], detail: '登录失败，请稍后再试' });
  });

  it('refuses malformed JSON with 400 and a translated message', async () => {
    const post = (headers: Record<string, string>) =>
      portal.app.inject({
        method: 'POST',
        url: '/account/profile-login/',
        headers: { 'content-type': 'application/json', ...headers },
        payload: '{"username": "someone", "password": ',
      });
    const response = await post({});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: '无法读取请求内容。' });
    const english = await post(EN);
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({ detail: 'The request body could not be read.' });
  });

  it('refuses an empty JSON body with 400 and the same message', async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/forgot/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: '无法读取请求内容。' });
  });

  it('refuses a JSON body that is no object', async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/forgot/',
      headers: { 'content-type': 'application/json' },
      payload: '"someone@example.org"',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ non_field_errors: ['输入的值无效。'], detail: '输入的值无效。' });
  });

  it('refuses a content type it does not read with 415', async () => {
    const post = (headers: Record<string, string>) =>
      portal.app.inject({
        method: 'POST',
        url: '/account/forgot/',
        headers: { 'content-type': 'application/xml', ...headers },
        payload: '<email>someone@example.org</email>',
      });
    const response = await post({});
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ detail: '不接受此内容类型。' });
    expect((await post(EN)).json()).toEqual({ detail: 'This content type is not accepted.' });
  });
});

describe('unknown addresses', () => {
  it('answers an unknown API path with 404 JSON {detail}', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/api/no-such-thing/' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ detail: '请求的资源不存在。' });
    const english = await portal.app.inject({ method: 'POST', url: '/api/no-such-thing/', headers: EN });
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ detail: 'The requested resource was not found.' });
  });

  it('answers a known path with a method it does not serve with 404 too', async () => {
    const response = await portal.app.inject({ method: 'DELETE', url: '/account/validate/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: '请求的资源不存在。' });
  });

  it('answers a browser with JSON when the web app is not built', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/en/nowhere/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: '请求的资源不存在。' });
  });
});

describe('language of the replies', () => {
  const ask = (headers: Record<string, string> = {}, cookies: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url: '/account/validate/', headers, cookies });
  const chinese = { detail: '请先登录。' };
  const english = { detail: 'Please log in first.' };

  it('is Chinese without any hint', async () => {
    expect((await ask()).json()).toEqual(chinese);
  });

  it('follows Accept-Language, taking the first language it speaks', async () => {
    expect((await ask({ 'accept-language': 'en-GB,en;q=0.9' })).json()).toEqual(english);
    expect((await ask({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' })).json()).toEqual(chinese);
    expect((await ask({ 'accept-language': 'fr-FR, en;q=0.5' })).json()).toEqual(english);
  });

  it("takes the web client's exact language first, then the lang cookie, then the browser's list", async () => {
    expect((await ask({ 'accept-language': 'en' }, { lang: 'zh-hans' })).json()).toEqual(english);
    expect((await ask({ 'accept-language': 'zh-hans' }, { lang: 'en' })).json()).toEqual(chinese);
    expect((await ask({ 'accept-language': 'zh-CN,zh;q=0.9' }, { lang: 'en' })).json()).toEqual(english);
    expect((await ask({ 'accept-language': 'en-US,en;q=0.9' }, { lang: 'zh-hans' })).json()).toEqual(chinese);
    expect((await ask({ 'accept-language': 'fr' }, { lang: 'en' })).json()).toEqual(english);
    expect((await ask({}, { lang: 'en' })).json()).toEqual(english);
    expect((await ask({}, { lang: 'de' })).json()).toEqual(chinese);
  });
});

describe('GET /healthz', () => {
  it('answers anyone', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('security headers', () => {
  it('sends a content security policy and refuses framing', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
