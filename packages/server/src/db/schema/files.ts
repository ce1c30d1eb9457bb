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

/** The files module's tables: a record's stored files (modules/files: files.repo.ts writes them; migration 0002). */
export interface FilesTables {
  meta_media: MetaMediaTable;
  meta_attach: StoredFileTable;
  meta_file: StoredFileTable;
}
