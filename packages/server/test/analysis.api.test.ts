import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodSchema, runSchema, type AnalysisMethod, type AnalysisRun } from '@portal/shared';
import { buildDataFile, buildDataFiles, buildRecord, buildUsers, type Person } from './factories.js';
import { AnalysisRepo } from '../src/modules/analysis/index.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';

let portal: TestPortal;
let people: Record<'author' | 'other' | 'staff', Person>;
/** Open records: a daily station series, a depth series on some of its days, a trend series; one needing an order; a draft; one without tabular files. */
let stationId: string;
let depthId: string;
let trendId: string;
let restrictedId: string;
let draftId: string;
let textOnlyId: string;

/** A station's daily temperatures, January to March 2021 (deterministic, uneven). */
const STATION = Array.from({ length: 90 }, (_, day) => {
  const date = new Date(Date.UTC(2021, 0, 1 + day)).toISOString().slice(0, 10);
  return { date, value: Math.round((Math.sin(day / 7) * 10 - 5 + (day % 3) * 0.25) * 1000) / 1000 };
});
const DEPTH = STATION.filter((_, day) => day % 10 === 0).map(({ date }, index) => ({ date, depth: 100 + index * 7 }));
/** Twelve yearly observations of a glacier's length change: a trend with noise. */
const TREND = Array.from({ length: 12 }, (_, index) => ({
  date: `${2010 + index}-07-01`,
  value: -3.2 * index + [0.8, -1.1, 0.3, 1.9, -0.7, 0.2, -1.6, 1.1, 0.4, -0.9, 1.3, -0.5][index]!,
}));

/**
 * Each run starts a DuckDB process: on a loaded machine (CI runs the suites beside the browser tests) a
 * test of several runs takes well over the 30 s default.
 */
const RUNS_TIMEOUT = 120_000;
const methodsUrl = '/api/analysis/methods/';
const methodUrl = (id: string) => `/api/analysis/methods/${id}/`;
const create = async (person: Person, body: Record<string, unknown>) =>
  methodSchema.parse(expectStatus(await call(portal, 'POST', methodsUrl, person.token, { body: { name: '方法', name_en: 'Method', ...body }, headers: EN }), 201));
const startRun = (person: Person | null, methodId: string, datasets: string[], parameters: Record<string, unknown> = {}) =>
  call(portal, 'POST', `${methodUrl(methodId)}runs/`, person?.token ?? null, { body: { datasets, parameters }, headers: EN });
const readRun = (person: Person | null, id: string) => call(portal, 'GET', `/api/analysis/runs/${id}/`, person?.token ?? null, { headers: EN });
/** Runs the method to its end; the run as its runner reads it. */
const runToEnd = async (person: Person, methodId: string, datasets: string[], parameters: Record<string, unknown> = {}): Promise<AnalysisRun> => {
  const started = expectStatus(await startRun(person, methodId, datasets, parameters), 202);
  expect(started.status).toBe('queued');
  await portal.analysis.idle();
  return runSchema.parse(expectStatus(await readRun(person, started.id), 200));
};
/** A query of the author's over the station record; its failure message. */
const failureOf = async (sql: string, datasets = [stationId]) => {
  const method = await create(people.author, { sql });
  const run = await runToEnd(people.author, method.id, datasets);
  expect(run.status).toBe('failed');
  expect(run.rows).toBeNull();
  return run.error!;
};
const dataCentre = async (nameEn: string): Promise<AnalysisMethod> => {
  const page = expectStatus(await call(portal, 'GET', `${methodsUrl}?public=true&search=${encodeURIComponent(nameEn)}`, null), 200);
  const found = page.results.find((method: AnalysisMethod) => method.name_en === nameEn);
  expect(found?.author).toBeNull();
  return methodSchema.parse(found);
};

