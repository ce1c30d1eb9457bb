import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  TABLE_DOWNLOAD_MAX_ROWS,
  tableImportProblem,
  type Language,
  type DataTable,
  type TableColumn,
  type TableColumnType,
  type RecordTables,
  type TableData,
  type TableDescription,
  type TableListItem,
  type TableImport,
  type TableImportInput,
  type TableInfo,
} from '@portal/shared';
import { newId, type Db, type Dialect, type Tx } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import { BlobNotFoundError, type BlobStore } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { StoredFiles } from '../files/index.js';
import { orNotFound, type MetadataAccess, type MetadataRow } from '../metadata/index.js';
import type { DownloadAccess } from '../orders/index.js';
import { proposeColumns } from './column-proposal.js';
import { IN_MEMORY_XLSX_BYTES, rowsOf, sourceKindOf, summarize, UnreadableFileError, workbookSheetNames, type Cell, type WorkbookHints } from './sheet-reader.js';
import { csvStream, plainCsvStream, xlsxStream, XLSX_TYPE, type Log } from './table-download.js';
import { Load, type Source } from './table-load.js';
import { filtersOf, orderingOf } from './table-query.js';
import { TablesRepo, type CatalogueRow, type ListedRow } from './tables.repo.js';

/** Rows a query of a download reads. */
const DOWNLOAD_BATCH_ROWS = 2000;
/** Tables GET /api/tables/ considers (newest first) before judging the download rule of their records. */
const LISTED_TABLES = 10_000;

/** A column of a published record's table, for its JSON-LD `variableMeasured` (exports' MeasuredVariable). */
export type MeasuredVariable = TableColumn & { table: string };

/** A download of a table's rows: its stream, and what counting it needs. */
/** A table as an analysis run reads it: a view named by its code, its columns typed. */
export interface AnalysisTable {
  code: string;
  name: string;
  columns: { field: string; type: TableColumnType }[];
}

export interface TableDownload {
  metadataId: string;
  order: string | null;
  filename: string;
  type: string;
  stream: Readable;
}

/** Data rows read to propose the columns' types. */
const SAMPLE_ROWS = 1000;
/** A table still loading after this long lost its import (the process died): the clean-up drops it. */
const LOADING_EXPIRY_MS = 24 * 3600_000;

/** What POST /metadata/trans/ sends beside the form: `accept_empty` stores the cells that do not fit as empty. */
export interface TableImportRequest extends TableImportInput {
  accept_empty?: boolean;
}

/**
 * Excel to table (issue 20): a record's workbook (.xlsx) or CSV file becomes a database table with
 * typed, bilingual, unit-bearing columns. Who may import is who may change the record's data files
 * now (MetadataAccess.filesWritable: its creator while a draft, staff; nobody while published),
 * judged before reading and again, under the record's lock, when the table is listed; who may read
 * a table's rows is the one download rule of the record's files (DownloadAccess). Files are read
 * as streams (modules/tables/sheet-reader.ts), never whole.
 *
 * The header is the sheet's first `header_rows` rows holding values (empty rows above it are
 * skipped, as empty rows everywhere); a row keeps the number the sheet gives it in every report.
 *
 * An import is all or nothing: its catalogue row is written 'loading' first (shown to nobody), the
 * table is made and filled in transactions of BATCH_ROWS rows, indexed, then marked 'ready'; any
 * failure drops the table and the row. Cells that do not fit their column's type are reported (row
 * as the sheet numbers it, field, value, reason); without `accept_empty` such an import keeps
 * nothing and answers 400 with the report, with it the table keeps those cells empty. A dry run
 * (`dryRun`) reads and reports without writing.
 */
export class TablesService {
  private readonly repo: TablesRepo;

  constructor(
    db: Db,
    dialect: Dialect,
    private readonly access: MetadataAccess,
    private readonly downloads: DownloadAccess,
    private readonly files: StoredFiles,
    private readonly storage: BlobStore,
    private readonly log: Log,
  ) {
    this.repo = new TablesRepo(db, dialect);
  }

