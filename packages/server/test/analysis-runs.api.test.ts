import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodSchema, methodVersionListSchema, runPageSchema, runSchema, tableColumnsSchema, tableImportSchema, type AnalysisMethod, type AnalysisRun } from '@portal/shared';
import { buildDataFile, buildRecord, buildUsers, setRecordStatus, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { importTable, tableColumns } from './tables-builders.js';

/**
 * What the analysis pages read beside the methods and runs themselves (issue 20): a person's runs of
 * a method with their inputs, a run's result as CSV, a method's versions, and the forks of a method.
 */
let portal: TestPortal;
let people: Record<'author' | 'runner' | 'staff', Person>;
/** An open station record with a Chinese title and its English version; a second open record. */
let stationId: string;
let lakeId: string;

const ZH = { 'accept-language': 'zh-hans' };
const methodsUrl = '/api/analysis/methods/';
const methodUrl = (id: string) => `/api/analysis/methods/${id}/`;
const runsUrl = '/api/analysis/runs/';
const csvUrl = (id: string) => `/api/analysis/runs/${id}/csv/`;
const create = async (person: Person, body: Record<string, unknown>) =>
  methodSchema.parse(expectStatus(await call(portal, 'POST', methodsUrl, person.token, { body: { name: '站点方法', name_en: 'Station method', ...body }, headers: EN }), 201));
/** Runs the method to its end; the run as its runner reads it. */
const runToEnd = async (person: Person, methodId: string, datasets: string[], parameters: Record<string, unknown> = {}): Promise<AnalysisRun> => {
  const started = expectStatus(await call(portal, 'POST', `${methodUrl(methodId)}runs/`, person.token, { body: { datasets, parameters } }), 202);
  await portal.analysis.idle();
  return runSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}${started.id}/`, person.token), 200));
};

beforeAll(async () => {
  portal = await createTestPortal({ env: { ANALYSIS_TIMEOUT_SECONDS: '5' } });
  people = await buildUsers(portal, { author: { realname: 'Author Au' }, runner: { realname: 'Runner Ru' }, staff: { staff: true } });
  const csv = ['label,value', 'north,1.5', '"a, b",2', '=HYPERLINK("x"),3', '-minus,4'].join('\n');
  stationId = await buildRecord(portal, {
    owner: people.author,
    status: 'published',
    sharing: 'online',
    published: '2024-01-01',
    title: '纳木错站气象观测',
    translation: { title: 'Nam Co station observations' },
    dataFiles: [{ name: 'station.csv', content: `${csv}\n` }],
  });
  lakeId = await buildRecord(portal, {
    owner: people.author,
    status: 'published',
    sharing: 'online',
    published: '2024-01-02',
    language: 'en',
    title: 'Lake ice thickness',
    translation: { title: '湖冰厚度' },
    dataFiles: [{ name: 'ice.csv', content: 'label,value\nice,9\n' }],
  });
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

// Each run starts a DuckDB process: seconds each on a loaded machine (CI runs the suites beside the browser tests).
describe('GET /api/analysis/runs/', { timeout: 120_000 }, () => {
  it('is for signed-in users, and lists only the caller’s own runs, newest first, of one method with method=', async () => {
    expect((await call(portal, 'GET', runsUrl, null)).statusCode).toBe(401);
    const method = await create(people.author, {
      sql: 'select count(*) as n from input1 where value > $least',
      parameters: [{ name: 'least', type: 'number', default: 0 }],
      public: true,
    });
    const other = await create(people.author, { sql: 'select 1 as one', public: true });
    const first = await runToEnd(people.runner, method.id, [stationId], { least: 2 });
    const second = await runToEnd(people.runner, method.id, [stationId, lakeId]);
    await runToEnd(people.runner, other.id, [lakeId]);
    await runToEnd(people.author, method.id, [lakeId]);

    const page = runPageSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}?method=${method.id}`, people.runner.token), 200));
    expect(page.count).toBe(2);
    expect(page.results.map((run) => run.id)).toEqual([second.id, first.id]);
    expect(page.results[1]).toMatchObject({
      status: 'done',
      method: { id: method.id, version: 1, name: '站点方法', name_en: 'Station method' },
      parameters: { least: 2 },
      error: null,
      datasets: [{ id: stationId, title: '纳木错站气象观测', title_en: 'Nam Co station observations' }],
    });
    // Each record's titles in both languages, whichever is its own.
    expect(page.results[0]!.datasets.map((dataset) => [dataset.title, dataset.title_en])).toEqual([
      ['纳木错站气象观测', 'Nam Co station observations'],
      ['湖冰厚度', 'Lake ice thickness'],
    ]);
    // The list carries inputs, not results.
    expect(page.results[0]).not.toHaveProperty('rows');
    expect(runPageSchema.parse(expectStatus(await call(portal, 'GET', runsUrl, people.runner.token), 200)).count).toBe(3);
    const paged = runPageSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}?method=${method.id}&page=2&pageSize=1`, people.runner.token), 200));
    expect(paged.results.map((run) => run.id)).toEqual([first.id]);
    // Staff read any run by its id, but their list is their own.
    expect(runPageSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}?method=${method.id}`, people.staff.token), 200)).count).toBe(0);
  });

  it('tells a failed run’s error in the caller’s language, and keeps only the id of a record the runner may no longer read', async () => {
    const method = await create(people.runner, { sql: 'select no_such_column from input1' });
    const failed = await runToEnd(people.runner, method.id, [stationId]);
    expect(failed.status).toBe('failed');
    const read = async (headers: Record<string, string>) =>
      runPageSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}?method=${method.id}`, people.runner.token, { headers }), 200));
    expect((await read(EN)).results[0]!.error).toMatch(/^The query failed: /);
    expect((await read(ZH)).results[0]!.error).toMatch(/^查询失败：/);

    const hidden = await buildRecord(portal, {
      owner: people.author,
      status: 'published',
      sharing: 'online',
      title: '将撤回的记录',
      dataFiles: [{ name: 'gone.csv', content: 'a\n1\n' }],
    });
    const count = await create(people.runner, { sql: 'select count(*) as n from input1' });
    const run = await runToEnd(people.runner, count.id, [hidden]);
    expect(run.dataset_titles).toEqual([{ id: hidden, title: '将撤回的记录', title_en: '将撤回的记录' }]);
    await setRecordStatus(portal, hidden, 'draft');
    const after = runPageSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}?method=${count.id}`, people.runner.token), 200));
    expect(after.results[0]!.datasets).toEqual([{ id: hidden, title: '', title_en: '' }]);
    expect(runSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}${run.id}/`, people.runner.token), 200)).dataset_titles).toEqual([
      { id: hidden, title: '', title_en: '' },
    ]);
    // Its owner still sees it by name.
    const mine = await create(people.author, { sql: 'select 1 as one' });
    await setRecordStatus(portal, hidden, 'published');
    const owned = await runToEnd(people.author, mine.id, [hidden]);
    await setRecordStatus(portal, hidden, 'draft');
    expect(runSchema.parse(expectStatus(await call(portal, 'GET', `${runsUrl}${owned.id}/`, people.author.token), 200)).dataset_titles[0]!.title).toBe('将撤回的记录');
  });
});

describe('GET /api/analysis/runs/{id}/csv/', { timeout: 120_000 }, () => {
  it('gives the result as CSV to the runner and staff: a byte order mark, CRLF, quoted commas, formulas as text', async () => {
    const method = await create(people.author, { name_en: 'Values: sorted', sql: 'select label, value, value > 2 as big from input1 order by value', public: true });
    const run = await runToEnd(people.runner, method.id, [stationId]);
    expect(run.status).toBe('done');
    const reply = await call(portal, 'GET', csvUrl(run.id), people.runner.token, { headers: EN });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(`attachment; filename="Values sorted-${run.id.slice(0, 8)}.csv"; filename*=UTF-8''Values%20sorted-${run.id.slice(0, 8)}.csv`);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.body).toBe(['\ufefflabel,value,big', 'north,1.5,false', '"a, b",2,false', `"'=HYPERLINK(""x"")",3,true`, "'-minus,4,true", ''].join('\r\n'));
    // On a Chinese page the file is named by the Chinese name.
    expect((await call(portal, 'GET', csvUrl(run.id), people.runner.token, { headers: ZH })).headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('站点方法')}-`,
    );
    // A browser's download sends its own languages: `lang` names the page's.
    expect((await call(portal, 'GET', `${csvUrl(run.id)}?lang=zh-hans`, people.runner.token, { headers: EN })).headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('站点方法')}-`,
    );
    expect((await call(portal, 'GET', `${csvUrl(run.id)}?lang=fr`, people.runner.token)).statusCode).toBe(400);
    expect((await call(portal, 'GET', csvUrl(run.id), people.staff.token)).statusCode).toBe(200);
    expect((await call(portal, 'GET', csvUrl(run.id), people.author.token)).statusCode).toBe(404);
    expect((await call(portal, 'GET', csvUrl(run.id), null)).statusCode).toBe(401);
    expect((await call(portal, 'GET', csvUrl('no-such-run'), people.runner.token)).statusCode).toBe(404);
  });

  it('refuses a run without a result, in the caller’s language', async () => {
    const method = await create(people.runner, { sql: 'select nothing_here from input1' });
    const run = await runToEnd(people.runner, method.id, [stationId]);
    expect(run.status).toBe('failed');
    expect(expectStatus(await call(portal, 'GET', csvUrl(run.id), people.runner.token, { headers: EN }), 409).detail).toBe(
      'The run has no result yet: it is still running or it failed.',
    );
    expect(expectStatus(await call(portal, 'GET', csvUrl(run.id), people.runner.token, { headers: ZH }), 409).detail).toBe('本次运行尚无结果：仍在运行或已失败。');
  });
});

describe('GET /api/analysis/methods/{id}/versions/', { timeout: 120_000 }, () => {
  it('lists every version of a readable method, the newest first; a private one only to its author and staff', async () => {
    const method = await create(people.author, { sql: 'select 1 as v', parameters: [{ name: 'x', type: 'integer', default: 1 }] });
    await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { sql: 'select 2 as v', chart: { type: 'bar', x: 'v', y: ['v'] } } });
    await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { name_en: 'Renamed', public: false } });
    const versionsUrl = `${methodUrl(method.id)}versions/`;
    const versions = methodVersionListSchema.parse(expectStatus(await call(portal, 'GET', versionsUrl, people.author.token), 200));
    expect(versions.results.map((version) => [version.version, version.sql, version.name_en, version.chart?.type ?? null])).toEqual([
      [3, 'select 2 as v', 'Renamed', 'bar'],
      [2, 'select 2 as v', 'Station method', 'bar'],
      [1, 'select 1 as v', 'Station method', null],
    ]);
    expect(versions.results[2]!.parameters).toEqual([{ name: 'x', type: 'integer', default: 1 }]);
    expect((await call(portal, 'GET', versionsUrl, people.runner.token)).statusCode).toBe(404);
    expect((await call(portal, 'GET', versionsUrl, null)).statusCode).toBe(404);
    expect((await call(portal, 'GET', versionsUrl, people.staff.token)).statusCode).toBe(200);
    await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { public: true } });
    expect(methodVersionListSchema.parse(expectStatus(await call(portal, 'GET', versionsUrl, null), 200)).results).toHaveLength(3);
  });
});

describe('forks of a method', { timeout: 120_000 }, () => {
  it('counts every living fork; forked_from= lists the public ones, and the caller’s own with mine=true', async () => {
    const original = await create(people.author, { sql: 'select 1 as one', public: true });
    expect(original.forks).toBe(0);
    const privateFork = methodSchema.parse(expectStatus(await call(portal, 'POST', `${methodUrl(original.id)}fork/`, people.runner.token), 201));
    const publicFork = methodSchema.parse(expectStatus(await call(portal, 'POST', `${methodUrl(original.id)}fork/`, people.staff.token), 201));
    await call(portal, 'PATCH', methodUrl(publicFork.id), people.staff.token, { body: { public: true } });
    const deleted = methodSchema.parse(expectStatus(await call(portal, 'POST', `${methodUrl(original.id)}fork/`, people.author.token), 201));
    await call(portal, 'DELETE', methodUrl(deleted.id), people.author.token);
    expect(methodSchema.parse(expectStatus(await call(portal, 'GET', methodUrl(original.id), people.author.token), 200)).forks).toBe(2);

    const listed = async (query: string, token: string | null) =>
      expectStatus(await call(portal, 'GET', `${methodsUrl}?forked_from=${original.id}${query}`, token), 200).results.map((method: AnalysisMethod) => method.id);
    expect(await listed('', null)).toEqual([publicFork.id]);
    expect(await listed('', people.author.token)).toEqual([publicFork.id]);
    expect(await listed('&mine=true', people.runner.token)).toEqual([privateFork.id]);
    expect(await listed('&mine=true', people.author.token)).toEqual([]);
  });
});

describe('an imported table as a view of a run', { timeout: 120_000 }, () => {
  it('is named by its code and read with its columns’ types, its text as stored; the runner of a record they may not download is refused', async () => {
    // A provider's draft with a CSV file, made into a table (dates, integers, decimals, text with a comma, a line break and a minus), then published.
    const csv = ['station,day,depth,count,note', 'NamCo,2024-01-02,1.5,3,"a, b"', 'NamCo,2024-01-01,-2.25,7,-5', 'Qomo,2024-01-03,10,0,"two', 'lines"'].join('\n');
    const recordId = await buildRecord(portal, { owner: people.author, sharing: 'online', published: '2024-02-01', title: '站点观测表' });
    const fileId = await buildDataFile(portal, recordId, people.author, { name: 'obs.csv', content: `${csv}\n`, mime: 'text/csv' });
    const { columns } = tableColumnsSchema.parse(expectStatus(await tableColumns(portal, people.author.token, { file: fileId, sheet: 'obs', header_rows: 1 }), 200));
    expect(columns.map((column) => column.type)).toEqual(['string', 'date', 'float', 'integer', 'string']);
    const named = columns.map((column) => ({ ...column, display_name: column.display_name || column.field, display_name_en: column.display_name_en || column.field }));
    const table = tableImportSchema.parse(
      expectStatus(await importTable(portal, people.author.token, { file: fileId, sheet: 'obs', header_rows: 1, table_name: 'station_obs', columns: named }), 201),
    );
    await setRecordStatus(portal, recordId, 'published');

    const method = await create(people.runner, {
      sql: `select station, day, depth, count, note, typeof(day) as day_type, typeof(count) as count_type, typeof(depth) as depth_type from ${table.code} order by day`,
    });
    const run = await runToEnd(people.runner, method.id, [recordId]);
    expect(run.error).toBeNull();
    expect(run.status).toBe('done');
    expect(run.views).toEqual(expect.arrayContaining([{ name: table.code, dataset: recordId, file: 'station_obs' }]));
    expect(run.rows).toEqual([
      ['NamCo', '2024-01-01', -2.25, 7, '-5', 'DATE', 'BIGINT', 'DOUBLE'],
      ['NamCo', '2024-01-02', 1.5, 3, 'a, b', 'DATE', 'BIGINT', 'DOUBLE'],
      ['Qomo', '2024-01-03', 10, 0, 'two\nlines', 'DATE', 'BIGINT', 'DOUBLE'],
    ]);

    // A record whose files only its applicants may download: its table is not read for anyone else.
    await portal.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('metadata').set({ sharing_policy: 'offlineEmail' }).where('id', '=', recordId).execute();
      await portal.metadataAccess.changed(trx, [recordId]);
    });
    const refused = await call(portal, 'POST', `${methodUrl(method.id)}runs/`, people.runner.token, { body: { datasets: [recordId], parameters: {} } });
    expect(refused.statusCode).toBe(403);
  });
});
