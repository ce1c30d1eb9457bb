import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { recordTablesSchema, tableDescriptionSchema, tableImportSchema, tableListSchema, type TableColumn } from '@portal/shared';
import { buildDataFile, buildOrder, buildRecord, setRecordStatus } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { handle } from './orders-builders.js';
import { buildTablePeople, importTable, tableData, type TablePeople } from './tables-builders.js';

/**
 * The table viewer's calls (issue 20): the tables a caller may see (GET /api/tables/), one table
 * described (GET /api/tables/{code}/), the filtered rows downloaded as CSV and Excel, and a
 * published record's tables on its landing page and in its JSON-LD (variableMeasured).
 */

const ZH = { 'accept-language': 'zh-hans' };

const CSV = 'station,name,elevation (m),installed\nA01,Zhongshan,18.5,1989-02-26\nA02,Great Wall,10,1985-02-20\nA03,"Kunlun, Dome A",4087,2009-01-27\nA04,Taishan,,2014-02-08\n';

const COLUMNS: TableColumn[] = [
  { field: 'station', display_name: '站号', display_name_en: 'Station', unit: '', note: '', type: 'string' },
  { field: 'name', display_name: '站名', display_name_en: 'Name', unit: '', note: 'as the station is known', type: 'string' },
  { field: 'elevation', display_name: '海拔', display_name_en: 'Elevation', unit: 'm', note: 'above sea level', type: 'float' },
  { field: 'installed', display_name: '建站日期', display_name_en: '', unit: '', note: '', type: 'date' },
];

let portal: TestPortal;
let people: TablePeople;
/** Tables of: the owner's draft, a published record under orders, a published record free to whoever signs in. */
let draft: { record: string; code: string };
let restricted: { record: string; code: string };
let open: { record: string; code: string };

/** A draft of the owner's with the stations CSV made into a table named `name` (a table is made while its record is a draft). */
async function recordWithTable(name: string, title: string): Promise<{ record: string; code: string }> {
  const record = await buildRecord(portal, { owner: people.owner, title, translation: { title: `${title} (English)` } });
  const file = await buildDataFile(portal, record, people.owner, { name: 'stations.csv', content: CSV, mime: 'text/csv' });
  const made = tableImportSchema.parse(
    expectStatus(await importTable(portal, people.owner.token, { file, sheet: 'stations', header_rows: 1, table_name: name, columns: COLUMNS }), 201),
  );
  return { record, code: made.code! };
}

beforeAll(async () => {
  portal = await createTestPortal();
  people = await buildTablePeople(portal);
  draft = await recordWithTable('Draft stations', '草稿台站');
  restricted = await recordWithTable('Ordered stations', '南极台站观测');
  open = await recordWithTable('Open stations', '北极台站');
  await portal.database.db.updateTable('metadata').set({ published_at: '2024-03-01' }).where('id', 'in', [restricted.record, open.record]).execute();
  await portal.database.db.updateTable('metadata').set({ sharing_policy: 'offlineEmail' }).where('id', '=', restricted.record).execute();
  await portal.database.db.updateTable('metadata').set({ sharing_policy: 'online' }).where('id', '=', open.record).execute();
  await setRecordStatus(portal, restricted.record, 'published');
  await setRecordStatus(portal, open.record, 'published');
  await buildOrder(portal, people.applicant, [restricted.record]);
  const placed = await buildOrder(portal, people.approved, [restricted.record]);
  expectStatus(await handle(portal, people.owner.token, [placed.order.orders[0].id], 'approved'), 200);
}, 120_000);

afterAll(async () => {
  await portal?.close();
});

