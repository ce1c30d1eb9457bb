import { TABLE_FILTER_OPERATORS, type TableColumn } from '@portal/shared';
import { AppError } from '../../errors.js';
import { filterValue } from './cell-values.js';
import type { RowFilter } from './tables.repo.js';

/** A table's rows as a query asks for them: the ordering and the filters, each of a declared field. */

/** `ordering=field` or `-field`, a declared field. */
export function orderingOf(raw: unknown, byField: Map<string, TableColumn>): { field: string; descending: boolean } | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  if (!byField.has(field)) throw new AppError('VALIDATION_FAILED', 'tables.noField', { params: { field } });
  return { field, descending };
}

/** `{field}__gte`, `{field}__lte` (not on long text) and `{field}__contains` (on text only), each of a declared field, its value of the field's type. */
export function filtersOf(query: Record<string, unknown>, byField: Map<string, TableColumn>): RowFilter[] {
  const filters: RowFilter[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const at = key.lastIndexOf('__');
    if (at <= 0) continue;
    const field = key.slice(0, at);
    const operator = key.slice(at + 2) as RowFilter['operator'];
    const column = byField.get(field);
    if (!column) throw new AppError('VALIDATION_FAILED', 'tables.noField', { params: { field } });
    if (!(TABLE_FILTER_OPERATORS as readonly string[]).includes(operator)) throw new AppError('VALIDATION_FAILED', 'tables.noFilter', { params: { field } });
    const text = Array.isArray(raw) ? String(raw[raw.length - 1] ?? '') : String(raw ?? '');
    const isText = column.type === 'string' || column.type === 'text';
    if (operator === 'contains') {
      if (!isText) throw new AppError('VALIDATION_FAILED', 'tables.containsOnText', { params: { field } });
      if (text !== '') filters.push({ field, type: column.type, operator, value: text });
      continue;
    }
    if (column.type === 'text') throw new AppError('VALIDATION_FAILED', 'tables.rangeOnText', { params: { field } });
    if (text === '') continue;
    const value = filterValue(text, column.type);
    if (value === undefined) throw new AppError('VALIDATION_FAILED', 'tables.filterValue', { params: { filter: key, type: column.type } });
    filters.push({ field, type: column.type, operator, value });
  }
  return filters;
}
