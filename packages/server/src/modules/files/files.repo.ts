import type { Insertable, Selectable } from 'kysely';
import { lockUserRow, type Db, type Tx } from '../../db/index.js';
import type { MetaMediaTable, StoredFileTable } from '../../db/schema.js';
import type { AuthenticatedUser } from '../account/index.js';
import { MetadataAccess } from '../metadata/index.js';

/** Data files (`meta_file`) and specification documents (`meta_attach`) share one shape. */
export type FileKind = 'file' | 'attach';
export type StoredFileRow = Selectable<StoredFileTable>;
export type MediaRow = Selectable<MetaMediaTable>;

const TABLE = { file: 'meta_file', attach: 'meta_attach' } as const;

export interface Slice {
  offset: number;
  limit: number;
}

/** Inserted, or refused because the record has its maximum already, the uploader's quota is used up or the name is taken. */
export type InsertResult = 'inserted' | 'full' | 'quota' | 'exists';

/** The uploader's storage quota: their stored bytes with the new file stay within `bytes`. */
export interface Quota {
  userId: string;
  bytes: number;
}

/**
 * What is judged again under the record's lock: the record policy's `action` for the caller
 * (MetadataAccess.lockFor: `update` for documents and thumbnails, `changeFiles` for data files),
 * the record having changed since the check made before the bytes streamed, and their quota (none
 * for staff, record-policy.ts storageQuotaApplies).
 */
export interface WriteCondition {
  user: AuthenticatedUser;
  action: 'update' | 'changeFiles';
  quota?: Quota;
}

/** The only SQL of the stored files of a record. */
export class FilesRepo {
  /**
   * `records`: the metadata module, which locks a record for a file's write (it owns the record's
   * row); one of its own on this database when not given (it tells no events).
   */
  constructor(
    readonly db: Db,
    private readonly records: Pick<MetadataAccess, 'lockFor'> = new MetadataAccess(db),
  ) {}

  async count(kind: FileKind, metadataId: string): Promise<number> {
    return countOf(this.db, TABLE[kind], metadataId);
  }

  /** Bytes of every file the user uploaded (data files, documents, thumbnails as uploaded). */
  async storedBytesOf(userId: string): Promise<number> {
    return storedBytesOf(this.db, userId);
  }