  /** GET /metadata/get-table-info/: the file's sheets with their rows and columns. */
  async info(user: AuthenticatedUser | null, fileId: string | undefined): Promise<TableInfo> {
    const source = await this.source(user, fileId);
    return { sheets: await this.reading(source, (stream, hints) => summarize(stream, source.kind, source.name, hints)) };
  }

  /** GET /metadata/get-table-column/: the columns proposed from the sheet's header and a sample of its rows. */
  async columns(user: AuthenticatedUser | null, input: Pick<TableImportInput, 'file' | 'sheet' | 'header_rows'>): Promise<{ columns: TableColumn[] }> {
    // The form's rules up to the header (a sheet chosen, the header's rows), in the spec's order.
    const problem = tableImportProblem({ ...input, table_name: '-', columns: [] });
    if (problem && problem.field !== 'columns') throw formProblem(problem);
    const source = await this.source(user, input.file);
    const headerRows = Number(input.header_rows);
    const header: Cell[][] = [];
    const sample: Cell[][] = [];
    const found = { sheet: false };
    await this.reading(source, async (stream, hints) => {
      for await (const row of rowsOf(stream, source.kind, source.name, input.sheet!, found, hints)) {
        if (header.length < headerRows) header.push(row.cells);
        else if (sample.push(row.cells) >= SAMPLE_ROWS) break;
      }
    });
    if (!found.sheet) throw new AppError('VALIDATION_FAILED', 'tables.sheetNotFound', { params: { sheet: input.sheet! } });
    if (header.length < headerRows) throw new AppError('VALIDATION_FAILED', 'tables.headerBeyondSheet', { params: { rows: header.length } });
    return { columns: proposeColumns(header, sample) };
  }

  /** POST /metadata/trans/: the table made from the sheet (or, `dryRun`, what it would hold). */
  async create(user: AuthenticatedUser | null, input: TableImportRequest, dryRun: boolean, language: Language): Promise<TableImport> {
    const problem = tableImportProblem(input);
    if (problem) throw formProblem(problem);
    const source = await this.source(user, input.file);
    const columns = (input.columns ?? []).map(declared);
    const load = new Load(source, input.sheet!, Number(input.header_rows), columns, language);
    if (dryRun) {
      await this.reading(source, (stream, hints) => load.read(stream, async () => {}, hints));
      return load.report(null);
    }
    const now = new Date().toISOString();
    const table: CatalogueRow = {
      id: newId(),
      code: `t_${randomBytes(10).toString('hex')}`,
      metadata_id: source.record.id,
      file_id: source.fileId,
      sheet: input.sheet!,
      header_rows: Number(input.header_rows),
      name: input.table_name!.trim(),
      columns: JSON.stringify(columns),
      row_count: 0,
      state: 'loading',
      created_by: user!.id,
      created_at: now,
    };
    await this.underLock(user!, source.record.id, (trx) => this.repo.insert(trx, table));
    try {
      await this.repo.createTable(table.code, columns);
      const acceptEmpty = input.accept_empty === true;
      await this.reading(source, (stream, hints) =>
        load.read(
          stream,
          async (rows) => {
            // Once a cell is refused without accept_empty nothing is kept: the rest is only read for the report.
            if (acceptEmpty || load.rejectedCount === 0) await this.repo.insertRows(table.code, rows);
          },
          hints,
        ),
      );
      if (load.rejectedCount > 0 && !acceptEmpty) {
        throw new AppError('VALIDATION_FAILED', 'tables.rejectedCells', { params: { count: load.rejectedCount }, extra: load.report(null) });
      }
      await this.repo.createIndexes(table.code, columns);
      await this.underLock(user!, source.record.id, async (trx) => {
        if (!(await this.repo.markReady(trx, table.id, load.rows))) throw new AppError('NOT_FOUND', 'tables.fileNotFound');
      });
    } catch (error) {
      const gone = !(await this.repo.exists(table.id).catch(() => false));
      await this.repo.remove(this.repo.db, table).catch((failure: unknown) => this.log.error({ err: failure, code: table.code }, 'a failed import’s table not dropped'));
      if (error instanceof AppError) throw error;
      // Its data file (or record) deleted while it loaded took the table with it.
      if (gone) throw new AppError('NOT_FOUND', 'tables.fileNotFound');
      throw error;
    }
    return load.report(table);
  }

