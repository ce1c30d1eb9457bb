import type { ColumnType } from 'kysely';
import type { Created } from './metadata.js';

/** A stored file of a record: its blob lives in the storage under `storage_key`. */
export interface StoredFileTable extends Created {
  id: string;
  metadata_id: string;
  name: string;
  mime: string;
  storage_key: string;
  sha256: string;
  /** bigint: a string on PostgreSQL. */
  size: number | string;
}

export interface MetaMediaTable extends StoredFileTable {
  type: string;
  resized_key: string;
}

/**
 * A data file: a stored file at a place in its record's tree (migration 0016). `path` is its folder,
 * normalised ('/' the root, '/a/b/'); (metadata_id, path, name) is unique, also against the folders
 * (meta_folder) of the same record, which the files module checks under the record's lock.
 * `modified_at`: its last change of name or place ('' for a row inserted without it: its created_at stands).
 */
export interface DataFileTable extends StoredFileTable {
  path: ColumnType<string, string | undefined, string>;
  modified_at: ColumnType<string, string | undefined, string>;
}

/** A folder of a record's file tree: its own row, holding no bytes; what it holds is every row whose path starts with `path || name || '/'`. */
export interface MetaFolderTable extends Created {
  id: string;
  metadata_id: string;
  path: string;
  name: string;
  modified_at: string;
}

/** A folder's data files counted (migration 0020): kept by triggers on meta_file, never written by code. bigint: strings on PostgreSQL. */
export interface MetaFileTotalsTable {
  metadata_id: string;
  path: string;
  files: number | string;
  bytes: number | string;
}

/** The files module's tables: a record's stored files (modules/files: files.repo.ts and file-tree.repo.ts write them; migrations 0002, 0016). */
export interface FilesTables {
  meta_media: MetaMediaTable;
  meta_attach: StoredFileTable;
  meta_file: DataFileTable;
  meta_folder: MetaFolderTable;
  meta_file_totals: MetaFileTotalsTable;
}
