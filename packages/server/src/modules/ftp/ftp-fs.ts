import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { FileSystem, type FtpConnection } from 'ftp-srv';
import { AppError } from '../../errors.js';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../../file-modes.js';
import { IncomingFolders, PART_PREFIX, type IncomingUsage } from './incoming.js';
import { diskPath, FtpRefusal, splitPath, virtualPath } from './ftp-paths.js';
import type { RecordTree, TreeEntry } from './record-tree.js';
import type { FtpSession } from './ftp.service.js';

/** What LIST, SIZE and MDTM read of an entry (ftp-srv's listing takes these members of fs.Stats). */
interface EntryStat {
  name: string;
  size: number;
  mtime: Date;
  mode: number;
  isDirectory(): boolean;
}

/** How far a download's reading runs ahead of the data connection. */
const READ_AHEAD_BYTES = 8 * 1024 * 1024;

const denied = () => new FtpRefusal('Permission denied', 550);
const missing = () => new FtpRefusal('No such file or directory', 550);

function statOf(name: string, entry: Pick<TreeEntry, 'folder' | 'size' | 'modified'>): EntryStat {
  const folder = entry.folder;
  return { name, size: folder ? 0 : entry.size, mtime: entry.modified, mode: folder ? 0o40555 : 0o100444, isDirectory: () => folder };
}

/** The session's account must still exist and be unexpired before anything is done for it. */
type Guard = () => Promise<void>;

/** The working folder, kept here (ftp-srv's FileSystem keeps it as a read-only member). */
abstract class SessionFs extends FileSystem {
  protected at = '/';

  constructor(connection: FtpConnection) {
    super(connection, { root: '/', cwd: '/' });
  }

  override currentDirectory(): string {
    return this.at;
  }

  protected resolve(requested?: string): string {
    return virtualPath(this.at, requested);
  }

  override getUniqueName(): string {
    throw denied();
  }
}

/**
 * A download account's view: the record's files through the files module (whose calls check the
 * download right each time), read-only. Paths never leave the record: `..` stops at its root, an
 * absolute path is within it, and the tree has no links.
 */
export class DownloadFs extends SessionFs {
  constructor(
    connection: FtpConnection,
    private readonly tree: RecordTree,
    private readonly session: FtpSession,
    private readonly guard: Guard,
  ) {
    super(connection);
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    await this.guard();
    try {
      return await work();
    } catch (error) {
      if (error instanceof FtpRefusal) throw error;
      if (error instanceof AppError) throw error.code === 'NOT_FOUND' ? missing() : denied();
      throw error;
    }
  }

  override async get(fileName: string) {
    const target = this.resolve(fileName);
    const entry = await this.call(() => this.tree.stat(this.session.user, this.session.metadataId, target));
    if (!entry) throw missing();
    return statOf(target === '/' ? '/' : splitPath(target).name, entry);
  }

  override async list(folder?: string) {
    const target = this.resolve(folder);
    const entries = await this.call(() => this.tree.list(this.session.user, this.session.metadataId, target));
    if (!entries) throw missing();
    return entries.map((entry) => statOf(entry.name, entry));
  }

  override async chdir(folder?: string) {
    const target = this.resolve(folder);
    const entry = await this.call(() => this.tree.stat(this.session.user, this.session.metadataId, target));
    if (!entry?.folder) throw new FtpRefusal('Not a valid directory', 550);
    this.at = target;
    return this.at;
  }

  override async read(fileName: string, { start }: { start?: number } = {}) {
    const target = this.resolve(fileName);
    const source = await this.call(() => this.tree.open(this.session.user, this.session.metadataId, target, start ?? 0));
    // ftp-srv writes a chunk, waits for the socket to take it, and only then asks for the next: a buffer
    // in between keeps the disk reading ahead meanwhile (bench/ftp-download.ts).
    const stream = new PassThrough({ highWaterMark: READ_AHEAD_BYTES });
    source.once('error', (error) => stream.destroy(error));
    stream.once('close', () => source.destroy());
    source.pipe(stream);
    return { stream, clientPath: target };
  }

