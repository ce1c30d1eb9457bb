import type { Insertable, Selectable } from 'kysely';
import { isUniqueViolation, type Db } from '../../db/index.js';
import type { UploadTable } from '../../db/schema.js';

export type UploadRow = Omit<Selectable<UploadTable>, 'total_size' | 'chunk_size'> & { total_size: number; chunk_size: number };

function rowOf(row: Selectable<UploadTable>): UploadRow {
  return { ...row, total_size: Number(row.total_size), chunk_size: Number(row.chunk_size) };
}

/** The only SQL of `uploads` and `upload_chunks`. */
export class UploadsRepo {
  constructor(private readonly db: Db) {}

  /** 'taken' when the record already has an upload with this identifier. */
  async insert(row: Insertable<UploadTable>): Promise<'inserted' | 'taken'> {
    try {
      await this.db.insertInto('uploads').values(row).execute();
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  async find(id: string): Promise<UploadRow | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    return row && rowOf(row);
  }

  async findByIdentifier(metadataId: string, identifier: string): Promise<UploadRow | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('metadata_id', '=', metadataId).where('identifier', '=', identifier).executeTakeFirst();
    return row && rowOf(row);
  }

  /** The declared bytes of an account's uploads under way (they count against its quota before they are stored). */
  async reservedBytes(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.sum<number | string | null>('total_size').as('bytes'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
  }

  async addChunk(uploadId: string, number: number): Promise<number> {
    await this.db
      .insertInto('upload_chunks')
      .values({ upload_id: uploadId, number })
      .onConflict((oc) => oc.columns(['upload_id', 'number']).doNothing())
      .execute();
    const row = await this.db
      .selectFrom('upload_chunks')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async hasChunk(uploadId: string, number: number): Promise<boolean> {
    const row = await this.db.selectFrom('upload_chunks').select('number').where('upload_id', '=', uploadId).where('number', '=', number).executeTakeFirst();
    return !!row;
  }

  async touch(id: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('uploads').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  /** Takes the upload for finishing; false when another request took it first. */
  async claim(id: string): Promise<boolean> {
    const result = await this.db.updateTable('uploads').set({ state: 'finishing' }).where('id', '=', id).where('state', '=', 'open').executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('uploads').where('id', '=', id).execute();
  }

  /** Removes the uploads that expired before `now` and answers their ids. */
  async removeExpired(now: string): Promise<string[]> {
    const rows = await this.db.deleteFrom('uploads').where('expires_at', '<', now).returning('id').execute();
    return rows.map((row) => row.id);
  }

  /** Which of these ids still have a row. */
  async existing(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('uploads')
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      rows.forEach((row) => found.add(row.id));
    }
    return found;
  }
}
