import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { DOCUMENT_TYPES, displayName, extensionOf, formatLimit } from './files.service.js';

function refusal(name: string | undefined): string | undefined {
  try {
    displayName(name);
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.messageKey : String(error);
  }
}

describe('displayName', () => {
  it('keeps the last path segment, without control or direction characters', () => {
    expect(displayName('C:\\Users\\me\\Desktop\\温度.csv')).toBe('温度.csv');
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('  a\u0000b\u001fc\u007f\u202ed.txt  ')).toBe('abcd.txt');
    expect(displayName('e\u0301.txt')).toBe('\u00e9.txt');
  });

  it('refuses empty, dot and over-long names', () => {
    for (const name of [undefined, '', '   ', '\u0001', '.', '..', 'dir/', 'x'.repeat(256)]) {
      expect(refusal(name)).toBe('metadata.files.badName');
    }
    expect(displayName('x'.repeat(255))).toHaveLength(255);
    // Characters, not bytes or UTF-16 units.
    expect(displayName('😀'.repeat(255))).toBe('😀'.repeat(255));
  });
});

describe('file helpers', () => {
  it('reads extensions in lower case', () => {
    expect(extensionOf('Report.PDF')).toBe('pdf');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('README')).toBe('');
    expect(DOCUMENT_TYPES[extensionOf('table.XLSX')]).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('words limits in MB', () => {
    expect(formatLimit(200 * 1024 * 1024)).toBe('200 MB');
    expect(formatLimit(50 * 1024 * 1024)).toBe('50 MB');
  });
});
