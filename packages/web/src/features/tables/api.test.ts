import { describe, expect, it } from 'vitest';
import { columnTitle, rowsParams, tableDownloadUrl, viewerPath } from './api';

describe('a table’s query as the viewer sends it', () => {
  it('sends the ordering and each filter that has a value, trimmed, as {field}__{operator}', () => {
    expect(rowsParams('t_1', { ordering: '-depth', filters: { depth: { gte: ' 10 ', lte: '' }, station: { contains: 'S3' }, note: { contains: '   ' } } })).toEqual({
      table: 't_1',
      ordering: '-depth',
      depth__gte: '10',
      station__contains: 'S3',
    });
    expect(rowsParams('t_1', { filters: {} })).toEqual({ table: 't_1' });
  });

  it('downloads the same rows in the page’s language', () => {
    const url = new URL(tableDownloadUrl('t_1', { ordering: 'depth', filters: { temperature: { gte: '9', lte: '9.5' } } }, 'csv', 'zh-hans'), 'http://portal.invalid');
    expect(url.pathname).toBe('/metadata/get-table-data/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ table: 't_1', ordering: 'depth', temperature__gte: '9', temperature__lte: '9.5', format: 'csv', lang: 'zh-hans' });
  });
});

describe('a column’s title', () => {
  const column = { display_name: '温度', display_name_en: 'Temperature', unit: '°C' };
  it('is its display name in the page’s language with its unit', () => {
    expect(columnTitle(column, 'zh-hans')).toBe('温度 (°C)');
    expect(columnTitle(column, 'en')).toBe('Temperature (°C)');
  });
  it('falls back to the Chinese name on an English page, and has no brackets without a unit', () => {
    expect(columnTitle({ ...column, display_name_en: '', unit: '' }, 'en')).toBe('温度');
  });
});

it('names the viewer’s route with its parts encoded', () => {
  expect(viewerPath('r 1', 't_1')).toBe('/data/detailedDataDetail/r%201/t_1');
});
