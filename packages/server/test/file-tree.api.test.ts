import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import type { AuthenticatedUser } from '../src/modules/account/index.js';
import { FilesService } from '../src/modules/files/files.service.js';
import { MetadataAccess } from '../src/modules/metadata/metadata-access.js';
import { BlobNotFoundError, createBlobStore, type BlobStore } from '../src/storage/index.js';
import { buildDataFiles, buildRecord, buildReview, buildUsers, setRecordStatus, type Person } from './factories.js';
import { createTestPortal, EN, FORM, form, tokenHeader, type TestPortal } from './helpers.js';

/**
 * A record's file tree (issue 19): GET /api/data/file/ and the form posts /data/createFolder/,
 * /data/newfile/, /data/deleteFile/ and /data/moveFile/, with FilesService.addStoredBlob (what
 * uploads and FTP list their blobs through), on the portal's database and disk.
 */
let portal: TestPortal;
let people: Record<'creator' | 'other' | 'expert' | 'staff', Person>;
let storage: BlobStore;
let files: FilesService;

beforeAll(async () => {
  portal = await createTestPortal({ env: { USER_STORAGE_QUOTA_MB: '1' } });
  people = await buildUsers(portal, { creator: {}, other: {}, expert: {}, staff: { staff: true } });
  storage = createBlobStore({ dataDir: portal.config.dataDir });
  const access = new MetadataAccess(portal.database.db);
  files = new FilesService(portal.database.db, access, storage, { storageQuotaBytes: portal.config.accountLimits.storageBytes });
}, 60_000);

afterAll(async () => {
  await portal.close();
});

type Caller = Person | null;

/** The signed-in user behind a person's token, as the routes see them. */
async function userOf(person: Person): Promise<AuthenticatedUser> {
  const user = await portal.accounts.authenticate(person.token);
  if (!user) throw new Error(`${person.username} is not signed in`);
  return user;
}

function post(url: string, caller: Caller, fields: Record<string, string>, options: { json?: boolean; headers?: Record<string, string> } = {}) {
  const auth = caller ? tokenHeader(caller.token) : {};
  return options.json
    ? portal.app.inject({ method: 'POST', url, headers: { ...auth, ...options.headers }, payload: fields })
    : portal.app.inject({ method: 'POST', url, headers: { ...FORM, ...auth, ...options.headers }, payload: form(fields) });
}

function list(caller: Caller, metadataId: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const params = new URLSearchParams({ metadata__id: metadataId, ...query });
  return portal.app.inject({ method: 'GET', url: `/api/data/file/?${params}`, headers: { ...(caller ? tokenHeader(caller.token) : {}), ...headers } });
}

async function listed(caller: Caller, metadataId: string, query: Record<string, string> = {}) {
  const reply = await list(caller, metadataId, query);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json() as { count: number; bytes: number; results: { id: string; name: string; path: string; is_folder: boolean; size: number; sha256: string }[] };
}

const draftOf = (owner: Person) => buildRecord(portal, { owner });

/** A blob in the portal's store, listed at `folder` as `name` by `caller`. */
async function addFile(caller: Person, metadataId: string, folder: string, name: string, content: string | Buffer = name) {
  const blob = await storage.put(Buffer.from(content), { maxBytes: 10 * 1024 * 1024 });
  return files.addStoredBlob(await userOf(caller), { metadataId, path: folder, name, blob });
}

async function blobExists(key: string): Promise<boolean> {
  try {
    await storage.stat(key);
    return true;
  } catch (error) {
    if (error instanceof BlobNotFoundError) return false;
    throw error;
  }
}

async function storageKeyOf(id: string): Promise<string> {
  const row = await portal.database.db.selectFrom('meta_file').select('storage_key').where('id', '=', id).executeTakeFirstOrThrow();
  return row.storage_key;
}

