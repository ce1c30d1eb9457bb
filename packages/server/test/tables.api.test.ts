import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableColumnsSchema, tableDataSchema, tableImportSchema, tableInfoSchema, type TableColumn } from '@portal/shared';
import { buildDataFile, buildOrder, buildRecord, setRecordStatus } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { handle } from './orders-builders.js';
import { buildTablePeople, importTable, tableColumns, tableData, tableInfo, workbookBytes, XLSX_MIME, type TablePeople } from './tables-builders.js';

const ZH = { 'accept-language': 'zh-hans' };

let portal: TestPortal;
let people: TablePeople;
/** The owner's draft with the workbook, the CSV and a file that is no table. */
let draftId: string;
let workbookId: string;
let csvId: string;
let netcdfId: string;

/** Excel's day 45292 is 2024-01-01. */
const SERIAL_2024_01_01 = 45292;

/**
 * Sheet 1: a two-row header with merged cells (站点 merged down over both rows, 温度 Temperature (°C)
 * across max and min), dates as Excel keeps them (serials with a date format) and as text, an
 * empty row, and a cell that is no number. Sheet 2: one header row, plain serials in a column the
 * provider declares a date. Sheet 3: only a header.
 */
async function workbook(): Promise<Buffer> {
  const day = (d: number) => ({ value: SERIAL_2024_01_01 + d, numFmt: 'yyyy-mm-dd' });
  return workbookBytes([
    {
      name: '观测 Obs',
      merges: ['A1:A2', 'B1:C1'],
      rows: [
        ['站点', '温度 Temperature (°C)', null, 'Date', 'Observed at', '备注'],
        [null, 'max', 'min', null, null, null],
        ['S1', 1.5, -2, day(0), '2024-01-01 10:30', '晴'],
        ['S2', 2.25, -3.5, day(1), '2024-01-02T11:00:00', null],
        ['S3', 3, -1, day(2), '2024/01/03 12:00', '多云'],
        [],
        ['S4', 'n/a', -4, day(3), '2024-01-04 13:15:30', '雪'],
        ['S5', 5.5, -5, day(4), '2024年1月5日', '风'],
      ],
    },
    {
      name: 'Depth',
      rows: [
        ['Depth (m)', '样品编号', 'Count', 'Sampled'],
        [0.5, '00123', 7, SERIAL_2024_01_01],
        [1.5, '00124', 8, SERIAL_2024_01_01 + 31],
      ],
    },
    { name: 'Empty', rows: [['only', 'a header']] },
  ]);
}

const CSV = '\ufeffstation,name,elevation (m),installed\nA01,Zhongshan,18.5,1989-02-26\n\nA02,Great Wall,10,1985-02-20\nA03,"Kunlun, Dome A",4087,2009-01-27\n';

beforeAll(async () => {
  portal = await createTestPortal();
  people = await buildTablePeople(portal);
  draftId = await buildRecord(portal, { owner: people.owner, sharing: 'offlineEmail' });
  workbookId = await buildDataFile(portal, draftId, people.owner, { name: 'observations.xlsx', content: await workbook(), mime: XLSX_MIME });
  csvId = await buildDataFile(portal, draftId, people.owner, { name: 'stations.csv', content: CSV, mime: 'text/csv' });
  netcdfId = await buildDataFile(portal, draftId, people.owner, { name: 'glacier.nc', size: 64 });
}, 120_000);

afterAll(async () => {
  await portal?.close();
});

/** The owner's proposal for a sheet, as the form shows it. */
async function proposed(file: string, sheet: string, headerRows: number): Promise<TableColumn[]> {
  return tableColumnsSchema.parse(expectStatus(await tableColumns(portal, people.owner.token, { file, sheet, header_rows: headerRows }), 200)).columns;
}

/** A table the owner makes; its code. */
async function made(body: Record<string, unknown>): Promise<string> {
  return tableImportSchema.parse(expectStatus(await importTable(portal, people.owner.token, body), 201)).code!;
}

const rowsOf = async (token: string | null, query: Record<string, string | number>) => tableDataSchema.parse(expectStatus(await tableData(portal, token, query), 200));

/** Whether a table of that name exists in the database. */
async function tableExists(code: string): Promise<boolean> {
  const query =
    portal.database.dialect === 'sqlite'
      ? portal.database.db
          .selectFrom('sqlite_master' as never)
          .select('name' as never)
          .where('name' as never, '=', code as never)
      : portal.database.db
          .selectFrom('information_schema.tables' as never)
          .select('table_name' as never)
          .where('table_name' as never, '=', code as never);
  return (await query.execute()).length > 0;
}

