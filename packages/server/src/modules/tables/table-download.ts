import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** How a table's rows go out as a file (GET /metadata/get-table-data/?format=csv|xlsx), streamed. */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface Log {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** The rows of a download, a batch at a time. */
export type Batches = AsyncIterable<Record<string, string | number | null>[]>;

/**
 * A CSV cell: quoted when it holds a comma, a quote, a line break or edge spaces. A text that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is led by an
 * apostrophe, which spreadsheets show as text (OWASP's CSV injection advice); numbers stay numbers.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  return quotedCsv(typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value));
}

/** A text as a CSV cell (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces. */
function quotedCsv(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A table's rows as plain RFC 4180 CSV for a program to read (an analysis run's view, issue 20): the
 * field names as its one header row, no byte order mark, and values as stored (no spreadsheet escape:
 * '-5' stays '-5'), quoted when they hold a comma, a quote, a line break or edge spaces.
 */
export function plainCsvStream(fields: string[], batches: Batches): Readable {
  const cell = (value: string | number | null) => (value === null ? '' : quotedCsv(String(value)));
  async function* lines(): AsyncGenerator<string> {
    yield `${fields.map(cell).join(',')}\n`;
    for await (const rows of batches) yield rows.map((row) => `${fields.map((field) => cell(row[field] ?? null)).join(',')}\n`).join('');
  }
  return Readable.from(lines(), { objectMode: false });
}

/** The rows as UTF-8 CSV with a byte order mark (Excel reads it as UTF-8), CRLF line ends (RFC 4180). */
export function csvStream(header: string[][], fields: string[], batches: Batches): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `\ufeff${header.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
    for await (const rows of batches) yield rows.map((row) => `${fields.map((field) => csvCell(row[field] ?? null)).join(',')}\r\n`).join('');
  }
  return Readable.from(lines(), { objectMode: false });
}

/**
 * The rows as an Excel workbook of one sheet, written by exceljs' streaming WorkbookWriter: each row
 * committed as it comes, the zip written to the reply as it grows, waiting while the reply drains.
 */
export function xlsxStream(name: string, header: string[][], fields: string[], batches: Batches, log: Log): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  // A sheet name has at most 31 characters, none of : \ / ? * [ ].
  const sheet = workbook.addWorksheet(
    Array.from(name.replace(/[:\\/?*[\]]/g, ' '))
      .slice(0, 31)
      .join('') || 'data',
  );
  void (async () => {
    for (const row of header) sheet.addRow(row).commit();
    for await (const rows of batches) {
      for (const row of rows) sheet.addRow(fields.map((field) => row[field] ?? null)).commit();
      if (out.destroyed) return;
      if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    log.error({ err: error }, 'table download failed');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
