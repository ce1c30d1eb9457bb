import { createHash, randomUUID } from 'node:crypto';
import type { Archive } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { BlobStore } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { datasetFolder, streamZip, type StoredFileFacts } from '../downloads/index.js';
import type { StoredFiles, TreeFileRow } from '../files/index.js';
import type { MetadataAccess, MetadataRow, RecordChangeListener } from '../metadata/index.js';
import type { DownloadAccess } from '../orders/index.js';
import { ArchiveRepo, type ArchiveRow, type FileFacts } from './archive.repo.js';

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ArchiveOptions {
  /** ARCHIVE_ENABLED: off, the calls answer 'not offered' and nothing is built. */
  enabled: boolean;
  /** ARCHIVE_MAX_GB: a record with more bytes of data gets no archive ('too_large'). */
  maxBytes: number;
  log: Log;
}

/** A build holds its row this long, and renews the hold a quarter of it before; a process that died lets go by itself. */
const LEASE_MS = 2 * 60_000;
/**
 * A check is dated this much before it began: a file's write takes its time before its transaction
 * and commits after, so a record changed around a check is compared again at the next one.
 */
const CHECK_MARGIN_MS = 10_000;
/** Records checked in one run of the worker (the rest at the next). */
const CHECKS_PER_RUN = 500;
/** A failed build is tried again after 5 minutes, doubled each time, at most a day. */
const retryDelayMs = (attempts: number) => Math.min(5 * 60_000 * 2 ** Math.max(0, attempts - 1), 24 * 3600_000);