  override write(): never {
    throw denied();
  }
  override delete(): Promise<never> {
    return Promise.reject(denied());
  }
  override mkdir(): Promise<never> {
    return Promise.reject(denied());
  }
  override rename(): Promise<never> {
    return Promise.reject(denied());
  }
  override chmod(): Promise<never> {
    return Promise.reject(denied());
  }
}

/**
 * What an upload session may write: no file beyond `fileMax` (50 GB, as every upload path), and the
 * record's incoming folder within what is left of the account's storage quota (`ceiling`: the bytes
 * the folder may hold for it; null for staff, who have none). Both are checked before each piece of
 * data is written, so a STOR stops with a 550 and its message at the byte that would go beyond.
 */
export interface UploadLimits {
  fileMax: number;
  /** The record's incoming bytes, shared by every session writing there. */
  usage(): Promise<IncomingUsage>;
  ceiling(): Promise<number | null>;
  /** The replies: a file over fileMax, the quota used up. */
  tooBig: string;
  overQuota: string;
}

/**
 * An upload account's view: the record's incoming folder on the disk, write-only (files are never
 * read back). A file is written under a hidden name, flushed and renamed when whole, so a sync never
 * takes half a file. Links are neither made nor followed. Its writes stay within `limits`.
 */
export class UploadFs extends SessionFs {
  constructor(
    connection: FtpConnection,
    private readonly folder: string,
    private readonly guard: Guard,
    private readonly limits: UploadLimits,
  ) {
    super(connection);
  }

  /** The disk path of an existing entry, refusing links and hidden part files. */
  private async existing(target: string): Promise<{ file: string; stat: Stats }> {
    if (splitPath(target).name.startsWith(PART_PREFIX)) throw missing();
    const file = diskPath(this.folder, target);
    const stat = await fs.lstat(file).catch(() => null);
    if (!stat || stat.isSymbolicLink()) throw missing();
    return { file, stat };
  }

  override async get(fileName: string) {
    const target = this.resolve(fileName);
    const { stat } = await this.existing(target);
    return statOf(target === '/' ? '/' : splitPath(target).name, { folder: stat.isDirectory(), size: stat.size, modified: stat.mtime });
  }

  override async list(folder?: string) {
    const { file, stat } = await this.existing(this.resolve(folder));
    if (!stat.isDirectory()) throw missing();
    const stats: EntryStat[] = [];
    for (const entry of await fs.readdir(file, { withFileTypes: true })) {
      if (entry.name.startsWith(PART_PREFIX) || !(entry.isFile() || entry.isDirectory())) continue;
      const found = await fs.lstat(path.join(file, entry.name)).catch(() => null);
      if (found) stats.push(statOf(entry.name, { folder: found.isDirectory(), size: found.size, modified: found.mtime }));
    }
    return stats;
  }

  override async chdir(folder?: string) {
    const target = this.resolve(folder);
    const { stat } = await this.existing(target);
    if (!stat.isDirectory()) throw new FtpRefusal('Not a valid directory', 550);
    this.at = target;
    return this.at;
  }

  override read(): Promise<never> {
    return Promise.reject(new FtpRefusal('This account can only upload', 550));
  }

  override async write(fileName: string, { append = false, start }: { append?: boolean; start?: number } = {}) {
    await this.guard();
    const target = this.resolve(fileName);
    const { folder, name } = splitPath(target);
    if (!name || name.startsWith(PART_PREFIX)) throw new FtpRefusal('Bad file name', 553);
    const parent = await this.existing(folder);
    if (!parent.stat.isDirectory()) throw missing();
    const file = diskPath(this.folder, target);
    const current = await fs.lstat(file).catch(() => null);
    if (current && !current.isFile()) throw denied();
    // REST + STOR and APPE continue the file itself; a new STOR is written aside and renamed when whole.
    const resume = append || (start ?? 0) > 0;
    if (resume && !current) throw missing();
    const usage = await this.limits.usage();
    const ceiling = await this.limits.ceiling();
    if (ceiling !== null && usage.bytes >= ceiling) throw new FtpRefusal(this.limits.overQuota, 552);
    if ((start ?? 0) > this.limits.fileMax) throw new FtpRefusal(this.limits.tooBig, 552);
    const meter: Meter = { ...this.limits, usage, ceiling, oldSize: current?.size ?? 0 };
    const stream = new ArrivingFile(file, resume ? file : IncomingFolders.partNameFor(file), append ? undefined : (start ?? 0), meter);
    // ftp-srv ends an upload by emitting 'close' on the stream when it has a 'close' listener (pipe adds one).
    stream.once('close', () => stream.end());
    return { stream, clientPath: target };
  }

