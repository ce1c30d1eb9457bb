import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { buildRecord, buildUsers, type Person } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';
import { expectStatus } from './metadata-builders.js';
import {
  blobsInStore,
  checkChunk,
  chunkCount,
  chunkOf,
  listedNames,
  partsInUploadArea,
  sendChunk,
  sha256,
  sourceBytes,
  storedSha256,
  uploadRows,
  type ChunkLayout,
} from './uploads-builders.js';

/**
 * The spec's chunked upload (issue 19): `/data/upload-chunked/` with simple-uploader.js's fields and
 * `/data/chunk/` telling which chunks the server holds, so that a client resumes where it stopped.
 */
let portal: TestPortal;
let people: Record<'creator' | 'other' | 'staff', Person>;
beforeAll(async () => {
  // 1 MB of quota: enough for the small files here, not for the quota's test.
  portal = await createTestPortal({ env: { USER_STORAGE_QUOTA_MB: '1' } });
  people = await buildUsers(portal, { creator: {}, other: {}, staff: { staff: true } });
}, 60_000);
afterAll(async () => {
  await portal?.close();
});

const layoutFor = (metadataId: string, totalSize: number, fields: Partial<ChunkLayout> = {}): ChunkLayout => ({
  identifier: `${totalSize}-${randomUUID()}`,
  filename: `data-${randomUUID().slice(0, 8)}.nc`,
  metadataId,
  chunkSize: 64 * 1024,
  totalSize,
  ...fields,
});

describe('a chunked upload', () => {
  it('resumes after a stop: the chunk check tells what is held, the rest is sent, and the file is listed whole once all are in', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    // 3 chunks of 64 KiB, the last with the rest (64 KiB + 1000 bytes).
    const source = sourceBytes(4 * 64 * 1024 - 64 * 1024 + 1000);
    const layout = layoutFor(record, source.length, { path: '/raw/2024/' });
    expect(chunkCount(layout)).toBe(3);

    // Chunks 1 and 3 arrive, then the client stops (a closed tab).
    for (const n of [1, 3]) expect(expectStatus(await sendChunk(portal, people.creator.token, layout, n, chunkOf(source, layout, n)), 200)).toEqual({ done: false });
    expect(await listedNames(portal, record)).toEqual([]);

    // The client comes back and asks chunk by chunk.
    expect((await checkChunk(portal, people.creator.token, layout, 1)).statusCode).toBe(200);
    expect((await checkChunk(portal, people.creator.token, layout, 2)).statusCode).toBe(204);
    expect((await checkChunk(portal, people.creator.token, layout, 3)).statusCode).toBe(200);

    const last = expectStatus(await sendChunk(portal, people.creator.token, layout, 2, chunkOf(source, layout, 2)), 200);
    expect(last.done).toBe(true);
    expect(last.file).toMatchObject({ name: layout.filename, size: source.length, sha256: sha256(source) });
    expect(await listedNames(portal, record)).toEqual([layout.filename]);
    expect(await storedSha256(portal, record, layout.filename)).toBe(sha256(source));
    // Nothing of the upload is left: no row, no part.
    expect(await uploadRows(portal)).toBe(0);
    expect(await partsInUploadArea(portal)).toEqual([]);
  });

  it('takes a chunk sent again, and a one-chunk file', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(10_000);
    const layout = layoutFor(record, source.length);
    expect(chunkCount(layout)).toBe(1);
    const reply = expectStatus(await sendChunk(portal, people.creator.token, layout, 1, source), 200);
    expect(reply.file.sha256).toBe(sha256(source));

    const twice = layoutFor(record, 3 * 1024, { chunkSize: 1024 });
    const bytes = sourceBytes(3 * 1024);
    expectStatus(await sendChunk(portal, people.creator.token, twice, 1, chunkOf(bytes, twice, 1)), 200);
    expectStatus(await sendChunk(portal, people.creator.token, twice, 1, chunkOf(bytes, twice, 1)), 200);
    expectStatus(await sendChunk(portal, people.creator.token, twice, 2, chunkOf(bytes, twice, 2)), 200);
    expect(expectStatus(await sendChunk(portal, people.creator.token, twice, 3, chunkOf(bytes, twice, 3)), 200).done).toBe(true);
    expect(await storedSha256(portal, record, twice.filename)).toBe(sha256(bytes));
  });
});