describe('the tree', () => {
  it('creates folders and empty files, form-urlencoded and JSON, and lists a folder with its count and bytes', async () => {
    const id = await draftOf(people.creator);
    expect((await post('/data/createFolder/', people.creator, { metadata_id: id, path: '/', name: 'a' })).statusCode).toBe(201);
    const b = await post('/data/createFolder/', people.creator, { metadata_id: id, path: '/a', name: 'b' }, { json: true });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json()).toMatchObject({ name: 'b', path: '/a/', is_folder: true, size: 0, sha256: '' });
    const empty = await post('/data/newfile/', people.creator, { metadata_id: id, path: '/a/b/', name: 'notes.txt' });
    expect(empty.statusCode, empty.body).toBe(201);
    expect(empty.json()).toMatchObject({ name: 'notes.txt', path: '/a/b/', is_folder: false, size: 0, sha256: createHash('sha256').update('').digest('hex') });
    await addFile(people.creator, id, '/a', 'x.csv', '12345');
    await addFile(people.creator, id, '/', 'root.nc', 'abc');

    const root = await listed(people.creator, id);
    expect(root).toMatchObject({ count: 2, bytes: 3 });
    expect(root.results.map((e) => [e.name, e.is_folder])).toEqual([
      ['a', true],
      ['root.nc', false],
    ]);
    const a = await listed(people.creator, id, { path: '/a' });
    expect(a).toMatchObject({ count: 2, bytes: 5 });
    expect(a.results.map((e) => e.name)).toEqual(['b', 'x.csv']);
    expect(await listed(people.creator, id, { path: '//a/./b/' })).toMatchObject({ count: 1, bytes: 0 });
    // The flat list of the record's data files still shows every file, wherever it is.
    const flat = await portal.app.inject({ method: 'GET', url: `/api/metadata/meta-file/?metadata__id=${id}`, headers: tokenHeader(people.creator.token) });
    expect(flat.json()).toMatchObject({ count: 3, total_size: 8 });
  });

  it('pages a folder 20 at a time and sorts it by name, size and time', async () => {
    const id = await draftOf(people.staff);
    await post('/data/createFolder/', people.staff, { metadata_id: id, path: '/', name: 'sub' });
    for (let i = 0; i < 25; i++) await addFile(people.staff, id, '/', `f${String(i).padStart(2, '0')}.dat`, 'x'.repeat((i * 7) % 25));
    const first = await listed(people.staff, id);
    expect(first.count).toBe(26);
    expect(first.bytes).toBe(Array.from({ length: 25 }, (_, i) => (i * 7) % 25).reduce((a, b) => a + b, 0));
    expect(first.results).toHaveLength(20);
    expect(first.results[0]).toMatchObject({ name: 'sub', is_folder: true });
    const second = await listed(people.staff, id, { page: '2' });
    expect(second.results.map((e) => e.name)).toEqual(['f19.dat', 'f20.dat', 'f21.dat', 'f22.dat', 'f23.dat', 'f24.dat']);
    const bySize = await listed(people.staff, id, { ordering: '-size', pageSize: '26' });
    const sizes = bySize.results.filter((e) => !e.is_folder).map((e) => e.size);
    expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
    expect(bySize.results[0]!.is_folder).toBe(true);
    const byName = await listed(people.staff, id, { ordering: '-name', pageSize: '3' });
    expect(byName.results.map((e) => e.name)).toEqual(['sub', 'f24.dat', 'f23.dat']);
    const byTime = await listed(people.staff, id, { ordering: 'modified', page: '2', pageSize: '5' });
    expect(byTime.results.map((e) => e.name)).toEqual(['f04.dat', 'f05.dat', 'f06.dat', 'f07.dat', 'f08.dat']);
    // Every page of every ordering (the second half's read from the folder's end) is its slice of the whole.
    for (const ordering of ['name', '-name', 'size', '-size', 'modified', '-modified']) {
      const whole = (await listed(people.staff, id, { ordering, pageSize: '100' })).results.map((e) => e.id);
      const paged: string[] = [];
      for (let page = 1; page <= 4; page++) paged.push(...(await listed(people.staff, id, { ordering, page: String(page), pageSize: '7' })).results.map((e) => e.id));
      expect([ordering, paged]).toEqual([ordering, whole]);
    }
    expect((await list(people.staff, id, { ordering: 'owner' })).statusCode).toBe(400);
  });
});