  override async delete(fileName: string) {
    await this.guard();
    const target = this.resolve(fileName);
    if (target === '/') throw denied();
    const { file, stat } = await this.existing(target);
    if (stat.isDirectory()) await fs.rmdir(file);
    else {
      await fs.unlink(file);
      (await this.limits.usage()).bytes -= stat.size;
    }
  }

  override async mkdir(folder: string) {
    await this.guard();
    const target = this.resolve(folder);
    if (splitPath(target).name.startsWith(PART_PREFIX)) throw new FtpRefusal('Bad file name', 553);
    const file = diskPath(this.folder, target);
    await fs.mkdir(file, { recursive: true, mode: PRIVATE_FOLDER });
    return target;
  }

  override rename(): Promise<never> {
    return Promise.reject(denied());
  }

  /** Permissions mean nothing here (lftp's mirror sets them after each upload): accepted and ignored. */
  override async chmod() {}
}

/** An arriving file's limits (UploadLimits, resolved for one STOR) and the size of the file it continues or replaces. */
interface Meter {
  fileMax: number;
  usage: IncomingUsage;
  ceiling: number | null;
  oldSize: number;
  tooBig: string;
  overQuota: string;
}

/**
 * An uploaded file on its way to the disk: written at `position` (appended when undefined) to
 * `part`, flushed and renamed to `target` before 'finish' (when `part` differs); removed on failure.
 * Each piece is counted in the record's incoming bytes before it is written, and refused when the
 * file would grow past the per-file limit or the folder past its ceiling (nothing of it is written).
 */
class ArrivingFile extends Writable {
  private handle: fs.FileHandle | undefined;
  /** Where the file ends now. */
  private length = 0;
  /** Bytes of a part file counted in the usage (given back when the part is removed). */
  private partBytes = 0;

  constructor(
    private readonly target: string,
    private readonly part: string,
    private position: number | undefined,
    private readonly meter: Meter,
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    const flags = this.part !== this.target ? 'wx' : this.position === undefined ? 'a' : 'r+';
    fs.open(this.part, flags, PRIVATE_FILE)
      .then(async (handle) => {
        this.handle = handle;
        if (this.part !== this.target) this.length = 0;
        else if (this.position === undefined) this.length = this.meter.oldSize;
        else {
          // REST + STOR: the file is cut (or extended) at the offset.
          await handle.truncate(this.position);
          this.meter.usage.bytes += this.position - this.meter.oldSize;
          this.length = this.position;
        }
        callback();
      })
      .catch(callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    const buffers = chunks.map(({ chunk }) => chunk);
    const size = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
    const { usage, ceiling, fileMax } = this.meter;
    if (this.length + size > fileMax) return callback(new FtpRefusal(this.meter.tooBig, 552));
    if (ceiling !== null && usage.bytes + size > ceiling) return callback(new FtpRefusal(this.meter.overQuota, 552));
    usage.bytes += size;
    this.length += size;
    if (this.part !== this.target) this.partBytes += size;
    this.handle!.writev(buffers, this.position)
      .then(() => {
        if (this.position !== undefined) this.position += size;
        callback();
      })
      .catch(callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const handle = this.handle!;
    this.handle = undefined;
    handle
      .sync()
      .then(() => handle.close())
      .then(async () => {
        if (this.part === this.target) return;
        await fs.rename(this.part, this.target);
        // The file it replaced (a second STOR of one name) no longer counts.
        this.meter.usage.bytes -= this.meter.oldSize;
        this.partBytes = 0;
      })
      .then(() => callback())
      .catch(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    const closing = handle ? handle.close().catch(() => undefined) : Promise.resolve();
    const removing = (error || !this.writableFinished) && this.part !== this.target;
    closing
      .then(() => (removing ? fs.rm(this.part, { force: true }) : undefined))
      .then(() => {
        if (removing) this.meter.usage.bytes -= this.partBytes;
        this.partBytes = 0;
      })
      .then(() => callback(error))
      .catch(() => callback(error));
  }
}
