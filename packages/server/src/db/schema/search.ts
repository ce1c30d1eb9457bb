import type { Generated } from 'kysely';

/** The public catalogue's index (migration 0004): one entry per published record. */
export interface SearchEntryTable {
  doc: Generated<number>;
  metadata_id: string;
  title_zh: string;
  title_en: string;
  language: string;
  license: string;
  sharing: string;
  temporal_resolution: string;
  year: string;
  published_at: string;
  time_start: string;
  time_end: string;
  west: number | null;
  south: number | null;
  east: number | null;
  north: number | null;
  hit_count: Generated<number>;
  download_count: Generated<number>;
  /** The index version that wrote it (bigint: read it through Number()). */
  version: number | string;
}

/** PostgreSQL only: an entry's tokens (tsvector). SQLite keeps them in the search_fts table. */
export interface SearchWordsTable {
  doc: number | string;
  tokens: unknown;
  /** The tokens of the title and of the keywords alone, for relevance (search.repo.ts). */
  title_tokens: unknown;
  keys_tokens: unknown;
}

export interface SearchStateTable {
  id: number;
  version: number | string;
  epoch: string;
}

export interface SearchRemovedTable {
  doc: number | string;
  version: number | string;
}

export interface SearchFacetTable {
  doc: number;
  facet: string;
  value: string;
  label_zh: string;
  label_en: string;
}

/** The search module's tables: the public catalogue's index (modules/search: search-index.ts writes them; usage adds to an entry's counts; migration 0004). */
export interface SearchTables {
  search_entries: SearchEntryTable;
  search_words: SearchWordsTable;
  search_facets: SearchFacetTable;
  search_state: SearchStateTable;
  search_removed: SearchRemovedTable;
}