describe('who may send chunks', () => {
  it('refuses anonymous callers and another user; staff may upload into a draft, but not into the creator’s upload', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(2048);
    const layout = layoutFor(record, source.length, { chunkSize: 1024 });

    expect((await sendChunk(portal, null, layout, 1, chunkOf(source, layout, 1))).statusCode).toBe(401);
    expect((await checkChunk(portal, null, layout, 1)).statusCode).toBe(401);
    const other = await sendChunk(portal, people.other.token, layout, 1, chunkOf(source, layout, 1));
    expect([403, 404]).toContain(other.statusCode);
    expect([403, 404]).toContain((await checkChunk(portal, people.other.token, layout, 1)).statusCode);
    expect(await uploadRows(portal, record)).toBe(0);

    // The creator starts; staff cannot add to, nor ask about, the creator's identifier.
    expectStatus(await sendChunk(portal, people.creator.token, layout, 1, chunkOf(source, layout, 1)), 200);
    const staffChunk = await sendChunk(portal, people.staff.token, layout, 2, chunkOf(source, layout, 2));
    expect(staffChunk.statusCode).toBe(403);
    expect(staffChunk.json().detail).toBe('This upload belongs to another account.');
    expect((await checkChunk(portal, people.staff.token, layout, 1)).statusCode).toBe(403);
    expect(expectStatus(await sendChunk(portal, people.creator.token, layout, 2, chunkOf(source, layout, 2)), 200).done).toBe(true);

    // Staff's own upload into the creator's draft.
    const staffLayout = layoutFor(record, source.length, { chunkSize: 1024 });
    expectStatus(await sendChunk(portal, people.staff.token, staffLayout, 1, chunkOf(source, staffLayout, 1)), 200);
    expect(expectStatus(await sendChunk(portal, people.staff.token, staffLayout, 2, chunkOf(source, staffLayout, 2)), 200).done).toBe(true);
    expect(await listedNames(portal, record)).toEqual([layout.filename, staffLayout.filename].sort());
  });

  it('refuses chunks into a record the creator may no longer change', async () => {
    const record = await buildRecord(portal, { owner: people.creator, status: 'published' });
    const layout = layoutFor(record, 1024);
    const reply = await sendChunk(portal, people.creator.token, layout, 1, sourceBytes(1024));
    expect(reply.statusCode).toBeGreaterThanOrEqual(400);
    expect(reply.statusCode).toBeLessThan(500);
    expect(await uploadRows(portal, record)).toBe(0);
  });
});

