import { randomUUID } from 'node:crypto';
import {
  METHOD_LIMITS,
  translate,
  type AnalysisMethod,
  type AnalysisRun,
  type Language,
  type MethodChart,
  type MethodInput,
  type MethodParameter,
  type MethodPatch,
  type MethodVersion,
  type Page,
  type RunDataset,
  type RunInput,
  type RunStatus,
  type RunSummary,
} from '@portal/shared';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { StoredFiles } from '../files/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { DownloadAccess } from '../orders/index.js';
import { toPageAt, type Paging } from '../../http/paging.js';
import type { AnalysisRepo, DatasetTitleRow, MethodRow, RunRow, VersionRow } from './analysis.repo.js';
import { checkedText, checkedValues } from './method-rules.js';
import { resultCsv, resultFileName } from './run-csv.js';
import { RunViews, type AnalysisTables, type LocalBlobs, type RunView } from './run-views.js';
import { runInSandbox, SANDBOX_STARTUP_MS, type SandboxError, type SandboxLimits } from './sandbox.js';

export interface AnalysisOptions {
  limits: SandboxLimits;
  /** Runs at the same time; the others wait their turn (queued). */
  concurrency: number;
}

const json = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));
const mayRead = (user: AuthenticatedUser | null, row: MethodRow) => row.public === 1 || (!!user && (user.id === row.owner_id || user.is_staff));

/**
 * Analysis methods and their runs (issue 20). A method is owned by its author (null: the data
 * centre's), read by anyone when public, and edited only by its author, each edit a new version. A
 * run takes the method's current version, datasets the runner may download (DownloadAccess, the one
 * rule of every download path) and parameter values; it is queued, run in the sandbox (sandbox.ts)
 * and kept with its inputs and result, read by its runner and staff.
 */
export class AnalysisService {
  private readonly queue: string[] = [];
  private active = 0;
  private readonly stopping = new AbortController();
  private waiting: (() => void)[] = [];
  /** Runs being queued now, by their runner (not yet in the database). */
  private readonly reserving = new Map<string, number>();
  private readonly views: RunViews;

  constructor(
    private readonly repo: AnalysisRepo,
    private readonly access: MetadataAccess,
    private readonly downloads: DownloadAccess,
    storedFiles: StoredFiles,
    tables: AnalysisTables,
    blobs: LocalBlobs,
    private readonly options: AnalysisOptions,
    private readonly log: { error(object: unknown, message: string): void },
  ) {
    this.views = new RunViews(access, downloads, storedFiles, tables, blobs);
  }