/** SHA-256 of the record's file list (folder and name, size, content's SHA-256), in the order treeFiles gives. */
export function fingerprintOf(files: readonly TreeFileRow[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.path}${file.name}\t${Number(file.size)}\t${file.sha256}\n`);
  return hash.digest('hex');
}

/** Where an archive is downloaded from. */
export function archiveDownloadPath(metadataId: string): string {
  return `/api/archive/archives/${encodeURIComponent(metadataId)}/download/`;
}

/**
 * A published record's whole-dataset archive (issue 19): one zip of every data file at its path in
 * the record's tree, with the SHA-256 manifests streamZip writes (modules/downloads), kept in the
 * BlobStore as a file of its own so that its download resumes (Range). Built in the background, one
 * at a time per process, after publication and after each change of the record's files; the state
 * and the build's hold on it live in `archives`, so that a restart goes on with what was pending and
 * a build whose process died is done again. An archive is served only while it was built from the
 * record's files as they are (their fingerprint): a stale one is never answered as ready. Who may
 * have it is the one download rule (DownloadAccess).
 */
export class ArchiveService implements RecordChangeListener {
  private readonly repo: ArchiveRepo;
  private running: Promise<number> | undefined;
  private again = false;
  private stopping = false;
  /** A change asked for a run; started once the reply has gone (its transaction committed). */
  private hasWork = false;
  private current: AbortController | undefined;

  constructor(
    db: Db,
    private readonly access: MetadataAccess,
    private readonly downloads: DownloadAccess,
    private readonly files: StoredFiles,
    private readonly storage: BlobStore,
    private readonly options: ArchiveOptions,
  ) {
    this.repo = new ArchiveRepo(db);
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  // ---- The calls ----

  /** GET /api/archive/archives/{id}/: the archive's state, for whoever may download the record's files. */
  async state(user: AuthenticatedUser | null, metadataId: string): Promise<Archive> {
    const { record } = await this.granted(user, metadataId);
    return this.view(await this.upToDate(record));
  }

  /** The archive's bytes as a stored file, and the order that grants them (for the count); 409 while it is not ready. */
  async download(user: AuthenticatedUser | null, metadataId: string): Promise<{ file: StoredFileFacts; order: string | null }> {
    const { record, order } = await this.granted(user, metadataId);
    const row = await this.upToDate(record);
    if (row.state === 'too_large') throw this.tooLarge();
    if (row.state === 'failed') throw new AppError('CONFLICT', 'datasetArchive.failed');
    if (row.state !== 'ready' || !row.storage_key || !row.sha256 || !row.built_at) throw new AppError('CONFLICT', 'datasetArchive.notReady');
    return {
      file: { name: `${datasetFolder(record.title, record.id)}.zip`, size: Number(row.size), sha256: row.sha256, created_at: row.built_at, storage_key: row.storage_key },
      order,
    };
  }

  /** The 'too large' refusal, with the limit. */
  tooLarge(): AppError {
    return new AppError('CONFLICT', 'datasetArchive.tooLarge', { params: { limit: this.limitText() } });
  }

  limitText(): string {
    return `${Math.round((this.options.maxBytes / 1024 ** 3) * 100) / 100} GB`;
  }

  /** The record when the caller may download its files (the one rule, as every download path), and it is published. */
  private async granted(user: AuthenticatedUser | null, metadataId: string): Promise<{ record: MetadataRow; order: string | null }> {
    if (!this.options.enabled) throw new AppError('NOT_FOUND', 'datasetArchive.disabled');
    const record = await this.access.readable(user, metadataId);
    const answer = await this.downloads.assert(user, record);
    if (record.status !== 'published') throw new AppError('NOT_FOUND', 'datasetArchive.onlyPublished');
    return { record, order: answer.order };
  }

  /** The archive's row for the record as it is now: compared with its files again when the record changed since the last check. */
  private async upToDate(record: MetadataRow): Promise<ArchiveRow> {
    const row = await this.repo.find(record.id);
    // A record too large is compared again on every call: ARCHIVE_MAX_GB may have been raised since.
    const fresh = row && row.checked_at !== '' && row.checked_at > record.updated_at && row.state !== 'too_large' ? row : await this.check(record.id);
    if (fresh.state === 'pending') this.hasWork = true;
    return fresh;
  }

  private view(row: ArchiveRow): Archive {
    const ready = row.state === 'ready';
    return {
      metadata_id: row.metadata_id,
      state: row.state as Archive['state'],
      size: ready ? Number(row.size) : null,
      sha256: ready ? row.sha256 : null,
      file_count: Number(row.file_count),
      data_bytes: Number(row.data_bytes),
      built_at: ready ? row.built_at : null,
      download_url: ready ? archiveDownloadPath(row.metadata_id) : null,
      max_bytes: this.options.maxBytes,
    };
  }

  // ---- Following the records ----

  /** A record changed (published, withdrawn, its files): its archive is compared again, in the writing transaction. */
  async sync(trx: Db, ids: readonly string[]): Promise<void> {
    await this.repo.withDb(trx).recheck(ids);
    this.hasWork = true;
  }

  /** Deleted records: their rows go by cascade; their blobs went on `removing`. */
  async forget(): Promise<void> {}

  /** A record about to be deleted (`removing`): its archive's blob and row go first. */
  async remove(metadataId: string): Promise<void> {
    const row = await this.repo.find(metadataId);
    if (row) await this.drop(row);
  }

  /** After a reply has gone: runs the worker when a change asked for it. */
  afterResponse(): void {
    if (!this.hasWork) return;
    this.hasWork = false;
    void this.kick();
  }

  /**
   * Runs the worker unless it runs already (then it runs once more after): archives of records no
   * longer published go, records changed are checked, then pending archives are built one after the
   * other. Answers how many it built.
   */
  kick(): Promise<number> {
    if (!this.options.enabled || this.stopping) return Promise.resolve(0);
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      let built = 0;
      do {
        this.again = false;
        built += await this.work();
      } while (this.again && !this.stopping);
      return built;
    })()
      .catch((error: unknown) => {
        this.options.log.error({ err: error }, 'archive worker failed');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /** Stops the worker: a build under way is aborted (its row pending again, its part removed) and waited for. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.current?.abort();
    await this.running;
  }

  private async work(): Promise<number> {
    for (const row of await this.repo.orphans(CHECKS_PER_RUN)) await this.drop(row);
    for (const id of await this.repo.toCheck(CHECKS_PER_RUN)) {
      if (this.stopping) return 0;
      // A record deleted since the query: nothing to check.
      await this.check(id).catch((error: unknown) => this.options.log.warn({ err: error, metadataId: id }, 'archive check failed'));
    }
    let built = 0;
    while (!this.stopping && (await this.buildNext())) built += 1;
    return built;
  }

  /** Compares the record's files with its archive; a different list makes the archive pending (or too large) and deletes the old blob. */
  private async check(metadataId: string): Promise<ArchiveRow> {
    const checkedAt = new Date(Date.now() - CHECK_MARGIN_MS).toISOString();
    const facts = this.factsOf(await this.files.treeFiles(metadataId));
    const { row, replaced } = await this.repo.noteCheck(metadataId, facts, checkedAt);
    if (replaced) await this.deleteBlob(replaced);
    return row;
  }

  private factsOf(files: readonly TreeFileRow[]): FileFacts {
    const dataBytes = files.reduce((sum, file) => sum + Number(file.size), 0);
    return { fingerprint: fingerprintOf(files), file_count: files.length, data_bytes: dataBytes, state: dataBytes > this.options.maxBytes ? 'too_large' : 'pending' };
  }

  private async drop(row: ArchiveRow): Promise<void> {
    if ((await this.repo.drop(row.metadata_id, row.storage_key)) && row.storage_key) await this.deleteBlob(row.storage_key);
  }

  /** Builds one archive that is due; false when none is. */
  private async buildNext(): Promise<boolean> {
    const builder = randomUUID();
    const leaseEnd = () => new Date(Date.now() + LEASE_MS).toISOString();
    const claimed = await this.repo.claim(builder, new Date().toISOString(), leaseEnd());
    if (!claimed) return false;
    const id = claimed.metadata_id;
    const abort = new AbortController();
    this.current = abort;
    // Another process (or a change of the files) took the row: this build stops.
    const renew = setInterval(() => {
      this.repo.renew(id, builder, leaseEnd()).then(
        (held) => held || abort.abort(),
        (error: unknown) => this.options.log.warn({ err: error, metadataId: id }, 'archive lease not renewed'),
      );
    }, LEASE_MS / 4);
    renew.unref();
    let fingerprint = claimed.fingerprint;
    try {
      const record = await this.access.find(id);
      // Withdrawn or deleted since: the next run drops it.
      if (!record || record.status !== 'published') {
        await this.repo.release(id, builder);
        return true;
      }
      const files = await this.files.treeFiles(id);
      const facts = this.factsOf(files);
      fingerprint = facts.fingerprint;
      if (fingerprint !== claimed.fingerprint && !(await this.repo.adopt(id, builder, facts))) return true;
      if (facts.state === 'too_large') {
        await this.repo.finish(id, builder, fingerprint, { state: 'too_large', attempts: 0, retry_at: null, error: null });
        return true;
      }
      const started = Date.now();
      const zip = await streamZip(
        files.map((file) => ({
          path: `${file.path}${file.name}`,
          size: Number(file.size),
          sha256: file.sha256,
          storage_key: file.storage_key,
          mtime: file.modified_at || file.created_at,
        })),
        this.storage,
        this.options.log,
      );
      const blob = await this.storage.put(zip.stream, { maxBytes: zip.size, signal: abort.signal });
      if (blob.size !== zip.size) throw new Error(`archive of ${blob.size} bytes, ${zip.size} expected`);
      const { done, replaced } = await this.repo.finish(id, builder, fingerprint, {
        state: 'ready',
        storage_key: blob.key,
        size: blob.size,
        sha256: blob.sha256,
        built_at: new Date().toISOString(),
        attempts: 0,
        retry_at: null,
        error: null,
      });
      if (!done) await this.deleteBlob(blob.key);
      if (replaced) await this.deleteBlob(replaced);
      if (done) this.options.log.info({ metadataId: id, bytes: blob.size, files: files.length, ms: Date.now() - started }, 'archive built');
      return true;
    } catch (error) {
      if (this.stopping) {
        await this.repo.release(id, builder).catch(() => undefined);
        return false;
      }
      this.options.log.error({ err: error, metadataId: id }, 'archive build failed');
      const attempts = Number(claimed.attempts) + 1;
      await this.repo.finish(id, builder, fingerprint, {
        state: 'failed',
        attempts,
        retry_at: new Date(Date.now() + retryDelayMs(attempts)).toISOString(),
        error: String((error as Error | null)?.message ?? error).slice(0, 500),
      });
      return true;
    } finally {
      clearInterval(renew);
      this.current = undefined;
    }
  }

  private async deleteBlob(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.options.log.warn({ err: error, key }, 'archive blob not deleted');
    }
  }
}
