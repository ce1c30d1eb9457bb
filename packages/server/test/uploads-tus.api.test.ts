import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, buildUsers, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { blobsInStore, listedNames, partsInUploadArea, sha256, sourceBytes, storedSha256, tusCreate, tusDelete, tusHead, tusPatch, TUS, uploadRows } from './uploads-builders.js';
import { portalProcess, type PortalProcess } from './uploads-crash.js';

/** tus 1.0 at /api/data/tus/ (issue 19): creation, checksum, termination and expiration, and the rules every upload keeps. */
let portal: TestPortal;
let people: Record<'creator' | 'other' | 'staff', Person>;
beforeAll(async () => {
  portal = await createTestPortal({ env: { USER_STORAGE_QUOTA_MB: '1' } });
  people = await buildUsers(portal, { creator: {}, other: {}, staff: { staff: true } });
}, 60_000);
afterAll(async () => {
  await portal?.close();
});

const fileName = () => `series-${randomUUID().slice(0, 8)}.nc`;
const digest = (algorithm: string, bytes: Buffer) => `${algorithm} ${createHash(algorithm).update(bytes).digest('base64')}`;

async function created(token: string, record: string, length: number, metadata: Record<string, string> = {}): Promise<string> {
  const reply = await tusCreate(portal, token, length, { metadata: record, filename: fileName(), path: '/', ...metadata });
  if (reply.statusCode !== 201) throw new Error(`expected 201, got ${reply.statusCode}: ${reply.body}`);
  return String(reply.headers.location);
}

