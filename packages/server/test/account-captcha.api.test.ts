import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_LIFETIME_MINUTES } from '@portal/shared';
import { buildUser } from './factories.js';
import { cookiesOf, createTestPortal, EN, tokenHeader, type TestPortal } from './helpers.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

describe('GET /account/jpgcode', () => {
  it('answers an anonymous caller', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/account/jpgcode' });
    expect(response.statusCode).toBe(200);
  });

  it('answers a signed-in caller too', async () => {
    const user = await buildUser(portal);
    const response = await portal.app.inject({ method: 'GET', url: '/account/jpgcode', headers: tokenHeader(user.token) });
    expect(response.statusCode).toBe(200);
  });

  it('answers a JPEG image that no cache keeps', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/account/jpgcode' });
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('no-store');
    const bytes = response.rawPayload;
    expect(bytes.length).toBeGreaterThan(200);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // A JPEG ends with the end-of-image marker.
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it('sets an httpOnly captcha_key cookie for the account calls and stores the answer', async () => {
    const before = Date.now();
    const response = await portal.app.inject({ method: 'GET', url: '/account/jpgcode' });
    const cookie = response.cookies.find((c) => c.name === 'captcha_key');
    expect(cookie).toBeDefined();
    expect(cookie!.value).toMatch(/^[0-9a-f]{40}$/);
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.path).toBe('/account/');
    expect(cookie!.maxAge).toBe(CAPTCHA_LIFETIME_MINUTES * 60);

    const row = await portal.database.db.selectFrom('captchas').selectAll().where('id', '=', cookie!.value).executeTakeFirst();
    expect(row).toBeDefined();
    // Four characters, stored lower-cased, without the look-alike characters.
    expect(row!.answer).toMatch(/^[a-z2-9]{4}$/);
    expect(row!.answer).not.toMatch(/[01oil]/);
    const lifetime = Date.parse(row!.expires_at) - before;
    expect(lifetime).toBeGreaterThan((CAPTCHA_LIFETIME_MINUTES * 60 - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual((CAPTCHA_LIFETIME_MINUTES * 60 + 5) * 1000);
  });

  it('gives every call a captcha of its own', async () => {
    const first = cookiesOf(await portal.app.inject({ method: 'GET', url: '/account/jpgcode' })).captcha_key;
    const second = cookiesOf(await portal.app.inject({ method: 'GET', url: '/account/jpgcode' })).captcha_key;
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(first).not.toBe(second);
    const rows = await portal.database.db.selectFrom('captchas').select('id').where('id', 'in', [first!, second!]).execute();
    expect(rows).toHaveLength(2);
  });

  it('removes expired captchas when it draws a new one', async () => {
    const old = cookiesOf(await portal.app.inject({ method: 'GET', url: '/account/jpgcode' })).captcha_key!;
    await portal.database.db
      .updateTable('captchas')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', old)
      .execute();
    await portal.app.inject({ method: 'GET', url: '/account/jpgcode' });
    const row = await portal.database.db.selectFrom('captchas').select('id').where('id', '=', old).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('GET /account/jpgcode rate limit', () => {
  let limited: TestPortal;
  beforeAll(async () => {
    limited = await createTestPortal({ rateLimits: { captcha: { max: 2, timeWindowMs: 60_000 } } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('refuses the third call within the window with 429 and a translated message', async () => {
    expect((await limited.app.inject({ method: 'GET', url: '/account/jpgcode' })).statusCode).toBe(200);
    expect((await limited.app.inject({ method: 'GET', url: '/account/jpgcode' })).statusCode).toBe(200);

    const third = await limited.app.inject({ method: 'GET', url: '/account/jpgcode' });
    expect(third.statusCode).toBe(429);
    const seconds = Number(third.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(third.json()).toEqual({ detail: `尝试次数过多，请在 ${seconds} 秒后重试。` });
    expect(third.cookies.find((c) => c.name === 'captcha_key')).toBeUndefined();

    const english = await limited.app.inject({ method: 'GET', url: '/account/jpgcode', headers: EN });
    expect(english.statusCode).toBe(429);
    const englishSeconds = Number(english.headers['retry-after']);
    expect(english.json()).toEqual({ detail: `Too many attempts. Please wait ${englishSeconds} seconds and try again.` });

    // Only the two allowed calls drew a captcha.
    const rows = await limited.database.db.selectFrom('captchas').select('id').execute();
    expect(rows).toHaveLength(2);
  });
});