describe('GET /metadata/get-table-info/', () => {
  it('lists a workbook’s sheets with their rows holding values and their columns, read as a stream', async () => {
    const info = tableInfoSchema.parse(expectStatus(await tableInfo(portal, people.owner.token, workbookId), 200));
    expect(info.sheets).toEqual([
      { name: '观测 Obs', rows: 7, columns: 6 },
      { name: 'Depth', rows: 3, columns: 4 },
      { name: 'Empty', rows: 1, columns: 2 },
    ]);
  });

  it('answers a CSV file as one sheet named after the file', async () => {
    const info = tableInfoSchema.parse(expectStatus(await tableInfo(portal, people.owner.token, csvId), 200));
    expect(info.sheets).toEqual([{ name: 'stations', rows: 4, columns: 4 }]);
  });

  it('is for those who may change the record’s files: 401 signed out, another user not told it exists, staff allowed', async () => {
    expect((await tableInfo(portal, null, workbookId)).statusCode).toBe(401);
    expect((await tableInfo(portal, people.other.token, workbookId, EN)).statusCode).toBe(404);
    expect((await tableInfo(portal, people.staff.token, workbookId)).statusCode).toBe(200);
  });

  it('refuses a file that is no workbook, an unknown file, and a file that is not what its name says', async () => {
    expect(expectStatus(await tableInfo(portal, people.owner.token, netcdfId, EN), 400).detail).toBe('Only Excel workbooks (.xlsx) and CSV files can become tables.');
    expect(expectStatus(await tableInfo(portal, people.owner.token, 'no-such-file', EN), 404).detail).toBe('There is no such data file.');
    expect(expectStatus(await tableInfo(portal, people.owner.token, '', ZH), 400).detail).toBe('请选择数据文件（file）。');
    const fake = await buildDataFile(portal, draftId, people.owner, { name: 'fake.xlsx', content: 'not a zip at all', mime: XLSX_MIME });
    expect(expectStatus(await tableInfo(portal, people.owner.token, fake, EN), 400).detail).toBe('The file could not be read as a workbook: fake.xlsx');
  });
});

describe('GET /metadata/get-table-column/', () => {
  it('proposes a column per field from a two-row header with merged cells and a sample of the data', async () => {
    const columns = await proposed(workbookId, '观测 Obs', 2);
    expect(columns).toEqual([
      { field: 'col_1', display_name: '站点', display_name_en: '', unit: '', note: '', type: 'string' },
      { field: 'temperature_max', display_name: '温度 Temperature / max', display_name_en: 'Temperature / max', unit: '°C', note: '', type: 'float' },
      { field: 'temperature_min', display_name: '温度 Temperature / min', display_name_en: 'Temperature / min', unit: '°C', note: '', type: 'float' },
      { field: 'date', display_name: 'Date', display_name_en: 'Date', unit: '', note: '', type: 'date' },
      { field: 'observed_at', display_name: 'Observed at', display_name_en: 'Observed at', unit: '', note: '', type: 'datetime' },
      { field: 'col_6', display_name: '备注', display_name_en: '', unit: '', note: '', type: 'string' },
    ]);
  });

  it('keeps leading zeros as text, takes units from brackets, and proposes numbers for plain serials', async () => {
    const columns = await proposed(workbookId, 'Depth', 1);
    expect(columns.map(({ field, display_name, unit, type }) => ({ field, display_name, unit, type }))).toEqual([
      { field: 'depth', display_name: 'Depth', unit: 'm', type: 'float' },
      { field: 'col_2', display_name: '样品编号', unit: '', type: 'string' },
      { field: 'count', display_name: 'Count', unit: '', type: 'integer' },
      { field: 'sampled', display_name: 'Sampled', unit: '', type: 'integer' },
    ]);
  });

  it('reads a CSV with quoted commas and an empty line', async () => {
    const columns = await proposed(csvId, 'stations', 1);
    expect(columns.map(({ field, unit, type }) => [field, unit, type])).toEqual([
      ['station', '', 'string'],
      ['name', '', 'string'],
      ['elevation', 'm', 'float'],
      ['installed', '', 'date'],
    ]);
  });

  it('refuses with the spec’s messages, in the caller’s language', async () => {
    const ask = async (query: Record<string, string | number>, headers = EN) => expectStatus(await tableColumns(portal, people.owner.token, query, headers), 400).detail;
    expect(await ask({ file: workbookId, header_rows: 1 })).toBe('A sheet must be selected.');
    expect(await ask({ file: workbookId, header_rows: 1 }, ZH)).toBe('必须选择一个工作表。');
    expect(await ask({ file: workbookId, sheet: 'Depth' })).toBe('Please enter the number of header rows.');
    expect(await ask({ file: workbookId, sheet: 'Depth', header_rows: 0 })).toBe('The header has 1 to 10 rows.');
    expect(await ask({ file: workbookId, sheet: 'Depth', header_rows: 'two' }, ZH)).toBe('表头行数为 1 到 10。');
    expect(await ask({ file: workbookId, sheet: 'Nope', header_rows: 1 })).toBe('The workbook has no sheet named Nope.');
    expect(await ask({ file: workbookId, sheet: 'Depth', header_rows: 4 })).toBe('The sheet has only 3 rows: fewer header rows, please.');
  });
});

