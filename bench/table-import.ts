/**
 * Excel to table at scale (issue 20): a CSV of BENCH_TABLE_ROWS rows (1,000,000 by default: a
 * station id, a time, a temperature, a pressure, a flag), written as a stream, is made a table by
 * POST /metadata/trans/ (after get-table-column's proposal), on SQLite (a fresh DATA_DIR) and on
 * PostgreSQL (a database of its own, BENCH_PG_URL the admin URL). Timed: the import (the one
 * request: read, typed, loaded in transactions, indexed) with its rows a second, and DuckDB's own
 * read_csv of the same file into a table of its own (@duckdb/node-api, in memory) in the same run.
 * Checked: the row count, and a filtered, sorted page. Appends one entry to bench/results/table-import.json.
 *
 *   tsx bench/table-import.ts                                       (1,000,000 rows, both databases)
 *   BENCH_TABLE_ROWS=100000 BENCH_SKIP_PG=1 tsx bench/table-import.ts   (a quick run)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { createBlobStore } from '../packages/server/src/storage/index.js';
import { benchAccount, withPgDatabase } from './bench-portal.js';
import { appendResult, runConditions } from './results.js';

const ROWS = Number(process.env.BENCH_TABLE_ROWS ?? 1_000_000);
const loadAtStart = os.loadavg()[0]!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-table-import-'));
const csv = path.join(work, 'observations.csv');

/** The CSV, line by line as a stream: never whole in memory. */
async function writeCsv(): Promise<number> {
  const start = Date.UTC(2000, 0, 1);
  function* lines() {
    yield 'station,observed_at,temperature (°C),pressure (hPa),flag\n';
    for (let i = 0; i < ROWS; i++) {
      const time = new Date(start + i * 600_000).toISOString().slice(0, 19).replace('T', ' ');
      yield `S${String(i % 50).padStart(3, '0')},${time},${((i % 700) / 10 - 35).toFixed(1)},${900 + (i % 1200) / 10},${i % 97 === 0 ? 'suspect' : 'ok'}\n`;
    }
  }
  await pipeline(Readable.from(lines()), fs.createWriteStream(csv));
  return fs.statSync(csv).size;
}

async function runOn(database: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv) {
  const dataDir = path.join(work, database);
  const portal = await buildApp(loadConfig({ ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { logger: false });
  try {
    const { headers, post } = await benchAccount(portal);
    const record = await post('/api/metadata/metadata/', { language: 'zh-hans', title: '表格导入基准' });
    // The file as an upload leaves it: its bytes in the BlobStore, its row in the record's tree.
    const blob = await createBlobStore({ dataDir }).put(fs.createReadStream(csv), { maxBytes: Number.MAX_SAFE_INTEGER });
    const fileId = crypto.randomUUID();
    const user = await portal.database.db.selectFrom('users').select('id').where('username', '=', 'bench').executeTakeFirstOrThrow();
    await portal.database.db
      .insertInto('meta_file')
      .values({
        id: fileId,
        metadata_id: record.id,
        name: 'observations.csv',
        mime: 'text/csv',
        storage_key: blob.key,
        sha256: blob.sha256,
        size: blob.size,
        created_by: user.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const proposal = await portal.app.inject({ method: 'GET', url: `/metadata/get-table-column/?file=${fileId}&sheet=observations&header_rows=1`, headers });
    const columns = proposal.json().columns;
    const started = performance.now();
    const made = await post('/metadata/trans/', { file: fileId, sheet: 'observations', header_rows: 1, table_name: 'Observations', columns });
    const importMs = performance.now() - started;
    if (made.rows !== ROWS || made.rejected_count !== 0) throw new Error(`imported ${made.rows} rows, ${made.rejected_count} rejected`);
    const page = await portal.app.inject({ method: 'GET', url: `/metadata/get-table-data/?table=${made.code}&temperature__gte=30&ordering=-observed_at&pageSize=20`, headers });
    if (page.statusCode !== 200 || page.json().results.length !== 20) throw new Error(`page: ${page.statusCode} ${page.body.slice(0, 200)}`);
    const result = {
      columns: columns.map((c: { field: string; type: string }) => `${c.field}:${c.type}`),
      importSeconds: Number((importMs / 1000).toFixed(1)),
      rowsPerSecond: Math.round(ROWS / (importMs / 1000)),
    };
    console.log(`${database}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await portal.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** DuckDB's own read_csv of the same file into an in-memory table, when @duckdb/node-api is installed. */
async function duckdb() {
  let api: typeof import('@duckdb/node-api');
  try {
    api = await import('@duckdb/node-api');
  } catch {
    return { skipped: '@duckdb/node-api is not installed' };
  }
  const instance = await api.DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const started = performance.now();
  await connection.run(`CREATE TABLE observations AS SELECT * FROM read_csv('${csv.replace(/'/g, "''")}')`);
  const ms = performance.now() - started;
  const counted = await connection.runAndReadAll('SELECT count(*) FROM observations');
  const rows = Number(counted.getRows()[0]![0]);
  if (rows !== ROWS) throw new Error(`DuckDB read ${rows} rows`);
  connection.closeSync();
  return { seconds: Number((ms / 1000).toFixed(2)), rowsPerSecond: Math.round(ROWS / (ms / 1000)) };
}

try {
  const bytes = await writeCsv();
  console.log(`${ROWS} rows, ${bytes} bytes in ${csv}`);
  const results: Record<string, unknown> = {};
  results.duckdbReadCsv = await duckdb();
  console.log(`duckdb read_csv: ${JSON.stringify(results.duckdbReadCsv)}`);
  results.sqlite = await runOn('sqlite', { DATABASE_URL: '' });
  if (!process.env.BENCH_SKIP_PG) results.postgres = await withPgDatabase('bench_tables', (url) => runOn('postgres', { DATABASE_URL: url }));
  const file = appendResult('table-import', { ...runConditions(loadAtStart), loadAverageAtEnd: Number(os.loadavg()[0]!.toFixed(2)), rows: ROWS, bytes, ...results });
  console.log(`recorded in ${file}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