const listed = async (token: string | null, query: Record<string, string | number> = {}) =>
  tableListSchema.parse(expectStatus(await call(portal, 'GET', `/api/tables/?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, token), 200));
const codes = async (token: string | null, query: Record<string, string | number> = {}) => (await listed(token, query)).results.map((table) => table.code).sort();
const mine = (tables: { code: string }[]) => tables.map((table) => table.code).sort();

/** A download's reply: its status, type, disposition and bytes. */
async function download(token: string | null, query: Record<string, string | number>, headers: Record<string, string> = {}) {
  return call(portal, 'GET', `/metadata/get-table-data/?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, token, { headers });
}

describe('GET /api/tables/', () => {
  it('lists the tables a caller may read by the record’s download rule, and the caller’s own drafts’; staff all', async () => {
    expect(await codes(people.owner.token)).toEqual(mine([draft, restricted, open]));
    expect(await codes(people.staff.token)).toEqual(mine([draft, restricted, open]));
    expect(await codes(people.approved.token)).toEqual(mine([restricted, open]));
    // An order still waiting grants nothing; the free record is free to whoever signs in, and to nobody signed out.
    expect(await codes(people.applicant.token)).toEqual(mine([open]));
    expect(await codes(people.other.token)).toEqual(mine([open]));
    expect(await codes(null)).toEqual([]);
  });

  it('gives each table its record’s titles, rows, column count and creation; searches names and titles; pages', async () => {
    const page = await listed(people.approved.token, { search: 'ORDERED' });
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({
      code: restricted.code,
      name: 'Ordered stations',
      record: { id: restricted.record, title: '南极台站观测', title_en: '南极台站观测 (English)' },
      rows: 4,
      columns: 4,
    });
    expect(Date.parse(page.results[0]!.created)).not.toBeNaN();
    expect(mine((await listed(people.approved.token, { search: '北极' })).results)).toEqual([open.code]);
    expect(mine((await listed(people.approved.token, { search: 'english' })).results)).toEqual(mine([restricted, open]));
    // LIKE's own characters match themselves.
    expect((await listed(people.approved.token, { search: '%' })).count).toBe(0);
    expect(mine((await listed(people.owner.token, { metadata__id: draft.record })).results)).toEqual([draft.code]);
    expect((await listed(people.other.token, { metadata__id: draft.record })).count).toBe(0);
    const first = await listed(people.owner.token, { pageSize: 2 });
    expect(first.count).toBe(3);
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain('page=2');
    const second = await listed(people.owner.token, { pageSize: 2, page: 2 });
    expect(mine([...first.results, ...second.results])).toEqual(mine([draft, restricted, open]));
  });

  it('bounds the page size', async () => {
    for (const pageSize of [0, 1001, 'ten']) expect((await call(portal, 'GET', `/api/tables/?pageSize=${pageSize}`, people.owner.token)).statusCode).toBe(400);
  });
});

describe('GET /api/tables/{code}/', () => {
  it('describes a table with its columns in both languages, units, notes and types, its record and rows', async () => {
    const described = tableDescriptionSchema.parse(expectStatus(await call(portal, 'GET', `/api/tables/${restricted.code}/`, people.approved.token), 200));
    expect(described).toMatchObject({ code: restricted.code, name: 'Ordered stations', rows: 4, record: { id: restricted.record, title: '南极台站观测' } });
    expect(described.columns).toEqual(COLUMNS);
  });

  it('follows the same rule as the rows: 401 signed out, 403 without an approved order, 404 for a draft of another’s', async () => {
    expect((await call(portal, 'GET', `/api/tables/${restricted.code}/`, null)).statusCode).toBe(401);
    expect((await call(portal, 'GET', `/api/tables/${restricted.code}/`, people.applicant.token)).statusCode).toBe(403);
    expect((await call(portal, 'GET', `/api/tables/${restricted.code}/`, people.staff.token)).statusCode).toBe(200);
    expect(expectStatus(await call(portal, 'GET', `/api/tables/${draft.code}/`, people.other.token, { headers: EN }), 404).detail).toBe('There is no such table.');
    expect((await call(portal, 'GET', `/api/tables/${draft.code}/`, people.owner.token)).statusCode).toBe(200);
    expect((await call(portal, 'GET', '/api/tables/t_nosuch/', people.staff.token)).statusCode).toBe(404);
  });
});

describe('GET /metadata/get-table-data/?format=csv|xlsx', () => {
  it('downloads the filtered, sorted rows as CSV with the field, display name (in the caller’s language) and unit rows', async () => {
    const reply = await download(people.approved.token, { table: restricted.code, format: 'csv', ordering: '-elevation', elevation__gte: 10 }, EN);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toContain('Ordered%20stations.csv');
    expect(reply.body).toBe(
      '\ufeffstation,name,elevation,installed\r\nStation,Name,Elevation,建站日期\r\n,,m,\r\n' +
        'A03,"Kunlun, Dome A",4087,2009-01-27\r\nA01,Zhongshan,18.5,1989-02-26\r\nA02,Great Wall,10,1985-02-20\r\n',
    );
    const zh = await download(people.approved.token, { table: restricted.code, format: 'csv', name__contains: 'great' }, ZH);
    expect(zh.body.split('\r\n').slice(1)).toEqual(['站号,站名,海拔,建站日期', ',,m,', 'A02,Great Wall,10,1985-02-20', '']);
    // A link of the viewer says the page's language (a navigation sends the browser's); a language the portal has not is left aside.
    const linked = await download(people.approved.token, { table: restricted.code, format: 'csv', name__contains: 'great', lang: 'zh-hans' }, EN);
    expect(linked.body.split('\r\n')[1]).toBe('站号,站名,海拔,建站日期');
    const other = await download(people.approved.token, { table: restricted.code, format: 'csv', name__contains: 'great', lang: 'fr' }, EN);
    expect(other.body.split('\r\n')[1]).toBe('Station,Name,Elevation,建站日期');
    // Empty values sort last, as on the page.
    const up = await download(people.owner.token, { table: restricted.code, format: 'csv', ordering: 'elevation' });
    expect(
      up.body
        .split('\r\n')
        .slice(3, 7)
        .map((line) => line.slice(0, 3)),
    ).toEqual(['A02', 'A01', 'A03', 'A04']);
  });

  it('reads a download batch after batch in the page’s order: ties by row, empty values last, no row twice or left out', async () => {
    // More rows than a batch (2000), few distinct values and empty ones: the batches' seams fall inside ties.
    const values = Array.from({ length: 4500 }, (_, at) => (at % 11 === 0 ? null : (at * 7) % 5));
    const csv = `station,name,elevation,installed\n${values.map((value, at) => `r${at},n,${value ?? ''},2020-01-01`).join('\n')}\n`;
    const record = await buildRecord(portal, { owner: people.owner });
    const file = await buildDataFile(portal, record, people.owner, { name: 'many.csv', content: csv, mime: 'text/csv' });
    const code = tableImportSchema.parse(
      expectStatus(await importTable(portal, people.owner.token, { file, sheet: 'many', header_rows: 1, table_name: 'many', columns: COLUMNS }), 201),
    ).code!;
    const order = (descending: boolean) =>
      values
        .map((value, at) => ({ value, at }))
        .sort((a, b) => (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) || (descending ? (b.value ?? 0) - (a.value ?? 0) : (a.value ?? 0) - (b.value ?? 0)) || a.at - b.at)
        .map(({ at }) => `r${at}`);
    for (const descending of [false, true]) {
      const reply = await download(people.owner.token, { table: code, format: 'csv', ordering: `${descending ? '-' : ''}elevation` });
      expect(
        reply.body
          .trimEnd()
          .split('\r\n')
          .slice(3)
          .map((line) => line.split(',')[0]),
      ).toEqual(order(descending));
    }
    const unordered = await download(people.owner.token, { table: code, format: 'csv', elevation__gte: 4 });
    expect(
      unordered.body
        .trimEnd()
        .split('\r\n')
        .slice(3)
        .map((line) => line.split(',')[0]),
    ).toEqual(values.flatMap((value, at) => (value !== null && value >= 4 ? [`r${at}`] : [])));
  });

  it('downloads them as an Excel workbook written as a stream', async () => {
    const reply = await download(people.approved.token, { table: open.code, format: 'xlsx', ordering: 'installed', installed__lte: '2010-01-01' }, EN);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(reply.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Open stations');
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['station', 'name', 'elevation', 'installed'],
      ['Station', 'Name', 'Elevation', '建站日期'],
      [undefined, undefined, 'm'],
      ['A02', 'Great Wall', 10, '1985-02-20'],
      ['A01', 'Zhongshan', 18.5, '1989-02-26'],
      ['A03', 'Kunlun, Dome A', 4087, '2009-01-27'],
    ]);
  });

  it('counts a download of the record, as its files’ downloads are', async () => {
    const count = async () => {
      await portal.usage.flush();
      return (await portal.usage.countsOf(open.record)).download_count;
    };
    const before = await count();
    expect((await download(people.other.token, { table: open.code, format: 'csv' })).statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
    // A page is no download.
    expect((await tableData(portal, people.other.token, { table: open.code })).statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('follows the record’s download rule', async () => {
    expect((await download(null, { table: restricted.code, format: 'csv' })).statusCode).toBe(401);
    expect((await download(people.other.token, { table: restricted.code, format: 'xlsx' })).statusCode).toBe(403);
    expect((await download(people.applicant.token, { table: restricted.code, format: 'csv' })).statusCode).toBe(403);
    expect((await download(people.owner.token, { table: restricted.code, format: 'csv' })).statusCode).toBe(200);
    expect((await download(people.staff.token, { table: draft.code, format: 'csv' })).statusCode).toBe(200);
    expect((await download(people.other.token, { table: draft.code, format: 'csv' })).statusCode).toBe(404);
  });

  it('refuses an unknown format and a filter on an unknown field, in the caller’s language', async () => {
    expect((await download(people.owner.token, { table: open.code, format: 'pdf' })).statusCode).toBe(400);
    expect(expectStatus(await download(people.owner.token, { table: open.code, format: 'csv', depth__gte: 1 }, EN), 400).detail).toBe('The table has no field depth.');
    expect(expectStatus(await download(people.owner.token, { table: open.code, format: 'xlsx', ordering: 'depth' }, ZH), 400).detail).toContain('depth');
  });
});

describe('a record’s tables on its landing page', () => {
  it('lists a published record’s tables with their columns, to everyone; nothing of a draft', async () => {
    for (const token of [null, people.other.token]) {
      const tables = recordTablesSchema.parse(expectStatus(await call(portal, 'GET', `/api/metadata/metadata/${restricted.record}/tables/`, token), 200));
      expect(tables.results).toEqual([{ code: restricted.code, name: 'Ordered stations', rows: 4, columns: COLUMNS }]);
    }
    expect((await call(portal, 'GET', `/api/metadata/metadata/${draft.record}/tables/`, people.owner.token)).statusCode).toBe(404);
    expect((await call(portal, 'GET', '/api/metadata/metadata/no-such-record/tables/', null)).statusCode).toBe(404);
  });

  it('names the columns of its tables as variableMeasured in its schema.org JSON-LD, only its own', async () => {
    const exported = await call(portal, 'GET', `/api/metadata/metadata/${open.record}/export/?format=schemaorg&lang=en`, null);
    expect(exported.statusCode).toBe(200);
    const dataset = JSON.parse(exported.body) as { variableMeasured: Record<string, unknown>[] };
    expect(dataset.variableMeasured).toEqual([
      { '@type': 'PropertyValue', name: 'Station', alternateName: 'station', description: 'Open stations / station' },
      { '@type': 'PropertyValue', name: 'Name', alternateName: 'name', description: 'as the station is known — Open stations / name' },
      { '@type': 'PropertyValue', name: 'Elevation', alternateName: 'elevation', description: 'above sea level — Open stations / elevation', unitText: 'm' },
      { '@type': 'PropertyValue', name: '建站日期', alternateName: 'installed', description: 'Open stations / installed' },
    ]);
    const zh = JSON.parse((await call(portal, 'GET', `/api/metadata/metadata/${open.record}/export/?format=schemaorg&lang=zh-hans`, null)).body) as {
      variableMeasured: { name: string }[];
    };
    expect(zh.variableMeasured.map((variable) => variable.name)).toEqual(['站号', '站名', '海拔', '建站日期']);
    // A record without tables has none.
    const plain = await buildRecord(portal, { owner: people.owner, published: '2024-03-01', status: 'published' });
    const none = JSON.parse((await call(portal, 'GET', `/api/metadata/metadata/${plain}/export/?format=schemaorg&lang=en`, null)).body) as object;
    expect(none).not.toHaveProperty('variableMeasured');
  });
});
