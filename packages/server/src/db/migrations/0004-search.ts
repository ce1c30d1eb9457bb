import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The public catalogue's index: one `search_entries` row per published record (what filters and
 * sorts read), its multi-valued facets in `search_facets`, and its tokens: an FTS5 table on SQLite
 * (contentless, keyed by the entry's integer `doc`), on PostgreSQL tsvectors with GIN indexes in a
 * narrow table of their own (`search_words`). `search_state` and `search_removed` tell a facet cache what changed since it was read.
 * `record_views` remembers recent views so that a visitor counts once per 30 seconds;
 * `metadata_doi` serves import-records.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let entries = db.schema.createTable('search_entries');
  entries = postgres
    ? entries.addColumn('doc', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : // AUTOINCREMENT: a doc number is never used twice, so the facet cache (facet-cache.ts) never mistakes a new entry for a removed one.
      entries.addColumn('doc', 'integer', (c) => c.primaryKey().autoIncrement());
  entries = entries
    .addColumn('metadata_id', 'text', (c) => c.notNull().unique().references('metadata.id').onDelete('cascade'))
    .addColumn('title_zh', 'text', (c) => c.notNull())
    .addColumn('title_en', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('license', 'text', (c) => c.notNull())
    .addColumn('sharing', 'text', (c) => c.notNull())
    .addColumn('temporal_resolution', 'text', (c) => c.notNull())
    .addColumn('year', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text', (c) => c.notNull())
    .addColumn('time_start', 'text', (c) => c.notNull())
    .addColumn('time_end', 'text', (c) => c.notNull())
    .addColumn('west', 'double precision')
    .addColumn('south', 'double precision')
    .addColumn('east', 'double precision')
    .addColumn('north', 'double precision')
    .addColumn('hit_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    // The index version that wrote the entry (search_state.version).
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0));
  await entries.execute();
  if (postgres) {
    // All tokens, and the title's and the keywords' alone, so that relevance asks a small GIN index
    // (search.repo.ts). A table of their own, its tsvectors kept out of line (toast_tuple_target):
    // a GIN index gives row addresses, and a query that finds a quarter of the catalogue then reads
    // the `doc` of each from this table's few pages rather than from the entries' wide rows
    // (100,000 entries: about 9 MB against 160 MB; a word's list from a cold cache took a second).
    await db.schema
      .createTable('search_words')
      .addColumn('doc', 'bigint', (c) => c.primaryKey().references('search_entries.doc').onDelete('cascade'))
      .addColumn('tokens', sql`tsvector`, (c) => c.notNull())
      .addColumn('title_tokens', sql`tsvector`, (c) => c.notNull())
      .addColumn('keys_tokens', sql`tsvector`, (c) => c.notNull())
      .modifyEnd(sql`with (toast_tuple_target = 128)`)
      .execute();
  }
  // Each sort's whole order, so that a page is read from an index and never sorted (the hot list, most viewed, newest).
  await db.schema.createIndex('search_entries_published').on('search_entries').columns(['published_at', 'doc']).execute();
  await db.schema.createIndex('search_entries_views').on('search_entries').columns(['hit_count', 'published_at', 'doc']).execute();
  await db.schema.createIndex('search_entries_downloads').on('search_entries').columns(['download_count', 'hit_count', 'published_at', 'doc']).execute();
  await db.schema.createIndex('search_entries_title_zh').on('search_entries').columns(['title_zh', 'doc']).execute();
  await db.schema.createIndex('search_entries_title_en').on('search_entries').columns(['title_en', 'doc']).execute();
  // A box query reads this narrow index rather than the entries with their titles: with `doc` in it,
  // PostgreSQL answers from the index alone (100,000 entries: 8 ms against 130 ms for the rows).
  await db.schema.createIndex('search_entries_box').on('search_entries').columns(['south', 'north', 'west', 'east', 'doc']).execute();
  await db.schema.createIndex('search_entries_version').on('search_entries').columns(['version']).execute();

  // The index's version, one more with every transaction that changes it, and its epoch, new with every
  // rebuild; entries removed since a version (search_removed) let a facet cache catch up (facet-cache.ts).
  await db.schema
    .createTable('search_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('epoch', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into search_state (id, version, epoch) values (1, 0, ${randomUUID()})`.execute(db);
  await db.schema
    .createTable('search_removed')
    .addColumn('doc', 'bigint', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_removed_version').on('search_removed').columns(['version']).execute();

  await db.schema
    .createTable('search_facets')
    .addColumn('doc', postgres ? 'bigint' : 'integer', (c) => c.notNull().references('search_entries.doc').onDelete('cascade'))
    .addColumn('facet', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('label_zh', 'text', (c) => c.notNull())
    .addColumn('label_en', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_facets_pk', ['facet', 'value', 'doc'])
    .execute();
  await db.schema.createIndex('search_facets_doc').on('search_facets').columns(['doc', 'facet', 'value']).execute();

  if (postgres) {
    await sql`create index search_words_tokens on search_words using gin (tokens)`.execute(db);
    await sql`create index search_words_title_tokens on search_words using gin (title_tokens)`.execute(db);
    await sql`create index search_words_keys_tokens on search_words using gin (keys_tokens)`.execute(db);
  } else {
    // Tokens are made by the application (letters and digits, space-separated); unicode61 only
    // splits them again. Three columns so that bm25 can weigh a title above an abstract.
    await sql`create virtual table search_fts using fts5(title, keys, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`.execute(db);
  }

  // import-records recognises a record by its DOI, in any case (DOIs are case-insensitive in ASCII).
  await (postgres ? sql`create index metadata_doi on metadata (lower(doi))` : sql`create index metadata_doi on metadata (doi collate nocase)`).execute(db);

  await db.schema
    .createTable('record_views')
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('viewed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('record_views_pk', ['metadata_id', 'visitor'])
    .execute();
  await db.schema.createIndex('record_views_time').on('record_views').columns(['viewed_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('record_views').execute();
  await db.schema.dropIndex('metadata_doi').execute();
  await db.schema.dropTable('search_removed').execute();
  await db.schema.dropTable('search_state').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await sql`drop table search_fts`.execute(db);
  await db.schema.dropTable('search_facets').execute();
  await db.schema.dropTable('search_entries').execute();
}
