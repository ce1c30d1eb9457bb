/** An upload under way (modules/uploads: uploads.repo.ts writes it; migration 0017). */
export interface UploadTable {
  id: string;
  /** 'tus' or 'chunked'. */
  protocol: string;
  user_id: string;
  metadata_id: string;
  /** The folder the file goes into ('/' the record's root). */
  path: string;
  name: string;
  mime: string;
  /** bigint: a string on PostgreSQL. */
  total_size: number | string;
  /** The whole file's SHA-256 the client declared (hex), '' when none. */
  sha256: string;
  /** The chunked protocol's identifier; null for tus. */
  identifier: string | null;
  chunk_size: number | string;
  total_chunks: number;
  /** 'open', or 'finishing' while the finished file is handed to the files module. */
  state: string;
  created_at: string;
  expires_at: string;
}

export interface UploadChunkTable {
  upload_id: string;
  number: number;
}

/** The uploads module's tables. */
export interface UploadsTables {
  uploads: UploadTable;
  upload_chunks: UploadChunkTable;
}
