import { fileNameProblem, normaliseFolderPath, splitFilePath, type FileEntry, type FileOrdering, type StoredFile } from '@portal/shared';
import { newId, type Tx } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import { BlobNotFoundError, type BlobStore, type StoredBlob } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { storageQuotaApplies, type MetadataAccess, type MetadataRow } from '../metadata/index.js';
import type { DownloadAccess } from '../orders/index.js';
import { FileTreeRepo, innerPath, NameTaken, type DataFileRow, type TreeRow } from './file-tree.repo.js';
import { isOverQuota, lockedStoredBytes, type Slice } from './files.repo.js';
import { declaredMime, deleteBlobs, formatLimit } from './file-names.js';
import type { FileEvents } from './file-events.js';
import type { OpenedFile } from './files.service.js';

/** A blob already in the BlobStore, to list as a data file at `path` (a folder) under `name`. */
export interface StoredBlobInput {
  metadataId: string;
  path: string;
  name: string;
  blob: StoredBlob;
  mime?: string;
}

/** One of many blobs to list at once (StoredBlobInput without the record, which they share). */
export type StoredBlobItem = Omit<StoredBlobInput, 'metadataId'>;

/** Rows a batch inserts per statement (PostgreSQL and SQLite bind at most 65,535 and 32,766 values). */
const INSERT_ROWS = 500;

export interface FolderPage {
  count: number;
  bytes: number;
  results: FileEntry[];
}

interface Log {
  warn(details: object, message: string): void;
}

export function entryView(entry: TreeRow): FileEntry {
  const { id, name, path, created_at: created } = entry.row;
  const modified = entry.row.modified_at || created;
  if (entry.folder) return { id, name, path, is_folder: true, size: 0, sha256: '', created, modified };
  return { id, name, path, is_folder: false, size: Number(entry.row.size), sha256: entry.row.sha256, created, modified };
}

function storedFileView(row: DataFileRow): StoredFile {
  return { id: row.id, metadata: row.metadata_id, name: row.name, size: Number(row.size), mime: row.mime, sha256: row.sha256, created_at: row.created_at };
}

/** The folder path given, normalised, or a 400 naming the field. */
export function folderPath(field: string, raw: string | undefined): string {
  const result = normaliseFolderPath(raw ?? '/');
  if ('problem' in result) throw fieldError(field, result.problem);
  return result.path;
}

function checkedName(field: string, raw: string | undefined): string {
  const name = (raw ?? '').normalize('NFC');
  const problem = fileNameProblem(name);
  if (problem) throw fieldError(field, problem);
  return name;
}

function fullPath(field: string, raw: string | undefined): { path: string; name: string } {
  const result = splitFilePath(raw ?? '');
  if ('problem' in result) throw fieldError(field, result.problem);
  return result;
}

/** The row of a data file whose bytes are `blob`, at `at` in the record's tree. */
function dataFileRow(metadataId: string, at: { path: string; name: string }, blob: StoredBlob, mime: string, userId: string, now: string) {
  return {
    id: newId(),
    metadata_id: metadataId,
    ...at,
    mime,
    storage_key: blob.key,
    sha256: blob.sha256,
    size: blob.size,
    created_by: userId,
    created_at: now,
    modified_at: now,
  };
}

const exists = () => new AppError('CONFLICT', 'fileTree.exists');
const noFolder = () => new AppError('NOT_FOUND', 'fileTree.noFolder');
const noEntry = () => new AppError('NOT_FOUND', 'fileTree.noEntry');

/**
 * A record's data files as a tree (issue 19): folders, files at paths, paged listings with the
 * folder's exact count and bytes. Reading follows FilesService.list (who may see the record), a
 * file's bytes the download rule; changing it MetadataAccess.writable (the creator while a draft,
 * staff), checked again under the record's lock with the name's clash and the uploader's quota. A
 * published record's files change for nobody (record-policy.ts `changeFiles`): its creator is told
 * the spec's 'no right', staff to reopen it first.
 */
export class FileTree {
  constructor(
    private readonly repo: FileTreeRepo,
    private readonly access: MetadataAccess,
    private readonly storage: BlobStore,
    /** FilesService's options: its log, the download rule, the per-account quota (none: no limit), and its events. */
    private readonly options: { log?: Log; storageQuotaBytes?: number; downloads?: DownloadAccess; events?: FileEvents } = {},
  ) {}

  /** One page of a folder ('/' the root), the folder's own count and bytes with it. */
  async listFolder(user: AuthenticatedUser | null, metadataId: string, path: string, options: { ordering?: FileOrdering; slice?: Slice } = {}): Promise<FolderPage> {
    const record = await this.access.readable(user, metadataId);
    const folder = folderPath('path', path);
    if (!(await this.repo.folderExists(this.repo.db, record.id, folder))) throw noFolder();
    const { count, bytes, rows } = await this.repo.page(record.id, folder, options.ordering ?? 'name', options.slice ?? { offset: 0, limit: 20 });
    return { count, bytes, results: rows.map(entryView) };
  }

