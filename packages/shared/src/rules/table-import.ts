/**
 * Excel import into a database table (spec sections 2, 3 and 5 "Excel import"; issue 20), as both
 * sides check it: the column types, the field-name rule, the header's bounds and the form's rules in
 * the spec's order, each with the i18n key (under `tables`) of its message.
 */

/** The spec's column types (section 3 "Excel import"). */
export const TABLE_COLUMN_TYPES = ['integer', 'float', 'date', 'datetime', 'string', 'text'] as const;
export type TableColumnType = (typeof TABLE_COLUMN_TYPES)[number];

/** The data files that can become a table, by their extension (an .xlsx workbook, a CSV file). */
export const TABLE_SOURCE_EXTENSIONS = ['xlsx', 'csv'] as const;
export type TableSourceKind = (typeof TABLE_SOURCE_EXTENSIONS)[number];

/** The kind of a data file by its name, or undefined when it cannot become a table. */
export function tableSourceKind(name: string): TableSourceKind | undefined {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return (TABLE_SOURCE_EXTENSIONS as readonly string[]).includes(extension) ? (extension as TableSourceKind) : undefined;
}

/** Header rows: at least one, at most this many. */
export const HEADER_ROWS_MAX = 10;
/** A table's name (its title, not its code). */
export const TABLE_NAME_MAX = 200;
/** PostgreSQL's identifiers have at most 63 bytes; field names are ASCII, so 63 characters. */
export const FIELD_NAME_MAX = 63;
/** A display name, unit or note. */
export const COLUMN_TEXT_MAX = 500;
/** Columns of one table (PostgreSQL allows 1600; a sheet wider than this is not a table to browse). */
export const TABLE_COLUMNS_MAX = 500;
/** The longest value of a `string` column; a longer one belongs in `text`. */
export const STRING_COLUMN_MAX = 255;

/**
 * A field name: English letters, digits and the underscore, beginning with a letter (the spec's
 * "English letters and digits only"; the underscore joins words, and a leading letter keeps every
 * name a valid identifier on both databases). Compared case-insensitively for uniqueness: SQLite's
 * column names are.
 */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

/** One column of a table as the provider declares it. */
export interface TableColumnInput {
  field?: string;
  display_name?: string;
  display_name_en?: string;
  unit?: string;
  note?: string;
  type?: string;
}

/** What the import form sends (POST /metadata/trans/). */
export interface TableImportInput {
  file?: string;
  sheet?: string;
  header_rows?: number | string;
  table_name?: string;
  columns?: TableColumnInput[];
}

/** A problem of the form: the field it is about and the i18n key of its message. */
export interface TableImportProblem {
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

export function isTableColumnType(type: unknown): type is TableColumnType {
  return typeof type === 'string' && (TABLE_COLUMN_TYPES as readonly string[]).includes(type);
}

/**
 * Field names a table cannot have on every database: PostgreSQL's system columns (`oid` up to
 * PostgreSQL 11), which a column may not be named (PostgreSQL refused the table with an error).
 * Refused on both databases alike, in any case.
 */
export const RESERVED_TABLE_FIELDS = ['ctid', 'xmin', 'xmax', 'cmin', 'cmax', 'tableoid', 'oid'] as const;
export const isReservedTableField = (field: string) => (RESERVED_TABLE_FIELDS as readonly string[]).includes(field.trim().toLowerCase());

/** The i18n key of what is wrong with a field name, or null when it may be used. */
export function fieldNameProblem(field: string): string | null {
  if (field.trim() === '') return 'tables.columnsUnfilled';
  if (!FIELD_NAME_PATTERN.test(field)) return 'tables.fieldNameRule';
  if (field.length > FIELD_NAME_MAX) return 'tables.fieldNameTooLong';
  if (isReservedTableField(field)) return 'tables.fieldNameReserved';
  return null;
}

/** The header row count as a number, or the problem with it. */
export function headerRowsProblem(raw: number | string | undefined): string | null {
  if (raw === undefined || raw === null || String(raw).trim() === '') return 'tables.headerRowsRequired';
  const rows = Number(raw);
  if (!Number.isInteger(rows) || rows < 1 || rows > HEADER_ROWS_MAX) return 'tables.headerRowsRange';
  return null;
}

/**
 * The form's rules in the spec's order: a sheet selected; header row count and table name given;
 * the header fields fetched (columns present); field name, display name and type filled in every
 * column; field names of English letters and digits, unique. The first problem only, as the spec's
 * form shows one message at a time.
 */
export function tableImportProblem(input: TableImportInput): TableImportProblem | null {
  if (!input.sheet || input.sheet.trim() === '') return { field: 'sheet', key: 'tables.sheetRequired' };
  const rows = headerRowsProblem(input.header_rows);
  if (rows) return { field: 'header_rows', key: rows, params: { max: HEADER_ROWS_MAX } };
  const name = (input.table_name ?? '').trim();
  if (name === '') return { field: 'table_name', key: 'tables.tableNameRequired' };
  if ([...name].length > TABLE_NAME_MAX) return { field: 'table_name', key: 'tables.tableNameTooLong', params: { max: TABLE_NAME_MAX } };
  const columns = input.columns ?? [];
  if (columns.length === 0) return { field: 'columns', key: 'tables.fetchHeaderFirst' };
  if (columns.length > TABLE_COLUMNS_MAX) return { field: 'columns', key: 'tables.tooManyColumns', params: { max: TABLE_COLUMNS_MAX } };
  if (columns.some((column) => !column.field?.trim() || !column.display_name?.trim() || !column.type?.trim())) return { field: 'columns', key: 'tables.columnsUnfilled' };
  const seen = new Set<string>();
  for (const column of columns) {
    const field = column.field!;
    const problem = fieldNameProblem(field);
    if (problem) return { field: 'columns', key: problem, params: { field, max: FIELD_NAME_MAX } };
    if (seen.has(field.toLowerCase())) return { field: 'columns', key: 'tables.fieldNameTwice', params: { field } };
    seen.add(field.toLowerCase());
    if (!isTableColumnType(column.type)) return { field: 'columns', key: 'tables.typeInvalid', params: { field } };
    for (const text of [column.display_name, column.display_name_en, column.unit, column.note]) {
      if (text !== undefined && [...text].length > COLUMN_TEXT_MAX) return { field: 'columns', key: 'tables.columnTextTooLong', params: { field, max: COLUMN_TEXT_MAX } };
    }
  }
  return null;
}