describe('who may', () => {
  let draft: string;
  let published: string;
  let reviewed: string;

  beforeAll(async () => {
    draft = await draftOf(people.creator);
    published = await buildRecord(portal, { owner: people.creator, status: 'draft', published: '2024-01-01' });
    reviewed = await buildRecord(portal, { owner: people.creator, status: 'underReview', columns: { review_round: 1 } });
    await buildReview(portal, { record: reviewed, expert: people.expert });
    for (const id of [draft, published, reviewed]) await addFile(people.staff, id, '/', 'seen.txt');
    await setRecordStatus(portal, published, 'published');
  });

  it('lets whoever may see the record list it, and hides it from the others', async () => {
    const cases: [string, Caller, string, number][] = [
      ['creator', people.creator, draft, 200],
      ['staff', people.staff, draft, 200],
      ['other', people.other, draft, 404],
      ['expert', people.expert, draft, 404],
      ['anonymous', null, draft, 404],
      ['expert', people.expert, reviewed, 200],
      ['other', people.other, reviewed, 404],
      ['anonymous', null, published, 200],
      ['other', people.other, published, 200],
    ];
    for (const [who, caller, id, status] of cases) expect([who, (await list(caller, id)).statusCode]).toEqual([who, status]);
  });

  it('lets the creator change a draft and staff any unpublished record; refuses the others, the creator on a published record with the no-right message, and staff there until it is reopened', async () => {
    const cases: [string, Caller, string, number][] = [
      ['creator', people.creator, draft, 201],
      ['staff', people.staff, draft, 201],
      ['staff', people.staff, reviewed, 201],
      ['staff', people.staff, published, 409],
      ['other', people.other, draft, 404],
      ['expert', people.expert, reviewed, 403],
      ['creator', people.creator, reviewed, 409],
      ['creator', people.creator, published, 403],
      ['anonymous', null, draft, 401],
    ];
    for (const [who, caller, id, status] of cases) {
      for (const url of ['/data/createFolder/', '/data/newfile/']) {
        const reply = await post(url, caller, { metadata_id: id, path: '/', name: `${who}-${url.length}-${status}` });
        expect([who, id, url, reply.statusCode]).toEqual([who, id, url, status]);
      }
      // The allowed move and delete their own new file; the refused try the file every record has.
      const target = status === 201 ? `${who}-${status}.txt` : 'seen.txt';
      if (status === 201) await addFile(people.staff, id, '/', target);
      const moved = await post('/data/moveFile/', caller, { metadata_id: id, from: `/${target}`, to: `/moved-${target}` });
      const deleted = await post('/data/deleteFile/', caller, { metadata_id: id, path: '/', name: status === 201 ? `moved-${target}` : target });
      expect([who, id, moved.statusCode, deleted.statusCode]).toEqual([who, id, status === 201 ? 200 : status, status === 201 ? 200 : status]);
    }
    const en = await post('/data/createFolder/', people.creator, { metadata_id: published, path: '/', name: 'late' }, { headers: EN });
    expect(en.json().detail).toBe('Sorry, you have no right to modify the data entity of this metadata');
    const zh = await post('/data/createFolder/', people.creator, { metadata_id: published, path: '/', name: 'late' }, { headers: { 'accept-language': 'zh-hans' } });
    expect(zh.json().detail).toBe('对不起，您无权修改该元数据的数据实体');
  });

  it('lists a stored blob only for who may write, leaving the blob to the caller on refusal', async () => {
    const blob = await storage.put(Buffer.from('late data'), { maxBytes: 100 });
    const creator = await userOf(people.creator);
    await expect(files.addStoredBlob(creator, { metadataId: published, path: '/', name: 'late.nc', blob })).rejects.toMatchObject({ messageKey: 'metadata.noRight' });
    await expect(files.addStoredBlob(await userOf(people.other), { metadataId: draft, path: '/', name: 'x.nc', blob })).rejects.toBeInstanceOf(AppError);
    await expect(files.addStoredBlob(null, { metadataId: draft, path: '/', name: 'x.nc', blob })).rejects.toMatchObject({ messageKey: 'account.loginRequired' });
    // Over the account's quota (1 MB here).
    const big = await storage.put(Buffer.alloc(1024 * 1024 + 1), { maxBytes: 2 * 1024 * 1024 });
    await expect(files.addStoredBlob(creator, { metadataId: draft, path: '/', name: 'big.nc', blob: big })).rejects.toMatchObject({ messageKey: 'metadata.files.quotaExceeded' });
    expect(await blobExists(blob.key)).toBe(true);
    expect(await blobExists(big.key)).toBe(true);
    const added = await files.addStoredBlob(creator, { metadataId: draft, path: '/deep/er', name: 'x.nc', blob });
    expect(added).toMatchObject({ name: 'x.nc', size: 9, sha256: blob.sha256 });
    expect((await listed(people.creator, draft, { path: '/deep/' })).results.map((e) => [e.name, e.is_folder])).toEqual([['er', true]]);
    const opened = await files.openByPath(creator, draft, '/deep/er/x.nc');
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('late data');
    await expect(files.openByPath(await userOf(people.other), draft, '/deep/er/x.nc')).rejects.toBeInstanceOf(AppError);
    await storage.delete(big.key);
  });
});