  /** A data file's bytes by its full path ('/a/b/c.nc'), for whoever may download the record's files; `start`: from that byte on. */
  async openByPath(user: AuthenticatedUser | null, metadataId: string, path: string, start = 0): Promise<OpenedFile<FileEntry>> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const record = await this.access.readable(user, metadataId);
    if (this.options.downloads) await this.options.downloads.assert(user, record);
    else await this.access.filesReadable(user, record.id);
    const at = fullPath('path', path);
    const entry = await this.repo.entry(this.repo.db, record.id, at.path, at.name);
    if (!entry || entry.folder) throw noEntry();
    const size = Number(entry.row.size);
    try {
      const opened = await this.storage.open(entry.row.storage_key, start > 0 && start < size ? { start, end: size - 1 } : undefined);
      return { file: entryView(entry), ...opened };
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      this.options.log?.warn({ key: entry.row.storage_key }, 'stored file missing from the storage');
      throw noEntry();
    }
  }

  /**
   * Lists a blob already written to the BlobStore as a data file at `path` (missing folders are
   * made), after the access check, and under the record's lock the published lock, the name's clash
   * and the uploader's quota. On refusal nothing of the blob is deleted: the caller deletes it.
   */
  async addStoredBlob(user: AuthenticatedUser | null, input: StoredBlobInput): Promise<StoredFile> {
    const record = await this.writable(user, input.metadataId);
    const path = folderPath('path', input.path);
    const name = checkedName('name', input.name);
    const now = new Date().toISOString();
    const row = dataFileRow(record.id, { path, name }, input.blob, declaredMime(input.mime), user!.id, now);
    await this.write(user!, record, now, async (trx) => {
      await this.repo.ensureFolders(trx, record.id, path, user!.id, now);
      if (await this.repo.entry(trx, record.id, path, name)) throw exists();
      const quota = this.options.storageQuotaBytes ?? Number.MAX_SAFE_INTEGER;
      if (storageQuotaApplies(user!) && (await isOverQuota(trx, { userId: user!.id, bytes: quota }, input.blob.size))) {
        throw new AppError('PAYLOAD_TOO_LARGE', 'metadata.files.quotaExceeded', { params: { limit: formatLimit(quota) } });
      }
      await this.repo.insertFile(trx, row);
    });
    return storedFileView(row);
  }

  /**
   * Lists many blobs already in the BlobStore in one record at once (an FTP sync of thousands of
   * files): one access check, one transaction holding the record's lock, the uploader's stored bytes
   * summed once and the folders made once, the rows inserted a few hundred a statement. Each item is
   * judged as `addStoredBlob` judges it (its name and folder, a name taken, the quota, counting the
   * items before it); answers, in order, the listed file or the refusal of each. A refused item's
   * blob is the caller's to delete; a refusal of the whole (access, the record gone or published) is thrown.
   */
  async addStoredBlobs(user: AuthenticatedUser | null, metadataId: string, items: StoredBlobItem[]): Promise<(StoredFile | AppError)[]> {
    const record = await this.writable(user, metadataId);
    const now = new Date().toISOString();
    const results: (StoredFile | AppError)[] = [];
    await this.write(user!, record, now, async (trx) => {
      results.length = 0;
      const quota = this.options.storageQuotaBytes ?? Number.MAX_SAFE_INTEGER;
      let used = user!.is_staff ? 0 : await lockedStoredBytes(trx, user!.id);
      const folders = new Set<string>(['/']);
      const taken = new Set<string>();
      const rows: ReturnType<typeof dataFileRow>[] = [];
      for (const item of items) {
        try {
          const path = folderPath('path', item.path);
          const name = checkedName('name', item.name);
          if (!folders.has(path)) {
            await this.repo.ensureFolders(trx, record.id, path, user!.id, now);
            folders.add(path);
          }
          if (taken.has(`${path}${name}`) || (await this.repo.entry(trx, record.id, path, name))) throw exists();
          if (!user!.is_staff && used + item.blob.size > quota) {
            throw new AppError('PAYLOAD_TOO_LARGE', 'metadata.files.quotaExceeded', { params: { limit: formatLimit(quota) } });
          }
          used += item.blob.size;
          taken.add(`${path}${name}`);
          const row = dataFileRow(record.id, { path, name }, item.blob, declaredMime(item.mime), user!.id, now);
          rows.push(row);
          results.push(storedFileView(row));
        } catch (error) {
          // A file where a folder of the path should be: as a name taken.
          if (error instanceof NameTaken) results.push(exists());
          else if (error instanceof AppError) results.push(error);
          else throw error;
        }
      }
      for (let at = 0; at < rows.length; at += INSERT_ROWS) await this.repo.insertFiles(trx, rows.slice(at, at + INSERT_ROWS));
    });
    return results;
  }

  /** POST /data/createFolder/: a new folder `name` in the existing folder `path`. */
  async createFolder(user: AuthenticatedUser | null, input: { metadataId?: string; path?: string; name?: string }): Promise<FileEntry> {
    const record = await this.writable(user, input.metadataId);
    const path = folderPath('path', input.path);
    const name = checkedName('name', input.name);
    const now = new Date().toISOString();
    const row = { id: newId(), metadata_id: record.id, path, name, created_by: user!.id, created_at: now, modified_at: now };
    await this.write(user!, record, now, async (trx) => {
      if (!(await this.repo.folderExists(trx, record.id, path))) throw noFolder();
      if (await this.repo.entry(trx, record.id, path, name)) throw exists();
      await this.repo.insertFolder(trx, row);
    });
    return entryView({ folder: true, row });
  }

  /** POST /data/newfile/: an empty data file `name` in the existing folder `path`. */
  async newFile(user: AuthenticatedUser | null, input: { metadataId?: string; path?: string; name?: string }): Promise<FileEntry> {
    const record = await this.writable(user, input.metadataId);
    const path = folderPath('path', input.path);
    const name = checkedName('name', input.name);
    const blob = await this.storage.put(Buffer.alloc(0), { maxBytes: 0 });
    const now = new Date().toISOString();
    const row = dataFileRow(record.id, { path, name }, blob, 'application/octet-stream', user!.id, now);
    try {
      await this.write(user!, record, now, async (trx) => {
        if (!(await this.repo.folderExists(trx, record.id, path))) throw noFolder();
        if (await this.repo.entry(trx, record.id, path, name)) throw exists();
        await this.repo.insertFile(trx, row);
      });
    } catch (error) {
      await this.deleteBlobs([blob.key]);
      throw error;
    }
    return entryView({ folder: false, row });
  }

  /** POST /data/deleteFile/: a file, or a folder with everything under it, by `path` and `name` or by `id`. */
  async remove(user: AuthenticatedUser | null, input: { metadataId?: string; path?: string; name?: string; id?: string }): Promise<void> {
    const record = await this.writable(user, input.metadataId);
    const at = input.id ? undefined : { path: folderPath('path', input.path), name: checkedName('name', input.name) };
    let keys: string[] = [];
    await this.write(user!, record, new Date().toISOString(), async (trx) => {
      const entry = at ? await this.repo.entry(trx, record.id, at.path, at.name) : await this.repo.entryById(trx, record.id, input.id!);
      if (!entry) throw noEntry();
      await this.options.events?.dataFilesDeleting(trx, await this.repo.fileIds(trx, entry));
      keys = await this.repo.remove(trx, entry);
    });
    await this.deleteBlobs(keys);
  }

  /** POST /data/moveFile/: renames or moves the file or folder at `from` to `to` (full paths; the target's folder must exist). */
  async move(user: AuthenticatedUser | null, input: { metadataId?: string; from?: string; to?: string }): Promise<FileEntry> {
    const record = await this.writable(user, input.metadataId);
    const from = fullPath('from', input.from);
    const to = fullPath('to', input.to);
    const now = new Date().toISOString();
    let moved: TreeRow | undefined;
    await this.write(user!, record, now, async (trx) => {
      const entry = await this.repo.entry(trx, record.id, from.path, from.name);
      if (!entry) throw noEntry();
      if (entry.folder && `${to.path}${to.name}/`.startsWith(innerPath(entry.row))) throw fieldError('to', 'fileTree.intoItself');
      if (!(await this.repo.folderExists(trx, record.id, to.path))) throw noFolder();
      if (from.path === to.path && from.name === to.name) return;
      if (await this.repo.entry(trx, record.id, to.path, to.name)) throw exists();
      await this.repo.move(trx, entry, to, now);
      moved = { ...entry, row: { ...entry.row, path: to.path, name: to.name, modified_at: now } } as TreeRow;
    });
    return entryView(moved ?? (await this.repo.entry(this.repo.db, record.id, from.path, from.name))!);
  }

  /** The record when the caller may change its files now (record-policy.ts `changeFiles`: a published one's files never). */
  private async writable(user: AuthenticatedUser | null, metadataId: string | undefined): Promise<MetadataRow> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    if (!metadataId) throw fieldError('metadata_id', 'fileTree.metadataRequired');
    return this.access.filesWritable(user, metadataId);
  }

  /** Runs `work` in a transaction holding the record's lock, the files' rule judged again on the record as it is now. */
  private async write(user: AuthenticatedUser, record: MetadataRow, now: string, work: (trx: Tx) => Promise<void>): Promise<void> {
    try {
      await this.repo.db.transaction().execute(async (trx) => {
        const refusal = await this.access.lockFor(trx, user, 'changeFiles', record.id, now);
        if (refusal) throw refusal;
        await work(trx);
      });
    } catch (error) {
      if (error instanceof NameTaken) throw exists();
      // Two writers of one name at once on SQLite's deferred lock: the index refuses the second.
      if (/unique|duplicate key/i.test(String((error as Error | null)?.message))) throw exists();
      throw error;
    }
  }

  private deleteBlobs(keys: string[]): Promise<void> {
    return deleteBlobs(this.storage, keys, this.options.log);
  }
}
