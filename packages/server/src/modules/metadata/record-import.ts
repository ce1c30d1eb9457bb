import { sql } from 'kysely';
import { insertInChunks, type AnyRow, type Db, type Dialect, type Tx } from '../../db/index.js';
import { readAttached } from './attached-rows.js';

/**
 * The metadata module's side of importing and exporting published records (modules/records-io):
 * finding what is already here, the owner's shared entries to reuse, and the multi-row inserts of
 * records, translations, links and shared entries. Only the metadata module's tables.
 */

/** Ids per `in (...)` list, well inside both databases' parameter limits. */
const IN_CHUNK = 500;

/** The tables an import writes: records, their translations and links, and the shared entries. */
export type ImportedTable = 'metadata' | 'metadata_i18n' | 'meta_keyword' | 'meta_author' | 'meta_fund' | 'keywords' | 'keyword_i18n' | 'authors' | 'author_i18n' | 'funds';

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/** The rows a query reads for each `in (...)` list of distinct values, together. */
async function inChunks<T>(values: string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (const part of chunks([...new Set(values)], IN_CHUNK)) rows.push(...(await read(part)));
  return rows;
}

export class RecordImport {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Records already here with one of these DOIs (any case: DOIs are case-insensitive in ASCII) or
   * ids. Answers the lower-cased DOIs and the ids found.
   */
  async existing(trx: Tx, dois: string[], ids: string[]): Promise<{ dois: Set<string>; ids: Set<string> }> {
    const found = { dois: new Set<string>(), ids: new Set<string>() };
    for (const part of chunks(dois, IN_CHUNK)) {
      const lowered = part.map((d) => d.toLowerCase());
      // The index metadata_doi is on lower(doi) on PostgreSQL, on doi collate nocase on SQLite.
      const match = this.dialect === 'postgres' ? sql`lower(doi) in (${sql.join(lowered)})` : sql`doi collate nocase in (${sql.join(lowered)})`;
      const rows = await sql<{ doi: string }>`select doi from metadata where ${match}`.execute(trx);
      for (const row of rows.rows) found.dois.add(row.doi.toLowerCase());
    }
    for (const row of await inChunks(ids, (part) => trx.selectFrom('metadata').select('id').where('id', 'in', part).execute())) found.ids.add(row.id);
    return found;
  }

  /** The owner's keywords with these names, each with its translations. */
  async ownKeywords(trx: Tx, ownerId: string, names: string[]) {
    return inChunks(names, (part) =>
      trx
        .selectFrom('keywords')
        .leftJoin('keyword_i18n', 'keyword_i18n.keyword_id', 'keywords.id')
        .select(['keywords.id', 'keywords.name', 'keywords.type', 'keywords.language', 'keyword_i18n.language as translation_language', 'keyword_i18n.name as translation_name'])
        .where('keywords.created_by', '=', ownerId)
        .where('keywords.name', 'in', part)
        .execute(),
    );
  }

  /** The owner's authors with these names, each with its translations. */
  async ownAuthors(trx: Tx, ownerId: string, names: string[]) {
    return inChunks(names, (part) =>
      trx
        .selectFrom('authors')
        .leftJoin('author_i18n', 'author_i18n.author_id', 'authors.id')
        .selectAll('authors')
        .select([
          'author_i18n.language as translation_language',
          'author_i18n.name as translation_name',
          'author_i18n.affiliation as translation_affiliation',
          'author_i18n.address as translation_address',
        ])
        .where('authors.created_by', '=', ownerId)
        .where('authors.name', 'in', part)
        .execute(),
    );
  }

  async ownFunds(trx: Tx, ownerId: string, names: string[]) {
    return inChunks(names, (part) => trx.selectFrom('funds').selectAll().where('created_by', '=', ownerId).where('name', 'in', part).execute());
  }

  async fundIds(trx: Tx, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    return new Set((await trx.selectFrom('funds').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
  }

  /** Multi-row inserts of whole rows (db/index.ts: as many a statement as the parameter limits allow). */
  async insert(trx: Tx, table: ImportedTable, rows: AnyRow[]): Promise<void> {
    await insertInChunks(trx, table, rows);
  }

  /** A page of published records in id order, after `after`. */
  async publishedAfter(after: string, limit: number) {
    return this.db.selectFrom('metadata').selectAll().where('status', '=', 'published').where('id', '>', after).orderBy('id').limit(limit).execute();
  }

  /** What the export file holds beside each record (translations, keywords, authors, funds). */
  attached(ids: string[]) {
    return readAttached(this.db, ids);
  }
}