beforeAll(async () => {
  // 5 s: the row, byte and memory cases must reach their limit before the time limit on a loaded machine
  // (DuckDB builds the 100 MB list of the memory case step by step: over 1 s when four processes share two cores).
  portal = await createTestPortal({ env: { ANALYSIS_TIMEOUT_SECONDS: '5', ANALYSIS_MAX_ROWS: '1000', ANALYSIS_MAX_RESULT_MB: '1', ANALYSIS_MEMORY_MB: '100' } });
  people = await buildUsers(portal, { author: { realname: 'Author Au' }, other: { realname: 'Other Ot' }, staff: { staff: true } });
  const open = (name: string, content: string) =>
    buildRecord(portal, { owner: people.author, status: 'published', sharing: 'online', published: '2024-01-01', dataFiles: [{ name, content }] });
  stationId = await open('station.csv', `time,value\n${STATION.map((row) => `${row.date},${row.value}`).join('\n')}\n`);
  await buildDataFile(portal, stationId, people.author, { name: 'readme.txt', content: 'not a table\n' });
  depthId = await open('Snow depth 2021.csv', `time,depth\n${DEPTH.map((row) => `${row.date},${row.depth}`).join('\n')}\n`);
  trendId = await open('length.csv', `time,value\n${TREND.map((row) => `${row.date},${row.value}`).join('\n')}\n`);
  textOnlyId = await open('notes.txt', 'nothing tabular\n');
  restrictedId = await buildRecord(portal, {
    owner: people.author,
    status: 'published',
    sharing: 'offlineEmail',
    published: '2024-01-02',
    dataFiles: [{ name: 'secret.csv', content: 'a,b\n1,2\n' }],
  });
  draftId = await buildRecord(portal, { owner: people.author, dataFiles: [{ name: 'draft.csv', content: 'a\n1\n' }] });
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

describe('POST /api/analysis/methods/', { timeout: RUNS_TIMEOUT }, () => {
  it('is for signed-in users; the author owns a private method at version 1', async () => {
    expect((await call(portal, 'POST', methodsUrl, null, { body: { name: 'x', sql: 'select 1' } })).statusCode).toBe(401);
    const method = await create(people.author, { sql: 'select 1 as one', parameters: [{ name: 'limit_rows', type: 'integer', default: 10 }] });
    expect(method).toMatchObject({ version: 1, public: false, is_mine: true, uses: 0, forked_from: null, author: { id: people.author.id, name: 'Author Au' } });
    expect(method.parameters).toEqual([{ name: 'limit_rows', type: 'integer', default: 10 }]);
  });

  it('refuses a method without name or query, bad parameter names, twice-declared parameters and defaults of another type', async () => {
    const refused = async (body: Record<string, unknown>) => expectStatus(await call(portal, 'POST', methodsUrl, people.author.token, { body, headers: EN }), 400).detail;
    expect(await refused({ name: ' ', sql: 'select 1' })).toBe('Please enter the method name.');
    expect(await refused({ name: 'm', sql: '  ' })).toBe('Please enter the SQL query of the method.');
    expect(await refused({ name: 'm', sql: 'select 1', parameters: [{ name: '1x; drop', type: 'string' }] })).toMatch(/^A parameter name has English letters/);
    expect(
      await refused({
        name: 'm',
        sql: 'select 1',
        parameters: [
          { name: 'a', type: 'string' },
          { name: 'a', type: 'number' },
        ],
      }),
    ).toBe('The parameter a is declared twice.');
    expect(await refused({ name: 'm', sql: 'select 1', parameters: [{ name: 'n', type: 'number', default: 'many' }] })).toBe('The value of n is not a number.');
    expect(await refused({ name: 'm', sql: 'select 1', parameters: [{ name: 'd', type: 'date', default: '2021-02-30' }] })).toBe('The value of d is not a date (YYYY-MM-DD).');
    const zh = await call(portal, 'POST', methodsUrl, people.author.token, { body: { name: '', sql: 'select 1' }, headers: { 'accept-language': 'zh-hans' } });
    expect(expectStatus(zh, 400).detail).toBe('请输入方法名称。');
  });
});

describe('GET, PATCH, DELETE /api/analysis/methods/{id}/', { timeout: RUNS_TIMEOUT }, () => {
  it('shows a private method to its author and staff only; publishing shows it to everyone', async () => {
    const method = await create(people.author, { sql: 'select 1' });
    expect((await call(portal, 'GET', methodUrl(method.id), null)).statusCode).toBe(404);
    expect((await call(portal, 'GET', methodUrl(method.id), people.other.token)).statusCode).toBe(404);
    expect(expectStatus(await call(portal, 'GET', methodUrl(method.id), people.staff.token), 200).is_mine).toBe(false);
    expect((await call(portal, 'PATCH', methodUrl(method.id), people.other.token, { body: { public: true } })).statusCode).toBe(404);
    const published = expectStatus(await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { public: true } }), 200);
    // Publishing is not an edit of the text: no new version.
    expect(published).toMatchObject({ public: true, version: 1 });
    expect(expectStatus(await call(portal, 'GET', methodUrl(method.id), null), 200).sql).toBe('select 1');
  });

  it('lets only the author edit, each edit a new version; a run keeps the version it ran', async () => {
    const chart = { type: 'line', x: 'answer', y: ['answer'] };
    const method = await create(people.author, { sql: 'select 1 as answer', public: true, chart });
    expect(method.chart).toEqual(chart);
    const first = await runToEnd(people.author, method.id, [stationId]);
    for (const person of [people.other, people.staff]) {
      const refused = await call(portal, 'PATCH', methodUrl(method.id), person.token, { body: { sql: 'select 2' }, headers: EN });
      expect(expectStatus(refused, 403).detail).toBe('Only the author of a method edits or deletes it.');
    }
    const edited = expectStatus(await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { sql: 'select 2 as answer', name_en: 'Edited' } }), 200);
    expect(edited).toMatchObject({ version: 2, sql: 'select 2 as answer', name_en: 'Edited', name: '方法' });
    const second = await runToEnd(people.author, method.id, [stationId]);
    expect([first.method.version, first.sql, first.rows, first.chart]).toEqual([1, 'select 1 as answer', [[1]], chart]);
    // A chart is part of the text: a new version.
    const drawn = expectStatus(await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { chart: { type: 'bar', x: 'answer', y: ['answer'] } } }), 200);
    expect(drawn).toMatchObject({ version: 3, chart: { type: 'bar' }, sql: 'select 2 as answer' });
    expect((await call(portal, 'PATCH', methodUrl(method.id), people.author.token, { body: { chart: { type: 'pie', x: 'a', y: [] } } })).statusCode).toBe(400);
    expect([second.method.version, second.rows]).toEqual([2, [[2]]]);
    // A rerun takes the same inputs and the version the run ran, not the method's current one.
    const rerun = expectStatus(await call(portal, 'POST', `/api/analysis/runs/${first.id}/rerun/`, people.author.token), 202);
    await portal.analysis.idle();
    expect(runSchema.parse(expectStatus(await readRun(people.author, rerun.id), 200))).toMatchObject({ method: { version: 1 }, rows: [[1]], datasets: [stationId] });
    expect(expectStatus(await call(portal, 'GET', methodUrl(method.id), null), 200).uses).toBe(3);
  });

  it('deletes for the author (or staff): the method goes, its runs stay readable', async () => {
    const method = await create(people.author, { sql: 'select 42 as n', public: true });
    const run = await runToEnd(people.author, method.id, [stationId]);
    expect(expectStatus(await call(portal, 'DELETE', methodUrl(method.id), people.other.token, { headers: EN }), 403).detail).toBe(
      'Only the author of a method edits or deletes it.',
    );
    expect((await call(portal, 'DELETE', methodUrl(method.id), null)).statusCode).toBe(401);
    expect((await call(portal, 'DELETE', methodUrl(method.id), people.author.token)).statusCode).toBe(204);
    expect((await call(portal, 'GET', methodUrl(method.id), people.author.token)).statusCode).toBe(404);
    expect((await startRun(people.author, method.id, [stationId])).statusCode).toBe(404);
    expect(runSchema.parse(expectStatus(await readRun(people.author, run.id), 200)).rows).toEqual([[42]]);
    const another = await create(people.other, { sql: 'select 1', public: true });
    expect((await call(portal, 'DELETE', methodUrl(another.id), people.staff.token)).statusCode).toBe(204);
  });
});

