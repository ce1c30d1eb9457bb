import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError, isBlobKey } from './blob-store.js';
import { LocalDiskStore } from './local-disk-store.js';

let root: string;
let store: LocalDiskStore;

/** Every file under the root, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `count` chunks of `size` bytes each, produced lazily. */
function chunks(count: number, size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === count) return this.push(null);
      sent += 1;
      this.push(Buffer.alloc(size, 0x61));
    },
  });
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-store-'));
  store = new LocalDiskStore(path.join(root, 'files'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('LocalDiskStore', () => {
  it('keeps a stream under a new random key with its size and SHA-256', async () => {
    const blob = await store.put(Readable.from(['hello ', 'world']), { maxBytes: 100 });
    expect(isBlobKey(blob.key)).toBe(true);
    expect(blob.size).toBe(11);
    expect(blob.sha256).toBe(sha256('hello world'));
    expect(await filesUnder(store.root)).toEqual([path.join(blob.key.slice(0, 2), blob.key)]);

    const opened = await store.open(blob.key);
    expect(opened.size).toBe(11);
    expect(await text(opened.stream)).toBe('hello world');
  });

  it('keeps bytes given as a buffer, and makes a different key every time', async () => {
    const first = await store.put(Buffer.from('same'), { maxBytes: 4 });
    const second = await store.put(Buffer.from('same'), { maxBytes: 4 });
    expect(first.key).not.toBe(second.key);
    expect(first.sha256).toBe(second.sha256);
    expect(await filesUnder(store.root)).toHaveLength(2);
  });

  it('accepts exactly the limit and refuses one byte more, leaving nothing behind', async () => {
    const exact = await store.put(chunks(4, 256), { maxBytes: 1024 });
    expect(exact.size).toBe(1024);

    const over = new Readable({ read() {} });
    over.push(Buffer.alloc(1024));
    over.push(Buffer.from('x'));
    over.push(null);
    await expect(store.put(over, { maxBytes: 1024 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(over.destroyed).toBe(true);
    expect(await filesUnder(store.root)).toEqual([path.join(exact.key.slice(0, 2), exact.key)]);
  });

  it('stops reading a long source at the limit', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 1;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    await expect(store.put(endless, { maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(produced).toBeLessThan(40);
    expect(await filesUnder(store.root)).toEqual([]);
  });

  it('removes the temporary file when the source fails midway', async () => {
    const source = new PassThrough();
    const put = store.put(source, { maxBytes: 1024 * 1024 });
    source.write(Buffer.alloc(10_000));
    // The temporary file exists while the write runs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await filesUnder(store.root)).some((name) => name.endsWith('.tmp'))).toBe(true);
    source.destroy(new Error('connection lost'));
    await expect(put).rejects.toThrow('connection lost');
    expect(await filesUnder(store.root)).toEqual([]);
  });

  it('removes the temporary file when the write is aborted', async () => {
    const source = new PassThrough();
    const controller = new AbortController();
    const put = store.put(source, { maxBytes: 1024 * 1024, signal: controller.signal });
    source.write(Buffer.alloc(10_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(put).rejects.toMatchObject({ name: 'AbortError' });
    expect(await filesUnder(store.root)).toEqual([]);
  });

  it('answers BlobNotFoundError for a missing blob and for anything that is not a key', async () => {
    await expect(store.open('0'.repeat(32))).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open('../../etc/passwd')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open('AB'.repeat(16))).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('deletes a blob, and deleting it again or a non-key is no error', async () => {
    const blob = await store.put(Buffer.from('bye'), { maxBytes: 10 });
    await store.delete(blob.key);
    await store.delete(blob.key);
    await store.delete('../outside');
    expect(await filesUnder(store.root)).toEqual([]);
    await expect(store.open(blob.key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('removes stale temporary files only', async () => {
    const blob = await store.put(Buffer.from('keep'), { maxBytes: 10 });
    const shard = path.join(store.root, blob.key.slice(0, 2));
    const stale = path.join(shard, `.${'a'.repeat(32)}.0123456789ab.tmp`);
    const fresh = path.join(shard, `.${'b'.repeat(32)}.0123456789ab.tmp`);
    await fs.writeFile(stale, 'x');
    await fs.writeFile(fresh, 'x');
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    await fs.utimes(stale, old, old);
    expect(await store.removeStaleTemporaryFiles()).toBe(1);
    const left = await filesUnder(store.root);
    expect(left).toContain(path.join(blob.key.slice(0, 2), blob.key));
    expect(left).toContain(path.relative(store.root, fresh));
    expect(left).not.toContain(path.relative(store.root, stale));
  });

  it('leaves no file when aborted before the write began', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(store.put(Buffer.from('never'), { maxBytes: 10, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    // A stream destroyed while its file was opening would create the file late.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await filesUnder(store.root)).toEqual([]);
  });

  it('reads one range of a blob, both ends included, and tells the whole size', async () => {
    const blob = await store.put(Buffer.from('0123456789'), { maxBytes: 100 });
    const middle = await store.open(blob.key, { start: 2, end: 5 });
    expect(middle.size).toBe(10);
    expect(await text(middle.stream)).toBe('2345');
    expect(await text((await store.open(blob.key, { start: 9, end: 9 })).stream)).toBe('9');
    expect(await text((await store.open(blob.key, { start: 0, end: 9 })).stream)).toBe('0123456789');
  });

  it('refuses a range that is not within the blob', async () => {
    const blob = await store.put(Buffer.from('0123456789'), { maxBytes: 100 });
    await expect(store.open(blob.key, { start: 5, end: 10 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.open(blob.key, { start: 6, end: 5 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.open(blob.key, { start: -1, end: 5 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.open('0'.repeat(32), { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it("tells a blob's size without reading it, and BlobNotFoundError for a missing one", async () => {
    const blob = await store.put(Buffer.from('four'), { maxBytes: 100 });
    expect(await store.stat(blob.key)).toEqual({ size: 4 });
    await expect(store.stat('0'.repeat(32))).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.stat('../../etc/passwd')).rejects.toBeInstanceOf(BlobNotFoundError);
  });
});
