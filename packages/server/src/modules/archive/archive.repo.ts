import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { ArchiveTable } from '../../db/schema.js';

export type ArchiveRow = Selectable<ArchiveTable>;

/** What a check of the record's files found: their fingerprint, count and bytes, and the state that follows. */
export interface FileFacts {
  fingerprint: string;
  file_count: number;
  data_bytes: number;
  /** 'pending' (to build) or 'too_large'. */
  state: 'pending' | 'too_large';
}

/** The columns of an archive that no longer stands for the record's files: nothing built, no build under way. */
const NOTHING_BUILT = { storage_key: null, size: null, sha256: null, built_at: null, builder: null, lease_until: null, attempts: 0, retry_at: null, error: null } as const;

/**
 * The only SQL of `archives` (migration 0019). It reads the records' status and `updated_at` (the
 * metadata module's, read only) to find what to check; every write of a build is conditional on the
 * build's own token, so a build overtaken by a change (or by another instance) writes nothing.
 */
export class ArchiveRepo {
  constructor(readonly db: Db) {}

  withDb(db: Db): ArchiveRepo {
    return new ArchiveRepo(db);
  }

  find(metadataId: string): Promise<ArchiveRow | undefined> {
    return this.db.selectFrom('archives').selectAll().where('metadata_id', '=', metadataId).executeTakeFirst();
  }

  /** In a record's writing transaction: its archive is to be compared with its files again. */
  async recheck(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.db.updateTable('archives').set({ checked_at: '' }).where('metadata_id', 'in', ids).execute();
  }