describe('POST /metadata/trans/', () => {
  it('makes a table of the sheet with its types; a dry run reports the cell that does not fit and keeps nothing', async () => {
    const columns = await proposed(workbookId, '观测 Obs', 2);
    const body = { file: workbookId, sheet: '观测 Obs', header_rows: 2, table_name: '站点观测', columns };
    const dry = tableImportSchema.parse(expectStatus(await importTable(portal, people.owner.token, body, { dryRun: true, headers: EN }), 200));
    expect(dry).toEqual({ id: null, code: null, rows: 5, rejected: [{ row: 7, column: 'temperature_max', value: 'n/a', reason: 'not a number' }], rejected_count: 1 });
    expect(await portal.database.db.selectFrom('data_tables').select('id').execute()).toEqual([]);

    // Without accepting empty values: the report, in the caller's language, and nothing kept.
    const refused = expectStatus(await importTable(portal, people.owner.token, body, { headers: ZH }), 400);
    expect(refused.detail).toBe('有 1 个单元格不符合所在列的类型：请修改类型，或接受这些单元格为空值。');
    expect(refused.rejected).toEqual([{ row: 7, column: 'temperature_max', value: 'n/a', reason: '不是数字' }]);
    expect(await portal.database.db.selectFrom('data_tables').select('code').execute()).toEqual([]);

    // Accepting them: the cell is stored empty, the rest as typed.
    const created = tableImportSchema.parse(expectStatus(await importTable(portal, people.owner.token, { ...body, accept_empty: true }, { headers: EN }), 201));
    expect(created).toMatchObject({ rows: 5, rejected_count: 1 });
    expect(created.code).toMatch(/^t_[0-9a-f]{20}$/);
    const data = await rowsOf(people.owner.token, { table: created.code!, pageSize: 10 });
    expect(data.count).toBe(5);
    expect(data.columns).toEqual(columns);
    expect(data.table).toMatchObject({ name: '站点观测', metadata: draftId, file: workbookId, sheet: '观测 Obs', header_rows: 2, rows: 5 });
    expect(data.results).toEqual([
      { col_1: 'S1', temperature_max: 1.5, temperature_min: -2, date: '2024-01-01', observed_at: '2024-01-01T10:30:00', col_6: '晴' },
      { col_1: 'S2', temperature_max: 2.25, temperature_min: -3.5, date: '2024-01-02', observed_at: '2024-01-02T11:00:00', col_6: null },
      { col_1: 'S3', temperature_max: 3, temperature_min: -1, date: '2024-01-03', observed_at: '2024-01-03T12:00:00', col_6: '多云' },
      { col_1: 'S4', temperature_max: null, temperature_min: -4, date: '2024-01-04', observed_at: '2024-01-04T13:15:30', col_6: '雪' },
      { col_1: 'S5', temperature_max: 5.5, temperature_min: -5, date: '2024-01-05', observed_at: '2024-01-05T00:00:00', col_6: '风' },
    ]);
  });

  it('fixing a type instead: plain Excel serials in a column declared a date become dates', async () => {
    const columns = (await proposed(workbookId, 'Depth', 1)).map((column) => (column.field === 'sampled' ? { ...column, type: 'date' as const } : column));
    const code = await made({ file: workbookId, sheet: 'Depth', header_rows: 1, table_name: 'Depth samples', columns });
    const data = await rowsOf(people.owner.token, { table: code });
    expect(data.results).toEqual([
      { depth: 0.5, col_2: '00123', count: 7, sampled: '2024-01-01' },
      { depth: 1.5, col_2: '00124', count: 8, sampled: '2024-02-01' },
    ]);
  });

  it('reports each kind of misfit with its row as the sheet numbers it', async () => {
    const columns = (await proposed(workbookId, '观测 Obs', 2)).map((column) => ({
      ...column,
      type: column.field === 'col_1' ? 'integer' : column.field === 'observed_at' ? 'date' : column.type,
    }));
    const report = tableImportSchema.parse(
      expectStatus(
        await importTable(portal, people.owner.token, { file: workbookId, sheet: '观测 Obs', header_rows: 2, table_name: 'x', columns }, { dryRun: true, headers: EN }),
        200,
      ),
    );
    expect(report.rejected_count).toBe(10);
    expect(report.rejected.filter((cell) => cell.row === 3)).toEqual([
      { row: 3, column: 'col_1', value: 'S1', reason: 'not an integer' },
      { row: 3, column: 'observed_at', value: '2024-01-01 10:30', reason: 'a date with a time of day: the type datetime keeps it' },
    ]);
    // The date written in Chinese is a whole day: it fits a date column.
    expect(report.rejected.some((cell) => cell.row === 8 && cell.column === 'observed_at')).toBe(false);
  });

  it('imports a CSV', async () => {
    const code = await made({ file: csvId, sheet: 'stations', header_rows: 1, table_name: '站点', columns: await proposed(csvId, 'stations', 1) });
    const data = await rowsOf(people.owner.token, { table: code, ordering: '-elevation' });
    expect(data.results).toEqual([
      { station: 'A03', name: 'Kunlun, Dome A', elevation: 4087, installed: '2009-01-27' },
      { station: 'A01', name: 'Zhongshan', elevation: 18.5, installed: '1989-02-26' },
      { station: 'A02', name: 'Great Wall', elevation: 10, installed: '1985-02-20' },
    ]);
  });

  it('refuses every rule of the form with the spec’s message, in the caller’s language, and makes nothing', async () => {
    const columns = await proposed(csvId, 'stations', 1);
    const base = { file: csvId, sheet: 'stations', header_rows: 1, table_name: 'Stations', columns };
    const refusal = async (body: Record<string, unknown>, headers = EN) => expectStatus(await importTable(portal, people.owner.token, body, { headers }), 400).detail;
    const before = await portal.database.db.selectFrom('data_tables').select('id').execute();
    expect(await refusal({ ...base, sheet: '' })).toBe('A sheet must be selected.');
    expect(await refusal({ ...base, header_rows: undefined })).toBe('Please enter the number of header rows.');
    expect(await refusal({ ...base, header_rows: 11 })).toBe('The header has 1 to 10 rows.');
    expect(await refusal({ ...base, table_name: '  ' })).toBe('Please enter the table name.');
    expect(await refusal({ ...base, table_name: 'x'.repeat(201) })).toBe('The table name has at most 200 characters.');
    expect(await refusal({ ...base, columns: [] })).toBe('Please fetch the header fields before creating the table.');
    expect(await refusal({ ...base, columns: [] }, ZH)).toBe('请先获取表头字段，再创建表。');
    const unfilled = 'You also have field names, display names, or types left unfilled';
    expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, field: '' } : c)) })).toBe(unfilled);
    expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, display_name: ' ' } : c)) })).toBe(unfilled);
    expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, type: '' } : c)) }, ZH)).toBe('您还有字段名、显示名或类型未填写');
    for (const field of ['站名', 'station name', '1st', '_x', 'a-b', 'a;drop table users']) {
      expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, field } : c)) })).toBe(
        `Field names accept English letters and digits only (and _, beginning with a letter): ${field}`,
      );
    }
    expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, field: 'a'.repeat(64) } : c)) })).toMatch(/at most 63 characters/);
    expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, field: 'STATION' } : c)) })).toBe('The field name STATION is used twice.');
    expect(await refusal({ ...base, columns: columns.map((c, at) => (at === 1 ? { ...c, type: 'boolean' } : c)) })).toBe(
      'The type of name is one of integer, float, date, datetime, string and text.',
    );
    expect(await refusal({ ...base, columns: columns.slice(0, 3) })).toBe('The sheet has 4 columns under its header, and 3 were sent: please fetch the header fields again.');
    expect(await refusal({ ...base, sheet: 'other' })).toBe('The workbook has no sheet named other.');
    expect(await portal.database.db.selectFrom('data_tables').select('id').execute()).toEqual(before);
  });

  it('is for those who may change the record’s files: signed out 401, another user 404, the creator of a record in review 409, nobody while published', async () => {
    const columns = await proposed(csvId, 'stations', 1);
    const body = { file: csvId, sheet: 'stations', header_rows: 1, table_name: 'Stations', columns };
    expect((await importTable(portal, null, body)).statusCode).toBe(401);
    expect((await importTable(portal, people.other.token, body)).statusCode).toBe(404);
    const published = await buildRecord(portal, {
      owner: people.owner,
      status: 'published',
      sharing: 'online',
      published: '2024-01-01',
      dataFiles: [{ name: 'p.csv', content: CSV }],
    });
    const [file] = await portal.database.db.selectFrom('meta_file').select('id').where('metadata_id', '=', published).execute();
    const onPublished = { ...body, file: file!.id, sheet: 'p' };
    expect((await importTable(portal, people.owner.token, onPublished)).statusCode).toBe(403);
    expect((await importTable(portal, people.staff.token, onPublished)).statusCode).toBe(409);
    // Staff may import into a draft that is not theirs.
    expect((await importTable(portal, people.staff.token, body)).statusCode).toBe(201);
  });
});

