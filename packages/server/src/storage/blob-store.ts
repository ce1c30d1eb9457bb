import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** What a stored blob is: its key, and the size and SHA-256 (hex) of the bytes as they were written. */
export interface StoredBlob {
  key: string;
  size: number;
  sha256: string;
}

export interface PutOptions {
  /** The most bytes the blob may have; one more aborts the write with BlobTooLargeError. */
  maxBytes: number;
  /** Aborts the write (the stored bytes are removed). */
  signal?: AbortSignal;
}

export interface OpenedBlob {
  /** The blob's bytes, or only those of the range asked for. */
  stream: Readable;
  /** The size of the whole blob, whatever range was asked for. */
  size: number;
}

/**
 * Bytes `start` to `end`, both included (HTTP's byte-range form), within the blob; a range that
 * reaches past the end is refused with RangeError, so a caller that checked it against a stale size
 * never sends fewer bytes than it announced.
 */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files are kept. Keys are made by the store (random, never a user's name), so an
 * implementation may use them as file names or object names as they are. `put` is all or nothing:
 * after a failure, an abort or a source over the limit nothing is left under any key.
 *
 * Implementations: LocalDiskStore (`DATA_DIR/files`). An S3 store would upload under the same keys
 * (a multipart upload, aborted on failure) and answer `open` with the object's body.
 */
export interface BlobStore {
  /** Reads the source to its end (or destroys it on failure) and keeps its bytes under a new key. */
  put(source: Readable | Uint8Array, options: PutOptions): Promise<StoredBlob>;
  /** A stream of the blob's bytes (or of one range of them); BlobNotFoundError when there is no such blob. */
  open(key: string, range?: ByteRange): Promise<OpenedBlob>;
  /** The blob's size without reading it (a zip checks every blob before its first byte); BlobNotFoundError when absent. */
  stat(key: string): Promise<{ size: number }>;
  /** Removes the blob; a key that names nothing is not an error. */
  delete(key: string): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no blob under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/** 128 random bits as 32 hexadecimal digits. */
export function newBlobKey(): string {
  return randomBytes(16).toString('hex');
}

export const BLOB_KEY = /^[0-9a-f]{32}$/;

export function isBlobKey(key: unknown): key is string {
  return typeof key === 'string' && BLOB_KEY.test(key);
}