  /** One page of a record's files, with the count and the bytes of all of them (one aggregate over the metadata_id index). */
  async page(kind: FileKind, metadataId: string, slice: Slice): Promise<{ count: number; bytes: number; rows: StoredFileRow[] }> {
    const [totals, rows] = await Promise.all([
      this.db
        .selectFrom(TABLE[kind])
        .select((eb) => [eb.fn.countAll().as('count'), eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.val(0)).as('bytes')])
        .where('metadata_id', '=', metadataId)
        .executeTakeFirstOrThrow(),
      this.db.selectFrom(TABLE[kind]).selectAll().where('metadata_id', '=', metadataId).orderBy('created_at').orderBy('id').offset(slice.offset).limit(slice.limit).execute(),
    ]);
    return { count: Number(totals.count), bytes: Number(totals.bytes), rows };
  }

  find(kind: FileKind, id: string): Promise<StoredFileRow | undefined> {
    return this.db.selectFrom(TABLE[kind]).selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Inserts the row unless the record already has `max` rows of this kind. The record's row is
   * updated first (its `updated_at`: a file change is a change of the record), which locks it on
   * PostgreSQL and takes the write lock on SQLite, so two uploads at once cannot both be the 5th.
   * The caller's right is judged again under that lock (the access check ran before the file was
   * streamed, and the record may have changed since): refused, the error is thrown and nothing is written.
   */
  async insertWithin(kind: FileKind, row: Insertable<StoredFileTable>, max: number, condition: WriteCondition): Promise<InsertResult> {
    return this.db.transaction().execute(async (trx) => {
      const refusal = await this.records.lockFor(trx, condition.user, condition.action, row.metadata_id, row.created_at);
      if (refusal) throw refusal;
      if ((await countOf(trx, TABLE[kind], row.metadata_id)) >= max) return 'full';
      if (await isOverQuota(trx, condition.quota, Number(row.size))) return 'quota';
      // A data file goes to the root of the record's tree, where its name must be free (file-tree.repo.ts).
      if (kind === 'file' && (await nameTakenAtRoot(trx, row.metadata_id, row.name))) return 'exists';
      if (kind === 'file')
        await trx
          .insertInto('meta_file')
          .values({ ...row, modified_at: row.created_at })
          .execute();
      else await trx.insertInto(TABLE[kind]).values(row).execute();
      return 'inserted';
    });
  }

  /** Deletes one row and returns it (its blob is the caller's to delete). */
  remove(kind: FileKind, id: string, trx: Db | Tx = this.db): Promise<StoredFileRow | undefined> {
    return trx.deleteFrom(TABLE[kind]).where('id', '=', id).returningAll().executeTakeFirst();
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
   * record). Returns the rows it replaced, whose blobs the caller deletes (the record is locked and
   * the caller's right judged again first, as in insertWithin: refused, the error is thrown).
   */
  async replaceMedia(row: Insertable<MetaMediaTable>, condition: WriteCondition): Promise<MediaRow[] | 'quota'> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const refusal = await this.records.lockFor(trx, condition.user, condition.action, row.metadata_id, row.created_at);
        if (refusal) throw refusal;
        const replaced = await trx
          .deleteFrom('meta_media')
          .where('metadata_id', '=', row.metadata_id)
          .where('type', '=', row.type ?? '')
          .returningAll()
          .execute();
        // Counted after the replaced rows are gone; over the quota, the transaction is rolled back.
        if (await isOverQuota(trx, condition.quota, Number(row.size))) throw new QuotaExceeded();
        await trx.insertInto('meta_media').values(row).execute();
        return replaced;
      });
    } catch (error) {
      if (error instanceof QuotaExceeded) return 'quota';
      throw error;
    }
  }

  removeMedia(id: string): Promise<MediaRow | undefined> {
    return this.db.deleteFrom('meta_media').where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Deletes every stored-file row of a record and returns the keys of their blobs. */
  async removeAllOf(metadataId: string): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const media = await trx.deleteFrom('meta_media').where('metadata_id', '=', metadataId).returning(['storage_key', 'resized_key']).execute();
      const attachments = await trx.deleteFrom('meta_attach').where('metadata_id', '=', metadataId).returning('storage_key').execute();
      const files = await trx.deleteFrom('meta_file').where('metadata_id', '=', metadataId).returning('storage_key').execute();
      return [...media.flatMap((m) => [m.storage_key, m.resized_key]), ...attachments.map((a) => a.storage_key), ...files.map((f) => f.storage_key)].filter((key) => key !== '');
    });
  }
}

async function countOf(db: Db, table: (typeof TABLE)[FileKind], metadataId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .where('metadata_id', '=', metadataId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function nameTakenAtRoot(trx: Tx, metadataId: string, name: string): Promise<boolean> {
  for (const table of ['meta_file', 'meta_folder'] as const) {
    const row = await trx.selectFrom(table).select('id').where('metadata_id', '=', metadataId).where('path', '=', '/').where('name', '=', name).executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/** Rolls back a transaction that would take the uploader over their quota. */
class QuotaExceeded extends Error {}

async function storedBytesOf(db: Db, userId: string): Promise<number> {
  let total = 0;
  for (const table of ['meta_file', 'meta_attach', 'meta_media'] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.val(0)).as('bytes'))
      .where('created_by', '=', userId)
      .executeTakeFirstOrThrow();
    total += Number(row.bytes);
  }
  return total;
}

/** The bytes an uploader's stored files hold now, their row locked first (so that a batch of writes adds to a total nobody else changes meanwhile). */
export async function lockedStoredBytes(trx: Tx, userId: string): Promise<number> {
  await lockUserRow(trx, userId);
  return storedBytesOf(trx, userId);
}

/** Whether `size` more bytes would take the uploader over their quota; locks their row first. */
export async function isOverQuota(trx: Tx, quota: Quota | undefined, size: number): Promise<boolean> {
  if (!quota) return false;
  await lockUserRow(trx, quota.userId);
  return (await storedBytesOf(trx, quota.userId)) + size > quota.bytes;
}
