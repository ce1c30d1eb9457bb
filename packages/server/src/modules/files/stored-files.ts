import type { Db } from '../../db/index.js';
import { FilesRepo, type FileKind, type MediaRow, type Slice, type StoredFileRow } from './files.repo.js';

/**
 * What other modules read of a record's stored files, past the access rules (FilesService holds
 * those): the exports of a published record, the review's snapshot of a submitted one. Read only.
 */
export class StoredFiles {
  private readonly repo: FilesRepo;

  constructor(db: Db) {
    this.repo = new FilesRepo(db);
  }

  /** One page of a record's data files or documents, with the count and the bytes of all of them. */
  page(kind: FileKind, metadataId: string, slice: Slice): Promise<{ count: number; bytes: number; rows: StoredFileRow[] }> {
    return this.repo.page(kind, metadataId, slice);
  }

  /** One page of a record's media (`type`: only of that type, e.g. its thumbnail). */
  mediaPage(metadataId: string, type: string | undefined, slice: Slice): Promise<{ count: number; rows: MediaRow[] }> {
    return this.repo.mediaPage(metadataId, type, slice);
  }
}
