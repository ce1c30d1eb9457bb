/** A DOI the portal minted and the outbox of its registration with DataCite (migration 0012). */
export interface DoiRegistrationTable {
  doi: string;
  metadata_id: string;
  /** findable (the record is published) or registered (withdrawn: a findable DOI cannot be deleted). */
  wanted: string;
  /** What DataCite last answered: '' (never registered), findable or registered. */
  state: string;
  /** pending, done, or failed (given up). */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_attempt_at: string | null;
  /** The HTTP status of the last failure; 0 when DataCite did not answer (timeout, network). */
  last_status: number;
  /** The last failure: DataCite's `errors[]` as JSON, or the network error's message. */
  last_error: string;
  created_at: string;
  registered_at: string | null;
}

export interface DoiSequenceTable {
  pattern: string;
  last_number: number;
}

/** The DOI module's tables: minted DOIs with their registration outbox, and the numbering (modules/doi: doi.repo.ts writes them; migration 0012). */
export interface DoiTables {
  doi_registrations: DoiRegistrationTable;
  doi_sequence: DoiSequenceTable;
}
