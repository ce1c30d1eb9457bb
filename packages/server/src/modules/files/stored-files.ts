import type { Db } from '../../db/index.js';
import { FileTreeRepo, type DataFileRow, type TreeRow } from './file-tree.repo.js';
import { FilesRepo, type FileKind, type MediaRow, type Slice, type StoredFileRow } from './files.repo.js';

/** A data file of a record's tree as a whole-record reader needs it (a zip of everything, an index). */
export type TreeFileRow = Pick<DataFileRow, 'id' | 'path' | 'name' | 'size' | 'sha256' | 'storage_key' | 'created_at' | 'modified_at'>;

/**
 * What other modules read of a record's stored files, past the access rules (FilesService holds
 * those): the exports of a published record, the review's snapshot of a submitted one, the
 * whole-dataset archive and the order's HTTP index (modules/archive), the tables made from a
 * record's workbooks (modules/tables). Read only.
 */
export class StoredFiles {
  private readonly repo: FilesRepo;
  private readonly tree: FileTreeRepo;

  constructor(db: Db) {
    this.repo = new FilesRepo(db);
    this.tree = new FileTreeRepo(db);
  }

  /** One page of a record's data files or documents, with the count and the bytes of all of them. */
  page(kind: FileKind, metadataId: string, slice: Slice): Promise<{ count: number; bytes: number; rows: StoredFileRow[] }> {
    return this.repo.page(kind, metadataId, slice);
  }

  /** One page of a record's media (`type`: only of that type, e.g. its thumbnail). */
  mediaPage(metadataId: string, type: string | undefined, slice: Slice): Promise<{ count: number; rows: MediaRow[] }> {
    return this.repo.mediaPage(metadataId, type, slice);
  }

  /** Every data file of the record, by folder and name (code units, the same on both databases). */
  async treeFiles(metadataId: string): Promise<TreeFileRow[]> {
    const rows = await this.tree.db
      .selectFrom('meta_file')
      .select(['id', 'path', 'name', 'size', 'sha256', 'storage_key', 'created_at', 'modified_at'])
      .where('metadata_id', '=', metadataId)
      .execute();
    const key = (row: TreeFileRow) => `${row.path}${row.name}`;
    return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** One page of a folder ('/' the root, '/a/b/') by name, folders first; undefined when there is no such folder. */
  async folder(metadataId: string, path: string, slice: Slice): Promise<{ count: number; bytes: number; rows: TreeRow[] } | undefined> {
    if (!(await this.tree.folderExists(this.tree.db, metadataId, path))) return undefined;
    return this.tree.page(metadataId, path, 'name', slice);
  }

  /** A data file by its id, if there is one (a table is read from it: modules/tables). */
  dataFile(id: string): Promise<DataFileRow | undefined> {
    return this.tree.db.selectFrom('meta_file').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The data file `name` in folder `path`, if there is one (a folder of that name is not). */
  async fileAt(metadataId: string, path: string, name: string): Promise<DataFileRow | undefined> {
    const entry = await this.tree.entry(this.tree.db, metadataId, path, name);
    return entry && !entry.folder ? entry.row : undefined;
  }
}
