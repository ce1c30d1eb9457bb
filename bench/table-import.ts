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
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { withPgDatabase } from './bench-portal.js';
import { appendResult, runConditions } from './results.js';
import { importObservations, writeObservationsCsv } from './table-bench.js';

const ROWS = Number(process.env.BENCH_TABLE_ROWS ?? 1_000_000);
const loadAtStart = os.loadavg()[0]!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-table-import-'));
const csv = path.join(work, 'observations.csv');

async function runOn(database: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv) {
  const dataDir = path.join(work, database);
  const portal = await buildApp(loadConfig({ ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { logger: false });
  try {
    const { headers, code, columns, importMs } = await importObservations(portal, dataDir, csv, ROWS, '表格导入基准');
    const page = await portal.app.inject({ method: 'GET', url: `/metadata/get-table-data/?table=${code}&temperature__gte=30&ordering=-observed_at&pageSize=20`, headers });
    if (page.statusCode !== 200 || page.json().results.length !== 20) throw new Error(`page: ${page.statusCode} ${page.body.slice(0, 200)}`);
    const result = {
      columns: columns.map((c) => `${c.field}:${c.type}`),
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
  // Its spill files in this run's own folder (DuckDB's default is .tmp in the working directory: the checkout).
  const instance = await api.DuckDBInstance.create(':memory:', { temp_directory: path.join(work, 'duckdb-spill') });
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
  const bytes = await writeObservationsCsv(csv, ROWS);
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
