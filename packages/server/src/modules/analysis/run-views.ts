import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { METHOD_LIMITS, type TableColumnType } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { StoredFiles } from '../files/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { DownloadAccess } from '../orders/index.js';
import type { AnalysisTable } from '../tables/index.js';
import type { SandboxView } from './sandbox.js';

/** Where a stored blob is on this machine's disk (LocalDiskStore): DuckDB reads the file there. */
export interface LocalBlobs {
  localPath(key: string): string;
}

/** The imported tables of a record, as views of a run (TablesService): listed when the run is asked for, written out when it starts. */
export interface AnalysisTables {
  analysisTablesOf(metadataId: string): Promise<AnalysisTable[]>;
  writeAnalysisCsv(code: string, target: string): Promise<boolean>;
}

/** Tabular data files a view is made of, by their name's ending. */
const FORMATS: Record<string, SandboxView['format']> = { '.csv': 'csv', '.tsv': 'csv', '.parquet': 'parquet' };

/** DuckDB's type for each type of an imported table's column. */
const DUCKDB_TYPES: Record<TableColumnType, string> = { integer: 'BIGINT', float: 'DOUBLE', date: 'DATE', datetime: 'TIMESTAMP', string: 'VARCHAR', text: 'VARCHAR' };

/**
 * A view as a run keeps it: a data file's id lets the run find the file again when it starts; an
 * imported table's code lets it write the table's rows out then, read with the columns' types.
 * `file` is what a person knows it by: the file's path, or the table's name.
 */
export interface RunView {
  name: string;
  dataset: string;
  file: string;
  file_id?: string;
  table?: string;
  columns?: { name: string; type: string }[];
  format: SandboxView['format'];
}

/** A view's name from a file's name: letters, digits and _ of any script, not starting with a digit. */
export function viewNameOf(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '').toLowerCase();
  const name = base.replace(/[^\p{L}\p{N}_]+/gu, '_').replace(/^_+|_+$/g, '') || 'file';
  return /^\p{N}/u.test(name) ? `t_${name}` : name;
}

/** The views of a run ready for the sandbox, and what removes the rows written for it; or the input that has gone since it was queued. */
export type PreparedViews = { views: SandboxView[]; cleanup: () => Promise<void> } | { gone: string };

/**
 * What a run's query reads (issue 20): the imported tables and the tabular data files of the chosen
 * datasets, each a view, named when the run is queued and made ready when it starts.
 */
export class RunViews {
  constructor(
    private readonly access: MetadataAccess,
    private readonly downloads: DownloadAccess,
    private readonly storedFiles: StoredFiles,
    private readonly tables: AnalysisTables,
    private readonly blobs: LocalBlobs,
  ) {}

  /** The views of the datasets, each of which the caller must be allowed to download. */
  async of(user: AuthenticatedUser, datasets: string[]): Promise<RunView[]> {
    const views: RunView[] = [];
    const taken = new Set<string>();
    const unique = (name: string) => {
      let candidate = name;
      for (let n = 2; taken.has(candidate); n += 1) candidate = `${name}_${n}`;
      taken.add(candidate);
      return candidate;
    };
    const files: Omit<RunView, 'name'>[] = [];
    const tables: RunView[] = [];
    for (const dataset of datasets) {
      // The one download rule: a record the caller may not read is 404, one they may not download 401/403.
      const record = await this.access.readable(user, dataset);
      await this.downloads.assert(user, record);
      for (const table of await this.tables.analysisTablesOf(record.id)) {
        const columns = table.columns.map((column) => ({ name: column.field, type: DUCKDB_TYPES[column.type] }));
        tables.push({ name: table.code, dataset: record.id, file: table.name, table: table.code, columns, format: 'csv' });
      }
      for (const file of await this.storedFiles.treeFiles(record.id)) {
        const format = FORMATS[path.extname(file.name).toLowerCase()];
        if (format) files.push({ dataset: record.id, file: `${file.path}${file.name}`, file_id: file.id, format });
      }
    }
    const inputs = files.length + tables.length;
    if (!inputs) throw new AppError('VALIDATION_FAILED', 'analysis.noTabularFiles');
    if (inputs > METHOD_LIMITS.files) throw new AppError('VALIDATION_FAILED', 'analysis.tooManyFiles', { params: { max: METHOD_LIMITS.files, count: inputs } });
    // input1, input2 ... in the datasets' order first, so that a file named like them does not take their
    // names; each imported table by its code (unique in the catalogue); then each file by its name.
    files.forEach((file, index) => views.push({ ...file, name: unique(`input${index + 1}`) }));
    for (const table of tables) views.push({ ...table, name: unique(table.name) });
    for (const file of files) views.push({ ...file, name: unique(viewNameOf(path.basename(file.file))) });
    return views;
  }

  /** A kept run's views as the sandbox opens them: the files by their paths, the tables' rows written out, for this run only, into a folder of its own. */
  async prepare(kept: RunView[]): Promise<PreparedViews> {
    const folder = kept.some((view) => view.table) ? await mkdtemp(path.join(os.tmpdir(), 'portal-analysis-tables-')) : undefined;
    const cleanup = async () => {
      if (folder) await rm(folder, { recursive: true, force: true });
    };
    try {
      const views: SandboxView[] = [];
      for (const view of kept) {
        if (view.table) {
          const target = path.join(folder!, `${views.length}.csv`);
          if (!(await this.tables.writeAnalysisCsv(view.table, target))) return await cleanup().then(() => ({ gone: view.file }));
          views.push({ name: view.name, path: target, format: 'csv', columns: view.columns });
          continue;
        }
        const file = view.file_id ? await this.storedFiles.dataFile(view.file_id) : undefined;
        if (!file) return await cleanup().then(() => ({ gone: view.file }));
        views.push({ name: view.name, path: this.blobs.localPath(file.storage_key), format: view.format });
      }
      return { views, cleanup };
    } catch (error) {
      await cleanup();
      throw error;
    }
  }
}
