import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildQuery, isRequestError, request, UnsupportedContentTypeError } from './client';

/**
 * The client against a real HTTP server on loopback: what it sends (headers, query, bodies) and
 * how it reads each kind of reply (spec section 7). Only `location` and `document.cookie` are the
 * browser's and are set per test.
 */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let origin: string;
let seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = req.url!.split('?')[0];
      if (path === '/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else if (path === '/empty') res.writeHead(204).end();
      else if (path === '/invalid') res.writeHead(400, { 'content-type': 'application/json' }).end('{"email":["bad"],"detail":"bad"}');
      else if (path === '/crash') res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream down');
      else if (path === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>hi</p>');
      else if (path === '/binary') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('xx');
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"nope"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function browserAt(pathname: string, cookie = '') {
  vi.stubGlobal('location', { pathname });
  vi.stubGlobal('document', { cookie });
}

beforeEach(() => {
  seen = [];
  vi.unstubAllGlobals();
});

describe('what the client sends', () => {
  it('leaves the token to the (HttpOnly) cookie, and sends Personal true, the page language and a cache-busting _r on GET', async () => {
    browserAt('/en/personal/', 'token=abc123; csrftoken=secret42; lang=en');
    await request('GET', `${origin}/json`, { params: { metadata__id: 7, type: ['place', 'theme'] } });
    const [call] = seen;
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.headers['x-csrftoken']).toBeUndefined();
    expect(call!.headers.personal).toBe('true');
    expect(call!.headers['accept-language']).toBe('en');
    const query = new URLSearchParams(call!.url.split('?')[1]);
    expect(query.get('metadata__id')).toBe('7');
    expect(query.getAll('type[]')).toEqual(['place', 'theme']);
    expect(Number(query.get('_r'))).toBeGreaterThanOrEqual(0);
  });

  it('sends Personal false on admin paths, and no Authorization without a token', async () => {
    browserAt('/admin/');
    await request('GET', `${origin}/json`);
    expect(seen[0]!.headers.personal).toBe('false');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['accept-language']).toBe('zh-hans');
  });

  it('posts JSON with the CSRF header from the cookie', async () => {
    browserAt('/personal/', 'csrftoken=secret42');
    await request('POST', `${origin}/json`, { json: { title: '冰川' } });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers['x-csrftoken']).toBe('secret42');
    expect(JSON.parse(seen[0]!.body)).toEqual({ title: '冰川' });
    expect(seen[0]!.url).toBe('/json');
  });

  it('repeats csrftoken on every request that is not a GET, with or without a body', async () => {
    browserAt('/personal/', 'csrftoken=secret42');
    await request('DELETE', `${origin}/json`);
    expect(seen[0]!.headers['x-csrftoken']).toBe('secret42');
  });

  it('posts forms url-encoded, leaving out undefined fields', async () => {
    browserAt('/personal/');
    await request('POST', `${origin}/json`, { form: { username: 'ada', phone: undefined, agreement: true } });
    expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen[0]!.body).toBe('username=ada&agreement=true');
  });

  it('builds queries without empty values', () => {
    expect(buildQuery({ a: 1, b: undefined, c: null }).replace(/&_r=.*$/, '')).toBe('a=1');
  });
});

describe('how the client reads replies', () => {
  beforeEach(() => browserAt('/personal/'));

  it('returns the JSON of a 2xx reply', async () => {
    expect(await request('GET', `${origin}/json`)).toEqual({ ok: true });
  });

  it('returns nothing for 204', async () => {
    expect(await request('DELETE', `${origin}/empty`)).toBeUndefined();
  });

  it('adds request_error with the status to a 4xx JSON reply', async () => {
    const reply = await request('POST', `${origin}/invalid`, { form: {} });
    expect(reply).toEqual({ email: ['bad'], detail: 'bad', request_error: { status: 400 } });
    expect(isRequestError(reply)).toBe(true);
  });

  it('returns the text and request_error for 5xx, whatever its type', async () => {
    const reply = await request('GET', `${origin}/crash`);
    expect(reply).toMatchObject({ text: 'upstream down', request_error: { status: 502 } });
  });

  it('reads HTML as text', async () => {
    expect(await request('GET', `${origin}/page`)).toEqual({ text: '<p>hi</p>' });
  });

  it('refuses any other content type', async () => {
    await expect(request('GET', `${origin}/binary`)).rejects.toBeInstanceOf(UnsupportedContentTypeError);
  });
});
