import type { Readable } from 'node:stream';
import { fileNameProblem, METADATA_LIMITS, normaliseFolderPath } from '@portal/shared';
import { newId } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import { BlobTooLargeError, ChecksumMismatchError, type BlobStore, type PartChecksum, type StoredBlob, type UploadArea } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { storageQuotaApplies, type MetadataAccess } from '../metadata/index.js';
import type { UploadRow, UploadsRepo } from './uploads.repo.js';

/** The files module's side (FilesService.addStoredBlob): it lists a finished upload's blob in the record's tree. */
export interface StoredBlobReceiver {
  addStoredBlob(user: AuthenticatedUser, file: { metadataId: string; path: string; name: string; blob: StoredBlob; mime: string }): Promise<unknown>;
}

export interface UploadsOptions {
  /** USER_STORAGE_QUOTA_MB in bytes: what an account's files and uploads under way may hold together; staff are exempt. */
  storageQuotaBytes: number;
  /** The bytes an account's stored files hold (the files module counts them). */
  storedBytesOf(userId: string): Promise<number>;
  /** UPLOAD_EXPIRY_HOURS: an upload not written to for this long expires and its parts are swept. */
  expiryMs: number;
  log?: { warn(details: object, message: string): void };
}

/** A new upload as either protocol declares it. */
export interface NewUpload {
  protocol: 'tus' | 'chunked';
  metadataId: string | undefined;
  path: string | undefined;
  filename: string | undefined;
  totalSize: number;
  sha256?: string;
  mime?: string;
  identifier?: string;
  chunkSize?: number;
  totalChunks?: number;
}

const SHA256 = /^[0-9a-f]{64}$/;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** Files over 50 GB are refused (spec sections 5 and 9: compress them first). */
export const LARGEST_UPLOAD_BYTES = METADATA_LIMITS.compressAboveBytes;

export function formatMegabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Anything but the storage's own failure (a system call) came from the client: 'Upload failed'. */
export function asUploadFailure(error: unknown): unknown {
  if (error instanceof AppError || (error as NodeJS.ErrnoException | null)?.syscall) return error;
  return new AppError('VALIDATION_FAILED', 'metadata.files.uploadFailed');
}

/**
 * Uploads that resume (issue 19), the part both protocols share: an upload is declared (the record
 * must be writable by the caller, the folder and name valid, the size within 50 GB and what is left
 * of the caller's quota, counting their other uploads under way) before a byte is kept; its bytes grow
 * in the storage's upload area; when they are all in, the whole file's SHA-256 is checked against the
 * one declared and the blob is handed to the files module, which lists it. An upload belongs to the
 * account that started it. One not written to for `expiryMs` expires (`expire`, a clean-up job).
 */
export class UploadsService {
  constructor(
    readonly repo: UploadsRepo,
    private readonly access: MetadataAccess,
    readonly area: UploadArea,
    private readonly storage: BlobStore,
    private readonly files: StoredBlobReceiver,
    private readonly options: UploadsOptions,
  ) {}

  /** UPLOAD_EXPIRY_HOURS in milliseconds: what the other uploads' sweeps (FTP's part files) go by too. */
  get expiryMs(): number {
    return this.options.expiryMs;
  }

  expiresAt(now = Date.now()): string {
    return new Date(now + this.options.expiryMs).toISOString();
  }

