/**
 * The table viewer at scale (issue 20): a CSV of BENCH_VIEWER_ROWS rows (5,000,000 by default: a
 * station, a time every ten minutes, a temperature, a pressure, a flag), written as a stream, is made
 * a table by the tables module's loader (POST /metadata/trans/), on SQLite (a fresh DATA_DIR) and on
 * PostgreSQL (a database of its own). Then BENCH_VIEWER_CLIENTS clients (4) ask for filtered, sorted
 * pages over HTTP (the server listening on a port, keep-alive fetch) for BENCH_VIEWER_SECONDS (20) each:
 * a temperature range sorted by time (newest first), a month sorted by temperature, one station's rows
 * sorted by pressure, on pages 1 to 5 of 50 rows; p50, p95 and p99 of each and of all (target p95 <= 200 ms).
 * The load's time is reported. Appends one entry to bench/results/table-viewer.json.
 *
 *   tsx bench/table-viewer.ts                                                     (5,000,000 rows, both databases)
 *   BENCH_VIEWER_ROWS=200000 BENCH_SKIP_PG=1 tsx bench/table-viewer.ts            (a quick run)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { withPgDatabase } from './bench-portal.js';
import { appendResult, runConditions } from './results.js';
import { importObservations, START, STATIONS, STEP_MS, writeObservationsCsv } from './table-bench.js';

const ROWS = Number(process.env.BENCH_VIEWER_ROWS ?? 5_000_000);
const CLIENTS = Number(process.env.BENCH_VIEWER_CLIENTS ?? 4);
const SECONDS = Number(process.env.BENCH_VIEWER_SECONDS ?? 20);
const loadAtStart = os.loadavg()[0]!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-table-viewer-'));
const csv = path.join(work, 'observations.csv');

/** The viewer's pages: three kinds of filter and order, a random value and page each time. */
function queries(code: string): { kind: string; url: () => string }[] {
  const years = (ROWS * STEP_MS) / (365.25 * 86_400_000);
  const page = () => 1 + Math.floor(Math.random() * 5);
  return [
    {
      kind: 'temperature range, newest first',
      url: () => {
        const low = Math.floor(Math.random() * 60) - 35;
        return `/metadata/get-table-data/?table=${code}&temperature__gte=${low}&temperature__lte=${low + 5}&ordering=-observed_at&page=${page()}&pageSize=50`;
      },
    },
    {
      kind: 'one month, by temperature',
      url: () => {
        const from = new Date(START + Math.random() * Math.max(0, years - 0.1) * 365.25 * 86_400_000);
        const to = new Date(from.getTime() + 30 * 86_400_000);
        return `/metadata/get-table-data/?table=${code}&observed_at__gte=${from.toISOString().slice(0, 10)}&observed_at__lte=${to.toISOString().slice(0, 10)}&ordering=temperature&page=${page()}&pageSize=50`;
      },
    },
    {
      kind: 'one station, by pressure',
      url: () => {
        const station = `S${String(Math.floor(Math.random() * STATIONS)).padStart(3, '0')}`;
        return `/metadata/get-table-data/?table=${code}&station__gte=${station}&station__lte=${station}&ordering=-pressure&page=${page()}&pageSize=50`;
      },
    },
  ];
}

const percentile = (sorted: number[], p: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(1));
function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { requests: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: Number((sorted.at(-1) ?? NaN).toFixed(1)) };
}

async function runOn(database: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv) {
  const dataDir = path.join(work, database);
  const portal = await buildApp(loadConfig({ ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { logger: false });
  try {
    const { headers, code, importMs } = await importObservations(portal, dataDir, csv, ROWS, '表格浏览基准');
    const loadSeconds = Number((importMs / 1000).toFixed(1));
    console.log(`${database}: ${ROWS} rows loaded in ${loadSeconds} s`);

    await portal.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(portal.app.server.address() as AddressInfo).port}`;
    const kinds = queries(code);
    const times: Record<string, number[]> = Object.fromEntries(kinds.map((kind) => [kind.kind, []]));
    const failures: string[] = [];
    // Warm: each kind once.
    for (const kind of kinds) await (await fetch(base + kind.url(), { headers })).arrayBuffer();
    const deadline = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = client; performance.now() < deadline; n++) {
          const kind = kinds[n % kinds.length]!;
          const url = kind.url();
          const sent = performance.now();
          const reply = await fetch(base + url, { headers });
          const body = await reply.text();
          times[kind.kind]!.push(performance.now() - sent);
          if (reply.status !== 200) failures.push(`${reply.status} ${url} ${body.slice(0, 200)}`);
        }
      }),
    );
    if (failures.length) throw new Error(`${failures.length} failed: ${failures[0]}`);
    const result = {
      loadSeconds,
      loadRowsPerSecond: Math.round(ROWS / loadSeconds),
      clients: CLIENTS,
      seconds: SECONDS,
      all: summary(Object.values(times).flat()),
      ...Object.fromEntries(Object.entries(times).map(([kind, ms]) => [kind, summary(ms)])),
    };
    console.log(`${database}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await portal.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  const bytes = await writeObservationsCsv(csv, ROWS);
  console.log(`${ROWS} rows, ${bytes} bytes in ${csv}`);
  const results: Record<string, unknown> = {};
  if (!process.env.BENCH_SKIP_SQLITE) results.sqlite = await runOn('sqlite', { DATABASE_URL: '' });
  if (!process.env.BENCH_SKIP_PG) results.postgres = await withPgDatabase('bench_viewer', (url) => runOn('postgres', { DATABASE_URL: url }));
  const file = appendResult('table-viewer', { ...runConditions(loadAtStart), loadAverageAtEnd: Number(os.loadavg()[0]!.toFixed(2)), rows: ROWS, bytes, ...results });
  console.log(`recorded in ${file}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
