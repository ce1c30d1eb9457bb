import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../file-modes.js';
import { BlobNotFoundError, BlobTooLargeError, isBlobKey, newBlobKey, type BlobStore, type ByteRange, type OpenedBlob, type PutOptions, type StoredBlob } from './blob-store.js';
import { LocalUploadArea, type BlobAdopter } from './upload-area.js';

const TEMPORARY = /^\.[0-9a-f]{32}\.[0-9a-f]+\.tmp$/;

/**
 * Bytes read at a time when a blob is streamed out. Node's default (64 KiB) caps a download at
 * about 0.8 GB/s on loopback; 512 KiB reaches about 2 GB/s (1 MiB adds little) at 512 KiB of
 * buffer per download in progress (bench/downloads.ts).
 */
export const READ_CHUNK_BYTES = 512 * 1024;

/**
 * Blobs as files under one folder (`DATA_DIR/files`), in 256 sub-folders by the key's first two
 * digits: `files/3f/3f9a...`. A write goes to a hidden temporary file beside its final name, is
 * flushed to the disk and then renamed, so a blob is either whole or absent; on any failure the
 * temporary file is removed.
 */
export class LocalDiskStore implements BlobStore, BlobAdopter {
  /** Resumable uploads grow in `uploads/` under the same root: on the same file system, so a finished one is renamed in. */
  readonly uploads: LocalUploadArea;

  constructor(readonly root: string) {
    this.uploads = new LocalUploadArea(path.join(root, 'uploads'), this);
  }

  /** Where the blob is on this disk, for a reader that opens files by name (the analysis sandbox's DuckDB). */
  localPath(key: string): string {
    return this.pathOf(key);
  }

  private pathOf(key: string): string {
    // Keys come from the database, which only ever holds keys this store made; refuse anything else
    // rather than let a stray value name a path outside the root.
    if (!isBlobKey(key)) throw new BlobNotFoundError(String(key));
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(source: Readable | Uint8Array, options: PutOptions): Promise<StoredBlob> {
    const input = source instanceof Uint8Array ? Readable.from([source]) : source;
    const key = newBlobKey();
    const final = this.pathOf(key);
    const folder = path.dirname(final);
    const temporary = path.join(folder, `.${key}.${randomBytes(6).toString('hex')}.tmp`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > options.maxBytes) return callback(new BlobTooLargeError(options.maxBytes));
        hash.update(chunk);
        callback(null, chunk);
      },
    });

    let target: WriteStream | undefined;
    try {
      await fs.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER });
      // `flush`: the file is written to the disk before it is closed, and so before the rename.
      target = createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE, flush: true });
      await pipeline(input, meter, target, options.signal ? { signal: options.signal } : {});
      await fs.rename(temporary, final);
      await syncFolder(folder);
      return { key, size, sha256: hash.digest('hex') };
    } catch (error) {
      if (!input.destroyed) input.destroy();
      // A stream destroyed while its file was still opening creates the file afterwards: wait.
      if (target && !target.closed) {
        const closing = target;
        await new Promise<void>((resolve) => {
          closing.once('close', () => resolve());
          closing.destroy();
        });
      }
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Takes a finished file (already on the disk, with the size and SHA-256 its writer computed) in
   * under a new key: a rename, so the blob is whole or absent; the file must be on this file system.
   */
  async adopt(file: string, facts: { size: number; sha256: string }): Promise<StoredBlob> {
    const key = newBlobKey();
    const final = this.pathOf(key);
    const folder = path.dirname(final);
    await fs.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER });
    await fs.rename(file, final);
    await syncFolder(folder);
    await syncFolder(path.dirname(file));
    return { key, size: facts.size, sha256: facts.sha256 };
  }

  async open(key: string, range?: ByteRange): Promise<OpenedBlob> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (error) {
      throw notFoundAs(key, error);
    }
    try {
      const { size } = await handle.stat();
      if (!range) return { stream: handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }), size };
      if (!(Number.isSafeInteger(range.start) && Number.isSafeInteger(range.end) && range.start >= 0 && range.start <= range.end && range.end < size)) {
        throw new RangeError(`bytes ${range.start}-${range.end} are not within a blob of ${size} bytes`);
      }
      // Reads from the opened handle, so the range is of the file that was stat'ed, not of a later one.
      return { stream: handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES, start: range.start, end: range.end }), size };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number }> {
    try {
      const { size } = await fs.stat(this.pathOf(key));
      return { size };
    } catch (error) {
      throw notFoundAs(key, error);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) return;
    await fs.rm(this.pathOf(key), { force: true });
  }

  /**
   * Removes temporary files of writes that died (a killed process, on this or another instance
   * sharing the folder): a running write touches its file with every chunk, so a file untouched for
   * `olderThanMs` is no write's any more (the clean-up job passes 15 minutes). Returns how many.
   */
  async removeStaleTemporaryFiles(olderThanMs = 24 * 3600_000, now = Date.now()): Promise<number> {
    let removed = 0;
    const folders = await fs.readdir(this.root, { withFileTypes: true }).catch(() => []);
    for (const folder of folders) {
      if (!folder.isDirectory() || !/^[0-9a-f]{2}$/.test(folder.name)) continue;
      const dir = path.join(this.root, folder.name);
      for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
        if (!TEMPORARY.test(name)) continue;
        const file = path.join(dir, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat && now - stat.mtimeMs > olderThanMs) {
          await fs.rm(file, { force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }
}

/** A missing file (or a value that is no key) is BlobNotFoundError; anything else stays what it is. */
function notFoundAs(key: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof BlobNotFoundError) return new BlobNotFoundError(key);
  return error;
}

/** Makes the rename itself durable; folders cannot be opened for this on every platform. */
async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Not supported here (e.g. Windows): the file itself is already on the disk.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
