import { describe, expect, it } from 'vitest';
import { csvCell } from './table-download.js';

describe('csvCell', () => {
  it('quotes a cell with a comma, a quote, a line break or edge spaces, and leaves others bare', () => {
    expect(csvCell('Lhasa')).toBe('Lhasa');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
  });

  it('leads a text a spreadsheet would run as a formula with an apostrophe, and keeps numbers as numbers', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell(-1.25)).toBe('-1.25');
    expect(csvCell(42)).toBe('42');
    expect(csvCell('冰川 -1')).toBe('冰川 -1');
  });
});