describe('bad input', () => {
  let id: string;

  beforeAll(async () => {
    id = await draftOf(people.creator);
    await post('/data/createFolder/', people.creator, { metadata_id: id, path: '/', name: 'taken' });
    await post('/data/newfile/', people.creator, { metadata_id: id, path: '/', name: 'file.txt' });
  });

  it('refuses bad names and paths with a clear message in both languages', async () => {
    const bad: [Record<string, string>, string, string][] = [
      [{ path: '/', name: '..' }, 'name', 'A name cannot be "." or "..".'],
      [{ path: '/', name: '.' }, 'name', 'A name cannot be "." or "..".'],
      [{ path: '/', name: 'a/b' }, 'name', 'A name cannot contain a slash.'],
      [{ path: '/', name: 'a\\b' }, 'name', 'A name cannot contain a slash.'],
      [{ path: '/', name: 'a\u0000b' }, 'name', 'The name holds characters that are not allowed.'],
      [{ path: '/', name: '' }, 'name', 'Please enter a name.'],
      [{ path: '/', name: 'x'.repeat(256) }, 'name', 'A name has at most 255 characters.'],
      [{ path: '/taken/../..', name: 'x' }, 'path', 'A path cannot contain "..".'],
    ];
    for (const [fields, field, message] of bad) {
      for (const url of ['/data/createFolder/', '/data/newfile/']) {
        const reply = await post(url, people.creator, { metadata_id: id, ...fields }, { headers: EN });
        // NUL is refused by the portal's text guard before the call, with its own message.
        expect([url, fields.name, reply.statusCode]).toEqual([url, fields.name, 400]);
        if (!fields.name?.includes('\u0000')) expect(reply.json()).toMatchObject({ detail: message, [field]: [message] });
      }
    }
    const zh = await post('/data/createFolder/', people.creator, { metadata_id: id, path: '/', name: '..' }, { headers: { 'accept-language': 'zh-hans' } });
    expect(zh.json().detail).toBe('名称不能是“.”或“..”。');
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/file.txt', to: '/../file.txt' })).statusCode).toBe(400);
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/', to: '/x' })).statusCode).toBe(400);
    expect((await list(people.creator, id, { path: '/a/../b' })).statusCode).toBe(400);
    expect((await post('/data/createFolder/', people.creator, { path: '/', name: 'x' })).statusCode).toBe(400);
  });

  it('answers 404 for a missing folder or entry, and 409 for a name taken by a file or a folder', async () => {
    const missing = await post('/data/createFolder/', people.creator, { metadata_id: id, path: '/nowhere/', name: 'x' }, { headers: EN });
    expect([missing.statusCode, missing.json().detail]).toEqual([404, 'There is no such folder.']);
    expect((await post('/data/newfile/', people.creator, { metadata_id: id, path: '/file.txt/', name: 'x' })).statusCode).toBe(404);
    expect((await list(people.creator, id, { path: '/nowhere' })).statusCode).toBe(404);
    expect((await post('/data/deleteFile/', people.creator, { metadata_id: id, path: '/', name: 'ghost' })).statusCode).toBe(404);
    for (const [url, name] of [
      ['/data/createFolder/', 'taken'],
      ['/data/createFolder/', 'file.txt'],
      ['/data/newfile/', 'taken'],
      ['/data/newfile/', 'file.txt'],
    ] as const) {
      const clash = await post(url, people.creator, { metadata_id: id, path: '/', name }, { headers: EN });
      expect([url, name, clash.statusCode, clash.json().detail]).toEqual([url, name, 409, 'A file or folder of that name exists in this folder already.']);
    }
    const blob = await storage.put(Buffer.from('x'), { maxBytes: 10 });
    await expect(files.addStoredBlob(await userOf(people.creator), { metadataId: id, path: '/file.txt/', name: 'x', blob })).rejects.toMatchObject({
      messageKey: 'fileTree.exists',
    });
    await expect(files.addStoredBlob(await userOf(people.creator), { metadataId: id, path: '/', name: 'taken', blob })).rejects.toMatchObject({
      messageKey: 'fileTree.exists',
    });
    expect(await blobExists(blob.key)).toBe(true);
    await storage.delete(blob.key);
  });
});