  /**
   * Records the check of a record's files at `checkedAt`: the same fingerprint keeps the archive (and
   * any build under way); another one resets it to `facts.state`. Answers the row and the blob an
   * archive of other files had, for the caller to delete.
   */
  async noteCheck(metadataId: string, facts: FileFacts, checkedAt: string): Promise<{ row: ArchiveRow; replaced: string | null }> {
    return this.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const values = { fingerprint: facts.fingerprint, file_count: facts.file_count, data_bytes: facts.data_bytes, checked_at: checkedAt, updated_at: now };
      await trx
        .insertInto('archives')
        .values({ metadata_id: metadataId, state: facts.state, attempts: 0, ...values })
        .onConflict((oc) => oc.column('metadata_id').doNothing())
        .execute();
      // The row's lock on PostgreSQL (SQLite's write lock is taken already): a build's finish waits for this, or this for it.
      await trx.updateTable('archives').set({ updated_at: now }).where('metadata_id', '=', metadataId).execute();
      const row = await trx.selectFrom('archives').selectAll().where('metadata_id', '=', metadataId).executeTakeFirstOrThrow();
      if (row.fingerprint === facts.fingerprint && !(row.state === 'too_large' && facts.state === 'pending')) {
        await trx.updateTable('archives').set({ checked_at: checkedAt }).where('metadata_id', '=', metadataId).execute();
        return { row: { ...row, checked_at: checkedAt }, replaced: null };
      }
      const reset = { ...NOTHING_BUILT, ...values, state: facts.state };
      await trx.updateTable('archives').set(reset).where('metadata_id', '=', metadataId).execute();
      return { row: { ...row, ...reset }, replaced: row.storage_key };
    });
  }

  /**
   * Published records whose archive is missing or to be checked again (their row changed at or after
   * the last check, or a change event asked for it), at most `limit`.
   */
  async toCheck(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('metadata')
      .leftJoin('archives', 'archives.metadata_id', 'metadata.id')
      .select('metadata.id')
      .where('metadata.status', '=', 'published')
      .where((eb) => eb.or([eb('archives.metadata_id', 'is', null), eb('archives.checked_at', '<=', eb.ref('metadata.updated_at'))]))
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Archives of records that are no longer published (or gone): their blob and row are to go. */
  async orphans(limit: number): Promise<ArchiveRow[]> {
    return this.db
      .selectFrom('archives')
      .leftJoin('metadata', 'metadata.id', 'archives.metadata_id')
      .selectAll('archives')
      .where((eb) => eb.or([eb('metadata.id', 'is', null), eb('metadata.status', '!=', 'published')]))
      .limit(limit)
      .execute();
  }

  /** Deletes the archive row if it still names this blob (or none); answers whether it did. */
  async drop(metadataId: string, storageKey: string | null): Promise<boolean> {
    let query = this.db.deleteFrom('archives').where('metadata_id', '=', metadataId);
    query = storageKey === null ? query.where('storage_key', 'is', null) : query.where('storage_key', '=', storageKey);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Takes one archive to build for `builder` until `leaseUntil`: a pending one, a failed one whose
   * retry time has come, or one whose build's lease ran out (its process died). Answers the row as it
   * was, or undefined when there is none (or another instance took it first).
   */
  async claim(builder: string, now: string, leaseUntil: string): Promise<ArchiveRow | undefined> {
    const due = (db: Db) =>
      db
        .selectFrom('archives')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('state', '=', 'pending'),
            eb.and([eb('state', '=', 'building'), eb('lease_until', '<', now)]),
            eb.and([eb('state', '=', 'failed'), eb('retry_at', '<=', now)]),
          ]),
        );
    for (const candidate of await due(this.db).orderBy('updated_at').limit(5).execute()) {
      const taken = await this.db
        .updateTable('archives')
        .set({ state: 'building', builder, lease_until: leaseUntil, updated_at: now })
        .where('metadata_id', '=', candidate.metadata_id)
        .where('state', '=', candidate.state)
        .where('updated_at', '=', candidate.updated_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return candidate;
    }
    return undefined;
  }

  /** Keeps the build's hold on its row; false when it lost it (the files changed, the record went). */
  async renew(metadataId: string, builder: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db.updateTable('archives').set({ lease_until: leaseUntil }).where('metadata_id', '=', metadataId).where('builder', '=', builder).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Ends a build with `values` if it still holds its row and the files it read are still the
   * record's (`fingerprint`); answers whether it did, and the blob of the archive it replaces.
   */
  async finish(metadataId: string, builder: string, fingerprint: string, values: Updateable<ArchiveTable>): Promise<{ done: boolean; replaced: string | null }> {
    return this.db.transaction().execute(async (trx) => {
      // Locks the row while it is still this build's (an UPDATE: SQLite has no FOR UPDATE).
      const held = await trx.updateTable('archives').set({ builder }).where('metadata_id', '=', metadataId).where('builder', '=', builder).executeTakeFirst();
      if (Number(held.numUpdatedRows) !== 1) return { done: false, replaced: null };
      const row = await trx.selectFrom('archives').selectAll().where('metadata_id', '=', metadataId).executeTakeFirstOrThrow();
      if (row.fingerprint !== fingerprint) return { done: false, replaced: null };
      await trx
        .updateTable('archives')
        .set({ ...values, builder: null, lease_until: null, updated_at: new Date().toISOString() })
        .where('metadata_id', '=', metadataId)
        .execute();
      return { done: true, replaced: row.storage_key && row.storage_key !== values.storage_key ? row.storage_key : null };
    });
  }

  /** The build read other files than the check did: its row takes their facts, while the build holds it. */
  async adopt(metadataId: string, builder: string, facts: FileFacts): Promise<boolean> {
    const result = await this.db
      .updateTable('archives')
      .set({ fingerprint: facts.fingerprint, file_count: facts.file_count, data_bytes: facts.data_bytes })
      .where('metadata_id', '=', metadataId)
      .where('builder', '=', builder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives the row back as pending (the process stops in the middle of its build). */
  async release(metadataId: string, builder: string): Promise<void> {
    await this.db
      .updateTable('archives')
      .set({ state: 'pending', builder: null, lease_until: null, updated_at: new Date().toISOString() })
      .where('metadata_id', '=', metadataId)
      .where('builder', '=', builder)
      .execute();
  }
}
