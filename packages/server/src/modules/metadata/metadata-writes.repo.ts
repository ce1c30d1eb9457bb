import { sql, type Insertable, type Updateable } from 'kysely';
import { metadataI18nFields, metadataUpdateSchema } from '@portal/shared';
import { newId, type Db, type Tx } from '../../db/index.js';
import type { MetadataI18nTable, MetadataTable } from '../../db/schema.js';
import type { MetadataRow } from './metadata-access.js';
import { ResourcesRepo } from './resources.repo.js';

/**
 * Every write of the `metadata` table and of its translations, for every module: the record's own
 * service, the review's status moves, the DOI's publication facts, the stored files' lock, the usage
 * counts and the records import all come here (through the metadata module's face).
 */

export type RecordValues = Updateable<MetadataTable>;
export type NewRecord = Insertable<MetadataTable>;
export type NewTranslation = Insertable<MetadataI18nTable>;

/** The record's own text columns an author writes (not its id, owner, status, language or times). */
type TextColumn = Exclude<
  { [K in keyof MetadataTable]: MetadataTable[K] extends string ? K : never }[keyof MetadataTable],
  'id' | 'owner_id' | 'status' | 'language' | 'created_at' | 'updated_at'
>;
const NUMBER_FIELDS = new Set(['file_size', 'east', 'south', 'west', 'north', 'scale']);
/**
 * A record's own fields at their columns' defaults ('' for texts, null for numbers): the update
 * schema names every field an author writes. Whole rows, for multi-row inserts.
 */
export const EMPTY_RECORD_FIELDS = {
  ...(Object.fromEntries(
    Object.keys(metadataUpdateSchema.shape)
      .filter((f) => !NUMBER_FIELDS.has(f))
      .map((f) => [f, '']),
  ) as Record<TextColumn, string>),
  file_size: null,
  east: null,
  south: null,
  west: null,
  north: null,
  scale: null,
};
/** A translation's fields at their defaults (''). */
export const EMPTY_TRANSLATION_FIELDS = Object.fromEntries(Object.keys(metadataI18nFields).map((f) => [f, ''])) as Record<
  Exclude<keyof MetadataI18nTable, 'id' | 'metadata_id' | 'language'>,
  string
>;

/** Tables copied by duplication: links to shared entities, not the stored files. */
const COPIED_LINKS = ['meta_author', 'citations', 'meta_keyword', 'meta_keyword_standard', 'meta_discipline', 'meta_fund', 'meta_special', 'online_resources'] as const;

export class MetadataWritesRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** A new draft and its (empty) version in the other language. */
  async insertDraft(trx: Tx, record: { id: string; owner_id: string; language: string; title: string; now: string }, otherLanguage: string): Promise<void> {
    const { now, ...own } = record;
    await trx
      .insertInto('metadata')
      .values({ ...EMPTY_RECORD_FIELDS, ...own, status: 'draft', created_at: now, updated_at: now })
      .execute();
    await trx
      .insertInto('metadata_i18n')
      .values({ ...EMPTY_TRANSLATION_FIELDS, id: newId(), metadata_id: record.id, language: otherLanguage })
      .execute();
  }

  async update(trx: Tx, id: string, values: RecordValues): Promise<void> {
    await trx.updateTable('metadata').set(values).where('id', '=', id).execute();
  }

  async delete(trx: Tx, id: string): Promise<void> {
    await trx.deleteFrom('metadata').where('id', '=', id).execute();
  }

  /** Marks the records as changed at `now` (lists sort by it); in a transaction, this locks their rows. */
  async touch(trx: Db, ids: readonly string[], now: string): Promise<void> {
    if (ids.length) await trx.updateTable('metadata').set({ updated_at: now }).where('id', 'in', ids).execute();
  }

  /** A copy of the record (`copy`: its own new values) with its translations and its links to shared entries. */
  async copy(trx: Tx, source: MetadataRow, copy: Partial<MetadataRow> & { id: string }): Promise<void> {
    await trx
      .insertInto('metadata')
      .values({ ...source, ...copy })
      .execute();
    for (const translation of await trx.selectFrom('metadata_i18n').selectAll().where('metadata_id', '=', source.id).execute()) {
      await trx
        .insertInto('metadata_i18n')
        .values({ ...translation, id: newId(), metadata_id: copy.id })
        .execute();
    }
    // The link tables through the generic resources' view: one statement a table, whatever its columns.
    const links = new ResourcesRepo(trx);
    for (const table of COPIED_LINKS) {
      const rows = await links.rowsWhere(table, 'metadata_id', [source.id]);
      await links.insert(
        table,
        rows.map((row) => ({ ...row, id: newId(), metadata_id: copy.id })),
      );
    }
  }

  /**
   * Moves the record from the status (and review round) it was read in; false when another request
   * moved it first. Run first in its transaction, it holds the record's row until the transaction ends.
   */
  async moveStatus(trx: Tx, record: Pick<MetadataRow, 'id' | 'status' | 'review_round'>, to: string, values: RecordValues): Promise<boolean> {
    const result = await trx
      .updateTable('metadata')
      .set({ ...values, status: to, updated_at: new Date().toISOString() })
      .where('id', '=', record.id)
      .where('status', '=', record.status)
      .where('review_round', '=', record.review_round)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Touches the record inside the transaction, which locks it, and answers it as it is now (the
   * status judged is the one after any concurrent change); undefined when it is gone.
   */
  async lockRecord(trx: Tx, metadataId: string, now: string): Promise<MetadataRow | undefined> {
    const result = await trx.updateTable('metadata').set({ updated_at: now }).where('id', '=', metadataId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return trx.selectFrom('metadata').selectAll().where('id', '=', metadataId).executeTakeFirst();
  }

  /** Adds to the records' view or download counts: `added` by record id, the rows in the given order. */
  async addCounts(trx: Db, column: 'hit_count' | 'download_count', added: ReadonlyMap<string, number>, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    const amount = sql<number>`case ${sql.ref('id')} ${sql.join(
      ids.map((id) => sql`when ${id} then ${added.get(id) ?? 0}`),
      sql` `,
    )} else 0 end`;
    await trx
      .updateTable('metadata')
      .set((eb) => ({ [column]: eb(column, '+', amount) }))
      .where('id', 'in', ids)
      .execute();
  }
}
