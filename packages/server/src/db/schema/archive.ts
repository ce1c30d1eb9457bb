/** A published record's whole-dataset archive and the job that builds it (migration 0019; modules/archive writes it). */
export interface ArchiveTable {
  /** The record (one archive per record). */
  metadata_id: string;
  /** 'pending', 'building', 'ready', 'failed' or 'too_large'. */
  state: string;
  /** SHA-256 of the record's file list (paths, sizes, SHA-256) the archive was built from, or is to be. */
  fingerprint: string;
  /** When the record was last compared with the archive ('' : to compare again). */
  checked_at: string;
  /** The zip's blob in the BlobStore, once ready. */
  storage_key: string | null;
  /** bigint: a string on PostgreSQL. */
  size: number | string | null;
  sha256: string | null;
  file_count: number;
  /** Bytes of the record's data files (bigint). */
  data_bytes: number | string;
  built_at: string | null;
  /** The build under way: a random token of the process building it, and until when it holds the row. */
  builder: string | null;
  lease_until: string | null;
  attempts: number;
  /** A failed build is tried again after this. */
  retry_at: string | null;
  error: string | null;
  updated_at: string;
}

export interface ArchiveTables {
  archives: ArchiveTable;
}
