import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_LIMITS, methodSchema, runSchema, tableColumnsSchema, tableImportSchema } from '@portal/shared';
import { buildDataFile, buildRecord, buildUsers, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, countRows, expectStatus } from './metadata-builders.js';
import { importTable, tableColumns, tableData, tableInfo } from './tables-builders.js';

/**
 * The tables' and analysis calls as a stranger uses them (issue 20): another person's ids, text no
 * export may carry, wrong JSON types, extreme numbers, a flood of runs. Each answers a 4xx in the
 * caller's language (never a 500) and keeps nothing half-written.
 */
let portal: TestPortal;
let people: Record<'owner' | 'other' | 'staff', Person>;
/** The owner's draft and its CSV file; an open published record with a CSV file. */
let draftId: string;
let csvId: string;
let openId: string;

const ZH = { 'accept-language': 'zh-hans' };
const CHINESE = /[\u4e00-\u9fff]/;
const BAD = ['\u0000', '\u000B', '\u001F', '\uD800', '\uFFFF'];
const methodsUrl = '/api/analysis/methods/';
const methodUrl = (id: string) => `/api/analysis/methods/${id}/`;
const COLUMNS = [
  { field: 'station', display_name: '站点', type: 'string' },
  { field: 'value', display_name: '值', type: 'float' },
];
const importBody = (body: Record<string, unknown> = {}) => ({ file: csvId, sheet: 'stations', header_rows: 1, table_name: '站点表', columns: COLUMNS, ...body });
const tablesOfDraft = () => countRows(portal, 'data_tables', { metadata_id: draftId });

/** A 400 whose message is in the language asked for: Chinese for zh-hans, none for en. */
function refused(response: { statusCode: number; json(): any; body: string }, language: 'en' | 'zh', status = 400) {
  expect(response.statusCode, response.body).toBe(status);
  const detail = String(response.json().detail ?? '');
  expect(detail, response.body).not.toBe('');
  expect(CHINESE.test(detail), `${language}: ${detail}`).toBe(language === 'zh');
  return detail;
}

