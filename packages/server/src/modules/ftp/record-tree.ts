import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import type { BlobStore } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { FilesService } from '../files/index.js';

/** A file or folder of a record's data files as the FTP server shows it. */
export interface TreeEntry {
  name: string;
  folder: boolean;
  size: number;
  modified: Date;
}

/**
 * What the FTP server needs of a record's file tree. The files module owns the tree, and each call
 * checks the caller's right there (the download rule for reading, a writable record for adding).
 * Paths are absolute within the record ('/' its root, '/a/b' a folder or file), already normalised.
 */
export interface RecordTree {
  /** The entries of one folder; null when there is no such folder. */
  list(user: AuthenticatedUser, metadataId: string, folder: string): Promise<TreeEntry[] | null>;
  /** One entry; null when there is none. */
  stat(user: AuthenticatedUser, metadataId: string, path: string): Promise<TreeEntry | null>;
  /** A file's bytes from `start` on. */
  open(user: AuthenticatedUser, metadataId: string, path: string, start: number): Promise<Readable>;
  /**
   * Stores the local files `source` and lists each as `folder/name` (missing folders made), all in one
   * go; answers, in order, what was stored of each or why it was refused (the tree's rules, a file over
   * the limit). A refusal of them all (the caller may not change the record) is thrown.
   */
  addAll(user: AuthenticatedUser, metadataId: string, files: { folder: string; name: string; source: string }[]): Promise<({ size: number; sha256: string } | AppError)[]>;
}

/** Files a sync copies into the BlobStore at the same time. */
const PUTS_AT_ONCE = 8;

/** Entries read a call when a folder is listed whole. */
const PAGE = 2000;

const notFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND';
/** The files module's form of a folder: '/' or '/a/b/'. */
const folderForm = (virtual: string) => (virtual === '/' ? '/' : `${virtual}/`);

/**
 * The record tree through the files module's face (FilesService.listFolder, openByPath, addStoredBlob);
 * the bytes of a file that arrived by FTP go into the BlobStore first (`storage.put`, which computes
 * their SHA-256 as it writes them), and leave it again when the tree refuses them.
 */
export function filesRecordTree(files: FilesService, storage: BlobStore, maxFileBytes: number): RecordTree {
  const list: RecordTree['list'] = async (user, metadataId, folder) => {
    const entries: TreeEntry[] = [];
    for (let offset = 0; ; offset += PAGE) {
      let page;
      try {
        page = await files.listFolder(user, metadataId, folderForm(folder), { ordering: 'name', slice: { offset, limit: PAGE } });
      } catch (error) {
        if (offset === 0 && notFound(error) && (error as AppError).messageKey === 'fileTree.noFolder') return null;
        throw error;
      }
      for (const entry of page.results) entries.push({ name: entry.name, folder: entry.is_folder, size: entry.size, modified: new Date(entry.modified) });
      if (!page.results.length || offset + page.results.length >= page.count) return entries;
    }
  };
  return {
    list,
    async stat(user, metadataId, path) {
      if (path === '/') {
        await files.listFolder(user, metadataId, '/', { slice: { offset: 0, limit: 1 } });
        return { name: '/', folder: true, size: 0, modified: new Date(0) };
      }
      try {
        const page = await files.listFolder(user, metadataId, folderForm(path), { slice: { offset: 0, limit: 1 } });
        return { name: path.slice(path.lastIndexOf('/') + 1), folder: true, size: page.bytes, modified: new Date(0) };
      } catch (error) {
        if (!notFound(error)) throw error;
      }
      try {
        const opened = await files.openByPath(user, metadataId, path);
        opened.stream.destroy();
        return { name: opened.file.name, folder: false, size: opened.file.size, modified: new Date(opened.file.modified) };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async open(user, metadataId, path, start) {
      const opened = await files.openByPath(user, metadataId, path, start);
      if (start >= opened.file.size && start > 0) {
        opened.stream.destroy();
        return Readable.from([]);
      }
      return opened.stream;
    },
    async addAll(user, metadataId, arrived) {
      const stored: ({ size: number; sha256: string; key: string } | AppError)[] = [];
      try {
        // A few at once: each blob is fsynced before it counts, and the file system commits fsyncs that wait together at once.
        let nextFile = 0;
        const putNext = async (): Promise<void> => {
          for (let index = nextFile++; index < arrived.length; index = nextFile++) {
            const file = arrived[index]!;
            // A file over the limit is refused before a byte of it is read (it stays for the provider to compress).
            if ((await fs.stat(file.source)).size > maxFileBytes) stored[index] = new AppError('PAYLOAD_TOO_LARGE', 'uploads.compress');
            else stored[index] = await storage.put(createReadStream(file.source), { maxBytes: maxFileBytes });
          }
        };
        const puts = await Promise.allSettled(Array.from({ length: PUTS_AT_ONCE }, putNext));
        const failed = puts.find((put) => put.status === 'rejected');
        if (failed) throw failed.reason;
        const items = arrived.flatMap((file, index) => {
          const blob = stored[index]!;
          return blob instanceof AppError ? [] : [{ path: folderForm(file.folder), name: file.name, blob }];
        });
        const listed = await files.addStoredBlobs(user, metadataId, items);
        let next = 0;
        return stored.map((blob) => {
          if (blob instanceof AppError) return blob;
          const result = listed[next++]!;
          if (result instanceof AppError) {
            void storage.delete(blob.key).catch(() => undefined);
            return result;
          }
          return { size: blob.size, sha256: blob.sha256 };
        });
      } catch (error) {
        await Promise.all(stored.map((blob) => (!blob || blob instanceof AppError ? undefined : storage.delete(blob.key).catch(() => undefined))));
        throw error;
      }
    },
  };
}
