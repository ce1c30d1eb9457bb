import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderIndexLinkSchema, type OrderIndexLink } from '@portal/shared';
import { storedSecret } from '../src/db/server-secret.js';
import { downloadLinkKey, signIndexLink } from '../src/modules/downloads/index.js';
import { buildOrder, buildRecord, buildUsers, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { handle } from './orders-builders.js';

const run = promisify(execFile);

let portal: TestPortal;
let baseUrl: string;
let people: Record<'owner' | 'applicant' | 'other' | 'staff' | 'waiting', Person>;
let orderId: string;
let waitingOrderId: string;
let link: OrderIndexLink;
let work: string;

/** Two restricted datasets of the order: the first a tree whose names need escaping, the second flat. */
const TITLE_A = '冰川 厚度 <b>2020</b>';
const TITLE_B = 'Sea ice #2';
const FOLDER_A = '冰川 厚度 _b_2020__b_';
const TREE_A = [
  { path: '/', name: 'read me.txt', content: 'Read me first.\n' },
  { path: '/站点 数据/', name: 'a #1?.csv', content: 'x,y\n1,2\n' },
  { path: '/站点 数据/', name: '100%.csv', content: 'all\n' },
  { path: '/站点 数据/深 层/', name: '<script>alert("x")&.nc', content: 'nc bytes\n' },
  { path: '/empty folder/', name: 'zero.bin', content: '' },
];
const TREE_B = [{ path: '/', name: 'ice.csv', content: 'ice\n' }];

/** The index's address on this test server (links name PUBLIC_URL, http://portal.test). */
const local = (url: string) => url.replace('http://portal.test', baseUrl);
const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  portal = await createTestPortal();
  people = await buildUsers(portal, {
    owner: { realname: 'Owner Ou' },
    applicant: { realname: 'Applicant Ap', language: 'en' },
    other: { realname: 'Other Ot', language: 'en' },
    staff: { staff: true, realname: 'Staff Shi' },
    waiting: { realname: 'Waiting Wa', language: 'en' },
  });
  const { owner } = people;
  const a = await buildRecord(portal, { owner, status: 'published', sharing: 'offlineEmail', published: '2024-02-01', title: TITLE_A, dataFiles: TREE_A });
  const b = await buildRecord(portal, { owner, status: 'published', sharing: 'offlineEmail', published: '2024-02-02', language: 'en', title: TITLE_B, dataFiles: TREE_B });
  orderId = (await buildOrder(portal, people.applicant, [a, b])).order.orders[0].id;
  expectStatus(await handle(portal, owner.token, [orderId], 'approved'), 200);
  waitingOrderId = (await buildOrder(portal, people.waiting, [a])).order.orders[0].id;
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(portal.app.server.address() as net.AddressInfo).port}`;
  link = orderIndexLinkSchema.parse(expectStatus(await call(portal, 'GET', `/api/account/order/${orderId}/index-link/`, people.applicant.token), 200));
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'http-index-'));
}, 120_000);

afterAll(async () => {
  await portal?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('GET /api/account/order/{id}/index-link/', () => {
  it('gives an approved order’s applicant (and staff) the signed index and its wget command; nobody else', async () => {
    expect(link.url).toMatch(/^http:\/\/portal\.test\/api\/data\/index\/[^/]+\/\d+\/[A-Za-z0-9_-]{43}\/$/);
    expect(link.cut_dirs).toBe(6);
    expect(link.wget).toBe(`wget -r -l inf -np -nH --cut-dirs=6 -e robots=off -R 'index.html*' '${link.url}'`);
    const order = expectStatus(await call(portal, 'GET', `/api/account/order/${orderId}/`, people.applicant.token), 200);
    expect(link.expires_at).toBe(new Date(order.expires_at).toISOString());

    expect((await call(portal, 'GET', `/api/account/order/${orderId}/index-link/`, people.staff.token)).statusCode).toBe(200);
    expect((await call(portal, 'GET', `/api/account/order/${orderId}/index-link/`, people.other.token)).statusCode).toBe(404);
    expect((await call(portal, 'GET', `/api/account/order/${orderId}/index-link/`, null)).statusCode).toBe(401);
    // Not approved (yet): the same answer as links.txt's.
    const waiting = await call(portal, 'GET', `/api/account/order/${waitingOrderId}/index-link/`, people.waiting.token, { headers: EN });
    expect(waiting.statusCode).toBe(409);
    expect((await call(portal, 'GET', `/api/account/order/${waitingOrderId}/links/`, people.waiting.token)).statusCode).toBe(409);
  });
});

describe('the HTTP index', () => {
  it('lists the datasets and their folders as plain HTML, names escaped and encoded, links relative', async () => {
    const root = await portal.app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(root.body).toContain(`<a href="./${encodeURIComponent(FOLDER_A)}/">${FOLDER_A}/</a>`);
    expect(root.body).toContain(`<a href="./Sea%20ice%20%232/">Sea ice #2/</a>`);
    expect(root.body).not.toContain('href="../"');

    const folder = await portal.app.inject({ method: 'GET', url: `${pathOf(link.url)}${encodeURIComponent(FOLDER_A)}/${encodeURIComponent('站点 数据')}/` });
    expect(folder.statusCode).toBe(200);
    // Folders first, as `name/`; files with their size; the parent; no markup of a name reaches the page.
    expect(folder.body).toContain('<a href="../">../</a>');
    expect(folder.body).toContain(`<a href="./${encodeURIComponent('深 层')}/">深 层/</a>`);
    expect(folder.body).toContain('<a href="./a%20%231%3F.csv">a #1?.csv</a> 8');
    expect(folder.body).toContain('<a href="./100%25.csv">100%.csv</a> 4');
    const deep = await portal.app.inject({
      method: 'GET',
      url: `${pathOf(link.url)}${encodeURIComponent(FOLDER_A)}/${encodeURIComponent('站点 数据')}/${encodeURIComponent('深 层')}/`,
    });
    expect(deep.body).not.toContain('<script>');
    expect(deep.body).toContain('>&lt;script&gt;alert(&quot;x&quot;)&amp;.nc</a>');
    expect(deep.body).toContain('href="./%3Cscript%3Ealert(%22x%22)%26.nc"');
    expect(deep.headers['content-security-policy']).toBe("default-src 'none'");

    // A folder asked for without its slash is sent to it; so is the index's own address.
    const bare = await portal.app.inject({ method: 'GET', url: `${pathOf(link.url)}${encodeURIComponent(FOLDER_A)}/${encodeURIComponent('站点 数据')}` });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(`${encodeURIComponent('站点 数据')}/`);
    const top = await portal.app.inject({ method: 'GET', url: pathOf(link.url).slice(0, -1) });
    expect(top.statusCode).toBe(301);
  });

  it('serves each file as a signed download that resumes', async () => {
    const file = `${pathOf(link.url)}${encodeURIComponent(FOLDER_A)}/${encodeURIComponent('站点 数据')}/a%20%231%3F.csv`;
    const whole = await portal.app.inject({ method: 'GET', url: file });
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe('x,y\n1,2\n');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const rest = await portal.app.inject({ method: 'GET', url: file, headers: { range: 'bytes=4-' } });
    expect(rest.statusCode).toBe(206);
    expect(rest.body).toBe('1,2\n');
    const head = await portal.app.inject({ method: 'HEAD', url: file });
    expect(head.headers['content-length']).toBe('8');
    expect(head.body).toBe('');
  });

  it('is fetched whole, folders and all, by wget -r', async () => {
    const target = path.join(work, 'wget');
    await fs.mkdir(target);
    const [, ...args] = link.wget.replace(/'/g, '').split(' ');
    await run('wget', ['-q', '--tries=1', '--timeout=30', ...args.slice(0, -1), local(link.url)], { cwd: target });
    const expected = [...TREE_A.map((f) => ({ ...f, dataset: FOLDER_A })), ...TREE_B.map((f) => ({ ...f, dataset: TITLE_B }))];
    for (const file of expected) {
      const at = path.join(target, file.dataset, `${file.path}${file.name}`);
      expect(await fs.readFile(at, 'utf8'), at).toBe(file.content);
    }
    // Nothing else: the listings were removed (-R index.html*), no file outside the tree.
    const found = (await fs.readdir(target, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
    expect(found.sort()).toEqual(expected.map((file) => path.join(target, file.dataset, `${file.path}${file.name}`)).sort());
  });

  it('never leaves the order’s datasets: .., encoded dots and slashes, another record', async () => {
    const base = pathOf(link.url);
    for (const escape of [
      '..',
      '%2e%2e',
      '%2E%2E',
      '.',
      `${encodeURIComponent(FOLDER_A)}/..`,
      `${encodeURIComponent(FOLDER_A)}/%2e%2e/`,
      `${encodeURIComponent(FOLDER_A)}/a%2Fb`,
      'Elsewhere/',
      `${encodeURIComponent(FOLDER_A)}/..%2f..%2f`,
    ]) {
      // curl --path-as-is sends the path as written (no client-side clean-up of dot segments).
      const { stdout } = await run('curl', ['-s', '--path-as-is', '-o', '/dev/null', '-w', '%{http_code}', `${baseUrl}${base}${escape}/read%20me.txt`]);
      expect(stdout, escape).toBe('404');
    }
    const up = await run('curl', ['-s', '--path-as-is', '-w', '\n%{http_code}', '-H', 'accept-language: en', `${baseUrl}${base}../../../../../../etc/passwd`]);
    expect(up.stdout).not.toContain('root:');
  });

  it('checks the signature and the order on every request: a forged or expired one is 403 with the clear message', async () => {
    const base = pathOf(link.url);
    const [, , , , order, expires, signature] = base.split('/');
    // A file link of the same order (links.txt): its signature does not open the index.
    const links = (await call(portal, 'GET', `/api/account/order/${orderId}/links/`, people.applicant.token)).body.trim().split('\n');
    const [, , , , , , linkExpires, linkSignature] = pathOf(links[0]!).split('/');
    const forged = [
      base.replace(signature!, 'A'.repeat(43)),
      base.replace(`/${expires}/`, `/${Number(expires) + 3600}/`),
      // Another order under this signature.
      base.replace(order!, waitingOrderId),
      `/api/data/index/${order}/${linkExpires}/${linkSignature}/`,
    ];
    for (const url of forged) {
      const reply = await portal.app.inject({ method: 'GET', url, headers: EN });
      expect(reply.statusCode, url).toBe(403);
      expect(reply.json().detail).toBe('This download link is not valid. Copy it again from your download page.');
    }
    // A signature whose time is over.
    const key = downloadLinkKey(portal.config.secretKey ?? (await storedSecret(portal.database.db)));
    const old = signIndexLink({ orderId, expiresAt: new Date(Date.now() - 60_000) }, key);
    const expired = await portal.app.inject({ method: 'GET', url: `/api/data/index/${old.order}/${old.expires}/${old.signature}/`, headers: EN });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().detail).toMatch(/has expired/);

    // The order's validity ends: the same address, signature still in time, is refused.
    await portal.database.db
      .updateTable('orders')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', orderId)
      .execute();
    const lapsed = await portal.app.inject({ method: 'GET', url: `${base}${encodeURIComponent(FOLDER_A)}/read%20me.txt`, headers: EN });
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json().detail).toBe('This download link has expired. Your order is no longer valid: please reapply.');
    expect((await call(portal, 'GET', `/api/account/order/${orderId}/index-link/`, people.applicant.token)).statusCode).toBe(409);
  });
});