describe('delete and move', () => {
  it('deletes a folder with everything under it, rows and blobs, and a file by id; answers the plain text ok', async () => {
    const id = await draftOf(people.creator);
    const kept = await addFile(people.creator, id, '/keep', 'k.txt');
    const inner = await Promise.all([addFile(people.creator, id, '/x', 'a.txt'), addFile(people.creator, id, '/x/y', 'b.txt'), addFile(people.creator, id, '/x/y/z', 'c.txt')]);
    const keys = await Promise.all(inner.map((file) => storageKeyOf(file.id)));
    const reply = await post('/data/deleteFile/', people.creator, { metadata_id: id, path: '/', name: 'x' });
    expect([reply.statusCode, reply.headers['content-type'], reply.body]).toEqual([200, 'text/plain; charset=utf-8', 'ok']);
    for (const key of keys) expect(await blobExists(key)).toBe(false);
    expect((await listed(people.creator, id)).results.map((e) => e.name)).toEqual(['keep']);
    expect(await portal.database.db.selectFrom('meta_folder').select('name').where('metadata_id', '=', id).execute()).toEqual([{ name: 'keep' }]);
    const byId = await post('/data/deleteFile/', people.creator, { metadata_id: id, id: kept.id }, { json: true });
    expect(byId.body).toBe('ok');
    expect(await listed(people.creator, id, { path: '/keep' })).toMatchObject({ count: 0, bytes: 0 });
  });

  it('renames and moves files and folders, taking a folder content along, and refuses a folder into itself', async () => {
    const id = await draftOf(people.creator);
    await addFile(people.creator, id, '/a/b', 'deep.txt', 'deep');
    await addFile(people.creator, id, '/', 'top.txt', 'top');
    const renamed = await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/top.txt', to: '/a/renamed.txt' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'renamed.txt', path: '/a/', is_folder: false });
    await post('/data/createFolder/', people.creator, { metadata_id: id, path: '/', name: 'c' });
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/a', to: '/c/a2' })).statusCode).toBe(200);
    expect((await listed(people.creator, id)).results.map((e) => e.name)).toEqual(['c']);
    expect((await listed(people.creator, id, { path: '/c/a2/b' })).results.map((e) => [e.name, e.path])).toEqual([['deep.txt', '/c/a2/b/']]);
    expect((await listed(people.creator, id, { path: '/c/a2' })).results.map((e) => e.name)).toEqual(['b', 'renamed.txt']);
    const itself = await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/c', to: '/c/a2/c' }, { headers: EN });
    expect([itself.statusCode, itself.json().detail]).toEqual([400, 'A folder cannot be moved into itself.']);
    await post('/data/newfile/', people.creator, { metadata_id: id, path: '/c/', name: 'other.txt' });
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/c/other.txt', to: '/c/a2' })).statusCode).toBe(409);
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/c/other.txt', to: '/nowhere/x' })).statusCode).toBe(404);
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/c/ghost', to: '/c/x' })).statusCode).toBe(404);
    const opened = await files.openByPath(await userOf(people.creator), id, '/c/a2/b/deep.txt');
    expect(opened.size).toBe(4);
    opened.stream.destroy();
  });

  it('puts each file at its path inside a zip of the selection', async () => {
    const id = await draftOf(people.creator);
    const one = await addFile(people.creator, id, '/2020/01', 'day.csv', 'a,b\n');
    const two = await addFile(people.creator, id, '/', 'readme.txt', 'hello');
    const reply = await portal.app.inject({ method: 'GET', url: `/api/data/zip/?files=${one.id},${two.id}`, headers: tokenHeader(people.creator.token) });
    expect(reply.statusCode, reply.body).toBe(200);
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tree-zip-'));
    try {
      await fs.writeFile(path.join(folder, 'data.zip'), reply.rawPayload);
      const names = execFileSync('unzip', ['-Z1', 'data.zip'], { cwd: folder, encoding: 'utf8' }).trim().split('\n');
      const data = names.filter((name) => !name.startsWith('MANIFEST'));
      expect(data).toHaveLength(2);
      expect(data.some((name) => name.endsWith('/2020/01/day.csv'))).toBe(true);
      expect(data.some((name) => /^[^/]+\/readme\.txt$/.test(name))).toBe(true);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});

describe('totals', () => {
  it('stay exact after concurrent uploads and deletes, and only one of several writers of a name wins', async () => {
    const id = await draftOf(people.staff);
    const staff = await userOf(people.staff);
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => addFile(people.staff, id, '/load', `early-${i}.bin`, 'e'.repeat(i + 1))));
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, (_, i) => addFile(people.staff, id, '/load', `late-${i}.bin`, 'l'.repeat(100 + i))),
      ...first.slice(0, 10).map((file) => post('/data/deleteFile/', people.staff, { metadata_id: id, id: file.id })),
    ]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const page = await listed(people.staff, id, { path: '/load', pageSize: '100' });
    const expectedBytes = Array.from({ length: 10 }, (_, i) => i + 11).reduce((a, b) => a + b, 0) + Array.from({ length: 20 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
    expect(page).toMatchObject({ count: 30, bytes: expectedBytes });
    expect(page.results.reduce((sum, e) => sum + e.size, 0)).toBe(expectedBytes);

    const blobs = await Promise.all(Array.from({ length: 6 }, (_, i) => storage.put(Buffer.from(`same ${i}`), { maxBytes: 100 })));
    const racing = await Promise.allSettled(blobs.map((blob) => files.addStoredBlob(staff, { metadataId: id, path: '/race', name: 'same.nc', blob })));
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of racing) if (r.status === 'rejected') expect(r.reason).toMatchObject({ messageKey: 'fileTree.exists' });
    expect(await listed(people.staff, id, { path: '/race' })).toMatchObject({ count: 1 });
  });
});