describe('GET /api/analysis/methods/', { timeout: RUNS_TIMEOUT }, () => {
  it('lists public methods with their author and uses, searched; mine=true lists the caller’s own', async () => {
    const word = `Permafrost${Date.now()}`;
    const shared = await create(people.author, { name_en: `${word} shared`, sql: 'select 1', public: true });
    const own = await create(people.author, { name_en: `${word} private`, sql: 'select 1' });
    const found = expectStatus(await call(portal, 'GET', `${methodsUrl}?public=true&search=${word.toLowerCase()}`, null), 200);
    expect(found.results.map((method: AnalysisMethod) => method.id)).toEqual([shared.id]);
    expect(found.results[0]).toMatchObject({ author: { name: 'Author Au' }, uses: 0, is_mine: false });
    const mine = expectStatus(await call(portal, 'GET', `${methodsUrl}?mine=true&search=${word}`, people.author.token), 200);
    expect(mine.results.map((method: AnalysisMethod) => method.id).sort()).toEqual([shared.id, own.id].sort());
    expect(expectStatus(await call(portal, 'GET', `${methodsUrl}?mine=true&search=${word}`, people.other.token), 200).count).toBe(0);
    expect((await call(portal, 'GET', `${methodsUrl}?mine=true`, null)).statusCode).toBe(401);
    const paged = expectStatus(await call(portal, 'GET', `${methodsUrl}?page=1&pageSize=2`, null), 200);
    expect(paged.results).toHaveLength(2);
    expect(paged.count).toBeGreaterThanOrEqual(4);
  });
});

