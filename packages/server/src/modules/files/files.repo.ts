import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, MetaMediaTable, StoredFileTable } from '../../db/schema.js';

/** Data files (`meta_file`) and specification documents (`meta_attach`) share one shape. */
export type FileKind = 'file' | 'attach';
export type StoredFileRow = Selectable<StoredFileTable>;
export type MediaRow = Selectable<MetaMediaTable>;

const TABLE = { file: 'meta_file', attach: 'meta_attach' } as const;

export interface Slice {
  offset: number;
  limit: number;
}

/** Inserted, refused because the record has its maximum already, or the record is gone. */
export type InsertResult = 'inserted' | 'full' | 'gone';

/** The only SQL of the stored files of a record. */
export class FilesRepo {
  constructor(readonly db: Db) {}

  async count(kind: FileKind, metadataId: string): Promise<number> {
    return countOf(this.db, TABLE[kind], metadataId);
  }

  async page(kind: FileKind, metadataId: string, slice: Slice): Promise<{ count: number; rows: StoredFileRow[] }> {
    const [count, rows] = await Promise.all([
      this.count(kind, metadataId),
      this.db
        .selectFrom(TABLE[kind])
        .selectAll()
        .where('metadata_id', '=', metadataId)
        .orderBy('created_at')
        .orderBy('id')
        .offset(slice.offset)
        .limit(slice.limit)
        .execute(),
    ]);
    return { count, rows };
  }

  find(kind: FileKind, id: string): Promise<StoredFileRow | undefined> {
    return this.db.selectFrom(TABLE[kind]).selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Inserts the row unless the record already has `max` rows of this kind. The record's row is
   * updated first (its `updated_at`: a file change is a change of the record), which locks it on
   * PostgreSQL and takes the write lock on SQLite, so two uploads at once cannot both be the 5th.
   */
  async insertWithin(kind: FileKind, row: Insertable<StoredFileTable>, max: number): Promise<InsertResult> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockRecord(trx, row.metadata_id, row.created_at))) return 'gone';
      if ((await countOf(trx, TABLE[kind], row.metadata_id)) >= max) return 'full';
      await trx.insertInto(TABLE[kind]).values(row).execute();
      return 'inserted';
    });
  }

  /** Deletes one row and returns it (its blob is the caller's to delete). */
  remove(kind: FileKind, id: string): Promise<StoredFileRow | undefined> {
    return this.db.deleteFrom(TABLE[kind]).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async mediaPage(metadataId: string, type: string | undefined, slice: Slice): Promise<{ count: number; rows: MediaRow[] }> {
    let rows = this.db.selectFrom('meta_media').where('metadata_id', '=', metadataId);
    if (type !== undefined) rows = rows.where('type', '=', type);
    const [counted, page] = await Promise.all([
      rows.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
      rows.selectAll().orderBy('created_at').orderBy('id').offset(slice.offset).limit(slice.limit).execute(),
    ]);
    return { count: Number(counted.count), rows: page };
  }

  findMedia(id: string): Promise<MediaRow | undefined> {
    return this.db.selectFrom('meta_media').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Inserts a media row and deletes the record's other rows of the same type (one thumbnail per
   * record). Returns the rows it replaced, whose blobs the caller deletes, or 'gone'.
   */
  async replaceMedia(row: Insertable<MetaMediaTable>): Promise<MediaRow[] | 'gone'> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockRecord(trx, row.metadata_id, row.created_at))) return 'gone';
      const replaced = await trx
        .deleteFrom('meta_media')
        .where('metadata_id', '=', row.metadata_id)
        .where('type', '=', row.type ?? '')
        .returningAll()
        .execute();
      await trx.insertInto('meta_media').values(row).execute();
      return replaced;
    });
  }

  removeMedia(id: string): Promise<MediaRow | undefined> {
    return this.db.deleteFrom('meta_media').where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Deletes every stored-file row of a record and returns the keys of their blobs. */
  async removeAllOf(metadataId: string): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const media = await trx
        .deleteFrom('meta_media')
        .where('metadata_id', '=', metadataId)
        .returning(['storage_key', 'resized_key'])
        .execute();
      const attachments = await trx.deleteFrom('meta_attach').where('metadata_id', '=', metadataId).returning('storage_key').execute();
      const files = await trx.deleteFrom('meta_file').where('metadata_id', '=', metadataId).returning('storage_key').execute();
      return [
        ...media.flatMap((m) => [m.storage_key, m.resized_key]),
        ...attachments.map((a) => a.storage_key),
        ...files.map((f) => f.storage_key),
      ].filter((key) => key !== '');
    });
  }
}

async function countOf(db: Db | Transaction<Database>, table: (typeof TABLE)[FileKind], metadataId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .where('metadata_id', '=', metadataId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Touches the record inside the transaction; false when it no longer exists. */
async function lockRecord(trx: Transaction<Database>, metadataId: string, now: string): Promise<boolean> {
  const result = await trx.updateTable('metadata').set({ updated_at: now }).where('id', '=', metadataId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
