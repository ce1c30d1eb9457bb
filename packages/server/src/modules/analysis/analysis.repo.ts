import { sql, type SqlBool } from 'kysely';
import type { Db, Tx } from '../../db/index.js';
import type { AnalysisMethodTable, AnalysisMethodVersionTable, AnalysisRunTable } from '../../db/schema.js';
import { translationTitle } from '../metadata/index.js';

/** A method with its current version's text and its author's name. */
export type MethodRow = AnalysisMethodTable &
  Omit<AnalysisMethodVersionTable, 'id' | 'method_id' | 'created_at'> & {
    version_id: string;
    author_username: string | null;
    author_realname: string | null;
    forks: number | string;
  };

export type RunRow = AnalysisRunTable;
export type VersionRow = AnalysisMethodVersionTable;
/** A run as its list shows it: its inputs and state with its version's names, not its result. */
export type RunListRow = Pick<RunRow, 'id' | 'status' | 'method_id' | 'datasets' | 'parameters' | 'error' | 'created_at' | 'finished_at'> &
  Pick<VersionRow, 'version' | 'name' | 'name_en'>;
/** A record's titles as stored (its own language's and its translation's), with what decides who may read them. */
export interface DatasetTitleRow {
  id: string;
  title: string;
  language: string;
  status: string;
  owner_id: string;
  translation_title: string | null;
}

export interface MethodFilter {
  /** Public methods (and the caller's own public ones). */
  publicOnly: boolean;
  /** Only this user's methods. */
  ownerId?: string;
  /** A piece of the name in either language or of the description, lower case. */
  search?: string;
  /** Forks of this method only. */
  forkedFrom?: string;
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
      sql<number | string>`(select count(*) from analysis_methods f where f.forked_from = m.id and f.deleted_at is null)`.as('forks'),
    ]);
  }

  method(id: string, db: Db | Tx = this.db): Promise<MethodRow | undefined> {
    return this.selected(this.methods(db).where('m.id', '=', id)).executeTakeFirst();
  }

  async page(filter: MethodFilter, offset: number, limit: number): Promise<{ count: number; rows: MethodRow[] }> {
    let query = this.methods();
    if (filter.publicOnly) query = query.where('m.public', '=', 1);
    if (filter.ownerId) query = query.where('m.owner_id', '=', filter.ownerId);
    if (filter.forkedFrom) query = query.where('m.forked_from', '=', filter.forkedFrom);
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

  /** Every version of a method, the newest first. */
  versions(methodId: string): Promise<VersionRow[]> {
    return this.db.selectFrom('analysis_method_versions').selectAll().where('method_id', '=', methodId).orderBy('version', 'desc').execute();
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

  /** A user's runs still queued or running. */
  async pendingRuns(userId: string): Promise<number> {
    const counted = await this.db
      .selectFrom('analysis_runs')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(counted.count);
  }

  run(id: string): Promise<RunRow | undefined> {
    return this.db.selectFrom('analysis_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A user's runs (of one method, when given), newest first. */
  async runsOf(userId: string, methodId: string | undefined, offset: number, limit: number): Promise<{ count: number; rows: RunListRow[] }> {
    let query = this.db.selectFrom('analysis_runs as r').innerJoin('analysis_method_versions as v', 'v.id', 'r.version_id').where('r.user_id', '=', userId);
    if (methodId) query = query.where('r.method_id', '=', methodId);
    const counted = await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .select(['r.id', 'r.status', 'r.method_id', 'r.datasets', 'r.parameters', 'r.error', 'r.created_at', 'r.finished_at', 'v.version', 'v.name', 'v.name_en'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id')
      .offset(offset)
      .limit(limit)
      .execute();
    return { count: Number(counted.count), rows };
  }

  /** The titles of records (read here, written by the metadata module). */
  datasetTitles(ids: readonly string[]): Promise<DatasetTitleRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('metadata')
      .select(['metadata.id', 'metadata.title', 'metadata.language', 'metadata.status', 'metadata.owner_id', translationTitle.as('translation_title')])
      .where('metadata.id', 'in', [...new Set(ids)])
      .execute();
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