describe('POST /api/analysis/methods/{id}/fork/', { timeout: RUNS_TIMEOUT }, () => {
  it('copies a readable method to the caller, private, remembering its origin', async () => {
    const original = await create(people.author, { sql: 'select $x * 2 as doubled', parameters: [{ name: 'x', type: 'number', default: 21 }], public: true });
    const fork = methodSchema.parse(expectStatus(await call(portal, 'POST', `${methodUrl(original.id)}fork/`, people.other.token), 201));
    expect(fork).toMatchObject({
      forked_from: original.id,
      public: false,
      is_mine: true,
      version: 1,
      sql: original.sql,
      parameters: original.parameters,
      author: { id: people.other.id },
    });
    expect((await runToEnd(people.other, fork.id, [stationId])).rows).toEqual([[42]]);
    const hidden = await create(people.author, { sql: 'select 1' });
    expect((await call(portal, 'POST', `${methodUrl(hidden.id)}fork/`, people.other.token)).statusCode).toBe(404);
    expect((await call(portal, 'POST', `${methodUrl(original.id)}fork/`, null)).statusCode).toBe(401);
  });
});

describe('POST /api/analysis/methods/{id}/runs/ and GET /api/analysis/runs/{id}/', { timeout: RUNS_TIMEOUT }, () => {
  it('runs over the datasets’ tabular files as views, parameters bound as values; only the runner and staff read the run', async () => {
    const method = await create(people.author, {
      sql: "select count(*) as days, round(sum(value), 6) as total, 1.25::decimal(5, 2) as exact from station where value > $threshold and ($label = '' or cast(time as varchar) = $label)",
      parameters: [
        { name: 'threshold', type: 'number', default: 0 },
        { name: 'label', type: 'string', default: '' },
      ],
      public: true,
    });
    expect((await startRun(null, method.id, [stationId])).statusCode).toBe(401);
    const run = await runToEnd(people.other, method.id, [stationId], { threshold: 2.5 });
    const above = STATION.filter((row) => row.value > 2.5);
    expect(run.status).toBe('done');
    expect(run.columns?.map((column) => column.name)).toEqual(['days', 'total', 'exact']);
    expect(run.rows).toEqual([[above.length, Math.round(above.reduce((sum, row) => sum + row.value, 0) * 1e6) / 1e6, 1.25]]);
    expect(run).toMatchObject({ datasets: [stationId], parameters: { threshold: 2.5, label: '' }, error: null });
    expect(run.views).toEqual([
      { name: 'input1', dataset: stationId, file: '/station.csv' },
      { name: 'station', dataset: stationId, file: '/station.csv' },
    ]);
    expect(run.started_at && run.finished_at && run.finished_at >= run.started_at).toBe(true);
    // Text meant to break out of a quoted literal is only a value that matches nothing.
    expect((await runToEnd(people.other, method.id, [stationId], { threshold: -100, label: "' or 1=1 --" })).rows).toEqual([[0, null, 1.25]]);
    expect((await readRun(people.author, run.id)).statusCode).toBe(404);
    expect((await readRun(null, run.id)).statusCode).toBe(401);
    expect(expectStatus(await readRun(people.staff, run.id), 200).status).toBe('done');
  });

  it('takes only datasets the runner may download, with tabular files, and only declared parameters of their types', async () => {
    const method = await create(people.author, { sql: 'select count(*) as n from input1', parameters: [{ name: 'n', type: 'integer', default: null }], public: true });
    const refused = async (person: Person, datasets: string[], parameters: Record<string, unknown>, status: number) =>
      expectStatus(await startRun(person, method.id, datasets, parameters), status).detail;
    // Needs an order: the one download rule answers.
    expect(await refused(people.other, [restrictedId], { n: 1 }, 403)).toBeTruthy();
    expect(await refused(people.other, [draftId], { n: 1 }, 404)).toBeTruthy();
    expect(await refused(people.author, [], { n: 1 }, 400)).toBe('Please choose at least one dataset.');
    expect(await refused(people.author, [textOnlyId], { n: 1 }, 400)).toBe('The chosen datasets have no tables and no tabular data files (CSV, TSV or Parquet).');
    expect(await refused(people.author, [stationId], {}, 400)).toBe('Please give a value for the parameter n.');
    expect(await refused(people.author, [stationId], { n: 1.5 }, 400)).toBe('The value of n is not a whole number.');
    expect(await refused(people.author, [stationId], { n: 1, m: 2 }, 400)).toBe('The method has no parameter m.');
    const crowded = await buildRecord(portal, { owner: people.author, status: 'published', sharing: 'online', published: '2024-01-01' });
    await buildDataFiles(
      portal,
      crowded,
      people.author,
      Array.from({ length: 101 }, (_, index) => ({ name: `part-${index}.csv`, content: 'a\n1\n' })),
    );
    expect(await refused(people.author, [crowded], { n: 1 }, 400)).toBe('The chosen datasets have 101 tables and tabular data files; a run reads at most 100.');
    // The owner of the restricted record may download it: the run goes.
    expect((await runToEnd(people.author, method.id, [restrictedId], { n: 1 })).rows).toEqual([[1]]);
  });
});

