import { hasIllegalText, STRING_COLUMN_MAX, type TableColumnType } from '@portal/shared';
import type { Cell } from './sheet-reader.js';

/**
 * A cell's value as its column's type stores it, on both databases: integers and floats as numbers,
 * dates as 'YYYY-MM-DD', date-times as 'YYYY-MM-DDTHH:MM:SS[.mmm]' (no zone: a sheet's times are
 * local to its data; one written with a zone is stored in UTC), text as text. A cell that does not
 * fit is refused with the reason's key (under `tables.reasons`).
 */
export type Stored = string | number | null;
export type Fitted = { value: Stored } | { reason: string };

/** What a value looks like, for proposing a column's type ('missing': a marker of a missing value, such as 'n/a'). */
export type Shape = 'empty' | 'missing' | 'integer' | 'float' | 'date' | 'datetime' | 'string' | 'text';

/**
 * Texts that mark a missing value in observation sheets. They do not decide a column's type (a
 * column of numbers with 'n/a' in it is proposed as numbers); the import still reports them as not
 * fitting, and the provider accepts them as empty.
 */
const MISSING_MARKERS = new Set(['n/a', 'na', '#n/a', 'nan', 'null', 'none', '-', '--', '---', '—', '/', '?', '缺测', '无', '无数据']);

