import type { Readable } from 'node:stream';
import { STRING_COLUMN_MAX, translate, type Language, type RejectedCell, type TableColumn, type TableImport } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { MetadataRow } from '../metadata/index.js';
import { cellText, fit, type Stored } from './cell-values.js';
import { rowsOf, type Cell, type SheetRow, type SourceKind, type WorkbookHints } from './sheet-reader.js';
import { ROW_COLUMN, type CatalogueRow } from './tables.repo.js';

/** Rows written in one transaction of an import. */
const BATCH_ROWS = 5000;
/** Rejected cells listed in a reply (all are counted). */
const REJECTED_LISTED = 1000;

/** The data file to read: its row and kind, once the caller may change its record. */
export interface Source {
  fileId: string;
  name: string;
  storageKey: string;
  kind: SourceKind;
  record: MetadataRow;
}

/**
 * One pass over a sheet for an import: the header's width checked against the columns declared,
 * each data row's cells fitted to their types, rows handed on in batches, refusals counted.
 */
export class Load {
  rows = 0;
  rejectedCount = 0;
  private readonly rejected: { row: number; column: string; value: string; reason: string }[] = [];

  constructor(
    private readonly source: Source,
    private readonly sheet: string,
    private readonly headerRows: number,
    private readonly columns: TableColumn[],
    private readonly language: Language,
  ) {}

  async read(stream: Readable, write: (rows: Record<string, Stored>[]) => Promise<void>, hints?: WorkbookHints): Promise<void> {
    const found = { sheet: false };
    let headerWidth = 0;
    let header = 0;
    let checked = false;
    let batch: Record<string, Stored>[] = [];
    const check = () => {
      checked = true;
      if (header < this.headerRows) throw new AppError('VALIDATION_FAILED', 'tables.headerBeyondSheet', { params: { rows: header } });
      if (this.columns.length < headerWidth) throw new AppError('VALIDATION_FAILED', 'tables.columnsMismatch', { params: { columns: headerWidth, given: this.columns.length } });
    };
    for await (const row of rowsOf(stream, this.source.kind, this.source.name, this.sheet, found, hints)) {
      if (header < this.headerRows) {
        headerWidth = Math.max(headerWidth, row.cells.length);
        header++;
        continue;
      }
      if (!checked) check();
      batch.push(this.fitRow(row));
      if (batch.length >= BATCH_ROWS) {
        await write(batch);
        batch = [];
      }
    }
    if (!found.sheet) throw new AppError('VALIDATION_FAILED', 'tables.sheetNotFound', { params: { sheet: this.sheet } });
    if (!checked) check();
    await write(batch);
  }

  private fitRow(row: SheetRow): Record<string, Stored> {
    this.rows++;
    const stored: Record<string, Stored> = { [ROW_COLUMN]: row.number };
    for (const [at, column] of this.columns.entries()) {
      const cell = row.cells[at] ?? null;
      const fitted = fit(cell, column.type);
      if ('value' in fitted) stored[column.field] = fitted.value;
      else {
        stored[column.field] = null;
        this.reject(row.number, column.field, cell, fitted.reason);
      }
    }
    for (let at = this.columns.length; at < row.cells.length; at++) {
      if (row.cells[at] !== null) this.reject(row.number, `#${at + 1}`, row.cells[at]!, 'noColumn');
    }
    return stored;
  }

  private reject(row: number, column: string, cell: Cell, reason: string): void {
    this.rejectedCount++;
    if (this.rejected.length < REJECTED_LISTED) this.rejected.push({ row, column, value: cellText(cell), reason });
  }

  /** The reply: the table made (or null), its rows, the cells refused with their reasons in the caller's language. */
  report(table: Pick<CatalogueRow, 'id' | 'code'> | null): TableImport {
    const rejected: RejectedCell[] = this.rejected.map((cell) => ({ ...cell, reason: translate(this.language, `tables.reasons.${cell.reason}`, { max: STRING_COLUMN_MAX }) }));
    return { id: table?.id ?? null, code: table?.code ?? null, rows: this.rows, rejected, rejected_count: this.rejectedCount };
  }
}