describe('GET /metadata/get-table-data/', () => {
  let restricted: string;
  let code: string;
  let draftCode: string;

  beforeAll(async () => {
    restricted = await buildRecord(portal, { owner: people.owner, sharing: 'offlineEmail', dataFiles: [{ name: 'obs.xlsx', content: await workbook(), mime: XLSX_MIME }] });
    const [file] = await portal.database.db.selectFrom('meta_file').select('id').where('metadata_id', '=', restricted).execute();
    code = tableImportSchema.parse(
      expectStatus(
        await importTable(portal, people.owner.token, {
          file: file!.id,
          sheet: '观测 Obs',
          header_rows: 2,
          table_name: 'Observations',
          columns: await proposed(file!.id, '观测 Obs', 2),
          accept_empty: true,
        }),
        201,
      ),
    ).code!;
    await portal.database.db.updateTable('metadata').set({ published_at: '2024-03-01' }).where('id', '=', restricted).execute();
    await setRecordStatus(portal, restricted, 'published');
    await buildOrder(portal, people.applicant, [restricted]);
    const placed = await buildOrder(portal, people.approved, [restricted]);
    expectStatus(await handle(portal, people.owner.token, [placed.order.orders[0].id], 'approved'), 200);
    draftCode = await made({ file: csvId, sheet: 'stations', header_rows: 1, table_name: 'Draft stations', columns: await proposed(csvId, 'stations', 1) });
  });

  it('follows the record’s download rule: its creator, staff and an approved applicant read a restricted record’s table', async () => {
    for (const person of [people.owner, people.staff, people.approved]) expect((await rowsOf(person.token, { table: code })).count).toBe(5);
    expect(expectStatus(await tableData(portal, null, { table: code }, EN), 401).detail).toMatch(/sign in|log in/i);
    expect((await tableData(portal, people.other.token, { table: code }, EN)).statusCode).toBe(403);
    expect((await tableData(portal, people.applicant.token, { table: code }, EN)).statusCode).toBe(403);
  });

  it('shows a draft’s table to its creator and staff only', async () => {
    expect((await rowsOf(people.owner.token, { table: draftCode })).count).toBe(3);
    expect((await rowsOf(people.staff.token, { table: draftCode })).count).toBe(3);
    expect(expectStatus(await tableData(portal, people.other.token, { table: draftCode }, EN), 404).detail).toBe('There is no such table.');
    expect((await tableData(portal, null, { table: draftCode })).statusCode).toBe(404);
  });

  it('pages, sorts (empty values last either way) and filters by range and by text', async () => {
    const page = await rowsOf(people.approved.token, { table: code, page: 2, pageSize: 2, ordering: 'temperature_min' });
    expect(page.count).toBe(5);
    expect(page.results.map((row) => row.col_1)).toEqual(['S2', 'S1']);
    const down = await rowsOf(people.approved.token, { table: code, ordering: '-temperature_max' });
    expect(down.results.map((row) => row.col_1)).toEqual(['S5', 'S3', 'S2', 'S1', 'S4']);
    const up = await rowsOf(people.approved.token, { table: code, ordering: 'temperature_max' });
    expect(up.results.map((row) => row.col_1)).toEqual(['S1', 'S2', 'S3', 'S5', 'S4']);
    const ranged = await rowsOf(people.approved.token, { table: code, temperature_max__gte: 2, temperature_max__lte: 5, date__gte: '2024-01-02' });
    expect(ranged.results.map((row) => row.col_1)).toEqual(['S2', 'S3']);
    const timed = await rowsOf(people.approved.token, { table: code, observed_at__gte: '2024-01-03', observed_at__lte: '2024-01-04T13:15:30' });
    expect(timed.results.map((row) => row.col_1)).toEqual(['S3', 'S4']);
    const text = await rowsOf(people.approved.token, { table: code, col_6__contains: '云' });
    expect(text.results.map((row) => row.col_1)).toEqual(['S3']);
    // LIKE's own characters are matched as themselves.
    expect((await rowsOf(people.approved.token, { table: code, col_1__contains: '%' })).count).toBe(0);
    expect((await rowsOf(people.approved.token, { table: code, col_1__contains: 's' })).count).toBe(5);
  });

  it('filters and sorts by declared fields only, with values of their types, and bounds the page size', async () => {
    const refused = async (query: Record<string, string | number>) => expectStatus(await tableData(portal, people.owner.token, { table: code, ...query }, EN), 400).detail;
    expect(await refused({ ordering: 'password' })).toBe('The table has no field password.');
    expect(await refused({ ordering: '_row; drop table users' })).toBe('The table has no field _row; drop table users.');
    expect(await refused({ 'col_1 or 1=1__gte': 'a' })).toBe('The table has no field col_1 or 1=1.');
    expect(await refused({ col_1__eq: 'a' })).toBe('Filter a field with col_1__gte, col_1__lte or col_1__contains.');
    expect(await refused({ temperature_max__gte: 'warm' })).toBe('The filter temperature_max__gte needs a value of type float.');
    expect(await refused({ date__lte: '45292' })).toBe('The filter date__lte needs a value of type date.');
    expect(await refused({ temperature_max__contains: '1' })).toBe('temperature_max is not text: filter it with __gte and __lte.');
    expect((await tableData(portal, people.owner.token, { table: code, pageSize: 1001 })).statusCode).toBe(400);
    expect(expectStatus(await tableData(portal, people.owner.token, { table: 'users' }, EN), 404).detail).toBe('There is no such table.');
    expect(expectStatus(await tableData(portal, people.owner.token, {}, EN), 400).detail).toBe('Please give the table’s code (table).');
    // A value is bound, never written into SQL.
    expect((await rowsOf(people.owner.token, { table: code, col_1__contains: "S1' or '1'='1" })).count).toBe(0);
  });
});