/** Days from 1899-12-30 (Excel's day 0 with its 1900 leap-year quirk) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25569;
const DAY_MS = 86_400_000;
/** Excel's serials run from 1 (1900-01-01) to 2958465 (9999-12-31). */
const SERIAL_MAX = 2958465;

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** 2024-01-05, 2024/1/5, 2024.01.05, 2024年1月5日 */
const DATE = /^(\d{4})(?:[-/.](\d{1,2})[-/.](\d{1,2})|年(\d{1,2})月(\d{1,2})日?)$/;
/** A date, then T or a space and a time of day, seconds and fractions optional, and a zone optional. */
const DATETIME = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function isoDate(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function isoDateTime(date: Date): string {
  const ms = date.getUTCMilliseconds();
  return `${isoDate(date)}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
}

const hasTime = (date: Date) => date.getTime() % DAY_MS !== 0;

/** An Excel serial (days since 1899-12-30, the fraction the time of day) as a UTC Date, or undefined out of Excel's range. */
export function fromExcelSerial(serial: number): Date | undefined {
  if (!Number.isFinite(serial) || serial < 1 || serial > SERIAL_MAX) return undefined;
  return new Date(Math.round((serial - EXCEL_EPOCH_DAYS) * DAY_MS));
}

/** A valid calendar day as a UTC Date. */
function calendarDay(year: number, month: number, day: number): Date | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date;
}

/** Text written as a date or a date and time, as a UTC Date (a zone given is applied). */
function parseDateText(text: string): { date: Date; withTime: boolean } | undefined {
  const day = DATE.exec(text);
  if (day) {
    const date = calendarDay(Number(day[1]), Number(day[2] ?? day[4]), Number(day[3] ?? day[5]));
    return date && { date, withTime: false };
  }
  const full = DATETIME.exec(text);
  if (!full) return undefined;
  const date = calendarDay(Number(full[1]), Number(full[2]), Number(full[3]));
  const [hours, minutes, seconds] = [Number(full[4]), Number(full[5]), Number(full[6] ?? 0)];
  if (!date || hours > 23 || minutes > 59 || seconds > 59) return undefined;
  let ms = date.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000 + Math.round(Number(`0.${full[7] ?? '0'}`) * 1000);
  const zone = full[8];
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return { date: new Date(ms), withTime: true };
}

/** A cell as text, the way a person reads it in the sheet (a date as ISO 8601). */
export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return hasTime(cell) ? isoDateTime(cell) : isoDate(cell);
  return String(cell);
}

/** What a cell looks like (for the type proposed): a number whole or not, a date with or without a time, short or long text. */
export function shapeOf(cell: Cell): Shape {
  if (cell === null) return 'empty';
  if (typeof cell === 'number') return Number.isSafeInteger(cell) ? 'integer' : 'float';
  if (cell instanceof Date) return hasTime(cell) ? 'datetime' : 'date';
  const text = cell.trim();
  if (text === '') return 'empty';
  if (MISSING_MARKERS.has(text.toLowerCase())) return 'missing';
  // Leading zeros are part of an identifier (a station's '00123'): kept as text.
  if (INTEGER.test(text)) return /^[+-]?0\d/.test(text) || !Number.isSafeInteger(Number(text)) ? 'string' : 'integer';
  if (FLOAT.test(text) && Number.isFinite(Number(text))) return 'float';
  const date = parseDateText(text);
  if (date) return date.withTime ? 'datetime' : 'date';
  return [...cell].length > STRING_COLUMN_MAX ? 'text' : 'string';
}

/** The type proposed for a column whose sampled cells have these shapes. */
export function typeOf(shapes: Iterable<Shape>): TableColumnType {
  const seen = new Set(shapes);
  seen.delete('empty');
  seen.delete('missing');
  if (seen.size === 0) return 'string';
  const only = (...allowed: Shape[]) => [...seen].every((shape) => allowed.includes(shape));
  if (only('integer')) return 'integer';
  if (only('integer', 'float')) return 'float';
  if (only('date')) return 'date';
  if (only('date', 'datetime')) return 'datetime';
  return seen.has('text') ? 'text' : 'string';
}

const refuse = (reason: string): Fitted => ({ reason });

/** The cell as `type` stores it, or why it does not fit. An empty cell is null in every type. */
export function fit(cell: Cell, type: TableColumnType): Fitted {
  if (cell === null) return { value: null };
  if (typeof cell === 'string') {
    if (cell.trim() === '') return { value: null };
    if (hasIllegalText(cell)) return refuse('illegalText');
  }
  switch (type) {
    case 'integer':
      return fitInteger(cell);
    case 'float':
      return fitFloat(cell);
    case 'date':
      return fitDate(cell, false);
    case 'datetime':
      return fitDate(cell, true);
    case 'string': {
      const text = cellText(cell);
      return [...text].length > STRING_COLUMN_MAX ? refuse('tooLong') : { value: text };
    }
    case 'text':
      return { value: cellText(cell) };
  }
}

function fitInteger(cell: Cell): Fitted {
  if (cell instanceof Date) return refuse('notInteger');
  const number = typeof cell === 'number' ? cell : FLOAT.test(cell!.trim()) ? Number(cell!.trim()) : Number.NaN;
  if (!Number.isFinite(number) || !Number.isInteger(number)) return refuse('notInteger');
  if (!Number.isSafeInteger(number)) return refuse('tooLarge');
  return { value: number };
}

function fitFloat(cell: Cell): Fitted {
  if (cell instanceof Date) return refuse('notNumber');
  const number = typeof cell === 'number' ? cell : FLOAT.test(cell!.trim()) ? Number(cell!.trim()) : Number.NaN;
  return Number.isFinite(number) ? { value: number } : refuse('notNumber');
}

/** A date or date-time from a date cell, an Excel serial (a number in a column declared a date) or text. */
function fitDate(cell: Cell, withTime: boolean): Fitted {
  const notIt = refuse(withTime ? 'notDateTime' : 'notDate');
  let date: Date | undefined;
  if (cell instanceof Date) date = cell;
  else if (typeof cell === 'number') date = fromExcelSerial(cell);
  else {
    const text = cell!.trim();
    date = FLOAT.test(text) ? fromExcelSerial(Number(text)) : parseDateText(text)?.date;
  }
  if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) return notIt;
  if (withTime) return { value: isoDateTime(date) };
  return hasTime(date) ? refuse('hasTime') : { value: isoDate(date) };
}

/** A filter's value for a column of `type` (`__gte`, `__lte`), as stored; undefined when it is not one. */
export function filterValue(raw: string, type: TableColumnType): Stored | undefined {
  // A number is no date here (a serial is a sheet's way of writing one, not a person's).
  if ((type === 'date' || type === 'datetime') && !parseDateText(raw.trim())) return undefined;
  const fitted = fit(raw, type);
  return 'value' in fitted && fitted.value !== null ? fitted.value : undefined;
}
