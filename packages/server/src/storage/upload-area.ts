import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../file-modes.js';
import { BlobTooLargeError, type StoredBlob } from './blob-store.js';

/** What a resumable upload's id may be: it names its folder, so only what the uploads module makes (32 hex digits or a UUID). */
const UPLOAD_ID = /^[0-9a-f][0-9a-f-]{15,63}$/;

/** The digest a client sent with one write (tus' Upload-Checksum): checked before the bytes count. */
export interface PartChecksum {
  algorithm: 'sha1' | 'md5' | 'sha256';
  digest: Buffer;
}

export interface PartWrite {
  /** The most bytes this write may bring; one more aborts it with BlobTooLargeError. */
  maxBytes: number;
  /** After a failure: 'keep' what arrived (tus resumes after it), or 'truncate' the file back to `offset`. */
  onFailure: 'keep' | 'truncate';
  checksum?: PartChecksum;
  signal?: AbortSignal;
}

export class ChecksumMismatchError extends Error {
  constructor() {
    super('the part does not match its checksum');
    this.name = 'ChecksumMismatchError';
  }
}

/**
 * Where a resumable upload grows until it is whole (issue 19): one file per upload, written at any
 * offset (tus appends, the chunked protocol writes each chunk in its place), flushed to the disk
 * before a write is acknowledged, and moved whole into the blob store by `complete`. The SHA-256 of
 * the whole file is computed while the bytes stream in order; what arrived out of order, or before a
 * restart of the process, is read back once at the end. Nothing here is listed anywhere until the
 * caller hands the completed blob on.
 */
export interface UploadArea {
  /** Makes the upload's empty file. */
  create(id: string): Promise<void>;
  /** Writes the source at `offset`; answers the bytes written. The data is on the disk when it resolves. */
  write(id: string, offset: number, source: Readable, options: PartWrite): Promise<number>;
  /** The bytes the upload's file holds (a tus upload's offset); undefined when there is no such upload. */
  size(id: string): Promise<number | undefined>;
  /** Checks the file holds `size` bytes, finishes its SHA-256 and moves it into the blob store under a new key. */
  complete(id: string, size: number): Promise<StoredBlob>;
  /** Removes the upload's file; an unknown id is no error. */
  discard(id: string): Promise<void>;
  /** Every upload's id here, with the time its file was last written. */
  list(): Promise<{ id: string; modifiedMs: number }[]>;
}

/** What the blob store lends the upload area: taking a finished file in under a new key. */
export interface BlobAdopter {
  adopt(file: string, facts: { size: number; sha256: string }): Promise<StoredBlob>;
}

/** A running SHA-256 over the first `upTo` bytes of an upload, and the ranges this process wrote since (start, end excluded). */
interface Digest {
  hash: Hash;
  upTo: number;
  busy: boolean;
  written: [number, number][];
}

const newDigest = (): Digest => ({ hash: createHash('sha256'), upTo: 0, busy: false, written: [] });

/** Adds a written range to a sorted list of disjoint ones, merging what touches. */
function addRange(ranges: [number, number][], start: number, end: number): [number, number][] {
  const merged: [number, number][] = [];
  let next: [number, number] = [start, end];
  for (const range of ranges) {
    if (range[1] < next[0] || range[0] > next[1]) merged.push(range);
    else next = [Math.min(range[0], next[0]), Math.max(range[1], next[1])];
  }
  merged.push(next);
  return merged.sort((a, b) => a[0] - b[0]);
}

/** The upload area on the local disk, a folder beside the blobs (same file system, so `complete` is a rename). */
export class LocalUploadArea implements UploadArea {
  private readonly digests = new Map<string, Digest>();

  constructor(
    readonly root: string,
    private readonly blobs: BlobAdopter,
  ) {}

  private fileOf(id: string): string {
    if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(this.root, `${id}.part`);
  }

  async create(id: string): Promise<void> {
    await fs.mkdir(this.root, { recursive: true, mode: PRIVATE_FOLDER });
    const handle = await fs.open(this.fileOf(id), 'wx', PRIVATE_FILE);
    await handle.sync();
    await handle.close();
  }

