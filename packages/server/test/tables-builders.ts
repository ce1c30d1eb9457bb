import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { TestPortal } from './helpers.js';
import { buildUsers, type Person } from './factories.js';
import { call } from './metadata-builders.js';

/** A cell of a test workbook: a value, or a value with its number format (a date as Excel keeps it: a serial shown as a date). */
export type TestCell = string | number | Date | null | { value: number | Date; numFmt: string };

export interface TestSheet {
  name: string;
  rows: TestCell[][];
  /** Ranges merged, as Excel names them ('B1:C1'). */
  merges?: string[];
}

/** A workbook as Excel writes it, made with exceljs' streaming writer (shared strings, styles); its bytes. */
export async function workbookBytes(sheets: TestSheet[]): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true, useStyles: true });
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    for (const cells of sheet.rows) {
      const row = worksheet.addRow(cells.map((cell) => (cell !== null && typeof cell === 'object' && !(cell instanceof Date) ? cell.value : cell)));
      cells.forEach((cell, at) => {
        if (cell !== null && typeof cell === 'object' && !(cell instanceof Date)) row.getCell(at + 1).numFmt = cell.numFmt;
        else if (cell instanceof Date) row.getCell(at + 1).numFmt = 'yyyy-mm-dd hh:mm';
      });
    }
    // Merged once the rows are there (merging first would add the rows of the range before them); committed with the sheet.
    for (const range of sheet.merges ?? []) worksheet.mergeCells(range);
    worksheet.commit();
  }
  await workbook.commit();
  return Buffer.concat(chunks);
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const tableInfo = (portal: TestPortal, token: string | null, file: string, headers: Record<string, string> = {}) =>
  call(portal, 'GET', `/metadata/get-table-info/?file=${encodeURIComponent(file)}`, token, { headers });

export const tableColumns = (portal: TestPortal, token: string | null, query: Record<string, string | number>, headers: Record<string, string> = {}) =>
  call(portal, 'GET', `/metadata/get-table-column/?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, token, { headers });

export const importTable = (portal: TestPortal, token: string | null, body: Record<string, unknown>, options: { dryRun?: boolean; headers?: Record<string, string> } = {}) =>
  call(portal, 'POST', `/metadata/trans/${options.dryRun ? '?dry_run=true' : ''}`, token, { body, headers: options.headers });

export const tableData = (portal: TestPortal, token: string | null, query: Record<string, string | number>, headers: Record<string, string> = {}) =>
  call(portal, 'GET', `/metadata/get-table-data/?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, token, { headers });

/** The people of the tables' tests: a record's creator, another user, staff, an applicant whose order waits and one whose order is approved. */
export type TablePeople = Record<'owner' | 'other' | 'staff' | 'applicant' | 'approved', Person>;

export const buildTablePeople = (portal: TestPortal): Promise<TablePeople> =>
  buildUsers(portal, {
    owner: { realname: 'Owner Ou' },
    other: { realname: 'Other Ot' },
    staff: { staff: true, realname: 'Staff Shi' },
    applicant: { realname: 'Applicant Ap', language: 'en' },
    approved: { realname: 'Approved Ap', language: 'en' },
  });