describe('tus', () => {
  it('answers OPTIONS with its version, extensions, checksums and largest size, without a sign-in', async () => {
    const reply = await portal.app.inject({ method: 'OPTIONS', url: '/api/data/tus/' });
    expect(reply.statusCode).toBe(204);
    expect(reply.headers['tus-resumable']).toBe('1.0.0');
    expect(reply.headers['tus-version']).toBe('1.0.0');
    expect(String(reply.headers['tus-extension']).split(',')).toEqual(expect.arrayContaining(['creation', 'expiration', 'checksum', 'termination']));
    expect(reply.headers['tus-checksum-algorithm']).toBe('sha1,md5,sha256');
    expect(reply.headers['tus-max-size']).toBe(String(50 * 1024 ** 3));
  });

  it('creates an upload, resumes it from the offset HEAD tells after a stop, and lists the file with its SHA-256', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(300_000);
    const name = fileName();
    const creation = await tusCreate(portal, people.creator.token, source.length, { metadata: record, filename: name, path: '/raw/', sha256: sha256(source) });
    expect(creation.statusCode).toBe(201);
    const location = String(creation.headers.location);
    expect(location).toMatch(/^\/api\/data\/tus\/[0-9a-f-]{36}$/);
    expect(new Date(String(creation.headers['upload-expires'])).getTime()).toBeGreaterThan(Date.now());

    const first = await tusPatch(portal, people.creator.token, location, 0, source.subarray(0, 100_000));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('100000');
    // The client stopped; it asks where to go on.
    const head = await tusHead(portal, people.creator.token, location);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('100000');
    expect(head.headers['upload-length']).toBe(String(source.length));
    expect(head.headers['cache-control']).toBe('no-store');
    // A write at another offset is refused.
    const wrong = await tusPatch(portal, people.creator.token, location, 50_000, source.subarray(50_000, 60_000));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().detail).toBe('The upload holds 100000 bytes; continue from there.');
    expect(await listedNames(portal, record)).toEqual([]);

    const rest = await tusPatch(portal, people.creator.token, location, 100_000, source.subarray(100_000));
    expect(rest.statusCode).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(source.length));
    expect(await listedNames(portal, record)).toEqual([name]);
    expect(await storedSha256(portal, record, name)).toBe(sha256(source));
    expect((await tusHead(portal, people.creator.token, location)).statusCode).toBe(404);
    expect(await uploadRows(portal, record)).toBe(0);
  });

  it('checks each part against its Upload-Checksum: a wrong one is refused with 460 and not kept', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(2000);
    const location = await created(people.creator.token, record, source.length);
    const part = source.subarray(0, 1000);
    const wrong = await tusPatch(portal, people.creator.token, location, 0, part, { 'upload-checksum': digest('sha1', Buffer.from('something else')) });
    expect(wrong.statusCode).toBe(460);
    expect(wrong.json().detail).toBe('The part does not match its checksum; it was not kept.');
    expect((await tusHead(portal, people.creator.token, location)).headers['upload-offset']).toBe('0');
    const unknown = await tusPatch(portal, people.creator.token, location, 0, part, { 'upload-checksum': 'crc32 AAAA' });
    expect(unknown.statusCode).toBe(400);
    expect((await tusPatch(portal, people.creator.token, location, 0, part, { 'upload-checksum': digest('sha1', part) })).statusCode).toBe(204);
    const last = source.subarray(1000);
    expect((await tusPatch(portal, people.creator.token, location, 1000, last, { 'upload-checksum': digest('sha256', last) })).statusCode).toBe(204);
    expect((await listedNames(portal, record)).length).toBe(1);
    expect(await storedSha256(portal, record, (await listedNames(portal, record))[0]!)).toBe(sha256(source));
  });

  it('refuses a whole file that does not match its declared sha256: nothing is listed, nothing is left', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(5000);
    const blobsBefore = await blobsInStore(portal.config.dataDir);
    const location = await created(people.creator.token, record, source.length, { sha256: sha256('another file') });
    const reply = await tusPatch(portal, people.creator.token, location, 0, source);
    expect(reply.statusCode).toBe(460);
    expect(reply.json().detail).toBe('The uploaded file does not match its SHA-256; nothing was stored.');
    expect(await listedNames(portal, record)).toEqual([]);
    expect(await uploadRows(portal, record)).toBe(0);
    expect(await partsInUploadArea(portal)).toEqual([]);
    expect(await blobsInStore(portal.config.dataDir)).toEqual(blobsBefore);
  });

  it('drops a finished upload the files module refuses (a name taken in the folder meanwhile): nothing half-stored', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const first = await created(people.creator.token, record, 10, { filename: 'same.nc' });
    const second = await created(people.creator.token, record, 10, { filename: 'same.nc' });
    expect((await tusPatch(portal, people.creator.token, first, 0, sourceBytes(10))).statusCode).toBe(204);
    const blobsBefore = await blobsInStore(portal.config.dataDir);
    const refused = await tusPatch(portal, people.creator.token, second, 0, sourceBytes(10));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('A file or folder of that name exists in this folder already.');
    expect(await listedNames(portal, record)).toEqual(['same.nc']);
    expect(await blobsInStore(portal.config.dataDir)).toEqual(blobsBefore);
    expect(await uploadRows(portal, record)).toBe(0);
    expect((await tusHead(portal, people.creator.token, second)).statusCode).toBe(404);
  });

  it('refuses data past the declared length, and a PATCH that is not application/offset+octet-stream or speaks no tus version', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const location = await created(people.creator.token, record, 100);
    const tooLong = await tusPatch(portal, people.creator.token, location, 0, sourceBytes(101));
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json().detail).toBe('The data reaches past the declared size of the upload.');
    // Nothing past the length was written (the piece that crossed it is dropped whole), and nothing was listed.
    expect(Number((await tusHead(portal, people.creator.token, location)).headers['upload-offset'])).toBeLessThan(100);
    expect(await listedNames(portal, record)).toEqual([]);
    const location2 = await created(people.creator.token, record, 100);
    expect((await tusPatch(portal, people.creator.token, location2, 0, sourceBytes(10), { 'content-type': 'application/octet-stream' })).statusCode).toBe(415);
    const noVersion = await tusPatch(portal, people.creator.token, location2, 0, sourceBytes(10), { 'tus-resumable': '0.2.2' });
    expect(noVersion.statusCode).toBe(412);
    expect(noVersion.headers['tus-version']).toBe('1.0.0');
    await tusDelete(portal, people.creator.token, location);
    await tusDelete(portal, people.creator.token, location2);
  });
});