describe('the sandbox', { timeout: RUNS_TIMEOUT }, () => {
  it('refuses files outside the chosen data: system files, another record’s stored file, the network', async () => {
    expect(await failureOf("select * from read_csv('/etc/passwd')")).toMatch(/^The query failed: .*Cannot access file "\/etc\/passwd".*disabled by configuration/s);
    const secret = await portal.database.db.selectFrom('meta_file').select('storage_key').where('metadata_id', '=', restrictedId).executeTakeFirstOrThrow();
    const secretPath = `${portal.config.dataDir}/files/${secret.storage_key.slice(0, 2)}/${secret.storage_key}`;
    expect(await failureOf(`select * from read_csv('${secretPath}')`)).toMatch(/Cannot access file .*disabled by configuration/s);
    expect(await failureOf("select * from read_parquet('https://example.org/data.parquet')")).toMatch(/^The query failed: /);
    expect(await failureOf("select * from glob('/*')")).toMatch(/disabled by configuration/);
  });

  it('runs one SELECT only: COPY, INSTALL, LOAD, ATTACH, SET and a second statement are refused', async () => {
    const onlySelect = 'A method only reads data: one SELECT (or WITH ... SELECT) query.';
    // COPY is refused as it is prepared, by the sandbox's configuration, before its type is known.
    expect(await failureOf("copy (select * from station) to '/tmp/analysis-escape.csv'")).toMatch(
      /^The query failed: .*Cannot access file "\/tmp\/analysis-escape.csv".*disabled by configuration/s,
    );
    expect(await failureOf('install httpfs')).toBe(onlySelect);
    expect(await failureOf('load httpfs')).toBe(onlySelect);
    expect(await failureOf("attach '/tmp/analysis-escape.duckdb' as escape")).toBe(onlySelect);
    expect(await failureOf('set enable_external_access = true')).toBe(onlySelect);
    expect(await failureOf("select 1; copy (select 1) to '/tmp/analysis-escape.csv'")).toBe('A method is one query: found 2 statements.');
    expect(await failureOf('select $undeclared')).toBe('The query uses $undeclared, which the method does not declare.');
  });

  it('cuts a query that runs too long, and results over the row or byte limit', async () => {
    expect(await failureOf('select sum(a.range * b.range) from range(100000000) a, range(100000000) b')).toBe('The query was stopped after 5 s, the time limit of a run.');
    // The row and byte cases are small work (a million rows; 2 MB of text), so that a loaded machine does not reach the time limit first.
    expect(await failureOf('select range from range(1000000)')).toBe('The result has more than 1000 rows, the limit of a run: aggregate it or add a LIMIT.');
    expect(await failureOf("select repeat('x', 100000) as wide from range(20)")).toBe('The result is larger than 1 MB, the limit of a run: select fewer columns or rows.');
  });

  it('holds a query to its memory: DuckDB’s buffers and a value larger than the process may allocate', async () => {
    expect(await failureOf('select len(list(range)) from range(100000000)')).toMatch(/^The query failed: Out of Memory Error/);
    expect(await failureOf("select length(repeat('x', 2000000000)) as n")).toMatch(/^The query failed: Out of Memory Error/);
  });
});

