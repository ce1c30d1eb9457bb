import { csvCell } from '../tables/index.js';

/**
 * A run's result as CSV, as the table viewer writes its downloads: UTF-8 with a byte order mark (Excel
 * reads it as UTF-8), CRLF line ends (RFC 4180), a text a spreadsheet would run as a formula led by an
 * apostrophe. Booleans are true / false, nested values (DuckDB lists and structs) their JSON.
 */
export function resultCsv(columns: string[], rows: unknown[][]): string {
  const cell = (value: unknown) =>
    csvCell(
      value === null || value === undefined
        ? null
        : typeof value === 'number' || typeof value === 'string'
          ? value
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value),
    );
  return `\ufeff${[columns.map(cell).join(','), ...rows.map((row) => columns.map((_, index) => cell(row[index])).join(','))].join('\r\n')}\r\n`;
}

/** The download's file name: the method's name (no characters a file system refuses, at most 80 characters) and the run's id. */
export function resultFileName(methodName: string, runId: string): string {
  const name =
    Array.from(methodName.replace(/[\\/:*?"<>|\p{Cc}\s]+/gu, ' ').trim())
      .slice(0, 80)
      .join('')
      .trim() || 'analysis';
  return `${name}-${runId.slice(0, 8)}.csv`;
}
