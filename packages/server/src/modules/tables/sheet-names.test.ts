import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { workbookSheetNames } from './sheet-reader.js';

describe('workbookSheetNames', () => {
  it("reads each sheet's name by its part's number from the zip's central directory, entities decoded", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sheet-names-'));
    try {
      const file = path.join(dir, 'book.xlsx');
      const workbook = new ExcelJS.Workbook();
      for (const name of ['观测 Obs', 'Depth & "ice" <core>', 'Sheet1']) workbook.addWorksheet(name).addRow([1]);
      await workbook.xlsx.writeFile(file);
      expect([...(await workbookSheetNames(file)).entries()]).toEqual([
        ['1', '观测 Obs'],
        ['2', 'Depth & "ice" <core>'],
        ['3', 'Sheet1'],
      ]);
      // Not a zip: no names (the streaming reader reports the file as unreadable in its own words).
      await fs.writeFile(path.join(dir, 'not.xlsx'), 'plain text');
      expect((await workbookSheetNames(path.join(dir, 'not.xlsx'))).size).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
