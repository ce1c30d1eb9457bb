import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { MEDIA_TYPES, METADATA_LIMITS, THUMBNAIL_MIME_TYPES, type FileEntry, type FileOrdering, type HaveDownload, type Media, type StoredFile } from '@portal/shared';
import { newId, type Db } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import { BlobNotFoundError, BlobTooLargeError, type BlobStore } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { orNotFound, storageQuotaApplies, type MetadataAccess } from '../metadata/index.js';
import type { DownloadAccess } from '../orders/index.js';
import { declaredMime, deleteBlobs, displayName, extensionOf, formatLimit } from './file-names.js';
import { FileEvents } from './file-events.js';
import { FileTree, type FolderPage, type StoredBlobInput, type StoredBlobItem } from './file-tree.service.js';
import { FileTreeRepo } from './file-tree.repo.js';
import { FilesRepo, type FileKind, type MediaRow, type Quota, type Slice, type StoredFileRow } from './files.repo.js';

/** A file part as it arrives: the name the client gave, its declared type, and its bytes. */
export interface IncomingFile {
  filename: string | undefined;
  mimetype?: string;
  stream: Readable;
}

export interface OpenedFile<T> {
  file: T;
  stream: Readable;
  size: number;
}

interface Log {
  warn(details: object, message: string): void;
}

/** Specification documents, by extension: the type stored and answered is ours, not the client's. */
export const DOCUMENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  txt: 'text/plain',
  md: 'text/markdown',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  csv: 'text/csv',
};

/** Raster kinds sharp recognises by content, and the type each is stored and served as. */
const RASTER_TYPES: Record<string, (typeof THUMBNAIL_MIME_TYPES)[number]> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Decoding is bounded: a small file may still describe an enormous image. */
export const THUMBNAIL_MAX_PIXELS = 50_000_000;

const KINDS = {
  file: { max: METADATA_LIMITS.dataFilesMax, maxBytes: METADATA_LIMITS.dataFileMaxBytes, tooMany: 'metadata.files.tooMany' },
  attach: {
    max: METADATA_LIMITS.attachmentsMax,
    maxBytes: METADATA_LIMITS.attachmentMaxBytes,
    tooMany: 'metadata.files.tooManyAttachments',
  },
} as const satisfies Record<FileKind, { max: number; maxBytes: number; tooMany: string }>;

export { displayName, extensionOf, formatLimit };