  async write(id: string, offset: number, source: Readable, options: PartWrite): Promise<number> {
    const file = this.fileOf(id);
    // Hashed as it streams when it continues what was hashed so far; otherwise read back at the end.
    let digest = this.digests.get(id);
    // Bytes already hashed written again (a chunk sent twice): the running hash can no longer be trusted.
    if (digest && offset < digest.upTo) {
      this.digests.delete(id);
      digest = undefined;
    }
    // A new running hash starts at byte 0; a part further on waits in `written` until the bytes before it are in.
    if (!digest) this.digests.set(id, (digest = newDigest()));
    const hashing = !digest.busy && digest.upTo === offset ? digest : undefined;
    if (hashing) hashing.busy = true;
    const check = options.checksum ? createHash(options.checksum.algorithm) : undefined;
    let written = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written > options.maxBytes) return callback(new BlobTooLargeError(options.maxBytes));
        // The running hash may only see bytes that are kept: with a checksum, a copy waits for the check.
        if (hashing && !check) hashing.hash.update(chunk);
        check?.update(chunk);
        callback(null, chunk);
      },
    });
    let target: WriteStream | undefined;
    try {
      // `flush`: the bytes are on the disk before the stream closes, and so before the write is acknowledged.
      target = createWriteStream(file, { flags: 'r+', start: offset, flush: true });
      await pipeline(source, meter, target, options.signal ? { signal: options.signal } : {});
      if (check && !check.digest().equals(options.checksum!.digest)) throw new ChecksumMismatchError();
      if (hashing) {
        // With a checksum the part was not hashed while it streamed: read it back from the disk now that it counts.
        if (check) await hashRange(file, hashing.hash, offset, offset + written);
        hashing.upTo += written;
        hashing.busy = false;
      }
      if (this.digests.get(id) === digest) {
        if (!hashing && offset < digest.upTo) {
          // Written over bytes the running hash already took (at the same time as them): read everything back at the end.
          this.digests.delete(id);
        } else {
          digest.written = addRange(digest.written, offset, offset + written);
          await this.catchUp(id, file, digest);
        }
      }
      return written;
    } catch (error) {
      if (!source.destroyed) source.destroy();
      if (target && !target.closed) {
        const closing = target;
        await new Promise<void>((resolve) => {
          closing.once('close', () => resolve());
          closing.destroy();
        });
      }
      // Whatever the running hash saw of this write is no longer known to match the file: read it back at the end.
      if (hashing) this.digests.delete(id);
      if (options.onFailure === 'truncate') await fs.truncate(file, offset).catch(() => undefined);
      else await syncFile(file);
      throw error;
    }
  }

  /**
   * Parts written out of order (the chunked protocol's simultaneous chunks) are hashed once the bytes
   * before them are in, read back while they are still in the page cache: the last chunk does not wait
   * for the whole file to be read.
   */
  private async catchUp(id: string, file: string, digest: Digest): Promise<void> {
    if (digest.busy) return;
    const run = digest.written.find(([start, end]) => start <= digest.upTo && end > digest.upTo);
    if (!run) return;
    digest.busy = true;
    try {
      await hashRange(file, digest.hash, digest.upTo, run[1]);
      digest.upTo = run[1];
      digest.busy = false;
    } catch {
      this.digests.delete(id);
    }
  }

  async size(id: string): Promise<number | undefined> {
    const stat = await fs.stat(this.fileOf(id)).catch(() => undefined);
    return stat?.size;
  }

  async complete(id: string, size: number): Promise<StoredBlob> {
    const file = this.fileOf(id);
    const { size: actual } = await fs.stat(file);
    if (actual !== size) throw new Error(`upload ${id} holds ${actual} bytes, not ${size}`);
    let digest = this.digests.get(id);
    if (!digest || digest.busy || digest.upTo > size) digest = newDigest();
    this.digests.delete(id);
    // Memory stays flat: the rest is read in pieces.
    await hashRange(file, digest.hash, digest.upTo, size);
    await syncFile(file);
    return this.blobs.adopt(file, { size, sha256: digest.hash.digest('hex') });
  }

  async discard(id: string): Promise<void> {
    this.digests.delete(id);
    await fs.rm(this.fileOf(id), { force: true });
  }

  async list(): Promise<{ id: string; modifiedMs: number }[]> {
    const names = await fs.readdir(this.root).catch(() => [] as string[]);
    const found: { id: string; modifiedMs: number }[] = [];
    for (const name of names) {
      const id = name.endsWith('.part') ? name.slice(0, -'.part'.length) : '';
      if (!UPLOAD_ID.test(id)) continue;
      const stat = await fs.stat(path.join(this.root, name)).catch(() => undefined);
      if (stat) found.push({ id, modifiedMs: stat.mtimeMs });
    }
    return found;
  }
}

/** Feeds bytes `start` (included) to `end` (excluded) of a file to a hash. */
async function hashRange(file: string, hash: Hash, start: number, end: number): Promise<void> {
  if (end <= start) return;
  for await (const chunk of createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
}

async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
