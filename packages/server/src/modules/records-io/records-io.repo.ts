import { insertInChunks, type AnyRow, type Db, type Dialect, type Tx } from '../../db/index.js';
import { AccountDirectory } from '../account/index.js';
import { RecordImport } from '../metadata/index.js';

/**
 * What importing and exporting published records reach: the records and their shared entries
 * through the metadata module (RecordImport), the accounts through the account module. Its own
 * SQL is the review trail's entry of each imported record.
 */
export class RecordsIoRepo {
  readonly records: RecordImport;
  readonly accounts: AccountDirectory;

  constructor(db: Db, dialect: Dialect) {
    this.records = new RecordImport(db, dialect);
    this.accounts = new AccountDirectory(db);
  }

  /**
   * The `publish_without_review` step of each imported record in its review trail. (review_events
   * is the review module's table; an import writes its first entry in the importing transaction.)
   */
  async insertTrail(trx: Tx, events: AnyRow[]): Promise<void> {
    await insertInChunks(trx, 'review_events', events);
  }
}