describe('kept totals', () => {
  /** Each folder's files counted and summed from meta_file, against the kept totals the listing reads (migration 0020). */
  async function totalsAgree(): Promise<void> {
    const db = portal.database.db;
    const summed = await db
      .selectFrom('meta_file')
      .select((eb) => ['metadata_id', 'path', eb.fn.countAll().as('files'), eb.fn.sum<number | string>('size').as('bytes')])
      .groupBy(['metadata_id', 'path'])
      .execute();
    const kept = await db.selectFrom('meta_file_totals').selectAll().where('files', '!=', 0).execute();
    const key = (row: { metadata_id: string; path: string; files: unknown; bytes: unknown }) => `${row.metadata_id} ${row.path} ${Number(row.files)} ${Number(row.bytes)}`;
    expect(kept.map(key).sort()).toEqual(summed.map(key).sort());
    expect(
      await db
        .selectFrom('meta_file_totals')
        .select('path')
        .where((eb) => eb.or([eb('files', '<', 0), eb('bytes', '<', 0)]))
        .execute(),
    ).toEqual([]);
  }

  it('follow every writer: the tree, a move of a folder, deletions, the flat upload, a factory, a record deleted', async () => {
    const id = await draftOf(people.creator);
    await addFile(people.creator, id, '/a/b', 'one.nc', '12345');
    await addFile(people.creator, id, '/a/b', 'two.nc', '123');
    await addFile(people.creator, id, '/a', 'three.nc', '1');
    await buildDataFiles(portal, id, people.creator, [{ name: 'factory.nc', size: 77 }]);
    expect(await listed(people.creator, id)).toMatchObject({ count: 2, bytes: 77 });
    expect(await listed(people.creator, id, { path: '/a/b' })).toMatchObject({ count: 2, bytes: 8 });
    await totalsAgree();
    expect((await post('/data/moveFile/', people.creator, { metadata_id: id, from: '/a', to: '/moved' })).statusCode).toBe(200);
    expect(await listed(people.creator, id, { path: '/moved/b' })).toMatchObject({ count: 2, bytes: 8 });
    expect(await listed(people.creator, id, { path: '/moved' })).toMatchObject({ count: 2, bytes: 1 });
    await totalsAgree();
    expect((await post('/data/deleteFile/', people.creator, { metadata_id: id, path: '/moved', name: 'b' })).statusCode).toBe(200);
    expect(await listed(people.creator, id, { path: '/moved' })).toMatchObject({ count: 1, bytes: 1 });
    await totalsAgree();
    const other = await draftOf(people.creator);
    await addFile(people.creator, other, '/x', 'gone.nc', 'gone');
    await portal.database.db.deleteFrom('metadata').where('id', '=', other).execute();
    await totalsAgree();
    expect(await portal.database.db.selectFrom('meta_file_totals').select('path').where('metadata_id', '=', other).execute()).toEqual([]);
  });
});

describe('records of before', () => {
  it('setRecordStatus keeps the files where they are', async () => {
    const id = await draftOf(people.creator);
    await addFile(people.creator, id, '/', 'a.nc');
    await setRecordStatus(portal, id, 'published');
    expect((await listed(null, id)).results.map((e) => [e.name, e.path])).toEqual([['a.nc', '/']]);
  });
});
