import { describe, expect, it } from 'vitest';
import { FIELD_NAME_MAX, fieldNameProblem } from './table-import.js';

describe('fieldNameProblem, the one rule of a table’s field names (the import wizard and POST /metadata/trans/)', () => {
  it('takes English letters, digits and _, beginning with a letter', () => {
    expect(fieldNameProblem('depth_2')).toBeNull();
    expect(fieldNameProblem('')).toBe('tables.columnsUnfilled');
    expect(fieldNameProblem('站点')).toBe('tables.fieldNameRule');
    expect(fieldNameProblem('2depth')).toBe('tables.fieldNameRule');
    expect(fieldNameProblem(`a${'b'.repeat(FIELD_NAME_MAX)}`)).toBe('tables.fieldNameTooLong');
  });

  it('refuses the names PostgreSQL keeps for its system columns, in any case, on both databases', () => {
    for (const name of ['ctid', 'xmin', 'XMAX', 'cmin', 'cmax', 'tableoid', 'Oid']) expect(fieldNameProblem(name)).toBe('tables.fieldNameReserved');
    expect(fieldNameProblem('oid_2')).toBeNull();
  });
});
