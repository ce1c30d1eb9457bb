import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveSchema } from '@portal/shared';
import { ArchiveRepo, fingerprintOf } from '../src/modules/archive/index.js';
import { StoredFiles } from '../src/modules/files/index.js';
import { buildDataFile, buildOrder, buildRecord, buildReview, buildUsers, setRecordStatus, type Person } from './factories.js';
import { createTestPortal, EN, tokenHeader, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { handle } from './orders-builders.js';

const run = promisify(execFile);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let portal: TestPortal;
let baseUrl: string;
let people: Record<'owner' | 'other' | 'expert' | 'staff' | 'applicant' | 'approved' | 'lapsed', Person>;
/** An open-access record whose files form a tree, a restricted one, a draft. */
let openId: string;
let restrictedId: string;
let draftId: string;
let work: string;

/** The open record's files: their paths in its tree and their bytes. */
const TREE = [
  { path: '/', name: 'README.txt', content: Buffer.from('Glacier mass balance, read me first.\n') },
  { path: '/冰川 数据/', name: '厚度 #1?.csv', content: Buffer.from('year,thickness\n1990,12.5\n') },
  { path: '/冰川 数据/deep/', name: 'a%b <script>.nc', content: randomBytes(300 * 1024) },
  { path: '/冰川 数据/deep/', name: 'empty.nc', content: Buffer.alloc(0) },
];

const stateOf = async (token: string | null, id: string) => call(portal, 'GET', `/api/archive/archives/${id}/`, token, { headers: EN });
const archiveOf = async (token: string | null, id: string) => archiveSchema.parse(expectStatus(await stateOf(token, id), 200));
const blobPath = (key: string) => path.join(portal.config.dataDir, 'files', key.slice(0, 2), key);
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** A published open-access record of the owner's with this one data file; its id. */
const openRecord = (file: { name: string; content?: string; size?: number }) =>
  buildRecord(portal, { owner: people.owner, status: 'published', sharing: 'online', published: '2024-01-03', dataFiles: [file] });

/** Waits for the background worker: what the server does after a reply (afterResponse), run now. */
const built = () => portal.archives.kick();

beforeAll(async () => {
  portal = await createTestPortal({ env: { ARCHIVE_ENABLED: 'true' } });
  people = await buildUsers(portal, {
    owner: { realname: 'Owner Ou' },
    other: { realname: 'Other Ot' },
    expert: { realname: 'Expert Ex' },
    staff: { staff: true, realname: 'Staff Shi' },
    applicant: { realname: 'Applicant Ap', language: 'en' },
    approved: { realname: 'Approved Ap', language: 'en' },
    lapsed: { realname: 'Lapsed La', language: 'en' },
  });
  const { owner } = people;
  openId = await buildRecord(portal, {
    owner,
    status: 'published',
    sharing: 'online',
    published: '2024-01-01',
    title: '冰川物质平衡 1990-2020',
    dataFiles: TREE.map(({ path: folder, name, content }) => ({ path: folder, name, content })),
  });
  restrictedId = await buildRecord(portal, {
    owner,
    status: 'published',
    sharing: 'offlineEmail',
    published: '2024-01-02',
    dataFiles: [{ name: 'restricted.csv', content: 'a,b\n1,2\n' }],
  });
  draftId = await buildRecord(portal, { owner, dataFiles: [{ name: 'draft.csv', content: 'x\n' }] });
  // An expert invited on the restricted record: once it is published, an expert downloads as anyone does.
  await buildReview(portal, { record: restrictedId, expert: people.expert, status: 'pass' });
  // An approved order, and one whose validity is over.
  for (const who of ['approved', 'lapsed'] as const) {
    const placed = await buildOrder(portal, people[who], [restrictedId]);
    expectStatus(await handle(portal, owner.token, [placed.order.orders[0].id], 'approved'), 200);
    if (who === 'lapsed') {
      await portal.database.db
        .updateTable('orders')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', placed.order.orders[0].id)
        .execute();
    }
  }
  // Waiting: applied for, not decided.
  await buildOrder(portal, people.applicant, [restrictedId]);
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(portal.app.server.address() as net.AddressInfo).port}`;
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'archive-test-'));
}, 120_000);

afterAll(async () => {
  await portal?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('GET /api/archive/archives/{id}/', () => {
  it('builds a published record’s archive in the background: one zip of its tree with a SHA-256 manifest that checks', async () => {
    await built();
    const archive = await archiveOf(people.other.token, openId);
    expect(archive).toMatchObject({ metadata_id: openId, state: 'ready', file_count: TREE.length, data_bytes: TREE.reduce((sum, f) => sum + f.content.length, 0) });
    expect(archive.download_url).toBe(`/api/archive/archives/${openId}/download/`);
    expect(archive.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(archive.built_at!)).not.toBeNaN();

    // A real curl, signed in by its token, as a script would fetch it.
    const zip = path.join(work, 'whole.zip');
    await run('curl', ['-sSf', '-H', `Authorization: Token ${people.other.token}`, '-o', zip, `${baseUrl}${archive.download_url}`]);
    const bytes = await fs.readFile(zip);
    expect(bytes.length).toBe(archive.size);
    expect(sha256(bytes)).toBe(archive.sha256);
    const tested = await run('unzip', ['-t', zip]);
    expect(tested.stdout).toMatch(/No errors detected/);

    const unpacked = path.join(work, 'unpacked');
    await run('unzip', ['-q', zip, '-d', unpacked]);
    // Every file at its path in the tree (the zip's names made safe for every file system: `?` and `<>` become `_`).
    const manifest = await fs.readFile(path.join(unpacked, 'MANIFEST-SHA256.txt'), 'utf8');
    const lines = manifest.trim().split('\n');
    expect(lines).toHaveLength(TREE.length);
    for (const file of TREE) {
      const local = `${file.path}${file.name}`.slice(1).replace(/[<>:"|?*]/g, '_');
      expect((await fs.readFile(path.join(unpacked, local))).equals(file.content), local).toBe(true);
      expect(lines).toContain(`${sha256(file.content)}  ${local}`);
    }
    // sha256sum itself checks every file against the manifest.
    const checked = await run('sha256sum', ['-c', 'MANIFEST-SHA256.txt'], { cwd: unpacked });
    expect(
      checked.stdout
        .trim()
        .split('\n')
        .every((line) => line.endsWith(': OK')),
    ).toBe(true);
  });

  it('resumes: ranges with the archive’s ETag, curl -C - finishes a cut download, HEAD tells the size', async () => {
    await built();
    const archive = await archiveOf(people.staff.token, openId);
    const url = `${baseUrl}${archive.download_url}`;
    const whole = await fetch(url, { headers: tokenHeader(people.staff.token) });
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('etag')).toBe(`"${archive.sha256}"`);
    expect(whole.headers.get('content-disposition')).toContain('.zip');

    const cut = path.join(work, 'cut.zip');
    await fs.writeFile(cut, bytes.subarray(0, 100_000));
    await run('curl', ['-sSf', '-C', '-', '-H', `Authorization: Token ${people.staff.token}`, '-o', cut, url]);
    expect(sha256(await fs.readFile(cut))).toBe(archive.sha256);
    // And wget -c, as README words it.
    await fs.writeFile(cut, bytes.subarray(0, 54_321));
    await run('wget', ['-q', '-c', '--header', `Authorization: Token ${people.staff.token}`, '-O', cut, url]);
    expect(sha256(await fs.readFile(cut))).toBe(archive.sha256);

    const rest = await fetch(url, { headers: { ...tokenHeader(people.staff.token), range: 'bytes=100000-', 'if-range': `"${archive.sha256}"` } });
    expect(rest.status).toBe(206);
    expect(Buffer.from(await rest.arrayBuffer()).equals(bytes.subarray(100_000))).toBe(true);
    const head = await fetch(url, { method: 'HEAD', headers: tokenHeader(people.staff.token) });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(archive.size));
  });

  it('lets exactly those download it who may download the record’s files', async () => {
    const { owner, other, expert, staff, applicant, approved, lapsed } = people;
    await built();
    // Open access: anyone signed in; signed out: 401, as every data download.
    for (const who of [owner, other, expert, staff, applicant]) expect((await stateOf(who.token, openId)).statusCode, who.username).toBe(200);
    expect((await stateOf(null, openId)).statusCode).toBe(401);
    expect((await call(portal, 'GET', `/api/archive/archives/${openId}/download/`, null)).statusCode).toBe(401);

    // Restricted: its creator, staff and an approved order in force.
    for (const who of [owner, staff, approved]) expect((await archiveOf(who.token, restrictedId)).state, who.username).toBe('ready');
    for (const who of [other, expert, applicant, lapsed]) {
      const refused = await stateOf(who.token, restrictedId);
      expect(refused.statusCode, who.username).toBe(403);
      const download = await call(portal, 'GET', `/api/archive/archives/${restrictedId}/download/`, who.token, { headers: EN });
      expect(download.statusCode, who.username).toBe(403);
      expect(download.body).not.toContain('PK');
    }
    expect((await stateOf(applicant.token, restrictedId)).json().detail).toMatch(/under review/i);
    const granted = await call(portal, 'GET', `/api/archive/archives/${restrictedId}/download/`, approved.token);
    expect(granted.statusCode).toBe(200);
    expect(granted.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // A draft has no archive: its creator is told so, anyone else does not see it.
    const draft = await stateOf(owner.token, draftId);
    expect(draft.statusCode).toBe(404);
    expect(draft.json().detail).toBe('Only a published dataset has a whole-dataset archive.');
    expect((await stateOf(other.token, draftId)).statusCode).toBe(404);
    expect((await stateOf(other.token, 'no-such-record')).statusCode).toBe(404);
  });

  it('counts a download of the record once per started download, not its resumed ranges', async () => {
    const reader = (await buildUsers(portal, { reader: { realname: 'Reader Re' } })).reader;
    const url = `/api/archive/archives/${openId}/download/`;
    const count = async () => {
      await portal.usage.flush();
      return (await portal.usage.countsOf(openId)).download_count;
    };
    const before = await count();
    expect((await call(portal, 'GET', url, reader.token)).statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
    expect((await portal.app.inject({ method: 'GET', url, headers: { ...tokenHeader(reader.token), range: 'bytes=1000-' } })).statusCode).toBe(206);
    expect((await portal.app.inject({ method: 'HEAD', url, headers: tokenHeader(reader.token) })).statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('never serves a stale archive: a change of the files makes it pending, deletes the old blob, and it is built again', async () => {
    const before = await archiveOf(people.owner.token, openId);
    const oldKey = (await new ArchiveRepo(portal.database.db).find(openId))!.storage_key!;
    expect(await exists(blobPath(oldKey))).toBe(true);
    await built();
    await buildDataFile(portal, openId, people.owner, { path: '/冰川 数据/', name: 'added.csv', content: 'later,1\n' });

    const stale = await archiveOf(people.owner.token, openId);
    expect(stale).toMatchObject({ state: 'pending', file_count: TREE.length + 1, size: null, sha256: null, download_url: null });
    expect(await exists(blobPath(oldKey))).toBe(false);
    // (Each reply starts the worker after it: only the first call after a change is sure to find the archive not rebuilt yet.)
    await built();
    await buildDataFile(portal, openId, people.owner, { path: '/冰川 数据/', name: 'added-2.csv', content: 'later,2\n' });
    const refused = await call(portal, 'GET', `/api/archive/archives/${openId}/download/`, people.owner.token, { headers: EN });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('The archive of this dataset is being prepared. Try again in a few minutes.');

    await built();
    const rebuilt = await archiveOf(people.owner.token, openId);
    expect(rebuilt).toMatchObject({ state: 'ready', file_count: TREE.length + 2 });
    expect(rebuilt.sha256).not.toBe(before.sha256);
    const listed = await run('unzip', ['-l', await saved(people.owner.token, rebuilt.download_url!, 'rebuilt.zip')]);
    expect(listed.stdout).toContain('added.csv');
  });

  it('builds again an archive whose build died with its process (its lease ran out)', async () => {
    // Nothing of the worker runs now (it runs after a reply): the test plays the other process's part alone.
    await built();
    await buildDataFile(portal, restrictedId, people.owner, { name: 'second.csv', content: 'c,d\n3,4\n' });
    const repo = new ArchiveRepo(portal.database.db);
    const files = await new StoredFiles(portal.database.db).treeFiles(restrictedId);
    const facts = { fingerprint: fingerprintOf(files), file_count: files.length, data_bytes: files.reduce((sum, f) => sum + Number(f.size), 0), state: 'pending' as const };
    expect((await repo.noteCheck(restrictedId, facts, new Date().toISOString())).row.state).toBe('pending');
    // Another process took the build and died: its hold on the row ended a minute ago.
    const past = new Date(Date.now() - 5 * 60_000);
    expect(await repo.claim('a-process-that-died', past.toISOString(), new Date(past.getTime() + 4 * 60_000).toISOString())).toBeDefined();
    expect((await archiveOf(people.staff.token, restrictedId)).state).toBe('building');
    await built();
    const archive = await archiveOf(people.staff.token, restrictedId);
    expect(archive).toMatchObject({ state: 'ready', file_count: 2 });
    const listed = await run('unzip', ['-l', await saved(people.staff.token, archive.download_url!, 'restricted.zip')]);
    expect(listed.stdout).toContain('second.csv');
  });

  it('answers too_large for a record over ARCHIVE_MAX_GB, and builds nothing', async () => {
    const id = await openRecord({ name: 'huge.nc', size: 1000 });
    // The row says 51 GB (no test writes that many bytes): the limit is judged on the rows' sizes.
    await portal.database.db
      .updateTable('meta_file')
      .set({ size: 51 * 1024 ** 3 })
      .where('metadata_id', '=', id)
      .execute();
    const archive = await archiveOf(people.other.token, id);
    expect(archive).toMatchObject({ state: 'too_large', size: null, download_url: null, max_bytes: 50 * 1024 ** 3 });
    expect(archive.detail).toMatch(/more than 50 GB of data, too much for one archive/);
    await built();
    expect((await archiveOf(people.other.token, id)).state).toBe('too_large');
    const refused = await call(portal, 'GET', `/api/archive/archives/${id}/download/`, people.other.token, { headers: { 'accept-language': 'zh-hans' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('无法打成一个包');
  });

  it('answers failed, with the reason, when a file’s bytes are missing, and tries again later', async () => {
    const id = await openRecord({ name: 'lost.csv', content: 'lost\n' });
    const file = await portal.database.db.selectFrom('meta_file').select('storage_key').where('metadata_id', '=', id).executeTakeFirstOrThrow();
    await fs.rm(blobPath(file.storage_key));
    await built();
    const archive = await archiveOf(people.other.token, id);
    expect(archive).toMatchObject({ state: 'failed', size: null, download_url: null });
    expect(archive.detail).toMatch(/could not be built; it will be tried again/);
    const row = (await new ArchiveRepo(portal.database.db).find(id))!;
    expect(row.attempts).toBe(1);
    expect(Date.parse(row.retry_at!)).toBeGreaterThan(Date.now());
    const refused = await call(portal, 'GET', `/api/archive/archives/${id}/download/`, people.other.token, { headers: EN });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/could not be built/);
  });

  it('deletes the archive’s blob when the record is withdrawn or deleted', async () => {
    const id = await openRecord({ name: 'gone.csv', content: 'x\n' });
    await built();
    expect((await archiveOf(people.owner.token, id)).state).toBe('ready');
    const repo = new ArchiveRepo(portal.database.db);
    const key = (await repo.find(id))!.storage_key!;
    await setRecordStatus(portal, id, 'notPublished');
    await built();
    expect(await repo.find(id)).toBeUndefined();
    expect(await exists(blobPath(key))).toBe(false);

    await setRecordStatus(portal, id, 'published');
    await built();
    const again = (await repo.find(id))!;
    expect(again.state).toBe('ready');
    expectStatus(await call(portal, 'DELETE', `/api/metadata/metadata/${id}/`, people.staff.token), 204);
    expect(await repo.find(id)).toBeUndefined();
    expect(await exists(blobPath(again.storage_key!))).toBe(false);
  });
});

describe('ARCHIVE_ENABLED off', () => {
  it('answers that archives are not offered', async () => {
    const off = await createTestPortal();
    try {
      const [owner] = Object.values(await buildUsers(off, { owner: {} }));
      const id = await buildRecord(off, { owner: owner!, status: 'published', sharing: 'online', published: '2024-01-01', files: [10] });
      const reply = await call(off, 'GET', `/api/archive/archives/${id}/`, owner!.token, { headers: EN });
      expect(reply.statusCode).toBe(404);
      expect(reply.json().detail).toMatch(/not offered on this portal/);
    } finally {
      await off.close();
    }
  });
});

async function saved(token: string, url: string, name: string): Promise<string> {
  const file = path.join(work, name);
  await run('curl', ['-sSf', '-H', `Authorization: Token ${token}`, '-o', file, `${baseUrl}${url}`]);
  return file;
}