describe('runs across restarts', { timeout: RUNS_TIMEOUT }, () => {
  it('takes up queued runs at start, claimed once; a run left running by a dead process has failed', async () => {
    const method = await create(people.author, { sql: 'select count(*) as n from station' });
    const done = await runToEnd(people.author, method.id, [stationId]);
    // As a process that stopped before running it would have left it.
    await portal.database.db.updateTable('analysis_runs').set({ status: 'queued', started_at: null, rows: null, columns: null }).where('id', '=', done.id).execute();
    const stale = await runToEnd(people.author, method.id, [stationId]);
    const anHourAgo = new Date(Date.now() - 3600_000).toISOString();
    await portal.database.db.updateTable('analysis_runs').set({ status: 'running', started_at: anHourAgo, rows: null, finished_at: null }).where('id', '=', stale.id).execute();
    await portal.analysis.recover();
    await portal.analysis.idle();
    expect(runSchema.parse(expectStatus(await readRun(people.author, done.id), 200))).toMatchObject({ status: 'done', rows: [[STATION.length]] });
    expect(runSchema.parse(expectStatus(await readRun(people.author, stale.id), 200))).toMatchObject({
      status: 'failed',
      error: 'The run was interrupted by a restart of the portal: please run it again.',
    });
    // Processes sharing the database each take up the queue: a run goes to the first that claims it.
    await portal.database.db.updateTable('analysis_runs').set({ status: 'queued' }).where('id', '=', done.id).execute();
    const repo = new AnalysisRepo(portal.database.db);
    expect([await repo.claim(done.id, new Date().toISOString()), await repo.claim(done.id, new Date().toISOString())]).toEqual([true, false]);
  });
});

