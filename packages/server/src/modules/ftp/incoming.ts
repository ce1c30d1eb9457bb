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

/**
 * Where upload accounts' files arrive before `/data/sync/` brings them into the record's tree:
 * `DATA_DIR/ftp-incoming/<record id>/`, one folder a record, kept by the FTP module alone.
 */
export class IncomingFolders {
  constructor(readonly root: string) {}

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

  /** The record's incoming folder and all in it (the record is gone, or its last upload account). */
  async remove(metadataId: string): Promise<void> {
    await fs.rm(path.join(this.root, metadataId), { recursive: true, force: true });
  }
}
