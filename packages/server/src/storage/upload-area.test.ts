import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError } from './blob-store.js';
import { LocalDiskStore } from './local-disk-store.js';
import { ChecksumMismatchError } from './upload-area.js';

let root: string;
let store: LocalDiskStore;
const id = '0123456789abcdef0123456789abcdef';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest();

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'upload-area-'));
  store = new LocalDiskStore(path.join(root, 'files'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('the upload area', () => {
  it('appends parts in order, hashing as they stream, and moves the whole file into the blob store', async () => {
    const source = randomBytes(300_000);
    await store.uploads.create(id);
    expect(await store.uploads.size(id)).toBe(0);
    expect(await store.uploads.write(id, 0, Readable.from([source.subarray(0, 100_000)]), { maxBytes: 300_000, onFailure: 'keep' })).toBe(100_000);
    expect(await store.uploads.write(id, 100_000, Readable.from([source.subarray(100_000)]), { maxBytes: 200_000, onFailure: 'keep' })).toBe(200_000);
    expect(await store.uploads.size(id)).toBe(300_000);
    const blob = await store.uploads.complete(id, 300_000);
    expect(blob).toMatchObject({ size: 300_000, sha256: sha256(source) });
    expect(Buffer.compare(await fs.readFile(path.join(store.root, blob.key.slice(0, 2), blob.key)), source)).toBe(0);
    expect(await store.uploads.list()).toEqual([]);
  });

  it('takes chunks out of order, and a restart (a new store on the same folder) that forgot the running hash', async () => {
    const source = randomBytes(3 * 1024);
    await store.uploads.create(id);
    for (const n of [2, 0]) await store.uploads.write(id, n * 1024, Readable.from([source.subarray(n * 1024, (n + 1) * 1024)]), { maxBytes: 1024, onFailure: 'keep' });
    const restarted = new LocalDiskStore(store.root);
    await restarted.uploads.write(id, 1024, Readable.from([source.subarray(1024, 2048)]), { maxBytes: 1024, onFailure: 'keep' });
    expect((await restarted.uploads.complete(id, source.length)).sha256).toBe(sha256(source));
  });

  it('hashes parts out of order once the bytes before them are in, and a part written again as it is last written', async () => {
    const source = randomBytes(4 * 1024);
    const put = (n: number, bytes: Buffer) => store.uploads.write(id, n * 1024, Readable.from([bytes]), { maxBytes: 1024, onFailure: 'keep' });
    await store.uploads.create(id);
    for (const n of [1, 0, 3, 2]) await put(n, source.subarray(n * 1024, (n + 1) * 1024));
    const other = randomBytes(1024);
    await put(1, other);
    other.copy(source, 1024);
    expect((await store.uploads.complete(id, source.length)).sha256).toBe(sha256(source));
  });

  it('refuses a part that does not match its checksum and cuts the file back; a matching one counts', async () => {
    const part = randomBytes(5000);
    await store.uploads.create(id);
    const wrong = { algorithm: 'sha1' as const, digest: sha1(Buffer.from('other')) };
    await expect(store.uploads.write(id, 0, Readable.from([part]), { maxBytes: 10_000, onFailure: 'truncate', checksum: wrong })).rejects.toBeInstanceOf(ChecksumMismatchError);
    expect(await store.uploads.size(id)).toBe(0);
    await store.uploads.write(id, 0, Readable.from([part]), { maxBytes: 10_000, onFailure: 'truncate', checksum: { algorithm: 'sha1', digest: sha1(part) } });
    expect((await store.uploads.complete(id, 5000)).sha256).toBe(sha256(part));
  });

  it('keeps what arrived of a part whose source failed (tus resumes after it), and refuses bytes over the limit', async () => {
    await store.uploads.create(id);
    const source = new PassThrough();
    const writing = store.uploads.write(id, 0, source, { maxBytes: 1_000_000, onFailure: 'keep' });
    source.write(Buffer.alloc(4096, 1));
    // Until the bytes are in the file (a bounded wait, not a measure of time).
    for (let i = 0; i < 1000 && ((await store.uploads.size(id)) ?? 0) < 4096; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    source.destroy(new Error('connection lost'));
    await expect(writing).rejects.toThrow('connection lost');
    expect(await store.uploads.size(id)).toBe(4096);
    await expect(store.uploads.write(id, 4096, Readable.from([Buffer.alloc(11)]), { maxBytes: 10, onFailure: 'keep' })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store.uploads.size(id)).toBe(4096);
  });

  it('refuses to complete a file of another size, lists and discards parts, and refuses what is no upload id', async () => {
    await store.uploads.create(id);
    await store.uploads.write(id, 0, Readable.from([Buffer.alloc(10)]), { maxBytes: 10, onFailure: 'keep' });
    await expect(store.uploads.complete(id, 11)).rejects.toThrow();
    expect((await store.uploads.list()).map((part) => part.id)).toEqual([id]);
    await store.uploads.discard(id);
    await store.uploads.discard(id);
    expect(await store.uploads.list()).toEqual([]);
    expect(await store.uploads.size(id)).toBeUndefined();
    await expect(store.uploads.create('../../etc/passwd')).rejects.toThrow();
  });
});
