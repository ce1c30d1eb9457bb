import { FIELD_NAME_MAX, RESERVED_TABLE_FIELDS, type TableColumn } from '@portal/shared';
import { cellText, shapeOf, typeOf, type Shape } from './cell-values.js';
import type { Cell } from './sheet-reader.js';

/**
 * The columns proposed for a sheet (GET /metadata/get-table-column/), from its header rows and a
 * sample of the rows under them.
 *
 * Header: a streamed workbook gives a merged cell's value in its first cell only (its merges come
 * after its rows), so a header cell left empty in an upper header row takes the value on its left
 * when that cell spans it (the cells above both are the same group): a group title merged over
 * several columns heads each of them. The header rows' texts of a column are joined top to bottom
 * with ' / ', repeated texts once (a cell merged down over two header rows). A header cell's
 * trailing bracketed part is the unit: 'Depth (m)', '气温(℃)', 'Flux [W m-2]'.
 *
 * Names: the display name is the header's text; the English display name is the header when it is
 * English, or the English words inside a Chinese header ('温度 Temperature'); the field name is made
 * of the English words (lower case, words joined by '_'), else `col_<n>` for the column's number,
 * unique in any case (a second 'depth' becomes depth_2).
 */
export function proposeColumns(headerRows: Cell[][], sample: Cell[][]): TableColumn[] {
  const width = Math.max(0, ...headerRows.map((row) => row.length), ...sample.map((row) => row.length));
  const texts = headerTexts(headerRows, width);
  // A header named like a system column of the database ('xmin') is proposed as 'xmin_2'.
  const taken = new Set<string>(RESERVED_TABLE_FIELDS);
  const columns: TableColumn[] = [];
  for (let column = 0; column < width; column++) {
    const { name, unit } = texts[column]!;
    const english = englishOf(name);
    const field = uniqueField(fieldFrom(english) || `col_${column + 1}`, taken);
    const shapes: Shape[] = sample.map((row) => shapeOf(row[column] ?? null));
    columns.push({ field, display_name: name || field, display_name_en: english, unit, note: '', type: typeOf(shapes) });
  }
  return columns;
}

/** The joined header text of each column and its unit, group titles carried over the columns they span. */
function headerTexts(headerRows: Cell[][], width: number): { name: string; unit: string }[] {
  const grid = headerRows.map((row) => Array.from({ length: width }, (_, column) => cellText(row[column] ?? null).trim()));
  // Filled from the left in every header row but the last, within the group the row above drew.
  const filled = grid.map((row) => [...row]);
  for (let at = 0; at < filled.length - 1; at++) {
    for (let column = 1; column < width; column++) {
      if (filled[at]![column] !== '') continue;
      const sameGroupAbove = at === 0 || filled[at - 1]![column] === filled[at - 1]![column - 1];
      if (sameGroupAbove) filled[at]![column] = filled[at]![column - 1]!;
    }
  }
  return Array.from({ length: width }, (_, column) => {
    const parts: string[] = [];
    let unit = '';
    for (const row of filled) {
      const text = row[column]!.replace(/\s+/g, ' ');
      if (text === '' || parts[parts.length - 1] === text) continue;
      const split = splitUnit(text);
      parts.push(split.name);
      if (split.unit) unit = split.unit;
    }
    return { name: parts.filter((part, at) => part !== parts[at - 1]).join(' / '), unit };
  });
}

/** 'Depth (m)' -> Depth, m; a bracketed part at the end, short, is the unit. */
export function splitUnit(text: string): { name: string; unit: string } {
  const match = /^(.*?)\s*[(（[【]\s*([^()（）[\]【】]{1,20}?)\s*[)）\]】]$/.exec(text);
  if (!match || match[1]!.trim() === '') return { name: text, unit: '' };
  return { name: match[1]!.trim(), unit: match[2]! };
}

/** The English of a header: all of it when it has no Chinese, else its runs of Latin words. */
function englishOf(text: string): string {
  if (!/[^\x20-\x7e]/.test(text)) return text.trim();
  const runs = text.match(/[A-Za-z][A-Za-z0-9 _.,'&/-]*[A-Za-z0-9]|[A-Za-z]/g) ?? [];
  return runs.join(' ').trim();
}

/** English words as a field name: lower case, words joined by '_', beginning with a letter, at most FIELD_NAME_MAX. */
function fieldFrom(english: string): string {
  let field = english
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (field === '') return '';
  if (!/^[a-z]/.test(field)) field = `c_${field}`;
  return field.slice(0, FIELD_NAME_MAX).replace(/_+$/, '');
}

function uniqueField(field: string, taken: Set<string>): string {
  let candidate = field;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = `_${n}`;
    candidate = `${field.slice(0, FIELD_NAME_MAX - suffix.length)}${suffix}`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}
