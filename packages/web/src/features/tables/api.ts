import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  Language,
  TableColumn,
  TableData,
  TableDataFormat,
  TableDescription,
  TableFilterOperator,
  TableImport,
  TableImportInput,
  TableInfo,
  TableList,
  TableListItem,
} from '@portal/shared';
import { api, ok } from '../../api/client';
import { path } from '../../api/routes';

/** The calls of Excel to table (issue 20) the personal centre makes; every shape from the shared contracts. */

export type { TableColumn, TableData, TableDescription, TableImport, TableInfo, TableList, TableListItem };

/** A column's filters as the viewer holds them: `{field: {gte, lte, contains}}`, each a text as the query sends it. */
export type TableFilters = Record<string, Partial<Record<TableFilterOperator, string>>>;

export interface TableListQuery {
  page: number;
  pageSize: number;
  search?: string;
  /** One record's tables only (the editor's Data Files tab). */
  metadataId?: string;
}

export interface TableRowsQuery {
  page: number;
  pageSize: number;
  /** `field` or `-field`; undefined: the sheet's order. */
  ordering?: string;
  filters: TableFilters;
}

/** What POST /metadata/trans/ takes beside the form: store the cells that do not fit as empty. */
export type TableImportBody = TableImportInput & { accept_empty?: boolean };

/** The query parameters of a table's rows: the table, its ordering and its filters (`{field}__{operator}`), none empty. */
export function rowsParams(code: string, query: Pick<TableRowsQuery, 'ordering' | 'filters'>): Record<string, string> {
  const params: Record<string, string> = { table: code };
  if (query.ordering) params.ordering = query.ordering;
  for (const [field, operators] of Object.entries(query.filters)) {
    for (const [operator, value] of Object.entries(operators)) if (value !== undefined && value.trim() !== '') params[`${field}__${operator}`] = value.trim();
  }
  return params;
}

/** Where a table is shown: the viewer (a route of the personal centre), under its record. */
export const viewerPath = (metadataId: string, code: string) => `/data/detailedDataDetail/${encodeURIComponent(metadataId)}/${encodeURIComponent(code)}`;

/**
 * The address of every row matching the viewer's filters, in its order, as a CSV or Excel file (a
 * plain link: the browser saves it), its header in the page's language (`lang`: a navigation sends
 * the browser's languages, not the page's).
 */
export function tableDownloadUrl(code: string, query: Pick<TableRowsQuery, 'ordering' | 'filters'>, format: Exclude<TableDataFormat, 'json'>, language: Language): string {
  return `${path('tableData')}?${new URLSearchParams({ ...rowsParams(code, query), format, lang: language }).toString()}`;
}

export const tablesApi = {
  info: async (file: string) => ok<TableInfo>(await api.get(path('tableInfo'), { file })),
  columns: async (file: string, sheet: string, headerRows: number) =>
    ok<{ columns: TableColumn[] }>(await api.get(path('tableColumns'), { file, sheet, header_rows: headerRows })).columns,
  /** A dry run answers what the import would do and keeps nothing; otherwise the table is made (a refusal throws, its report in the ApiError's reply). */
  importTable: async (body: TableImportBody, dryRun: boolean) => ok<TableImport>(await api.postJson(`${path('tableImport')}${dryRun ? '?dry_run=true' : ''}`, body)),
  list: async ({ page, pageSize, search, metadataId }: TableListQuery) =>
    ok<TableList>(await api.get(path('tables'), { page, pageSize, ...(search ? { search } : {}), ...(metadataId ? { metadata__id: metadataId } : {}) })),
  describe: async (code: string) => ok<TableDescription>(await api.get(path('table', { code }))),
  rows: async (code: string, { page, pageSize, ...query }: TableRowsQuery) => ok<TableData>(await api.get(path('tableData'), { ...rowsParams(code, query), page, pageSize })),
};

export const tablesKeys = {
  all: ['tables'] as const,
  list: (query: TableListQuery) => ['tables', 'list', query] as const,
  one: (code: string) => ['tables', 'one', code] as const,
  rows: (code: string, query: TableRowsQuery) => ['tables', 'rows', code, query] as const,
};

/** The tables the caller may read (or one record's), a page at a time. */
export function useTableList(query: TableListQuery) {
  return useQuery({ queryKey: tablesKeys.list(query), queryFn: () => tablesApi.list(query), placeholderData: keepPreviousData });
}

/** A page of a table's rows; the previous page stays shown while the next loads. */
export function useTableRows(code: string, query: TableRowsQuery, enabled = true) {
  return useQuery({ queryKey: tablesKeys.rows(code, query), queryFn: () => tablesApi.rows(code, query), placeholderData: keepPreviousData, enabled, retry: false });
}

/** A column's name in the page's language (the Chinese one when it has no English name), with its unit. */
export function columnTitle(column: Pick<TableColumn, 'display_name' | 'display_name_en' | 'unit'>, language: string): string {
  const name = (language === 'en' && column.display_name_en) || column.display_name || column.display_name_en;
  return column.unit ? `${name} (${column.unit})` : name;
}

/** Whether a column's values are compared as ranges (numbers, dates, times) rather than matched as text. */
export const isRangeColumn = (column: Pick<TableColumn, 'type'>) => column.type !== 'string' && column.type !== 'text';
/** Whether a column's values are numbers (what a chart's value axis takes). */
export const isNumberColumn = (column: Pick<TableColumn, 'type'>) => column.type === 'integer' || column.type === 'float';
