import { z } from 'zod';
import { TABLE_COLUMN_TYPES } from '../rules/table-import.js';
import { pageOf } from './page.js';

/** GET /metadata/get-table-info/?file=: the sheets of a workbook (a CSV is one sheet, named after the file). */
export const tableSheetSchema = z.object({
  name: z.string(),
  /** Rows holding at least one value, the header's included. */
  rows: z.number(),
  /** The last column holding a value, in any row. */
  columns: z.number(),
});
export const tableInfoSchema = z.object({ sheets: z.array(tableSheetSchema) });
export type TableInfo = z.infer<typeof tableInfoSchema>;

/** One column of a table: proposed by GET /metadata/get-table-column/, declared by the provider, kept in the catalogue. */
export const tableColumnSchema = z.object({
  field: z.string(),
  display_name: z.string(),
  display_name_en: z.string(),
  unit: z.string(),
  note: z.string(),
  type: z.enum(TABLE_COLUMN_TYPES),
});
export type TableColumn = z.infer<typeof tableColumnSchema>;
export const tableColumnsSchema = z.object({ columns: z.array(tableColumnSchema) });

/** A cell that did not fit its column's type: its row as numbered in the sheet, its column's field, its value as text, why (in the caller's language). */
export const rejectedCellSchema = z.object({ row: z.number(), column: z.string(), value: z.string(), reason: z.string() });
export type RejectedCell = z.infer<typeof rejectedCellSchema>;

/**
 * POST /metadata/trans/: 201 with the table made (`id`, `code`), its rows, and the cells stored empty
 * because they did not fit (`accept_empty`); a dry run (`?dry_run=true`) answers 200 with `id` and
 * `code` null and what the import would do. `rejected` lists at most the first 1000 cells;
 * `rejected_count` counts them all.
 */
export const tableImportSchema = z.object({
  id: z.string().nullable(),
  code: z.string().nullable(),
  rows: z.number(),
  rejected: z.array(rejectedCellSchema),
  rejected_count: z.number(),
});
export type TableImport = z.infer<typeof tableImportSchema>;

/** A table of a record, as the catalogue holds it. */
export const dataTableSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  metadata: z.string(),
  file: z.string(),
  sheet: z.string(),
  header_rows: z.number(),
  rows: z.number(),
  columns: z.array(tableColumnSchema),
  created_at: z.string(),
});
export type DataTable = z.infer<typeof dataTableSchema>;

/** GET /metadata/get-table-data/: a page of a table's rows (filtered, sorted), the count of all that match, its columns and the table. */
export const tableDataSchema = z.object({
  count: z.number(),
  columns: z.array(tableColumnSchema),
  results: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  table: dataTableSchema,
});
export type TableData = z.infer<typeof tableDataSchema>;

/** The filters of GET /metadata/get-table-data/: `{field}__gte`, `{field}__lte`, `{field}__contains`. */
export const TABLE_FILTER_OPERATORS = ['gte', 'lte', 'contains'] as const;
export type TableFilterOperator = (typeof TABLE_FILTER_OPERATORS)[number];

/** The formats of GET /metadata/get-table-data/: a page as JSON, or every row that matches as a CSV or Excel file. */
export const TABLE_DATA_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type TableDataFormat = (typeof TABLE_DATA_FORMATS)[number];
/** A download of a table's rows holds at most this many (an Excel sheet holds 1,048,576 rows, three of them the header). */
export const TABLE_DOWNLOAD_MAX_ROWS = 1_000_000;

/** The record a table belongs to: its title in its own language and in English ('' when it has none). */
export const tableRecordSchema = z.object({ id: z.string(), title: z.string(), title_en: z.string() });

/** GET /api/tables/: a table the caller may read, with its record. */
export const tableListItemSchema = z.object({
  code: z.string(),
  name: z.string(),
  record: tableRecordSchema,
  rows: z.number(),
  columns: z.number(),
  created: z.string(),
});
export type TableListItem = z.infer<typeof tableListItemSchema>;
export const tableListSchema = pageOf(tableListItemSchema);
export type TableList = z.infer<typeof tableListSchema>;

/** GET /api/tables/{code}/: one table described: its columns (display names in both languages, units, notes, types), record and rows. */
export const tableDescriptionSchema = z.object({
  code: z.string(),
  name: z.string(),
  record: tableRecordSchema,
  rows: z.number(),
  columns: z.array(tableColumnSchema),
  created: z.string(),
});
export type TableDescription = z.infer<typeof tableDescriptionSchema>;

/** GET /api/metadata/metadata/{id}/tables/: a published record's tables with their columns (its landing page lists them). */
export const recordTablesSchema = z.object({
  results: z.array(z.object({ code: z.string(), name: z.string(), rows: z.number(), columns: z.array(tableColumnSchema) })),
});
export type RecordTables = z.infer<typeof recordTablesSchema>;