  /** The record, when the caller may change its data files now (record-policy.ts `changeFiles`; refused before any byte is read). */
  async writable(user: AuthenticatedUser | null, metadataId: string | undefined): Promise<AuthenticatedUser> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    if (!metadataId) throw fieldError('metadata_id', 'metadata.validation.metadata');
    await this.access.filesWritable(user, metadataId);
    return user;
  }

  /** Checks what is declared and keeps the new upload's row and empty file. */
  async start(user: AuthenticatedUser, upload: NewUpload): Promise<UploadRow | 'taken'> {
    await this.writable(user, upload.metadataId);
    const folder = normaliseFolderPath(upload.path ?? '/');
    if ('problem' in folder) throw fieldError('path', folder.problem);
    const name = (upload.filename ?? '').normalize('NFC');
    const problem = fileNameProblem(name);
    if (problem) throw fieldError('filename', problem);
    this.checkSize(upload.totalSize);
    const sha256 = (upload.sha256 ?? '').toLowerCase();
    if (sha256 !== '' && !SHA256.test(sha256)) throw fieldError('sha256', 'uploads.sha256');
    await this.checkQuota(user, upload.totalSize);
    const declared = (upload.mime ?? '').toLowerCase();
    const now = Date.now();
    const row: UploadRow = {
      id: newId(),
      protocol: upload.protocol,
      user_id: user.id,
      metadata_id: upload.metadataId!,
      path: folder.path,
      name,
      mime: MIME.test(declared) ? declared : 'application/octet-stream',
      total_size: upload.totalSize,
      sha256,
      identifier: upload.identifier ?? null,
      chunk_size: upload.chunkSize ?? 0,
      total_chunks: upload.totalChunks ?? 0,
      state: 'open',
      created_at: new Date(now).toISOString(),
      expires_at: this.expiresAt(now),
    };
    await this.area.create(row.id);
    const inserted = await this.repo.insert(row);
    if (inserted === 'taken') {
      await this.area.discard(row.id);
      return 'taken';
    }
    return row;
  }

  checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0) throw fieldError('totalSize', 'uploads.noSize');
    if (size === 0) throw fieldError('file', 'uploads.empty');
    if (size > LARGEST_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'uploads.compress');
  }

  /** What the account's storage quota counts: its stored files and the declared sizes of its uploads under way. */
  async usedBytesOf(userId: string): Promise<number> {
    return (await this.options.storedBytesOf(userId)) + (await this.repo.reservedBytes(userId));
  }

  /** The declared size must fit in what is left of the account's quota, counting its other uploads under way. */
  private async checkQuota(user: AuthenticatedUser, size: number): Promise<void> {
    if (!storageQuotaApplies(user)) return;
    const used = await this.usedBytesOf(user.id);
    if (used + size > this.options.storageQuotaBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'metadata.files.quotaExceeded', { params: { limit: formatMegabytes(this.options.storageQuotaBytes) } });
    }
  }

  /** The caller's own upload; another account's is refused, a missing one is 'not found'. */
  async own(user: AuthenticatedUser | null, id: string): Promise<UploadRow> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const row = await this.repo.find(id);
    if (!row) throw new AppError('NOT_FOUND', 'uploads.notFound');
    if (row.user_id !== user.id) throw new AppError('FORBIDDEN', 'uploads.notYours');
    return row;
  }

  /**
   * Writes one part at `offset` and renews the upload's expiry; answers the bytes written. A part
   * longer than `maxBytes` is refused with `tooLong` (nothing past the limit is written).
   */
  async writePart(
    row: UploadRow,
    offset: number,
    stream: Readable,
    part: { maxBytes: number; onFailure: 'keep' | 'truncate'; checksum?: PartChecksum; tooLong: () => AppError },
  ): Promise<number> {
    try {
      // Renewed before and after: a write that lasts longer than the expiry is not swept under it.
      await this.repo.touch(row.id, this.expiresAt());
      const written = await this.area.write(row.id, offset, stream, { maxBytes: part.maxBytes, onFailure: part.onFailure, checksum: part.checksum });
      await this.repo.touch(row.id, this.expiresAt());
      return written;
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw part.tooLong();
      if (error instanceof ChecksumMismatchError) throw new AppError('CHECKSUM_MISMATCH', 'uploads.checksumMismatch');
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError('NOT_FOUND', 'uploads.notFound');
      throw asUploadFailure(error);
    }
  }

  /**
   * All bytes are in: the file is moved whole into the blob store, its SHA-256 checked against the
   * declared one, and handed to the files module; then the upload is gone. Answers the listed file,
   * or undefined when another request is finishing it. Any refusal leaves neither a blob nor a part.
   */
  async finish(user: AuthenticatedUser, row: UploadRow): Promise<unknown> {
    if (!(await this.repo.claim(row.id))) return undefined;
    let blob: StoredBlob | undefined;
    try {
      blob = await this.area.complete(row.id, row.total_size);
      if (row.sha256 && blob.sha256 !== row.sha256) throw new AppError('CHECKSUM_MISMATCH', 'uploads.sha256Mismatch');
      const file = await this.files.addStoredBlob(user, { metadataId: row.metadata_id, path: row.path, name: row.name, blob, mime: row.mime });
      blob = undefined;
      return file;
    } finally {
      await this.drop(row.id);
      if (blob) await this.storage.delete(blob.key).catch((error: unknown) => this.options.log?.warn({ key: blob!.key, err: error }, 'could not delete a refused upload'));
    }
  }

  /** Removes an upload, its row and its part. */
  async drop(id: string): Promise<void> {
    await this.repo.remove(id);
    await this.area.discard(id);
  }

  /**
   * The clean-up job: uploads not written to before their expiry lose their rows and parts, and parts
   * whose row is gone (a process killed between the two) are removed once they are as old. Answers how many.
   */
  async expire(now = Date.now()): Promise<number> {
    const expired = await this.repo.removeExpired(new Date(now).toISOString());
    for (const id of expired) await this.area.discard(id);
    const parts = await this.area.list();
    const stale = parts.filter((part) => now - part.modifiedMs > this.options.expiryMs);
    const kept = await this.repo.existing(stale.map((part) => part.id));
    let orphans = 0;
    for (const part of stale) {
      if (kept.has(part.id)) continue;
      await this.area.discard(part.id);
      orphans += 1;
    }
    return expired.length + orphans;
  }
}