describe('the data centre’s methods', { timeout: RUNS_TIMEOUT }, () => {
  it('monthly means of a station series', async () => {
    const method = await dataCentre('Monthly means of a station series');
    const run = await runToEnd(people.other, method.id, [stationId]);
    expect(run.columns?.map((column) => column.name)).toEqual(['month', 'mean', 'minimum', 'maximum', 'observations']);
    const months = ['2021-01', '2021-02', '2021-03'].map((month) => {
      const values = STATION.filter((row) => row.date.startsWith(month)).map((row) => row.value);
      return [month, values.reduce((sum, value) => sum + value, 0) / values.length, Math.min(...values), Math.max(...values), values.length];
    });
    expect(run.rows).toHaveLength(3);
    run.rows!.forEach((row, index) => {
      const expected = months[index]!;
      expect([row[0], row[2], row[3], row[4]]).toEqual([expected[0], expected[2], expected[3], expected[4]]);
      expect(row[1] as number).toBeCloseTo(expected[1] as number, 9);
    });
  });

  it('linear trend with a 95 % confidence interval', async () => {
    const method = await dataCentre('Linear trend with confidence interval');
    const run = await runToEnd(people.other, method.id, [trendId]);
    const x = TREND.map((row) => Date.parse(`${row.date}T00:00:00Z`) / 1000 / 31_557_600);
    const y = TREND.map((row) => row.value);
    const n = x.length;
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const [mx, my] = [mean(x), mean(y)];
    const sxx = x.reduce((sum, xi) => sum + (xi - mx) ** 2, 0);
    const sxy = x.reduce((sum, xi, i) => sum + (xi - mx) * (y[i]! - my), 0);
    const slope = sxy / sxx;
    const intercept = my - slope * mx;
    const residuals = y.reduce((sum, yi, i) => sum + (yi - (intercept + slope * x[i]!)) ** 2, 0);
    const se = Math.sqrt(residuals / (n - 2) / sxx);
    // Student's t, 97.5 % quantile at 10 degrees of freedom (printed tables: 2.228).
    const t = 2.228138851986274;
    const syy = y.reduce((sum, yi) => sum + (yi - my) ** 2, 0);
    expect(run.columns?.map((column) => column.name)).toEqual(['n', 'slope_per_year', 'slope_standard_error', 'slope_lower_95', 'slope_upper_95', 'intercept', 'r2']);
    const [row] = run.rows!;
    const expected = [n, slope, se, slope - t * se, slope + t * se, intercept, 1 - residuals / syy];
    expect(row![0]).toBe(n);
    expected.slice(1).forEach((value, index) => expect(row![index + 1] as number).toBeCloseTo(value, 6));
    expect(slope).toBeLessThan(-3);
  });

  it('a join of two tables on time', async () => {
    const method = await dataCentre('Join of two tables on time');
    const run = await runToEnd(people.other, method.id, [stationId, depthId]);
    expect(run.views.map((view) => view.name)).toEqual(['input1', 'input2', 'station', 'snow_depth_2021']);
    expect(run.columns?.map((column) => column.name)).toEqual(['time', 'value', 'depth']);
    const expected = DEPTH.map(({ date, depth }) => [`${date} 00:00:00`, STATION.find((row) => row.date === date)!.value, depth]);
    expect(run.rows).toEqual(expected);
    // The tables by the files' own view names.
    const named = await runToEnd(people.other, method.id, [depthId, stationId], { left_table: 'station', right_table: 'snow_depth_2021' });
    expect(named.rows).toEqual(expected);
  });
});
