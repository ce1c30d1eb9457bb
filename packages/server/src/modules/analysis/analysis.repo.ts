import { sql, type SqlBool } from 'kysely';
import type { Db, Tx } from '../../db/index.js';
import type { AnalysisMethodTable, AnalysisMethodVersionTable, AnalysisRunTable } from '../../db/schema.js';

/** A method with its current version's text and its author's name. */
export type MethodRow = AnalysisMethodTable &
  Omit<AnalysisMethodVersionTable, 'id' | 'method_id' | 'created_at'> & { version_id: string; author_username: string | null; author_realname: string | null };

export type RunRow = AnalysisRunTable;
export type VersionRow = AnalysisMethodVersionTable;

export interface MethodFilter {
  /** Public methods (and the caller's own public ones). */
  publicOnly: boolean;
  /** Only this user's methods. */
  ownerId?: string;
  /** A piece of the name in either language or of the description, lower case. */
  search?: string;
}

/** The queries of the analysis module (migration 0022's tables). */
export class AnalysisRepo {
  constructor(readonly db: Db) {}

  private methods(db: Db | Tx = this.db) {
    return db
      .selectFrom('analysis_methods as m')
      .innerJoin('analysis_method_versions as v', (join) => join.onRef('v.method_id', '=', 'm.id').onRef('v.version', '=', 'm.current_version'))
      .leftJoin('users as u', 'u.id', 'm.owner_id')
      .where('m.deleted_at', 'is', null);
  }

  private selected<T extends ReturnType<AnalysisRepo['methods']>>(query: T) {
    return query.select([
      'm.id',
      'm.owner_id',
      'm.public',
      'm.current_version',
      'm.forked_from',
      'm.uses',
      'm.created_at',
      'm.updated_at',
      'm.deleted_at',
      'v.id as version_id',
      'v.version',
      'v.name',
      'v.name_en',
      'v.description',
      'v.description_en',
      'v.sql',
      'v.parameters',
      'v.chart',
      'u.username as author_username',
      'u.realname as author_realname',
    ]);
  }

  method(id: string, db: Db | Tx = this.db): Promise<MethodRow | undefined> {
    return this.selected(this.methods(db).where('m.id', '=', id)).executeTakeFirst();
  }

  async page(filter: MethodFilter, offset: number, limit: number): Promise<{ count: number; rows: MethodRow[] }> {
    let query = this.methods();
    if (filter.publicOnly) query = query.where('m.public', '=', 1);
    if (filter.ownerId) query = query.where('m.owner_id', '=', filter.ownerId);
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(
        sql<SqlBool>`(lower(v.name) like ${pattern} escape '\\' or lower(v.name_en) like ${pattern} escape '\\' or lower(v.description) like ${pattern} escape '\\' or lower(v.description_en) like ${pattern} escape '\\')`,
      );
    }
    const counted = await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    const rows = await this.selected(query).orderBy('m.uses', 'desc').orderBy('m.created_at', 'desc').orderBy('m.id').offset(offset).limit(limit).execute();
    return { count: Number(counted.count), rows };
  }

  async insertMethod(trx: Tx, method: Omit<AnalysisMethodTable, 'uses' | 'deleted_at'>, version: AnalysisMethodVersionTable): Promise<void> {
    await trx
      .insertInto('analysis_methods')
      .values({ ...method, uses: 0, deleted_at: null })
      .execute();
    await trx.insertInto('analysis_method_versions').values(version).execute();
  }

  async insertVersion(trx: Tx, version: AnalysisMethodVersionTable, changes: { public: number; updated_at: string }): Promise<void> {
    await trx.insertInto('analysis_method_versions').values(version).execute();
    await trx
      .updateTable('analysis_methods')
      .set({ current_version: version.version, ...changes })
      .where('id', '=', version.method_id)
      .execute();
  }

  async setPublic(trx: Tx, id: string, isPublic: number, now: string): Promise<void> {
    await trx.updateTable('analysis_methods').set({ public: isPublic, updated_at: now }).where('id', '=', id).execute();
  }

  async markDeleted(id: string, now: string): Promise<void> {
    await this.db.updateTable('analysis_methods').set({ deleted_at: now, public: 0, updated_at: now }).where('id', '=', id).execute();
  }

  /** Locks the method's row for an edit (PostgreSQL; SQLite writes one at a time). */
  async lock(trx: Tx, id: string): Promise<void> {
    await trx.updateTable('analysis_methods').set({ id }).where('id', '=', id).execute();
  }

  version(id: string): Promise<VersionRow | undefined> {
    return this.db.selectFrom('analysis_method_versions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertRun(run: RunRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('analysis_runs').values(run).execute();
      await trx
        .updateTable('analysis_methods')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('id', '=', run.method_id)
        .execute();
    });
  }

  run(id: string): Promise<RunRow | undefined> {
    return this.db.selectFrom('analysis_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateRun(id: string, changes: Partial<Omit<RunRow, 'id'>>): Promise<void> {
    await this.db.updateTable('analysis_runs').set(changes).where('id', '=', id).execute();
  }

  /** Takes a queued run for this process: false when another process (or an earlier call) took it. */
  async claim(id: string, now: string): Promise<boolean> {
    const result = await this.db.updateTable('analysis_runs').set({ status: 'running', started_at: now }).where('id', '=', id).where('status', '=', 'queued').executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Runs waiting to be taken, oldest first. */
  async queuedIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('analysis_runs').select('id').where('status', '=', 'queued').orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  /** Runs started before `before` and still running: no live process runs one that long (its sandbox kills it first). */
  async failStale(error: string, before: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('analysis_runs')
      .set({ status: 'failed', error, finished_at: now })
      .where('status', '=', 'running')
      .where('started_at', '<', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