describe('tables go with their data file and their record', () => {
  it('drops a file’s tables when the file is deleted, and a record’s when the record is', async () => {
    const record = await buildRecord(portal, { owner: people.owner });
    const file = await buildDataFile(portal, record, people.owner, { name: 'stations.csv', content: CSV });
    const columns = await proposed(file, 'stations', 1);
    const first = await made({ file, sheet: 'stations', header_rows: 1, table_name: 'one', columns });
    const second = await made({ file, sheet: 'stations', header_rows: 1, table_name: 'two', columns });
    expect(await tableExists(first)).toBe(true);
    const deleted = await call(portal, 'POST', '/data/deleteFile/', people.owner.token, { body: { metadata_id: record, id: file } });
    expect(deleted.statusCode).toBe(200);
    for (const code of [first, second]) {
      expect(await tableExists(code)).toBe(false);
      expect((await tableData(portal, people.owner.token, { table: code })).statusCode).toBe(404);
    }

    const again = await buildDataFile(portal, record, people.owner, { name: 'stations.csv', content: CSV });
    const third = await made({ file: again, sheet: 'stations', header_rows: 1, table_name: 'three', columns });
    expectStatus(await call(portal, 'DELETE', `/api/metadata/metadata/${record}/`, people.owner.token), 204);
    expect(await tableExists(third)).toBe(false);
    expect(await portal.database.db.selectFrom('data_tables').select('id').where('metadata_id', '=', record).execute()).toEqual([]);
  });
});
