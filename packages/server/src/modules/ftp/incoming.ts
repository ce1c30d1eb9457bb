import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FOLDER } from '../../file-modes.js';

/** Files still being written carry this prefix (and are renamed when whole): listing and syncing skip them. */
export const PART_PREFIX = '.ftp-part-';

/** A file that arrived, by its path within the record's incoming folder. */
export interface ArrivedFile {
  /** The folder within the record ('/' its root) and the name. */
  folder: string;
  name: string;
  /** On the disk. */
  source: string;
}

/** The bytes a record's incoming folder holds (its files and the parts being written), kept up to date by the writes. */
export interface IncomingUsage {
  bytes: number;
}

/**
 * Where upload accounts' files arrive before `/data/sync/` brings them into the record's tree:
 * `DATA_DIR/ftp-incoming/<record id>/`, one folder a record, kept by the FTP module alone. Its bytes
 * are measured once (a walk of the folder) and then followed by the writes and deletions of this
 * process (`usage`); a failed write or a sync has it measured again.
 */
export class IncomingFolders {
  private readonly usages = new Map<string, Promise<IncomingUsage>>();

  constructor(readonly root: string) {}

  /** The record's incoming bytes, shared by every session writing there (so that two at once see each other's bytes). */
  usage(metadataId: string): Promise<IncomingUsage> {
    let usage = this.usages.get(metadataId);
    if (!usage) {
      usage = this.measure(path.join(this.root, metadataId)).then((bytes) => ({ bytes }));
      this.usages.set(metadataId, usage);
      usage.catch(() => this.usages.delete(metadataId));
    }
    return usage;
  }

  /** The record's bytes are measured again when next asked (after a sync, a failed write, a removal). */
  forget(metadataId: string): void {
    this.usages.delete(metadataId);
  }

  /** Every byte under a folder (links are not followed). */
  private async measure(folder: string): Promise<number> {
    let entries;
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let bytes = 0;
    for (const entry of entries) {
      const inner = path.join(folder, entry.name);
      if (entry.isDirectory()) bytes += await this.measure(inner);
      else if (entry.isFile()) bytes += (await fs.lstat(inner).catch(() => ({ size: 0 }))).size;
    }
    return bytes;
  }

  /** The record's folder, created when missing. */
  async folderOf(metadataId: string): Promise<string> {
    const folder = path.join(this.root, metadataId);
    await fs.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER });
    return folder;
  }

  /** A hidden name beside `target` for a file being written. */
  static partNameFor(target: string): string {
    return path.join(path.dirname(target), `${PART_PREFIX}${randomBytes(8).toString('hex')}`);
  }

  /** Every whole file of the record's incoming folder (depth first, by name), never following links. */
  async arrived(metadataId: string): Promise<ArrivedFile[]> {
    const top = path.join(this.root, metadataId);
    const found: ArrivedFile[] = [];
    const walk = async (folder: string, virtual: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(folder, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (entry.name.startsWith(PART_PREFIX)) continue;
        const source = path.join(folder, entry.name);
        if (entry.isDirectory()) await walk(source, virtual === '/' ? `/${entry.name}` : `${virtual}/${entry.name}`);
        else if (entry.isFile()) found.push({ folder: virtual, name: entry.name, source });
      }
    };
    await walk(top, '/');
    return found;
  }

  /** Removes the empty folders left under the record's incoming folder once its files were taken. */
  async pruneEmpty(metadataId: string): Promise<void> {
    const prune = async (folder: string): Promise<boolean> => {
      let entries;
      try {
        entries = await fs.readdir(folder, { withFileTypes: true });
      } catch {
        return false;
      }
      let empty = true;
      for (const entry of entries) {
        if (entry.isDirectory() && (await prune(path.join(folder, entry.name)))) continue;
        empty = false;
      }
      if (empty) await fs.rmdir(folder).catch(() => undefined);
      return empty;
    };
    await prune(path.join(this.root, metadataId));
  }

  /**
   * The clean-up: hidden part files not written to for `olderThanMs` (UPLOAD_EXPIRY_HOURS) belong to a
   * STOR that died with its connection or its process, and are removed. A live STOR writes its part
   * with every piece (and ftp-srv drops an idle connection after 10 minutes). Answers how many.
   */
  async sweepParts(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    const sweep = async (folder: string, record: string): Promise<void> => {
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const inner = path.join(folder, entry.name);
        if (entry.isDirectory()) await sweep(inner, record);
        else if (entry.isFile() && entry.name.startsWith(PART_PREFIX)) {
          const stat = await fs.lstat(inner).catch(() => undefined);
          if (!stat || now - stat.mtimeMs <= olderThanMs) continue;
          await fs.rm(inner, { force: true });
          this.forget(record);
          removed += 1;
        }
      }
    };
    for (const record of await fs.readdir(this.root, { withFileTypes: true }).catch(() => [])) {
      if (record.isDirectory()) await sweep(path.join(this.root, record.name), record.name);
    }
    return removed;
  }

  /** The record's incoming folder and all in it (the record is gone, or its last upload account). */
  async remove(metadataId: string): Promise<void> {
    await fs.rm(path.join(this.root, metadataId), { recursive: true, force: true });
    this.forget(metadataId);
  }
}