  /** Public methods, or the caller's own (`mine`); `forkedFrom`: forks of that method only. */
  async list(user: AuthenticatedUser | null, query: { mine: boolean; search?: string; forkedFrom?: string }, paging: Paging, address: string): Promise<Page<AnalysisMethod>> {
    if (query.mine && !user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const search = query.search?.trim().toLowerCase() || undefined;
    const { count, rows } = await this.repo.page(
      { publicOnly: !query.mine, ownerId: query.mine ? user!.id : undefined, search, forkedFrom: query.forkedFrom },
      (paging.page - 1) * paging.pageSize,
      paging.pageSize,
    );
    return toPageAt(
      address,
      paging,
      count,
      rows.map((row) => this.view(user, row)),
    );
  }

  async get(user: AuthenticatedUser | null, id: string): Promise<AnalysisMethod> {
    return this.view(user, await this.readable(user, id));
  }

  /** Every version of a method the caller may read, the newest first (runs name the version they ran). */
  async versions(user: AuthenticatedUser | null, id: string): Promise<{ results: MethodVersion[] }> {
    const method = await this.readable(user, id);
    const rows = await this.repo.versions(method.id);
    return {
      results: rows.map((row) => ({ version: row.version, ...textOf(row), created_at: row.created_at })),
    };
  }

  async create(user: AuthenticatedUser, input: MethodInput): Promise<AnalysisMethod> {
    const text = checkedText(input);
    const now = new Date().toISOString();
    const id = randomUUID();
    await this.repo.db
      .transaction()
      .execute((trx) =>
        this.repo.insertMethod(
          trx,
          { id, owner_id: user.id, public: input.public ? 1 : 0, current_version: 1, forked_from: null, created_at: now, updated_at: now },
          { id: randomUUID(), method_id: id, version: 1, ...text, created_at: now },
        ),
      );
    return this.get(user, id);
  }

  /** An edit by the author: a new version when the text changes (the older ones stay for their runs). */
  async update(user: AuthenticatedUser, id: string, patch: MethodPatch): Promise<AnalysisMethod> {
    await this.repo.db.transaction().execute(async (trx) => {
      await this.repo.lock(trx, id);
      const row = await this.owned(user, id, trx);
      const current = {
        name: row.name,
        name_en: row.name_en,
        description: row.description,
        description_en: row.description_en,
        sql: row.sql,
        chart: json<MethodChart>(row.chart, null),
      };
      const text = checkedText({ ...current, parameters: json<MethodParameter[]>(row.parameters, []), ...definedOf(patch) });
      const now = new Date().toISOString();
      const isPublic = patch.public === undefined ? row.public : patch.public ? 1 : 0;
      const changed = (Object.keys(text) as (keyof typeof text)[]).some((key) => text[key] !== (key === 'parameters' ? row.parameters : row[key]));
      if (!changed) return this.repo.setPublic(trx, id, isPublic, now);
      await this.repo.insertVersion(trx, { id: randomUUID(), method_id: id, version: row.current_version + 1, ...text, created_at: now }, { public: isPublic, updated_at: now });
    });
    return this.get(user, id);
  }

  async remove(user: AuthenticatedUser, id: string): Promise<void> {
    const row = await this.readable(user, id);
    if (row.owner_id !== user.id && !user.is_staff) throw new AppError('FORBIDDEN', 'analysis.notOwner');
    await this.repo.markDeleted(id, new Date().toISOString());
  }

  /** A copy of a method the caller may read, theirs now (private until they publish it), that remembers its origin. */
  async fork(user: AuthenticatedUser, id: string): Promise<AnalysisMethod> {
    const row = await this.readable(user, id);
    const now = new Date().toISOString();
    const forkId = randomUUID();
    const { name, name_en, description, description_en, sql, parameters, chart } = row;
    await this.repo.db
      .transaction()
      .execute((trx) =>
        this.repo.insertMethod(
          trx,
          { id: forkId, owner_id: user.id, public: 0, current_version: 1, forked_from: id, created_at: now, updated_at: now },
          { id: randomUUID(), method_id: forkId, version: 1, name, name_en, description, description_en, sql, parameters, chart, created_at: now },
        ),
      );
    return this.get(user, forkId);
  }

  /** Queues a run of the method's current version on datasets the caller may download. */
  async startRun(user: AuthenticatedUser, id: string, input: RunInput): Promise<{ id: string; status: RunStatus }> {
    const method = await this.readable(user, id);
    return this.queueRun(user, method.id, method.version_id, json<MethodParameter[]>(method.parameters, []), input);
  }

  /** The same inputs again, on the version the run ran (not the method's current one). */
  async rerun(user: AuthenticatedUser, runId: string): Promise<{ id: string; status: RunStatus }> {
    const run = await this.readableRun(user, runId);
    const version = await this.repo.version(run.version_id);
    if (!version) throw new AppError('NOT_FOUND', 'analysis.methodNotFound');
    return this.queueRun(user, run.method_id, version.id, json<MethodParameter[]>(version.parameters, []), {
      datasets: json<string[]>(run.datasets, []),
      parameters: json<RunInput['parameters']>(run.parameters, {}),
    });
  }

  async getRun(user: AuthenticatedUser, id: string, language: Language): Promise<AnalysisRun> {
    const run = await this.readableRun(user, id);
    const version = await this.repo.version(run.version_id);
    const error = json<SandboxError | null>(run.error, null);
    const datasets = json<string[]>(run.datasets, []);
    return {
      id: run.id,
      status: run.status as RunStatus,
      method: { id: run.method_id, version: version?.version ?? 0, name: version?.name ?? '', name_en: version?.name_en ?? '' },
      sql: version?.sql ?? '',
      chart: json<MethodChart>(version?.chart ?? null, null),
      datasets,
      dataset_titles: await this.datasetTitles(user, datasets),
      parameters: json<AnalysisRun['parameters']>(run.parameters, {}),
      views: json<RunView[]>(run.views, []).map(({ name, dataset, file }) => ({ name, dataset, file })),
      columns: json<AnalysisRun['columns']>(run.columns, null),
      rows: json<AnalysisRun['rows']>(run.rows, null),
      error: error ? translate(language, error.key, error.params) : null,
      created_at: run.created_at,
      started_at: run.started_at,
      finished_at: run.finished_at,
    };
  }

  /** The caller's own runs (of one method, when given), newest first, with their inputs; not their results. */
  async listRuns(user: AuthenticatedUser, methodId: string | undefined, paging: Paging, address: string, language: Language): Promise<Page<RunSummary>> {
    const { count, rows } = await this.repo.runsOf(user.id, methodId, (paging.page - 1) * paging.pageSize, paging.pageSize);
    const titles = await this.datasetTitles(
      user,
      rows.flatMap((row) => json<string[]>(row.datasets, [])),
    );
    const byId = new Map(titles.map((title) => [title.id, title]));
    return toPageAt(
      address,
      paging,
      count,
      rows.map((row) => {
        const error = json<SandboxError | null>(row.error, null);
        return {
          id: row.id,
          status: row.status as RunStatus,
          method: { id: row.method_id, version: row.version, name: row.name, name_en: row.name_en },
          datasets: json<string[]>(row.datasets, []).map((id) => byId.get(id)!),
          parameters: json<RunSummary['parameters']>(row.parameters, {}),
          error: error ? translate(language, error.key, error.params) : null,
          created_at: row.created_at,
          finished_at: row.finished_at,
        };
      }),
    );
  }

  /** A finished run's result as a CSV file (its runner's and staff's; 409 before it is done). */
  async resultCsv(user: AuthenticatedUser, id: string, language: Language): Promise<{ filename: string; text: string }> {
    const run = await this.readableRun(user, id);
    if (run.status !== 'done') throw new AppError('CONFLICT', 'analysis.runNotDone');
    const version = await this.repo.version(run.version_id);
    const columns = json<NonNullable<AnalysisRun['columns']>>(run.columns, []).map((column) => column.name);
    const name = (language === 'en' ? version?.name_en : '') || version?.name || '';
    return { filename: resultFileName(name, run.id), text: resultCsv(columns, json<unknown[][]>(run.rows, [])) };
  }

  /** Resolves once no run is queued or running (tests; closing). */
  idle(): Promise<void> {
    if (!this.active && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Stops the runs under way (their processes killed, the runs failed) and drops the queue. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  /**
   * At start: queued runs (this installation's, whichever process took them in) are taken up, each
   * claimed by one process; runs still `running` for longer than any process lets a run last were in
   * a process that died, and have failed.
   */
  async recover(now = Date.now()): Promise<void> {
    const longest = this.options.limits.timeoutMs + SANDBOX_STARTUP_MS + 60_000;
    await this.repo.failStale(JSON.stringify({ key: 'analysis.interrupted', params: {} }), new Date(now - longest).toISOString(), new Date(now).toISOString());
    for (const id of await this.repo.queuedIds()) if (!this.queue.includes(id)) this.queue.push(id);
    this.pump();
  }

  private async queueRun(user: AuthenticatedUser, methodId: string, versionId: string, declared: MethodParameter[], input: RunInput) {
    const parameters = checkedValues(declared, input.parameters);
    const datasets = [...new Set(input.datasets)];
    if (!datasets.length) throw new AppError('VALIDATION_FAILED', 'analysis.datasetsRequired');
    // A person has at most METHOD_LIMITS.pendingRuns runs queued or running: a flood of requests is refused (429), not queued,
    // before its datasets are judged. Those of this process not yet written count too (counted before the query, so none is missed).
    const reserving = this.reserving.get(user.id) ?? 0;
    this.reserving.set(user.id, reserving + 1);
    try {
      if ((await this.repo.pendingRuns(user.id)) + reserving >= METHOD_LIMITS.pendingRuns) {
        throw new AppError('RATE_LIMITED', 'analysis.tooManyRuns', { params: { max: METHOD_LIMITS.pendingRuns } });
      }
      return await this.insertRun(user, methodId, versionId, datasets, parameters, await this.views.of(user, datasets));
    } finally {
      const left = (this.reserving.get(user.id) ?? 1) - 1;
      if (left > 0) this.reserving.set(user.id, left);
      else this.reserving.delete(user.id);
    }
  }

  private async insertRun(
    user: AuthenticatedUser,
    methodId: string,
    versionId: string,
    datasets: string[],
    parameters: Record<string, string | number | boolean>,
    views: RunView[],
  ) {
    const run: RunRow = {
      id: randomUUID(),
      method_id: methodId,
      version_id: versionId,
      user_id: user.id,
      datasets: JSON.stringify(datasets),
      parameters: JSON.stringify(parameters),
      views: JSON.stringify(views),
      status: 'queued',
      columns: null,
      rows: null,
      error: null,
      created_at: new Date().toISOString(),
      started_at: null,
      finished_at: null,
    };
    await this.repo.insertRun(run);
    this.queue.push(run.id);
    this.pump();
    return { id: run.id, status: 'queued' as const };
  }

  private pump(): void {
    while (this.active < this.options.concurrency && this.queue.length) {
      const id = this.queue.shift()!;
      this.active += 1;
      void this.execute(id)
        .catch((error: unknown) => this.log.error({ err: error, run: id }, 'analysis run failed'))
        .finally(() => {
          this.active -= 1;
          this.pump();
          if (!this.active && !this.queue.length) for (const resolve of this.waiting.splice(0)) resolve();
        });
    }
  }

  private async execute(id: string): Promise<void> {
    const run = await this.repo.run(id);
    const version = run && (await this.repo.version(run.version_id));
    if (!run || !version) return;
    const finish = (changes: Partial<RunRow>) => this.repo.updateRun(id, { ...changes, finished_at: new Date().toISOString() });
    // A closing process leaves its queue queued: the next start (or another process) takes it up.
    if (this.stopping.signal.aborted || !(await this.repo.claim(id, new Date().toISOString()))) return;
    const prepared = await this.views.prepare(json<RunView[]>(run.views, []));
    if ('gone' in prepared) return finish({ status: 'failed', error: JSON.stringify({ key: 'analysis.queryFailed', params: { detail: `${prepared.gone}: no longer there` } }) });
    const declared = json<MethodParameter[]>(version.parameters, []);
    const values = json<Record<string, string | number | boolean>>(run.parameters, {});
    const result = await runInSandbox(
      { sql: version.sql, parameters: declared.map((parameter) => ({ name: parameter.name, type: parameter.type, value: values[parameter.name]! })), views: prepared.views },
      this.options.limits,
      this.stopping.signal,
    ).finally(prepared.cleanup);
    // Stopped by the process closing, not by its query: queued again, for the next start.
    if (this.stopping.signal.aborted) return this.repo.updateRun(id, { status: 'queued', started_at: null });
    if ('error' in result) return finish({ status: 'failed', error: JSON.stringify(result.error) });
    await finish({ status: 'done', columns: JSON.stringify(result.columns), rows: JSON.stringify(result.rows) });
  }

  /** A method the caller may read: public, theirs, or any for staff; 404 otherwise (its existence is not told). */
  private async readable(user: AuthenticatedUser | null, id: string): Promise<MethodRow> {
    const row = await this.repo.method(id);
    if (!row || !mayRead(user, row)) throw new AppError('NOT_FOUND', 'analysis.methodNotFound');
    return row;
  }

  private async owned(user: AuthenticatedUser, id: string, trx: Parameters<AnalysisRepo['method']>[1]): Promise<MethodRow> {
    const row = await this.repo.method(id, trx);
    if (!row || !mayRead(user, row)) throw new AppError('NOT_FOUND', 'analysis.methodNotFound');
    if (row.owner_id !== user.id) throw new AppError('FORBIDDEN', 'analysis.notOwner');
    return row;
  }

  private async readableRun(user: AuthenticatedUser, id: string): Promise<RunRow> {
    const run = await this.repo.run(id);
    if (!run || (run.user_id !== user.id && !user.is_staff)) throw new AppError('NOT_FOUND', 'analysis.runNotFound');
    return run;
  }

  /**
   * The datasets of runs by their titles, in each language (the record's own title, else its
   * translation's). A record the caller may no longer read (unpublished, not theirs) keeps its id only.
   */
  private async datasetTitles(user: AuthenticatedUser, ids: string[]): Promise<RunDataset[]> {
    const rows = new Map((await this.repo.datasetTitles(ids)).map((row) => [row.id, row]));
    const titled = (row: DatasetTitleRow | undefined) => row && (row.status === 'published' || row.owner_id === user.id || user.is_staff);
    return ids.map((id) => {
      const row = rows.get(id);
      if (!titled(row)) return { id, title: '', title_en: '' };
      const other = row!.translation_title || row!.title;
      return { id, title: row!.language === 'en' ? other : row!.title, title_en: row!.language === 'en' ? row!.title : other };
    });
  }

  private view(user: AuthenticatedUser | null, row: MethodRow): AnalysisMethod {
    return {
      id: row.id,
      ...textOf(row),
      public: row.public === 1,
      version: row.version,
      author: row.owner_id ? { id: row.owner_id, name: row.author_realname || row.author_username || '' } : null,
      forked_from: row.forked_from,
      uses: Number(row.uses),
      forks: Number(row.forks),
      is_mine: !!user && row.owner_id === user.id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

/** A version's text as the API shows it. */
function textOf(row: Omit<VersionRow, 'id' | 'method_id' | 'version' | 'created_at'>) {
  const { name, name_en, description, description_en, sql } = row;
  return { name, name_en, description, description_en, sql, parameters: json<MethodParameter[]>(row.parameters, []), chart: json<MethodChart>(row.chart, null) };
}

function definedOf<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