  /** GET /metadata/get-table-data/: a page of a table's rows, filtered and sorted, for whoever may download its record's files. */
  async data(user: AuthenticatedUser | null, query: Record<string, unknown>, paging: { page: number; pageSize: number }): Promise<TableData> {
    const { table, view, filters, ordering } = await this.opened(user, query);
    const pageSize = Math.min(paging.pageSize || DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const { count, rows } = await this.repo.page(table.code, view.columns, { filters, ordering, offset: (paging.page - 1) * pageSize, limit: pageSize });
    return { count, columns: view.columns, results: rows as TableData['results'], table: view };
  }

  /**
   * GET /metadata/get-table-data/?format=csv|xlsx: every row matching the filters, in the page's
   * order, as a stream (three header rows: field, display name in the caller's language, unit),
   * for whoever may read the page; at most TABLE_DOWNLOAD_MAX_ROWS rows (400 beyond, before a byte
   * is sent). Answers the record and the order that grants it, for counting the download.
   */
  async download(user: AuthenticatedUser | null, query: Record<string, unknown>, format: 'csv' | 'xlsx', language: Language): Promise<TableDownload> {
    const { table, view, filters, ordering, granted } = await this.opened(user, query);
    const count = await this.repo.count(table.code, filters);
    if (count > TABLE_DOWNLOAD_MAX_ROWS) throw new AppError('VALIDATION_FAILED', 'tables.tooManyRows', { params: { max: TABLE_DOWNLOAD_MAX_ROWS, count } });
    const header = [
      view.columns.map((column) => column.field),
      view.columns.map((column) => (language === 'en' ? column.display_name_en || column.display_name : column.display_name)),
      view.columns.map((column) => column.unit),
    ];
    const batches = this.repo.rowsInOrder(table.code, view.columns, { filters, ordering }, DOWNLOAD_BATCH_ROWS);
    const fields = view.columns.map((column) => column.field);
    return {
      metadataId: table.metadata_id,
      order: granted.order,
      filename: `${table.name}.${format}`,
      type: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
      stream: format === 'csv' ? csvStream(header, fields, batches) : xlsxStream(table.name, header, fields, batches, this.log),
    };
  }

  /** GET /api/tables/: the ready tables the caller may read (the record's download rule), newest first, searched on their names and records' titles. */
  async list(
    user: AuthenticatedUser | null,
    query: { search?: string; metadataId?: string },
    paging: { page: number; pageSize: number },
  ): Promise<{ count: number; results: TableListItem[] }> {
    const rows = await this.repo.listed(
      { ownerId: user?.id ?? null, everyRecord: !!user?.is_staff },
      { search: (query.search ?? '').trim(), metadataId: (query.metadataId ?? '').trim() },
      LISTED_TABLES,
    );
    // The rule is judged once a record, as GET /metadata/get-table-data/ judges it.
    const allowed = new Map<string, boolean>();
    const readable: ListedRow[] = [];
    for (const row of rows) {
      if (!allowed.has(row.id)) allowed.set(row.id, (await this.downloads.judge(user, row)).have_download);
      if (allowed.get(row.id)) readable.push(row);
    }
    const start = (paging.page - 1) * paging.pageSize;
    return { count: readable.length, results: readable.slice(start, start + paging.pageSize).map(listItem) };
  }

  /** GET /api/tables/{code}/: one table the caller may read, described. */
  async describe(user: AuthenticatedUser | null, code: string): Promise<TableDescription> {
    const { view, record } = await this.opened(user, { table: code });
    const titles = await this.repo.titles(record.id);
    return { code: view.code, name: view.name, record: recordOf(record, titles), rows: view.rows, columns: view.columns, created: view.created_at };
  }

  /**
   * GET /api/metadata/metadata/{id}/tables/: a published record's tables with their columns, for
   * everyone (what a table holds is described on the landing page; its rows follow the download
   * rule). Any other record is not found.
   */
  async ofPublishedRecord(metadataId: string): Promise<RecordTables> {
    const record = await this.access.find(metadataId);
    if (record?.status !== 'published') throw new AppError('NOT_FOUND', 'tables.recordNotFound');
    const tables = await this.repo.ofRecord(metadataId);
    return { results: tables.map(catalogueView).map((view) => ({ code: view.code, name: view.name, rows: view.rows, columns: view.columns })) };
  }

  /** The variables a published record's tables measure, one a column, for its JSON-LD (`variableMeasured`); none for any other record. */
  async variablesOf(metadataId: string): Promise<MeasuredVariable[]> {
    const record = await this.access.find(metadataId);
    if (record?.status !== 'published') return [];
    const variables: MeasuredVariable[] = [];
    for (const view of (await this.repo.ofRecord(metadataId)).map(catalogueView)) {
      for (const column of view.columns) variables.push({ ...column, table: view.name });
    }
    return variables;
  }

  // ---- What the analysis module asks ----

  /**
   * A record's ready tables, each with its columns' fields and types: the views an analysis run makes
   * of them (the analysis module has judged the record's download rule for its runner).
   */
  async analysisTablesOf(metadataId: string): Promise<AnalysisTable[]> {
    return (await this.repo.ofRecord(metadataId)).map(catalogueView).map((view) => ({
      code: view.code,
      name: view.name,
      columns: view.columns.map(({ field, type }) => ({ field, type })),
    }));
  }

  /** Every row of a ready table as plain CSV (its fields as the header) in a new file at `target`; false when the table is gone. */
  async writeAnalysisCsv(code: string, target: string): Promise<boolean> {
    const table = await this.repo.findReady(code);
    if (!table) return false;
    const columns = catalogueView(table).columns;
    const batches = this.repo.rowsInOrder(code, columns, { filters: [], ordering: undefined }, DOWNLOAD_BATCH_ROWS);
    await pipeline(
      plainCsvStream(
        columns.map((column) => column.field),
        batches,
      ),
      createWriteStream(target, { flags: 'wx', mode: 0o600 }),
    );
    return true;
  }

  // ---- What other modules' events ask ----

  /** The tables read from these data files go with them, in the deleting transaction. */
  async forgetFiles(trx: Tx, fileIds: readonly string[]): Promise<void> {
    for (const table of await this.repo.of(trx, 'file_id', fileIds)) await this.repo.remove(trx, table);
  }

  /** The tables of these records go with them, in the deleting transaction. */
  async forgetRecords(trx: Tx, metadataIds: readonly string[]): Promise<void> {
    for (const table of await this.repo.of(trx, 'metadata_id', metadataIds)) await this.repo.remove(trx, table);
  }

  /** The clean-up job: tables whose import's process died while they loaded. */
  async dropAbandoned(now = Date.now()): Promise<number> {
    const stale = await this.repo.staleLoading(new Date(now - LOADING_EXPIRY_MS).toISOString());
    for (const table of stale) await this.repo.remove(this.repo.db, table);
    return stale.length;
  }

  // ---- Helpers ----

  /** The ready table `query.table` with its filters and ordering checked, when the caller may download its record's files. */
  private async opened(user: AuthenticatedUser | null, query: Record<string, unknown>) {
    const code = typeof query.table === 'string' ? query.table : '';
    if (!code) throw fieldError('table', 'tables.tableRequired');
    const table = await this.repo.findReady(code);
    if (!table) throw new AppError('NOT_FOUND', 'tables.tableNotFound');
    const record = await this.access.readable(user, table.metadata_id).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'NOT_FOUND' ? new AppError('NOT_FOUND', 'tables.tableNotFound') : error;
    });
    const granted = await this.downloads.assert(user, record);
    const view = catalogueView(table);
    const byField = new Map(view.columns.map((column) => [column.field, column]));
    return { table, view, record, granted, ordering: orderingOf(query.ordering, byField), filters: filtersOf(query, byField) };
  }

  /** The data file `fileId` when the caller may change its record's files, as a source of a table. */
  private async source(user: AuthenticatedUser | null, fileId: string | undefined): Promise<Source> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    if (!fileId) throw fieldError('file', 'tables.fileRequired');
    const file = await this.files.dataFile(fileId);
    if (!file) throw new AppError('NOT_FOUND', 'tables.fileNotFound');
    const record = await orNotFound(this.access.filesWritable(user, file.metadata_id));
    const kind = sourceKindOf(file.name);
    if (!kind) throw fieldError('file', 'tables.notATable');
    return { fileId: file.id, name: file.name, storageKey: file.storage_key, kind, record };
  }

  /** Runs `work` on the file's bytes as a stream; a file that is no workbook answers 400 with its name. */
  private async reading<T>(source: Source, work: (stream: Readable, hints?: WorkbookHints) => Promise<T>): Promise<T> {
    let opened;
    try {
      opened = await this.storage.open(source.storageKey);
    } catch (error) {
      if (error instanceof BlobNotFoundError) {
        this.log.warn({ key: source.storageKey }, 'stored file missing from the storage');
        throw new AppError('NOT_FOUND', 'tables.fileNotFound');
      }
      throw error;
    }
    try {
      // A workbook up to IN_MEMORY_XLSX_BYTES is read whole; a larger one streamed, its sheets' names from the zip's central directory where the store has the file on its disk (sheet-reader.ts, WorkbookHints).
      let hints: WorkbookHints | undefined;
      if (source.kind === 'xlsx') {
        const inMemory = opened.size <= IN_MEMORY_XLSX_BYTES;
        const local = (this.storage as Partial<{ localPath(key: string): string }>).localPath?.(source.storageKey);
        hints = { inMemory, names: !inMemory && local ? await workbookSheetNames(local) : undefined };
      }
      return await work(opened.stream, hints);
    } catch (error) {
      if (error instanceof UnreadableFileError) throw new AppError('VALIDATION_FAILED', 'tables.unreadable', { params: { name: source.name } });
      throw error;
    } finally {
      opened.stream.destroy();
    }
  }

  /** Runs `work` in a transaction holding the record's lock, the caller's right to change its files judged again. */
  private async underLock(user: AuthenticatedUser, metadataId: string, work: (trx: Tx) => Promise<void>): Promise<void> {
    await this.repo.db.transaction().execute(async (trx) => {
      const refusal = await this.access.lockFor(trx, user, 'changeFiles', metadataId, new Date().toISOString());
      if (refusal) throw refusal;
      await work(trx);
    });
  }
}

