import type { Db } from '../../db/index.js';
import type { FtpAccountTable } from '../../db/schema.js';

export type FtpAccountRow = FtpAccountTable;
export type FtpKind = 'download' | 'upload';

/** The FTP module's table, `ftp_accounts` (migration 0018). */
export class FtpRepo {
  constructor(private readonly db: Db) {}

  byUsername(username: string) {
    return this.db.selectFrom('ftp_accounts').selectAll().where('username', '=', username).executeTakeFirst();
  }

  byId(id: string) {
    return this.db.selectFrom('ftp_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user's account of this kind on the record, if any. */
  ofUser(kind: FtpKind, userId: string, metadataId: string) {
    return this.db.selectFrom('ftp_accounts').selectAll().where('kind', '=', kind).where('user_id', '=', userId).where('metadata_id', '=', metadataId).executeTakeFirst();
  }

  /** The records the user has upload accounts on. */
  async uploadRecordsOf(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('ftp_accounts').select('metadata_id').distinct().where('kind', '=', 'upload').where('user_id', '=', userId).execute();
    return rows.map((row) => row.metadata_id);
  }

  /** The record's accounts of this kind, oldest first. */
  ofRecord(kind: FtpKind, metadataId: string) {
    return this.db.selectFrom('ftp_accounts').selectAll().where('kind', '=', kind).where('metadata_id', '=', metadataId).orderBy('created_at').orderBy('id').execute();
  }

  /** Puts `row` in the place of the user's account of its kind on its record (one each). */
  async replace(row: FtpAccountRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ftp_accounts').where('kind', '=', row.kind).where('user_id', '=', row.user_id).where('metadata_id', '=', row.metadata_id).execute();
      await trx.insertInto('ftp_accounts').values(row).execute();
    });
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('ftp_accounts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the accounts whose expiry has passed; answers how many. */
  async removeExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('ftp_accounts').where('expires_at', 'is not', null).where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
