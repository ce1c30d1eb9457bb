import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse as parseCsv } from 'csv-parse';
import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { tableSourceKind, type TableSourceKind } from '@portal/shared';

/** The kinds of file that become tables, by extension (the shared rule, which the web's import action mirrors). */
export type SourceKind = TableSourceKind;

/** A cell as the readers give it: text, a number, a date (an Excel date cell, in UTC), or nothing. */
export type Cell = string | number | Date | null;

/** One row of a sheet holding at least one value: its number as the sheet numbers it (from 1), and its cells from the first column. */
export interface SheetRow {
  number: number;
  cells: Cell[];
}

export interface SheetSummary {
  name: string;
  rows: number;
  columns: number;
}

/** The kind of a data file by its name, or undefined when it cannot become a table. */
export const sourceKindOf = (name: string): SourceKind | undefined => tableSourceKind(name);

/** A CSV file is one sheet, named after the file without its extension. */
export function csvSheetName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** unzipper's central-directory reader (exceljs' own dependency), as far as it is used here. */
interface ZipDirectory {
  files: { path: string; buffer(): Promise<Buffer> }[];
}
const unzipper = createRequire(import.meta.url)('unzipper') as { Open: { file(path: string): Promise<ZipDirectory> } };

const xmlText = (value: string) =>
  value.replace(/&(lt|gt|quot|apos|amp|#x[0-9a-f]+|#\d+);/gi, (_, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
    if (named[entity.toLowerCase()]) return named[entity.toLowerCase()]!;
    return String.fromCodePoint(entity[1]!.toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
  });
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/**
 * A workbook's sheet names by the number of their part (xl/worksheets/sheetN.xml), read from its zip's
 * central directory: exceljs' streaming reader sometimes loses the workbook part, the last one a
 * writer such as exceljs stores (its iterate-stream race, exceljs issues 2663 and 3064), and then
 * names the sheets Sheet1, Sheet2... A file that cannot be read so gives an empty map.
 */
export async function workbookSheetNames(file: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    const zip = await unzipper.Open.file(file);
    const part = async (path: string) => (await zip.files.find((entry) => entry.path === path)?.buffer())?.toString('utf8') ?? '';
    const targets = new Map<string, string>();
    for (const tag of (await part('xl/_rels/workbook.xml.rels')).match(/<Relationship\b[^>]*>/g) ?? []) {
      const number = /worksheets\/sheet(\d+)\.xml$/.exec(attribute(tag, 'Target') ?? '')?.[1];
      const id = attribute(tag, 'Id');
      if (number && id) targets.set(id, number);
    }
    for (const tag of (await part('xl/workbook.xml')).match(/<(?:\w+:)?sheet\b[^>]*>/g) ?? []) {
      const number = targets.get(attribute(tag, 'r:id') ?? '');
      const name = attribute(tag, 'name');
      if (number && name !== undefined) names.set(number, xmlText(name));
    }
  } catch {
    // Not a zip: the streaming reader says so in its own words.
  }
  return names;
}

/**
 * How a workbook is read. exceljs' streaming reader has a race (its iterate-stream; exceljs issues 2663
 * and 3064) in which it loses the zip's last parts: the workbook part (the sheets' names) and, now and
 * then, the shared strings (every text cell). A workbook up to IN_MEMORY_XLSX_BYTES is therefore read
 * whole, which has no such race; a larger one is streamed, with its sheets' names from the central
 * directory (`names`, workbookSheetNames) where the stream lost them.
 */
export interface WorkbookHints {
  inMemory?: boolean;
  names?: Map<string, string>;
}

/** The largest workbook read whole (its parts in memory, some times its size), not streamed. */
export const IN_MEMORY_XLSX_BYTES = 16 * 1024 * 1024;

/** The rows of a worksheet read whole, as the streaming reader gives them. */
async function* rowsIn(worksheet: ExcelJS.Worksheet): AsyncGenerator<ExcelJS.Row> {
  const rows: ExcelJS.Row[] = [];
  worksheet.eachRow({ includeEmpty: false }, (row) => rows.push(row));
  yield* rows;
}

/** The workbook could not be read (not a zip, broken XML, bad CSV quoting): the import answers 400 with the file's name. */
export class UnreadableFileError extends Error {}

/**
 * The sheets of a file, each read to its end (row counts are not in a streamed workbook's parts
 * before its rows): the names in the workbook's order, the rows holding values and the widest row.
 */
export async function summarize(stream: Readable, kind: SourceKind, fileName: string, hints?: WorkbookHints): Promise<SheetSummary[]> {
  const sheets: SheetSummary[] = [];
  for await (const sheet of sheetsOf(stream, kind, fileName, hints)) {
    const summary = { name: sheet.name, rows: 0, columns: 0 };
    for await (const row of sheet.rows) {
      summary.rows++;
      summary.columns = Math.max(summary.columns, row.cells.length);
    }
    sheets.push(summary);
  }
  return sheets;
}

/** The rows holding values of one sheet, streamed; `found` tells afterwards whether the sheet was there. */
export async function* rowsOf(stream: Readable, kind: SourceKind, fileName: string, sheetName: string, found: { sheet: boolean }, hints?: WorkbookHints): AsyncGenerator<SheetRow> {
  for await (const sheet of sheetsOf(stream, kind, fileName, hints)) {
    if (sheet.name !== sheetName) continue;
    found.sheet = true;
    yield* sheet.rows;
    return;
  }
}