/** The bytes of a stream, or null when there are more than `limit` (it is then destroyed). */
async function readAtMost(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function fileView(row: StoredFileRow): StoredFile {
  return {
    id: row.id,
    metadata: row.metadata_id,
    name: row.name,
    size: Number(row.size),
    mime: row.mime,
    sha256: row.sha256,
    created_at: row.created_at,
  };
}

export function mediaImagePath(id: string): string {
  return `/api/metadata/meta-media/${encodeURIComponent(id)}/image/`;
}

function mediaView(row: MediaRow): Media {
  return { ...fileView(row), type: row.type, image: mediaImagePath(row.id), original: `${mediaImagePath(row.id)}?size=original` };
}

/**
 * A failure of the storage itself (a system call: a full disk, permissions) stays an error of the
 * server; anything else came from the upload (the client hung up, malformed multipart): 'Upload failed'.
 */
function asUploadFailure(error: unknown): unknown {
  if (error instanceof AppError || (error as NodeJS.ErrnoException | null)?.syscall) return error;
  return new AppError('VALIDATION_FAILED', 'metadata.files.uploadFailed');
}

/** The record policy's action for changing a record's files of this kind: its data files have their own rule. */
const actionOn = (kind: FileKind) => (kind === 'file' ? 'changeFiles' : 'update');

/**
 * The stored files of a metadata record: data files (at most 5, 200 MB each), specification
 * documents (at most 20, 50 MB each) and the thumbnail (under 1 MB, a raster image by its content,
 * kept as uploaded and resized). Reading needs the record to be readable, changing it writable
 * (MetadataAccess), checked again when the row is written; downloading a data file needs the record
 * to be owned (see `download`). A refused or failed upload leaves neither a blob nor a row; deleting
 * a row deletes its blobs.
 */
export class FilesService {
  private readonly log?: Log;
  private readonly storageQuotaBytes: number;
  private readonly downloads?: DownloadAccess;
  /** The record's data files as a tree: folders, paths, paged listings (file-tree.service.ts). */
  readonly tree: FileTree;
  /** Data files deleted (the tree's deletion, the upload list's): told in the deleting transaction. */
  readonly events = new FileEvents();

  private readonly repo: FilesRepo;

  /** The module's repos are its own, on `db`; `access` locks a record for a file's write (the metadata module owns its row). */
  constructor(
    db: Db,
    private readonly access: MetadataAccess,
    private readonly storage: BlobStore,
    options: { log?: Log; storageQuotaBytes?: number; downloads?: DownloadAccess } = {},
  ) {
    this.log = options.log;
    this.downloads = options.downloads;
    this.storageQuotaBytes = options.storageQuotaBytes ?? Number.MAX_SAFE_INTEGER;
    this.repo = new FilesRepo(db, access);
    this.tree = new FileTree(new FileTreeRepo(db), access, storage, { ...options, events: this.events });
  }

  /** Bytes of every file the user uploaded (data files, documents, thumbnails as uploaded): what their storage quota counts. */
  storedBytesOf(userId: string): Promise<number> {
    return this.repo.storedBytesOf(userId);
  }

  /**
   * Lists a blob already written to the BlobStore (an upload's, an FTP sync's) as a data file of the
   * record at `path`, making missing folders; checks access, the published lock, the name's clash and
   * the quota. A refusal deletes nothing of the blob: the caller does.
   */
  addStoredBlob(user: AuthenticatedUser | null, input: StoredBlobInput): Promise<StoredFile> {
    return this.tree.addStoredBlob(user, input);
  }

  /** Many blobs listed in one record at once (an FTP sync): FileTree.addStoredBlobs, each answered with its file or its refusal. */
  addStoredBlobs(user: AuthenticatedUser | null, metadataId: string, items: StoredBlobItem[]): Promise<(StoredFile | AppError)[]> {
    return this.tree.addStoredBlobs(user, metadataId, items);
  }

  /** A data file's bytes by its full path ('/a/b.nc'), from byte `start`, for whoever may download the record's files. */
  openByPath(user: AuthenticatedUser | null, metadataId: string, path: string, start?: number): Promise<OpenedFile<FileEntry>> {
    return this.tree.openByPath(user, metadataId, path, start);
  }

  /** One page of a folder of the record's tree ('/' the root), with the folder's count and bytes. */
  listFolder(user: AuthenticatedUser | null, metadataId: string, path: string, options?: { ordering?: FileOrdering; slice?: Slice }): Promise<FolderPage> {
    return this.tree.listFolder(user, metadataId, path, options);
  }

  /**
   * Every account's uploads together hold at most `storageQuotaBytes` (USER_STORAGE_QUOTA_MB); staff
   * are exempt. What is left is the upload's byte limit (with the per-file limit) before a byte is
   * stored, and the total is checked again in the transaction that writes the row.
   */
  private async quotaOf(user: AuthenticatedUser): Promise<{ condition: Quota | undefined; remaining: number }> {
    if (!storageQuotaApplies(user)) return { condition: undefined, remaining: Number.MAX_SAFE_INTEGER };
    const remaining = this.storageQuotaBytes - (await this.repo.storedBytesOf(user.id));
    if (remaining <= 0) throw this.quotaExceeded();
    return { condition: { userId: user.id, bytes: this.storageQuotaBytes }, remaining };
  }

  private quotaExceeded(): AppError {
    return new AppError('PAYLOAD_TOO_LARGE', 'metadata.files.quotaExceeded', { params: { limit: formatLimit(this.storageQuotaBytes) } });
  }

  /** POST /metadata/upload-file/ and /metadata/upload-attachment: one file for a record. */
  async upload(user: AuthenticatedUser | null, kind: FileKind, metadataId: string | undefined, file: IncomingFile | undefined): Promise<StoredFile> {
    const rules = KINDS[kind];
    const record = await this.writableRecord(user, metadataId, kind);
    if (!file) throw fieldError('file', 'metadata.files.noFile');
    const name = displayName(file.filename);
    let mime: string;
    if (kind === 'attach') {
      const type = DOCUMENT_TYPES[extensionOf(name)];
      if (!type) throw new AppError('VALIDATION_FAILED', 'metadata.files.documentOnly', { params: { kinds: Object.keys(DOCUMENT_TYPES).join(', ') } });
      mime = type;
    } else {
      mime = declaredMime(file.mimetype);
    }
    // Refused before a byte is stored; checked again, under a lock, when the row is inserted.
    if ((await this.repo.count(kind, record.id)) >= rules.max) throw this.tooMany(kind);
    const quota = await this.quotaOf(user!);

    const blob = await this.store(file.stream, rules.maxBytes, quota.remaining);
    try {
      if (blob.size === 0) throw fieldError('file', 'metadata.files.empty');
      const row = {
        id: newId(),
        metadata_id: record.id,
        name,
        mime,
        storage_key: blob.key,
        sha256: blob.sha256,
        size: blob.size,
        created_by: user!.id,
        created_at: new Date().toISOString(),
      };
      const result = await this.repo.insertWithin(kind, row, rules.max, { user: user!, action: actionOn(kind), quota: quota.condition });
      if (result === 'full') throw this.tooMany(kind);
      if (result === 'quota') throw this.quotaExceeded();
      if (result === 'exists') throw new AppError('CONFLICT', 'fileTree.exists');
      return fileView(row);
    } catch (error) {
      await this.deleteBlobs([blob.key]);
      throw error;
    }
  }

  /**
   * POST /api/metadata/meta-media/: the record's thumbnail, which replaces the one it had. Only a
   * JPEG, PNG, GIF or WebP image by its content (never SVG, HTML or a renamed text file).
   */
  async setMedia(user: AuthenticatedUser | null, metadataId: string | undefined, type: string | undefined, file: IncomingFile | undefined): Promise<Media> {
    const record = await this.writableRecord(user, metadataId);
    const mediaType = type ?? 'thumbnail';
    if (!(MEDIA_TYPES as readonly string[]).includes(mediaType)) throw fieldError('type', 'metadata.validation.option');
    if (!file) throw fieldError('file', 'metadata.files.noFile');
    const name = displayName(file.filename);
    const quota = await this.quotaOf(user!);
    // "Under 1 MB", as the spec's client checks it (size < 1 MiB).
    const original = await readAtMost(file.stream, METADATA_LIMITS.thumbnailMaxBytes - 1).catch((error: unknown) => {
      throw asUploadFailure(error);
    });
    if (!original) throw new AppError('PAYLOAD_TOO_LARGE', 'metadata.files.imageTooBig');
    if (original.length > quota.remaining) throw this.quotaExceeded();
    const { mime, resized } = await this.resizeImage(original);

    const stored = await this.storage.put(original, { maxBytes: METADATA_LIMITS.thumbnailMaxBytes });
    const keys = [stored.key];
    try {
      const copy = await this.storage.put(resized, { maxBytes: Number.MAX_SAFE_INTEGER });
      keys.push(copy.key);
      const row = {
        id: newId(),
        metadata_id: record.id,
        type: mediaType,
        name,
        mime,
        storage_key: stored.key,
        resized_key: copy.key,
        sha256: stored.sha256,
        size: stored.size,
        created_by: user!.id,
        created_at: new Date().toISOString(),
      };
      const replaced = await this.repo.replaceMedia(row, { user: user!, action: 'update', quota: quota.condition });
      if (replaced === 'quota') throw this.quotaExceeded();
      await this.deleteBlobs(replaced.flatMap((old) => [old.storage_key, old.resized_key]));
      return mediaView(row);
    } catch (error) {
      await this.deleteBlobs(keys);
      throw error;
    }
  }

  /** Checks the image by its content and makes the copy whose longest side is at most 400 px. */
  private async resizeImage(bytes: Buffer): Promise<{ mime: string; resized: Buffer }> {
    const imageOnly = () => fieldError('file', 'metadata.files.imageOnly');
    let format: string | undefined;
    let pixels = 0;
    try {
      const info = await sharp(bytes).metadata();
      format = info.format;
      pixels = (info.width ?? 0) * (info.height ?? 0);
    } catch {
      throw imageOnly();
    }
    const mime = format ? RASTER_TYPES[format] : undefined;
    if (!mime || pixels === 0) throw imageOnly();
    if (pixels > THUMBNAIL_MAX_PIXELS) {
      throw new AppError('VALIDATION_FAILED', 'metadata.files.imagePixels', { params: { max: THUMBNAIL_MAX_PIXELS / 1_000_000 } });
    }
    const side = METADATA_LIMITS.thumbnailResizedSide;
    try {
      const resized = await sharp(bytes, { limitInputPixels: THUMBNAIL_MAX_PIXELS })
        .rotate()
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .toFormat(format as keyof sharp.FormatEnum)
        .toBuffer();
      return { mime, resized };
    } catch {
      // A header that looks right over data that does not decode.
      throw imageOnly();
    }
  }

  /** A page of a record's data files or documents, with how many there are and their bytes together. */
  async list(user: AuthenticatedUser | null, kind: FileKind, metadataId: string, slice: Slice): Promise<{ count: number; totalSize: number; results: StoredFile[] }> {
    const record = await this.access.readable(user, metadataId);
    const { count, bytes, rows } = await this.repo.page(kind, record.id, slice);
    return { count, totalSize: bytes, results: rows.map(fileView) };
  }

  async listMedia(user: AuthenticatedUser | null, metadataId: string, type: string | undefined, slice: Slice): Promise<{ count: number; results: Media[] }> {
    const record = await this.access.readable(user, metadataId);
    const { count, rows } = await this.repo.mediaPage(record.id, type, slice);
    return { count, results: rows.map(mediaView) };
  }

  async get(user: AuthenticatedUser | null, kind: FileKind, id: string): Promise<StoredFile> {
    return fileView(await this.readableRow(user, () => this.repo.find(kind, id)));
  }

  async getMedia(user: AuthenticatedUser | null, id: string): Promise<Media> {
    return mediaView(await this.readableRow(user, () => this.repo.findMedia(id)));
  }

  async remove(user: AuthenticatedUser | null, kind: FileKind, id: string): Promise<void> {
    await this.writableRow(user, () => this.repo.find(kind, id), kind);
    const removed = await this.repo.db.transaction().execute(async (trx) => {
      if (kind === 'file') await this.events.dataFilesDeleting(trx, [id]);
      return this.repo.remove(kind, id, trx);
    });
    if (!removed) throw new AppError('NOT_FOUND', 'errors.notFound');
    await this.deleteBlobs([removed.storage_key]);
  }

  async removeMedia(user: AuthenticatedUser | null, id: string): Promise<void> {
    await this.writableRow(user, () => this.repo.findMedia(id));
    const removed = await this.repo.removeMedia(id);
    if (!removed) throw new AppError('NOT_FOUND', 'errors.notFound');
    await this.deleteBlobs([removed.storage_key, removed.resized_key]);
  }

  /**
   * A stored file's bytes. Specification documents: whoever may see the record (everyone once it is
   * published). Data files: the record's creator and staff only, whatever its status: a published
   * record's data is shared by its sharing policy, protection period and the order and approval flow
   * (spec sections 4, 6 and 9), which do not exist yet. Anonymous callers get 401, others who may see
   * the record 403 with the spec's 'no right' message, and a hidden record's file stays 'not found'.
   */
  async download(user: AuthenticatedUser | null, kind: FileKind, id: string): Promise<{ file: StoredFile; storageKey: string; metadataId: string; order: string | null }> {
    if (kind === 'file' && !user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const row = await this.readableRow(user, () => this.repo.find(kind, id));
    // Data files: the one download rule (orders, open access, protection period); without it, the creator's and staff's.
    let grant: HaveDownload | undefined;
    if (kind === 'file') {
      if (this.downloads) grant = await this.downloads.assert(user, await this.access.readable(user, row.metadata_id));
      else await this.access.filesReadable(user, row.metadata_id);
    }
    // The route opens the blob (a range of it, or none for HEAD): downloads/send-file.ts.
    return { file: fileView(row), storageKey: row.storage_key, metadataId: row.metadata_id, order: grant?.order ?? null };
  }

  /** The thumbnail's bytes: the resized copy, or the image as uploaded. Only ever a raster type. */
  async image(user: AuthenticatedUser | null, id: string, size: 'resized' | 'original'): Promise<OpenedFile<Media>> {
    const row = await this.readableRow(user, () => this.repo.findMedia(id));
    if (!(THUMBNAIL_MIME_TYPES as readonly string[]).includes(row.mime)) throw new AppError('NOT_FOUND', 'errors.notFound');
    const key = size === 'original' || !row.resized_key ? row.storage_key : row.resized_key;
    return { file: mediaView(row), ...(await this.openBlob(key)) };
  }

  /**
   * Removes every stored file of a record, rows and blobs: call it before the record is deleted
   * (its cascade would drop the rows and leave the blobs behind).
   */
  async removeAllOf(metadataId: string): Promise<void> {
    await this.deleteBlobs(await this.repo.removeAllOf(metadataId));
  }

  /** The record when the caller may change it now; its data files (`kind` 'file') by the files' own rule (none while published). */
  private async writableRecord(user: AuthenticatedUser | null, metadataId: string | undefined, kind?: FileKind) {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    if (!metadataId) throw fieldError('metadata', 'metadata.validation.metadata');
    return kind === 'file' ? this.access.filesWritable(user, metadataId) : this.access.writable(user, metadataId);
  }

  private async readableRow<T extends StoredFileRow>(user: AuthenticatedUser | null, find: () => Promise<T | undefined>): Promise<T> {
    const row = await find();
    if (!row) throw new AppError('NOT_FOUND', 'errors.notFound');
    await orNotFound(this.access.readable(user, row.metadata_id));
    return row;
  }

  private async writableRow<T extends StoredFileRow>(user: AuthenticatedUser | null, find: () => Promise<T | undefined>, kind?: FileKind): Promise<T> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const row = await find();
    if (!row) throw new AppError('NOT_FOUND', 'errors.notFound');
    await orNotFound(kind === 'file' ? this.access.filesWritable(user, row.metadata_id) : this.access.writable(user, row.metadata_id));
    return row;
  }

  private tooMany(kind: FileKind): AppError {
    return new AppError('CONFLICT', KINDS[kind].tooMany, { params: { max: KINDS[kind].max } });
  }

  /** Stores an upload within its per-file limit and what is left of the uploader's quota. */
  private async store(stream: Readable, maxBytes: number, quotaLeft: number) {
    try {
      return await this.storage.put(stream, { maxBytes: Math.min(maxBytes, quotaLeft) });
    } catch (error) {
      if (error instanceof BlobTooLargeError) {
        if (quotaLeft < maxBytes) throw this.quotaExceeded();
        throw new AppError('PAYLOAD_TOO_LARGE', 'metadata.files.tooBig', { params: { limit: formatLimit(maxBytes) } });
      }
      throw asUploadFailure(error);
    }
  }

  private async openBlob(key: string) {
    try {
      return await this.storage.open(key);
    } catch (error) {
      if (error instanceof BlobNotFoundError) {
        this.log?.warn({ key }, 'stored file missing from the storage');
        throw new AppError('NOT_FOUND', 'errors.notFound');
      }
      throw error;
    }
  }

  private deleteBlobs(keys: string[]): Promise<void> {
    return deleteBlobs(this.storage, keys, this.log);
  }
}