/** A column as declared by the provider, trimmed, its texts given ('' when left out). */
function declared(column: NonNullable<TableImportInput['columns']>[number]): TableColumn {
  return {
    field: column.field!.trim(),
    display_name: column.display_name!.trim(),
    display_name_en: (column.display_name_en ?? '').trim(),
    unit: (column.unit ?? '').trim(),
    note: (column.note ?? '').trim(),
    type: column.type as TableColumnType,
  };
}

/** A problem of the shared rule as a 400: its field named in the DRF shape when its message has no placeholders. */
function formProblem(problem: { field: string; key: string; params?: Record<string, string | number> }): AppError {
  return new AppError('VALIDATION_FAILED', problem.key, problem.params ? { params: problem.params } : { fields: { [problem.field]: problem.key } });
}

export function catalogueView(row: CatalogueRow): DataTable {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    metadata: row.metadata_id,
    file: row.file_id,
    sheet: row.sheet,
    header_rows: Number(row.header_rows),
    rows: Number(row.row_count),
    columns: JSON.parse(row.columns) as TableColumn[],
    created_at: row.created_at,
  };
}

/** The record as a table names it: its title in its own language, and in English ('' without one). */
function recordOf(
  record: Pick<MetadataRow, 'id' | 'language' | 'title'>,
  other: { other_language: string | null; other_title: string | null } | undefined,
): TableListItem['record'] {
  const english = record.language === 'en' ? record.title : other?.other_language === 'en' ? (other.other_title ?? '') : '';
  return { id: record.id, title: record.title, title_en: english };
}

function listItem(row: ListedRow): TableListItem {
  const columns = JSON.parse(row.table_columns) as TableColumn[];
  return { code: row.table_code, name: row.table_name, record: recordOf(row, row), rows: Number(row.table_rows), columns: columns.length, created: row.table_created };
}