describe('bad chunks', () => {
  it('refuses a chunk number out of range, sizes that do not fit and a short chunk, keeping nothing of them', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(3 * 1024);
    const layout = layoutFor(record, source.length, { chunkSize: 1024 });

    for (const n of [0, 4]) {
      const reply = await sendChunk(portal, people.creator.token, layout, n, chunkOf(source, layout, 1), { fields: { currentChunkSize: '1024' } });
      expect(reply.statusCode).toBe(400);
      expect(reply.json().detail).toBe('The chunk number must be between 1 and 3.');
    }
    const layoutMismatch = await sendChunk(portal, people.creator.token, layout, 1, chunkOf(source, layout, 1), { fields: { totalChunks: '7' } });
    expect(layoutMismatch.statusCode).toBe(400);
    expect(layoutMismatch.json().detail).toBe('totalChunks does not fit totalSize and chunkSize.');
    const announced = await sendChunk(portal, people.creator.token, layout, 1, chunkOf(source, layout, 1), { fields: { currentChunkSize: '1000' } });
    expect(announced.statusCode).toBe(400);
    expect(announced.json().detail).toBe('The chunk has 1000 bytes where 1024 were announced.');
    // The body holds fewer bytes than announced: the chunk does not count.
    const short = await sendChunk(portal, people.creator.token, layout, 1, source.subarray(0, 1000), { fields: { currentChunkSize: '1024' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().detail).toBe('The chunk has 1000 bytes where 1024 were announced.');
    expect((await checkChunk(portal, people.creator.token, layout, 1)).statusCode).toBe(204);
    // More bytes than announced.
    const long = await sendChunk(portal, people.creator.token, layout, 1, Buffer.concat([chunkOf(source, layout, 1), Buffer.from('x')]), { fields: { currentChunkSize: '1024' } });
    expect(long.statusCode).toBe(400);
    expect((await checkChunk(portal, people.creator.token, layout, 1)).statusCode).toBe(204);
  });

  it('checks the whole file against the sha256 field when the last chunk is in: a wrong one stores nothing, in either language; a malformed one is refused at once', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(2048);
    const layout = layoutFor(record, source.length, { chunkSize: 1024 });
    const other = sha256(Buffer.from('another file'));
    expect((await sendChunk(portal, people.creator.token, layout, 1, chunkOf(source, layout, 1), { fields: { sha256: other } })).statusCode).toBe(200);
    const last = await sendChunk(portal, people.creator.token, layout, 2, chunkOf(source, layout, 2), { headers: { 'accept-language': 'zh-hans' } });
    expect(last.statusCode).toBe(460);
    expect(last.json().detail).toBe(translate('zh-hans', 'uploads.sha256Mismatch'));
    expect(await listedNames(portal, record)).toEqual([]);
    expect(await uploadRows(portal, record)).toBe(0);
    expect(await partsInUploadArea(portal, record)).toEqual([]);
    const malformed = await sendChunk(portal, people.creator.token, { ...layout, identifier: 'malformed' }, 1, chunkOf(source, layout, 1), { fields: { sha256: 'abc' } });
    expect([malformed.statusCode, malformed.json().detail]).toEqual([400, translate('en', 'uploads.sha256')]);
    // The right one: the file is listed.
    const right = { ...layout, identifier: 'right' };
    expect((await sendChunk(portal, people.creator.token, right, 1, chunkOf(source, layout, 1), { fields: { sha256: sha256(source) } })).statusCode).toBe(200);
    expect((await sendChunk(portal, people.creator.token, right, 2, chunkOf(source, layout, 2))).json()).toMatchObject({ done: true });
    expect(await storedSha256(portal, record, layout.filename)).toBe(sha256(source));
  });

  it("refuses '..' in the folder and NUL in the name before a byte is kept, in the caller's language", async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const dots = await sendChunk(portal, people.creator.token, layoutFor(record, 1024, { path: '/a/../../etc/' }), 1, sourceBytes(1024));
    expect(dots.statusCode).toBe(400);
    expect(dots.json().detail).toBe('A path cannot contain "..".');
    const nul = await sendChunk(portal, people.creator.token, layoutFor(record, 1024, { filename: 'a\u0000b.nc' }), 1, sourceBytes(1024));
    expect(nul.statusCode).toBe(400);
    const slash = await sendChunk(portal, people.creator.token, layoutFor(record, 1024, { filename: 'a/b.nc' }), 1, sourceBytes(1024), {
      headers: { 'accept-language': 'zh-hans' },
    });
    expect(slash.statusCode).toBe(400);
    expect(slash.json().detail).toBe('名称不能包含斜杠。');
    expect(await uploadRows(portal, record)).toBe(0);
  });

  it('refuses a declared 51 GB file with the spec’s message, and a file over the quota, before a byte is kept', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const huge = layoutFor(record, 51 * 1024 ** 3, { chunkSize: 1024 ** 3 });
    const english = await sendChunk(portal, people.creator.token, huge, 1, sourceBytes(1024), { fields: { currentChunkSize: String(1024 ** 3) } });
    expect(english.statusCode).toBe(413);
    expect(english.json().detail).toBe('Files over 50GB must be compressed before upload.');
    const chinese = await sendChunk(portal, people.staff.token, huge, 1, sourceBytes(1024), {
      fields: { currentChunkSize: String(1024 ** 3) },
      headers: { 'accept-language': 'zh-hans' },
    });
    expect(chinese.statusCode).toBe(413);
    expect(chinese.json().detail).toBe('超过 50GB 的文件须压缩后再上传。');

    // 1 MB of quota: a 2 MB file is refused at its first chunk; staff are exempt.
    const over = layoutFor(record, 2 * 1024 * 1024, { chunkSize: 1024 * 1024 });
    const refused = await sendChunk(portal, people.creator.token, over, 1, sourceBytes(1024 * 1024));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().detail).toMatch(/at most 1 MB/);
    expect(await uploadRows(portal, record)).toBe(0);
  });

  it('refuses the same identifier with another file', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const layout = layoutFor(record, 2048, { chunkSize: 1024 });
    expectStatus(await sendChunk(portal, people.creator.token, layout, 1, sourceBytes(1024)), 200);
    const changed = await sendChunk(portal, people.creator.token, { ...layout, filename: 'other.nc' }, 2, sourceBytes(1024));
    expect(changed.statusCode).toBe(409);
    expect((await sendChunk(portal, people.creator.token, { ...layout, path: '/elsewhere/' }, 2, sourceBytes(1024))).statusCode).toBe(409);
    expect((await sendChunk(portal, people.creator.token, { ...layout, totalSize: 3072 }, 2, sourceBytes(1024))).statusCode).toBe(409);
  });
});

describe('abandoned chunked uploads', () => {
  it('expire after UPLOAD_EXPIRY_HOURS without a write: the sweep removes their rows and parts', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const source = sourceBytes(2048);
    const layout = layoutFor(record, source.length, { chunkSize: 1024 });
    expectStatus(await sendChunk(portal, people.creator.token, layout, 1, chunkOf(source, layout, 1)), 200);
    const blobsBefore = await blobsInStore(portal.config.dataDir);
    // Not yet expired: nothing is swept.
    expect(await portal.uploads.expire(Date.now())).toBe(0);
    expect(await partsInUploadArea(portal, record)).toHaveLength(1);
    // A day later (the default expiry is 24 hours): this upload and what the refusals above left declared.
    expect(await portal.uploads.expire(Date.now() + 25 * 3600_000)).toBeGreaterThanOrEqual(1);
    expect(await uploadRows(portal)).toBe(0);
    expect(await partsInUploadArea(portal)).toEqual([]);
    expect((await checkChunk(portal, people.creator.token, layout, 1)).statusCode).toBe(204);
    expect(await blobsInStore(portal.config.dataDir)).toEqual(blobsBefore);
  });

  it('sweeps a part whose row is gone (a process killed between the two) once it is as old as the expiry', async () => {
    const stray = path.join(portal.config.dataDir, 'files', 'uploads', `${randomUUID()}.part`);
    await fs.writeFile(stray, 'left behind');
    expect(await portal.uploads.expire(Date.now())).toBe(0);
    expect(await portal.uploads.expire(Date.now() + 25 * 3600_000)).toBe(1);
    expect(await partsInUploadArea(portal)).toEqual([]);
  });
});