describe('who may use tus', () => {
  it('the creator and staff create uploads into a draft; anonymous callers and another user do not, nor touch the creator’s upload', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    expect((await tusCreate(portal, null, 10, { metadata: record, filename: fileName() })).statusCode).toBe(401);
    expect([403, 404]).toContain((await tusCreate(portal, people.other.token, 10, { metadata: record, filename: fileName() })).statusCode);

    const location = await created(people.creator.token, record, 10);
    for (const person of [people.other, people.staff]) {
      const head = await tusHead(portal, person.token, location);
      expect(head.statusCode).toBe(403);
      const patch = await tusPatch(portal, person.token, location, 0, sourceBytes(10));
      expect(patch.statusCode).toBe(403);
      expect(patch.json().detail).toBe('This upload belongs to another account.');
      expect((await tusDelete(portal, person.token, location)).statusCode).toBe(403);
    }
    expect((await tusHead(portal, null, location)).statusCode).toBe(401);
    expect((await tusHead(portal, people.creator.token, location)).headers['upload-offset']).toBe('0');

    const staffUpload = await created(people.staff.token, record, 10);
    expect((await tusPatch(portal, people.staff.token, staffUpload, 0, sourceBytes(10))).statusCode).toBe(204);
    expect(await listedNames(portal, record)).toHaveLength(1);
    await tusDelete(portal, people.creator.token, location);
  });

  it('serves a browser signed in by its cookie when it repeats csrftoken in X-CSRFToken, as every other call', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const location = await created(people.creator.token, record, 10);
    const cookie = { cookie: `token=${people.creator.token}; csrftoken=${'c'.repeat(48)}` };
    const withoutHeader = await portal.app.inject({
      method: 'PATCH',
      url: location,
      headers: { ...cookie, ...TUS, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      payload: sourceBytes(10),
    });
    expect(withoutHeader.statusCode).toBe(403);
    expect((await tusHead(portal, people.creator.token, location)).headers['upload-offset']).toBe('0');
    const withHeader = await portal.app.inject({
      method: 'PATCH',
      url: location,
      headers: { ...cookie, 'x-csrftoken': 'c'.repeat(48), ...TUS, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      payload: sourceBytes(10),
    });
    expect(withHeader.statusCode).toBe(204);
    expect(await listedNames(portal, record)).toHaveLength(1);
  });

  it('refuses uploads into a published record to its creator', async () => {
    const record = await buildRecord(portal, { owner: people.creator, status: 'published' });
    const reply = await tusCreate(portal, people.creator.token, 10, { metadata: record, filename: fileName() });
    expect(reply.statusCode).toBeGreaterThanOrEqual(400);
    expect(reply.statusCode).toBeLessThan(500);
    expect(await uploadRows(portal, record)).toBe(0);
  });
});

describe('what tus refuses before a byte is kept', () => {
  it("a declared 51 GB file with the spec's message, a file over the quota, '..' in the folder, NUL or a slash in a name, missing metadata", async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const huge = await tusCreate(portal, people.staff.token, 51 * 1024 ** 3, { metadata: record, filename: fileName() });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().detail).toBe('Files over 50GB must be compressed before upload.');
    const hugeZh = await tusCreate(portal, people.creator.token, 51 * 1024 ** 3, { metadata: record, filename: fileName() }, { 'accept-language': 'zh-hans' });
    expect(hugeZh.json().detail).toBe('超过 50GB 的文件须压缩后再上传。');
    const quota = await tusCreate(portal, people.creator.token, 2 * 1024 * 1024, { metadata: record, filename: fileName() });
    expect(quota.statusCode).toBe(413);
    expect(quota.json().detail).toMatch(/at most 1 MB/);
    const dots = await tusCreate(portal, people.creator.token, 10, { metadata: record, filename: fileName(), path: '/a/../../' });
    expect(dots.statusCode).toBe(400);
    expect(dots.json().detail).toBe('A path cannot contain "..".');
    const nul = await tusCreate(portal, people.creator.token, 10, { metadata: record, filename: 'a\u0000.nc' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().detail).toBe('The name holds characters that are not allowed.');
    const slash = await tusCreate(portal, people.creator.token, 10, { metadata: record, filename: 'a/b.nc' });
    expect([slash.statusCode, slash.json().detail]).toEqual([400, 'A name cannot contain a slash.']);
    const nulRecord = await tusCreate(portal, people.creator.token, 10, { metadata: `${record}\u0000`, filename: fileName() });
    expect(nulRecord.statusCode).toBe(400);
    const noName = await tusCreate(portal, people.creator.token, 10, { metadata: record });
    expect(noName.statusCode).toBe(400);
    const noLength = await tusCreate(portal, people.creator.token, 'ten', { metadata: record, filename: fileName() });
    expect(noLength.statusCode).toBe(400);
    expect(noLength.json().detail).toBe('Upload-Length must be the whole number of bytes of the file.');
    const badSha = await tusCreate(portal, people.creator.token, 10, { metadata: record, filename: fileName(), sha256: 'abc' });
    expect(badSha.statusCode).toBe(400);
    expect(await uploadRows(portal, record)).toBe(0);
  });

  it('counts uploads under way against the quota', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const first = await created(people.creator.token, record, 600 * 1024);
    const second = await tusCreate(portal, people.creator.token, 600 * 1024, { metadata: record, filename: fileName() }, EN);
    expect(second.statusCode).toBe(413);
    expect((await tusDelete(portal, people.creator.token, first)).statusCode).toBe(204);
    expect((await tusHead(portal, people.creator.token, first)).statusCode).toBe(404);
    const third = await created(people.creator.token, record, 600 * 1024);
    await tusDelete(portal, people.creator.token, third);
    expect(await partsInUploadArea(portal, record)).toEqual([]);
  });
});

