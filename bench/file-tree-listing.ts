/**
 * File tree listing benchmark (issue 19): one folder of 100,000 data files (and 50 sub-folders),
 * inserted directly into `meta_file` / `meta_folder` of a portal as main.ts builds it (SQLite in a
 * fresh DATA_DIR, then PostgreSQL in a database of its own), listed through
 * GET /api/data/file/?metadata__id=&path=/big/&page=&pageSize=20&ordering= over HTTP by its
 * creator, one request at a time: a random page of the 5,003 (the first and the last among them) in
 * a random one of the six orderings. Every reply is checked: 20 entries (fewer on the last page), the
 * folder's count and its exact bytes. p50/p95/p99/max in ms (target p95 <= 100 on both), and the
 * CPU time one listing costs: the portal process's (with SQLite's work in it) plus, on PostgreSQL,
 * its server processes' for the benchmark's database (from /proc): the work itself, which a machine
 * shared with other load stretches into longer waits but does not change.
 * Appends one entry to bench/results/file-tree-listing.json.
 *
 *   tsx bench/file-tree-listing.ts                 (REQUESTS=1000 a database)
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test tsx bench/file-tree-listing.ts   (the admin URL; this is the default)
 *   BENCH_SKIP_PG=1 tsx bench/file-tree-listing.ts (SQLite only)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withPgDatabase } from './bench-portal.js';
import { appendResult, runConditions } from './results.js';

const root = path.resolve(import.meta.dirname, '..');
const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const FOLDERS = 50;
const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const WARM_UP = 100;
const PAGE_SIZE = 20;
const ORDERINGS = ['name', '-name', 'size', '-size', 'modified', '-modified'] as const;
/** Sizes 1..1,000,000 spread over the files (many equal: ties are sorted by id). */
const sizeOf = (i: number) => ((i * 7919) % 1_000_000) + 1;
const EXPECTED_BYTES = Array.from({ length: FILES }, (_, i) => sizeOf(i)).reduce((a, b) => a + b, 0);

interface Ready {
  port: number;
  token: string;
  metadataId: string;
  loadSeconds: number;
}

if (process.argv[2] === '--serve') await serve();
else await bench();

/** Child: the portal, a user, their draft and its big folder, written straight into the tables. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.js');
  const { loadConfig } = await import('../packages/server/src/config.js');
  const { EMPTY_RECORD_FIELDS } = await import('../packages/server/src/modules/metadata/index.js');
  const { app, accounts, database } = await buildApp(loadConfig(process.env));
  const password = 'bench-password-1';
  const user = await accounts.createActiveUser({ username: 'bench', email: 'bench@example.org', password });
  const { token } = await accounts.login('bench', password);
  const started = performance.now();
  const now = Date.now();
  const metadataId = randomUUID();
  const db = database.db;
  await db
    .insertInto('metadata')
    .values({
      ...EMPTY_RECORD_FIELDS,
      id: metadataId,
      owner_id: user.id,
      status: 'draft',
      language: 'zh-hans',
      title: '文件树基准',
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    })
    .execute();
  const stamp = (i: number) => new Date(now - (i % 86_400) * 1000).toISOString();
  await db
    .insertInto('meta_folder')
    .values({ id: randomUUID(), metadata_id: metadataId, path: '/', name: 'big', created_by: user.id, created_at: stamp(0), modified_at: stamp(0) })
    .execute();
  await db
    .insertInto('meta_folder')
    .values(
      Array.from({ length: FOLDERS }, (_, i) => ({
        id: randomUUID(),
        metadata_id: metadataId,
        path: '/big/',
        name: `year-${1970 + i}`,
        created_by: user.id,
        created_at: stamp(i),
        modified_at: stamp(i),
      })),
    )
    .execute();
  for (let at = 0; at < FILES; at += 1000) {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('meta_file')
        .values(
          Array.from({ length: Math.min(1000, FILES - at) }, (_, k) => {
            const i = at + k;
            return {
              id: randomUUID(),
              metadata_id: metadataId,
              path: '/big/',
              name: `tile_${String(i).padStart(6, '0')}.tif`,
              mime: 'image/tiff',
              storage_key: '',
              sha256: '',
              size: sizeOf(i),
              created_by: user.id,
              created_at: stamp(i),
              modified_at: stamp(i),
            };
          }),
        )
        .execute();
    });
  }
  // As the databases keep their statistics on their own (autovacuum, SQLite's optimize).
  if (database.dialect === 'postgres') await import('kysely').then(({ sql }) => sql`vacuum analyze`.execute(db));
  else await import('kysely').then(({ sql }) => sql`analyze`.execute(db));
  const loadSeconds = (performance.now() - started) / 1000;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.on('message', () => void cpuMs(database.dialect === 'postgres' ? db : undefined).then((ms) => process.send!({ cpuMs: ms })));
  process.send!({ port: typeof address === 'object' && address ? address.port : 0, token, metadataId, loadSeconds } satisfies Ready);
}

/** CPU milliseconds so far of this process, and of the PostgreSQL server processes serving `db`'s database. */
async function cpuMs(db?: import('../packages/server/src/db/index.js').Db): Promise<number> {
  const own = process.cpuUsage();
  let ms = (own.user + own.system) / 1000;
  if (db) {
    const { sql } = await import('kysely');
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
    for (const { pid } of rows) {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second).
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    }
  }
  return ms;
}