beforeAll(async () => {
  portal = await createTestPortal({ env: { ANALYSIS_TIMEOUT_SECONDS: '5' } });
  people = await buildUsers(portal, { owner: { realname: 'Owner Ou' }, other: { realname: 'Other Ot' }, staff: { staff: true } });
  draftId = await buildRecord(portal, { owner: people.owner, sharing: 'offlineEmail' });
  csvId = await buildDataFile(portal, draftId, people.owner, { name: 'stations.csv', content: 'station,value\nA,1.5\nB,2\n', mime: 'text/csv' });
  openId = await buildRecord(portal, {
    owner: people.owner,
    status: 'published',
    sharing: 'online',
    published: '2024-01-01',
    title: '公开站点',
    dataFiles: [{ name: 'open.csv', content: 'label,value\nnorth,1\n' }],
  });
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

describe('tables: another person’s files and tables', () => {
  it('tells another user nothing of a draft’s file or its table', async () => {
    expect((await tableInfo(portal, people.other.token, csvId, EN)).statusCode).toBe(404);
    expect((await tableColumns(portal, people.other.token, { file: csvId, sheet: 'stations', header_rows: 1 })).statusCode).toBe(404);
    expect((await importTable(portal, people.other.token, importBody())).statusCode).toBe(404);
    const code = tableImportSchema.parse(expectStatus(await importTable(portal, people.owner.token, importBody()), 201)).code!;
    expect((await tableData(portal, people.other.token, { table: code })).statusCode).toBe(404);
    expect((await tableData(portal, people.other.token, { table: code, format: 'csv' })).statusCode).toBe(404);
    expect((await call(portal, 'GET', `/api/tables/${code}/`, people.other.token)).statusCode).toBe(404);
    const listed = expectStatus(await call(portal, 'GET', `/api/tables/?metadata__id=${draftId}`, people.other.token), 200);
    expect(listed.count).toBe(0);
  });
});

describe('tables: text and numbers a stranger sends', () => {
  it('refuses control characters and lone surrogates in every text of an import, in both languages, keeping nothing', async () => {
    const before = await tablesOfDraft();
    for (const bad of BAD) {
      const texts = [
        { table_name: `name${bad}` },
        { sheet: `stations${bad}` },
        { columns: [{ ...COLUMNS[0], display_name: `站${bad}` }, COLUMNS[1]] },
        { columns: [{ ...COLUMNS[0], unit: `m${bad}` }, COLUMNS[1]] },
        { columns: [{ ...COLUMNS[0], note: bad }, COLUMNS[1]] },
        { columns: [{ ...COLUMNS[0], display_name_en: bad }, COLUMNS[1]] },
      ];
      for (const body of texts) {
        refused(await importTable(portal, people.owner.token, importBody(body), { headers: EN }), 'en');
        refused(await importTable(portal, people.owner.token, importBody(body), { headers: ZH, dryRun: true }), 'zh');
      }
    }
    expect(await tablesOfDraft()).toBe(before);
  });

  it('answers header rows, sheets and JSON types that make no sense with a 400 in the caller’s language', async () => {
    const before = await tablesOfDraft();
    for (const header_rows of [0, -1, 1e9, 1.5, 'abc', '', [1], null, { n: 1 }, true]) {
      refused(await importTable(portal, people.owner.token, importBody({ header_rows }), { headers: EN }), 'en');
      refused(await importTable(portal, people.owner.token, importBody({ header_rows }), { headers: ZH }), 'zh');
    }
    for (const body of [
      { sheet: 'no such sheet' },
      { sheet: ['stations'] },
      { table_name: 12 },
      { table_name: 'x'.repeat(201) },
      { file: ['x'] },
      { file: 'no-such-file' },
      { columns: 'station' },
      { columns: [null] },
      { columns: [{ ...COLUMNS[0], field: 5 }, COLUMNS[1]] },
      { columns: [{ ...COLUMNS[0], type: 'varchar' }, COLUMNS[1]] },
      { columns: [{ ...COLUMNS[0], field: 'a-b' }, COLUMNS[1]] },
      { columns: [{ ...COLUMNS[0], field: 'Value' }, COLUMNS[1]] },
      { columns: [{ ...COLUMNS[0], unit: 'u'.repeat(501) }, COLUMNS[1]] },
      { accept_empty: 'true' },
    ]) {
      const status = 'file' in body && body.file === 'no-such-file' ? 404 : 400;
      refused(await importTable(portal, people.owner.token, importBody(body), { headers: EN }), 'en', status);
      refused(await importTable(portal, people.owner.token, importBody(body), { headers: ZH }), 'zh', status);
    }
    for (const query of [{ header_rows: 0 }, { header_rows: 11 }, { header_rows: '2x' }, { sheet: 'no such sheet' }, { header_rows: 4 }]) {
      refused(await tableColumns(portal, people.owner.token, { file: csvId, sheet: 'stations', header_rows: 1, ...query }, ZH), 'zh');
    }
    expect(await tablesOfDraft()).toBe(before);
  });

  it('refuses field names PostgreSQL keeps for its system columns (a 400 on both databases, nothing left)', async () => {
    const before = await tablesOfDraft();
    for (const field of ['ctid', 'xmin', 'XMAX', 'cmin', 'cmax', 'tableoid']) {
      const body = importBody({ columns: [{ ...COLUMNS[0], field }, COLUMNS[1]] });
      const en = refused(await importTable(portal, people.owner.token, body, { headers: EN }), 'en');
      expect(en).toContain(field);
      refused(await importTable(portal, people.owner.token, body, { headers: ZH, dryRun: true }), 'zh');
    }
    expect(await tablesOfDraft()).toBe(before);
    // A header named so is proposed under another field name.
    const file = await buildDataFile(portal, draftId, people.owner, { name: 'system.csv', content: 'xmin,CTID,value\n1,2,3\n', mime: 'text/csv' });
    const proposed = tableColumnsSchema.parse(expectStatus(await tableColumns(portal, people.owner.token, { file, sheet: 'system', header_rows: 1 }), 200));
    expect(proposed.columns.map((column) => column.field)).toEqual(['xmin_2', 'ctid_2', 'value']);
  });

  it('keeps `</script>` and braces as text, and answers filters, ordering and paging that make no sense with a 400', async () => {
    const odd = '</script><b>}{{x}}';
    const made = tableImportSchema.parse(
      expectStatus(
        await importTable(portal, people.owner.token, importBody({ table_name: `'${odd}'`, columns: [{ ...COLUMNS[0], display_name: odd, unit: odd, note: odd }, COLUMNS[1]] })),
        201,
      ),
    );
    const described = expectStatus(await call(portal, 'GET', `/api/tables/${made.code}/`, people.owner.token), 200);
    expect(described.name).toBe(`'${odd}'`);
    expect(described.columns[0]).toMatchObject({ display_name: odd, unit: odd, note: odd });
    const csv = await tableData(portal, people.owner.token, { table: made.code!, format: 'csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(odd);
    // A sheet name may neither begin nor end with an apostrophe: the download names its sheet anyway.
    const xlsx = await tableData(portal, people.owner.token, { table: made.code!, format: 'xlsx' });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    for (const [query, status] of [
      [{ ordering: 'nope' }, 400],
      [{ ordering: '--value' }, 400],
      [{ ordering: ['value', 'station'] }, 400],
      [{ table: [made.code!, made.code!] }, 400],
      [{ value__gte: 'abc' }, 400],
      [{ value__lte: '1e999' }, 400],
      [{ value__lte: '0x10' }, 400],
      [{ value__lte: 'NaN' }, 400],
      [{ nope__contains: 'x' }, 400],
      [{ value__contains: 'x' }, 400],
      [{ station__regex: 'x' }, 400],
      [{ page: 0 }, 400],
      [{ page: -1 }, 400],
      [{ page: 'x' }, 400],
      [{ page: 1e300 }, 400],
      [{ page: 1e300, format: 'csv' }, 400],
      [{ pageSize: 0 }, 400],
      [{ pageSize: 100_000 }, 400],
      [{ format: 'xml' }, 400],
      [{ station__gte: '' }, 200],
      [{ page: 1e12 }, 200],
    ] as const) {
      const params = new URLSearchParams({ table: made.code! });
      for (const [key, value] of Object.entries(query)) {
        if (key === 'table') params.delete('table');
        for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
      }
      const response = await call(portal, 'GET', `/metadata/get-table-data/?${params}`, people.owner.token, { headers: ZH });
      if (status === 400) refused(response, 'zh');
      else expect(response.statusCode, JSON.stringify(query)).toBe(200);
    }
    const contains = expectStatus(await tableData(portal, people.owner.token, { table: made.code!, station__contains: '%' }), 200);
    expect(contains.count).toBe(0);
    const filtered = await tableData(portal, people.owner.token, { table: made.code!, station__contains: 'a\u0000' }, EN);
    refused(filtered, 'en');
  });

  it('makes two tables of two imports of the same file at once, each whole', async () => {
    const before = await tablesOfDraft();
    const [first, second] = await Promise.all([importTable(portal, people.owner.token, importBody()), importTable(portal, people.owner.token, importBody())]);
    const codes = [first, second].map((response) => tableImportSchema.parse(expectStatus(response, 201)));
    expect(codes[0]!.code).not.toBe(codes[1]!.code);
    expect(codes.map((made) => made.rows)).toEqual([2, 2]);
    expect(await tablesOfDraft()).toBe(before + 2);
  });
});

describe('analysis methods: text and types a stranger sends', () => {
  const create = (token: string, body: Record<string, unknown>, headers = EN) =>
    call(portal, 'POST', methodsUrl, token, { body: { name: '方法', sql: 'select 1 as one', ...body }, headers });

  it('refuses control characters and lone surrogates in every text, in both languages, and stores nothing', async () => {
    const before = await countRows(portal, 'analysis_methods');
    for (const bad of BAD) {
      for (const body of [
        { name: `n${bad}` },
        { name_en: bad },
        { description: bad },
        { description_en: bad },
        { sql: `select '${bad}' as x` },
        { parameters: [{ name: `p${bad}`, type: 'string', default: null }] },
        { parameters: [{ name: 'p', type: 'string', default: `d${bad}` }] },
        { chart: { type: 'bar', x: `x${bad}`, y: ['y'] } },
        { [`unknown${bad}`]: 1 },
      ]) {
        refused(await create(people.owner.token, body), 'en');
        refused(await create(people.owner.token, body, ZH), 'zh');
      }
    }
    expect(await countRows(portal, 'analysis_methods')).toBe(before);
  });

  it('answers wrong JSON types, long texts and bad parameters with a 400 in the caller’s language', async () => {
    const before = await countRows(portal, 'analysis_methods');
    for (const body of [
      { name: ['a'] },
      { name: null },
      { name: 5 },
      { name: '   ' },
      { sql: '' },
      { sql: { text: 'select 1' } },
      { name: 'n'.repeat(201) },
      { sql: 's'.repeat(20_001) },
      { public: 'true' },
      { parameters: 'x' },
      { parameters: [null] },
      { parameters: [{ name: 5, type: 'string' }] },
      { parameters: [{ name: '1a', type: 'string' }] },
      { parameters: [{ name: 'a', type: 'text' }] },
      { parameters: [{ name: 'a', type: 'integer', default: 1.5 }] },
      { parameters: [{ name: 'a', type: 'number', default: '1e999' }] },
      { parameters: [{ name: 'a', type: 'integer', default: '0x10' }] },
      { parameters: [{ name: 'a', type: 'number', default: '0b11' }] },
      { parameters: [{ name: 'a', type: 'number', default: 'Infinity' }] },
      { parameters: [{ name: 'a', type: 'date', default: '2024-02-30' }] },
      { parameters: [{ name: 'a', type: 'string', default: ['x'] }] },
      { parameters: [{ name: 'a', type: 'string', default: 'd'.repeat(1001) }] },
      { parameters: Array.from({ length: 21 }, (_, index) => ({ name: `p${index}`, type: 'string', default: null })) },
      {
        parameters: [
          { name: 'a', type: 'string', default: null },
          { name: 'a', type: 'number', default: null },
        ],
      },
      { chart: { type: 'pie', x: 'a', y: ['b'] } },
      { chart: 'bar' },
    ]) {
      refused(await create(people.owner.token, body), 'en');
      refused(await create(people.owner.token, body, ZH), 'zh');
    }
    expect(await countRows(portal, 'analysis_methods')).toBe(before);
  });

  it('keeps `</script>` and braces as text', async () => {
    const odd = '</script><b>}{{name}}';
    const method = methodSchema.parse(
      expectStatus(await create(people.owner.token, { name: odd, description: odd, parameters: [{ name: 'p', type: 'string', default: odd }], public: true }), 201),
    );
    expect(method).toMatchObject({ name: odd, description: odd, parameters: [{ name: 'p', type: 'string', default: odd }] });
  });
});

describe('analysis: another person’s methods and runs', { timeout: 60_000 }, () => {
  it('reaches neither a private method nor a run of another person, nor a draft’s data, and a flood of runs is bounded', async () => {
    const mine = methodSchema.parse(
      expectStatus(
        await call(portal, 'POST', methodsUrl, people.owner.token, {
          body: { name: '=私有', sql: `select count(*) as "=n", chr(0) || 'x' as v, chr(11) as w, '</script>' as s from input1` },
        }),
        201,
      ),
    );
    const url = methodUrl(mine.id);
    for (const [method, path, body] of [
      ['GET', url, undefined],
      ['GET', `${url}versions/`, undefined],
      ['PATCH', url, { name: 'taken' }],
      ['DELETE', url, undefined],
      ['POST', `${url}fork/`, undefined],
      ['POST', `${url}runs/`, { datasets: [openId] }],
    ] as const) {
      refused(await call(portal, method, path, people.other.token, { body, headers: ZH }), 'zh', 404);
    }
    // Staff read it but do not edit it.
    refused(await call(portal, 'PATCH', url, people.staff.token, { body: { name: 'x' }, headers: EN }), 'en', 403);

    const published = methodSchema.parse(expectStatus(await call(portal, 'PATCH', url, people.owner.token, { body: { public: true } }), 200));
    refused(await call(portal, 'PATCH', url, people.other.token, { body: { name: 'x' }, headers: EN }), 'en', 403);
    refused(await call(portal, 'DELETE', url, people.other.token, { headers: ZH }), 'zh', 403);
    // Another person's draft as a dataset: not found, nothing queued.
    const runsBefore = await countRows(portal, 'analysis_runs');
    refused(await call(portal, 'POST', `${url}runs/`, people.other.token, { body: { datasets: [draftId] }, headers: EN }), 'en', 404);
    for (const body of [
      { datasets: 'x' },
      { datasets: [null] },
      { datasets: [openId], parameters: { a: [1] } },
      { datasets: [openId], parameters: { a: null } },
      { datasets: [] },
      { datasets: [openId], parameters: { nope: 1 } },
    ]) {
      refused(await call(portal, 'POST', `${url}runs/`, people.other.token, { body, headers: ZH }), 'zh');
    }
    expect(await countRows(portal, 'analysis_runs')).toBe(runsBefore);

    const started = expectStatus(await call(portal, 'POST', `${url}runs/`, people.owner.token, { body: { datasets: [openId] } }), 202);
    await portal.analysis.idle();
    // A result holding NUL and other control characters is kept on both databases (as JSON text), and given as CSV.
    const result = runSchema.parse(expectStatus(await call(portal, 'GET', `/api/analysis/runs/${started.id}/`, people.owner.token), 200));
    expect(result).toMatchObject({ status: 'done', rows: [[1, '\u0000x', '\u000B', '</script>']] });
    const csv = await call(portal, 'GET', `/api/analysis/runs/${started.id}/csv/`, people.owner.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe("\ufeff'=n,v,w,s");
    for (const [method, path] of [
      ['GET', `/api/analysis/runs/${started.id}/`],
      ['GET', `/api/analysis/runs/${started.id}/csv/`],
      ['POST', `/api/analysis/runs/${started.id}/rerun/`],
    ] as const) {
      refused(await call(portal, method, path, people.other.token, { headers: EN }), 'en', 404);
    }
    const theirs = expectStatus(await call(portal, 'GET', `/api/analysis/runs/?method=${published.id}`, people.other.token), 200);
    expect(theirs.count).toBe(0);

    // The same run asked for 200 times at once: a few are queued, the rest refused (429) in the caller's language; the server answers on.
    const floodBefore = await countRows(portal, 'analysis_runs');
    const flood = await Promise.all(Array.from({ length: 200 }, () => call(portal, 'POST', `${url}runs/`, people.other.token, { body: { datasets: [openId] }, headers: ZH })));
    const statuses = flood.map((response) => response.statusCode);
    expect(statuses.every((status) => status === 202 || status === 429)).toBe(true);
    const queued = statuses.filter((status) => status === 202).length;
    expect(queued).toBe(METHOD_LIMITS.pendingRuns);
    expect(await countRows(portal, 'analysis_runs')).toBe(floodBefore + queued);
    refused(
      flood.find((response) => response.statusCode === 429)!,
      'zh',
      429,
    );
    expect((await call(portal, 'GET', methodsUrl, null)).statusCode).toBe(200);
    await portal.analysis.stop();
  });
});