describe('abandoned tus uploads', () => {
  it('expire after UPLOAD_EXPIRY_HOURS without a write, and their parts are swept', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const location = await created(people.creator.token, record, 1000);
    expect((await tusPatch(portal, people.creator.token, location, 0, sourceBytes(400))).statusCode).toBe(204);
    expect(await portal.uploads.expire(Date.now())).toBe(0);
    expect(await portal.uploads.expire(Date.now() + 25 * 3600_000)).toBeGreaterThanOrEqual(1);
    expect((await tusHead(portal, people.creator.token, location)).statusCode).toBe(404);
    expect((await tusPatch(portal, people.creator.token, location, 400, sourceBytes(600))).statusCode).toBe(404);
    expect(await partsInUploadArea(portal)).toEqual([]);
  });
});

/** The stored file's row, read from the killed process's own database (SQLite or PostgreSQL). */
async function fileRowOf(server: PortalProcess): Promise<unknown> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT name, size, sha256 FROM meta_file WHERE metadata_id = $1', [server.record]);
      return rows.map((row: { name: string; size: string | number; sha256: string }) => ({ ...row, size: Number(row.size) }))[0];
    } finally {
      await client.end();
    }
  }
  const database = new SQLite(path.join(server.dataDir, 'portal.sqlite3'), { readonly: true });
  try {
    return database.prepare('SELECT name, size, sha256 FROM meta_file WHERE metadata_id = ?').get(server.record);
  } finally {
    database.close();
  }
}

// On both databases: the process runs on a database of its own (its SQLite file, or a fresh PostgreSQL database).
describe('a crash in the middle of an upload', () => {
  it('kill -9 of the server mid-upload, a restart, and tus-js-client resumes: the stored file is the source, byte for byte', async () => {
    const server = await portalProcess();
    try {
      await server.start();
      const source = sourceBytes(64 * 1024 * 1024);
      const offsetsAfterRestart: number[] = [];
      let crashed: Promise<void> | undefined;
      await new Promise<void>((resolve, reject) => {
        const upload = new tus.Upload(source, {
          endpoint: `${server.base}/api/data/tus/`,
          headers: { Authorization: `Token ${server.token}` },
          metadata: { metadata: server.record, filename: 'crash.bin', path: '/', sha256: sha256(source) },
          // Long enough for the restart (tsx compiles the server again).
          retryDelays: [500, 1000, 2000, 3000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000],
          onProgress(sent) {
            if (!crashed && sent > source.length * 0.4) crashed = server.kill().then(() => server.start());
          },
          onAfterResponse(request, response) {
            if (request.getMethod() === 'HEAD') offsetsAfterRestart.push(Number(response.getHeader('Upload-Offset')));
          },
          onSuccess: () => resolve(),
          onError: (error) => reject(error),
        });
        upload.start();
      });
      expect(crashed).toBeDefined();
      // It resumed from what the killed process had written, not from the start.
      expect(offsetsAfterRestart.some((offset) => offset > 0 && offset < source.length)).toBe(true);
      await server.stop();
      const blobs = await blobsInStore(server.dataDir);
      expect(blobs).toHaveLength(1);
      expect(sha256(await fs.readFile(blobs[0]!))).toBe(sha256(source));
      expect(await fileRowOf(server)).toEqual({ name: 'crash.bin', size: source.length, sha256: sha256(source) });
    } finally {
      await server.stop();
      await server.remove();
    }
  }, 180_000);
});