function percentile(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(2));
}

async function measure(ready: Ready, child: ChildProcess) {
  const cpu = async () => {
    const reply = nextMessage<{ cpuMs: number }>(child, 'cpu');
    child.send('cpu');
    return (await reply).cpuMs;
  };
  let cpuAtStart = 0;
  const pages = Math.ceil((FILES + FOLDERS) / PAGE_SIZE);
  const times: number[] = [];
  for (let n = 0; n < WARM_UP + REQUESTS; n++) {
    if (n === WARM_UP) cpuAtStart = await cpu();
    const page = n % 97 === 0 ? pages : n % 89 === 0 ? 1 : 1 + Math.floor(Math.random() * pages);
    const ordering = ORDERINGS[n % ORDERINGS.length]!;
    const url = `http://127.0.0.1:${ready.port}/api/data/file/?metadata__id=${ready.metadataId}&path=/big/&page=${page}&pageSize=${PAGE_SIZE}&ordering=${ordering}`;
    const started = performance.now();
    const reply = await fetch(url, { headers: { authorization: `Token ${ready.token}` } });
    const body = (await reply.json()) as { count: number; bytes: number; results: unknown[] };
    const ms = performance.now() - started;
    const expected = page === pages ? FILES + FOLDERS - (pages - 1) * PAGE_SIZE : PAGE_SIZE;
    if (reply.status !== 200 || body.count !== FILES + FOLDERS || body.bytes !== EXPECTED_BYTES || body.results.length !== expected) {
      throw new Error(`${url}: ${reply.status} ${JSON.stringify(body).slice(0, 300)}: the measure is not valid`);
    }
    if (n >= WARM_UP) times.push(ms);
  }
  const cpuMsPerRequest = Number((((await cpu()) - cpuAtStart) / REQUESTS).toFixed(2));
  times.sort((a, b) => a - b);
  return {
    requests: REQUESTS,
    cpuMsPerRequest,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: percentile(times, 100),
  };
}

function nextMessage<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const exit = (code: number | null) => reject(new Error(`${what}: the child exited (${code})`));
    child.once('exit', exit);
    child.once('message', (message) => {
      child.off('exit', exit);
      resolve(message as T);
    });
  });
}

async function runOn(name: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const ready = await nextMessage<Ready>(child, name);
    const result = await measure(ready, child);
    console.log(
      `${name}: ${FILES} files loaded in ${ready.loadSeconds.toFixed(1)} s; page listings p50 ${result.p50} ms, p95 ${result.p95} ms, p99 ${result.p99} ms, max ${result.max} ms; CPU ${result.cpuMsPerRequest} ms a listing`,
    );
    return { ...result, loadSeconds: Number(ready.loadSeconds.toFixed(1)) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function bench(): Promise<void> {
  const conditions = runConditions(os.loadavg()[0]!);
  const base = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', PUBLIC_URL: 'http://127.0.0.1', FTP_ENABLED: 'false' };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tree-'));
  const results: Record<string, unknown> = {};
  try {
    results.sqlite = await runOn('sqlite', { ...base, DATA_DIR: path.join(dataDir, 'sqlite'), DATABASE_URL: '' });
    if (!process.env.BENCH_SKIP_PG) {
      results.postgres = await withPgDatabase('bench_tree', (url) => runOn('postgres', { ...base, DATA_DIR: path.join(dataDir, 'pg'), DATABASE_URL: url }));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const file = appendResult('file-tree-listing', { ...conditions, files: FILES, folders: FOLDERS, pageSize: PAGE_SIZE, results });
  console.log(`appended to ${file}`);
}