interface StreamedSheet {
  name: string;
  rows: AsyncIterable<SheetRow>;
}

/** Each sheet in order with its rows as a stream (a sheet not iterated is skipped); the source is destroyed at the end or on a break. */
async function* sheetsOf(stream: Readable, kind: SourceKind, fileName: string, hints?: WorkbookHints): AsyncGenerator<StreamedSheet> {
  try {
    if (kind === 'csv') {
      yield { name: csvSheetName(fileName), rows: csvRows(stream) };
      return;
    }
    // Styles are read so that a number formatted as a date comes as a Date; shared strings are kept
    // (the part every text cell refers to; a worksheet before it in the zip waits in a temporary file).
    if (hints?.inMemory) {
      // Read whole (JSZip, no stream race): every part is there, the names and the shared strings too.
      const book = new ExcelJS.Workbook();
      try {
        await book.xlsx.read(stream);
      } catch (error) {
        throw new UnreadableFileError(String((error as Error | null)?.message ?? error));
      }
      for (const worksheet of book.worksheets) yield { name: worksheet.name, rows: xlsxRows(rowsIn(worksheet)) };
      return;
    }
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(stream, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
    let index = 0;
    for await (const worksheet of asUnreadable(workbook)) {
      index++;
      const named = worksheet as unknown as { name?: string; id?: string | number };
      // Without the workbook part (lost by exceljs' race), exceljs names a sheet Sheet + its part's number: the central directory's name then.
      const lost = !(workbook as unknown as { model?: { sheets?: unknown[] } }).model?.sheets?.length;
      const name = lost ? (hints?.names?.get(String(named.id)) ?? named.name ?? `Sheet${index}`) : (named.name ?? `Sheet${index}`);
      yield { name, rows: xlsxRows(worksheet) };
    }
  } finally {
    stream.destroy();
  }
}

/** The reader's failures (a broken zip, bad XML) as UnreadableFileError. */
async function* asUnreadable<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<T>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw new UnreadableFileError(String((error as Error | null)?.message ?? error));
    }
    if (next.done) return;
    yield next.value;
  }
}

async function* xlsxRows(worksheet: AsyncIterable<ExcelJS.Row>): AsyncGenerator<SheetRow> {
  for await (const row of asUnreadable(worksheet)) {
    const values = row.values as unknown[];
    const cells: Cell[] = [];
    let last = 0;
    for (let column = 1; column < values.length; column++) {
      const cell = xlsxCell(values[column]);
      cells.push(cell);
      if (cell !== null) last = column;
    }
    if (last === 0) continue;
    cells.length = last;
    yield { number: row.number, cells };
  }
}

/** An exceljs cell value as a Cell: a formula by its result, rich text by its text, an error by its code ('#N/A'). */
function xlsxCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'object') {
    const object = value as { result?: unknown; richText?: { text: string }[]; error?: string; text?: unknown };
    if ('formula' in object || 'sharedFormula' in object) return xlsxCell(object.result);
    if (Array.isArray(object.richText)) return xlsxCell(object.richText.map((part) => part.text).join(''));
    if (typeof object.error === 'string') return object.error;
    if ('text' in object) return xlsxCell(object.text);
  }
  return null;
}

/** The bytes looked at to tell UTF-8 from GB18030 (what Excel in Chinese writes a CSV in). */
const SNIFF_BYTES = 64 * 1024;

async function* csvRows(stream: Readable): AsyncGenerator<SheetRow> {
  const { encoding, delimiter, source } = await sniff(stream);
  const parser = parseCsv({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
  const decoder = new TextDecoder(encoding);
  const decode = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
  const piped = pipeline(source, decode, parser).catch((error: unknown) => {
    parser.destroy(error as Error);
  });
  let number = 0;
  try {
    for await (const record of asUnreadable(parser as AsyncIterable<string[]>)) {
      number++;
      let last = 0;
      const cells: Cell[] = record.map((value, at) => {
        if (value.trim() === '') return null;
        last = at + 1;
        return value;
      });
      if (last === 0) continue;
      cells.length = last;
      yield { number, cells };
    }
  } finally {
    source.destroy();
    await piped;
  }
}

/**
 * Looks at the first bytes: their encoding (UTF-8 unless they are not, then GB18030) and the
 * delimiter (comma, semicolon or tab: the most frequent of them in the first line). Answers a
 * stream that gives the bytes looked at again, then the rest.
 */
async function sniff(stream: Readable): Promise<{ encoding: string; delimiter: string; source: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Stopping early must not end the stream: what is left of it is piped on below.
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= SNIFF_BYTES) break;
  }
  const head = Buffer.concat(chunks);
  let encoding = 'utf-8';
  try {
    // A character cut at the end of the head is not an error (stream: true).
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    encoding = 'gb18030';
  }
  const firstLine = new TextDecoder(encoding).decode(head.subarray(0, Math.min(head.length, 8192))).split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', ';', '\t'].map((candidate) => ({ candidate, count: firstLine.split(candidate).length - 1 }));
  const delimiter = counts.reduce((best, next) => (next.count > best.count ? next : best)).candidate;
  const source = new PassThrough();
  source.write(head);
  stream.pipe(source);
  stream.on('error', (error) => source.destroy(error));
  source.on('close', () => stream.destroy());
  return { encoding, delimiter, source };
}
