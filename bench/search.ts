/**
 * Search benchmark: the public catalogue on BENCH_RECORDS (100,000) published records of a synthetic
 * bilingual catalogue (bench/search-catalogue.ts), on SQLite and on PostgreSQL.
 *
 * For each database a child process (this file with --serve) builds the portal on a fresh database,
 * loads the catalogue through import-records' service (which indexes as it writes), then times
 * SearchIndex.rebuild() alone and measures the index's size. This process then measures, over HTTP:
 * - latency (p50 / p95, requests one at a time) of the query kinds: a two-character Chinese word, an
 *   English word, three facets, a box across the 180th meridian, and the unfiltered catalogue; every
 *   reply carries the facet counts of its whole result;
 * - throughput of /api/metadata/search/ and /api/metadata/hot/ against a bare Fastify hello world
 *   started in the same child, as ratios, by a lean keep-alive client (http-load.ts: it counts a
 *   reply's bytes without decoding them); a repeated search both without Accept-Encoding (14 KB of
 *   JSON a reply) and as a browser asks (brotli: about 4 KB); and, for comparison, the hello world
 *   and the repeated search by autocannon, whose per-reply work grows with the reply. Beside each
 *   ratio, the server's own CPU time per request against the hello world's.
 * Appends one entry to bench/results/search.json and prints a table.
 *
 *   npm run bench                              (every benchmark)
 *   tsx bench/search.ts                        (BENCH_RECORDS=100000, about 10 minutes)
 *   BENCH_RECORDS=5000 tsx bench/search.ts     (a quick run)
 *   BENCH_DATABASES=sqlite tsx bench/search.ts (one database; BENCH_PG_URL names the PostgreSQL server)
 *   BENCH_DATA_DIR=dir / BENCH_PG_DATABASE=name (keep the loaded catalogue for the next run: it is then only measured)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpLoad } from './http-load.js';
import { CHINESE_QUERIES, ENGLISH_QUERIES, PLACE_VALUES, THEME_VALUES } from './search-catalogue.js';

const root = path.resolve(import.meta.dirname, '..');
const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);

interface Loaded {
  port: number;
  helloPort: number;
  importSeconds: number;
  indexSeconds: number;
  indexed: number;
  indexBytes: number;
  indexBytesDetail: Record<string, number>;
  databaseBytes: number;
}

/** Child: the portal on a fresh database, the catalogue loaded and indexed, and a hello world beside it. */
async function serve(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { sql } = await import('kysely');
  const { buildApp } = await import('../packages/server/src/app.js');
  const { loadConfig } = await import('../packages/server/src/config.js');
  const { RecordsIoRepo } = await import('../packages/server/src/modules/records-io/records-io.repo.js');
  const { RecordsIoService } = await import('../packages/server/src/modules/records-io/records-io.service.js');
  const { catalogueRecord } = await import('./search-catalogue.js');

  const config = loadConfig(process.env);
  const { app, accounts, database, searchIndex } = await buildApp(config, { logger: false });
  const { db, dialect } = database;
  const earlier = await db.selectFrom('users').select('id').where('username', '=', 'datacentre').executeTakeFirst();
  const owner = earlier ?? (await accounts.createActiveUser({ username: 'datacentre', email: 'datacentre@example.org', password: 'bench-password-1', isStaff: true }));

  // The catalogue, through the import's service, in pieces so that it is never all in memory.
  // BENCH_DATA_DIR (SQLite) and BENCH_PG_DATABASE keep a catalogue loaded by an earlier run: it is then only measured.
  const io = new RecordsIoService(new RecordsIoRepo(db, dialect), [searchIndex]);
  const present = Number(
    (
      await db
        .selectFrom('search_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const reuse = present === RECORDS;
  let started = Date.now();
  const piece = 5000;
  for (let at = 0; at < (reuse ? 0 : RECORDS); at += piece) {
    const candidates = Array.from({ length: Math.min(piece, RECORDS - at) }, (_, i) => ({ position: at + i + 1, value: catalogueRecord(at + i) }));
    // The index is built once, by the timed rebuild below.
    const summary = await io.importRecords(candidates, { ownerId: owner.id, source: 'synthetic catalogue', batchSize: 500, index: false });
    if (summary.imported !== candidates.length) throw new Error(`imported ${summary.imported} of ${candidates.length}: ${JSON.stringify(summary.errors.slice(0, 3))}`);
    process.stderr.write(`  ${dialect}: ${at + candidates.length} records loaded\r`);
  }
  const importSeconds = (Date.now() - started) / 1000;
  // The planner's statistics, as a live database has them (PostgreSQL's autovacuum, SQLite's optimize).
  await sql`analyze`.execute(db);

  started = Date.now();
  const indexed = reuse ? present : await searchIndex.rebuild();
  const indexSeconds = (Date.now() - started) / 1000;
  await sql`analyze`.execute(db);
  const sizes = await indexSize();
  process.stderr.write(`  ${dialect}: ${RECORDS} records loaded in ${importSeconds.toFixed(1)} s, indexed again in ${indexSeconds.toFixed(1)} s\n`);

  async function indexSize(): Promise<{ total: number; detail: Record<string, number>; database: number }> {
    if (dialect === 'postgres') {
      const rows = await sql<{
        name: string;
        bytes: string;
      }>`select name, pg_total_relation_size(name::regclass) as bytes from (values ('search_entries'), ('search_facets')) t(name)`.execute(db);
      const database = await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db);
      const detail = Object.fromEntries(rows.rows.map((r) => [r.name, Number(r.bytes)]));
      return { total: Object.values(detail).reduce((a, b) => a + b, 0), detail, database: Number(database.rows[0]!.bytes) };
    }
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
    // dbstat: pages of every table and index; the index is search_* (entries, facets, the FTS5 shadow tables) and their indexes.
    const rows = await sql<{
      name: string;
      bytes: number;
    }>`select coalesce(m.tbl_name, s.name) as name, sum(s.pgsize) as bytes from dbstat s left join sqlite_master m on m.name = s.name group by 1`.execute(db);
    const detail: Record<string, number> = {};
    for (const row of rows.rows) if (row.name.startsWith('search_')) detail[row.name] = Number(row.bytes);
    return { total: Object.values(detail).reduce((a, b) => a + b, 0), detail, database: fs.statSync(path.join(config.dataDir, 'portal.sqlite3')).size };
  }

  // CPU time of each request, this process's and (PostgreSQL) its database connections': the wall
  // time of a shared machine depends on everybody else's work, the CPU time on this request's only.
  const backends =
    dialect === 'postgres' ? (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db)).rows.map((r) => r.pid) : [];
  const backendTicks = () =>
    backends.reduce((sum, pid) => {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return sum + Number(fields[11]) + Number(fields[12]);
      } catch {
        return sum;
      }
    }, 0);
  // /proc counts in ticks of 10 ms: too coarse for one request, so the database's time is a mean.
  let ticks = backendTicks();
  const cpuTimes: number[] = [];
  const requestStarts = new WeakMap<object, NodeJS.CpuUsage>();
  // Per request while latency is measured; off for the throughput loads, which read the process's CPU time instead.
  let perRequest = true;
  app.addHook('onRequest', async (request) => {
    if (perRequest) requestStarts.set(request, process.cpuUsage());
  });
  app.addHook('onResponse', async (request) => {
    const at = perRequest ? requestStarts.get(request) : undefined;
    if (!at) return;
    const cpu = process.cpuUsage(at);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  });
  process.on('message', (message) => {
    if (message === 'proc') {
      // The process's CPU time so far (the portal and the hello world share it; they are loaded in turn).
      perRequest = false;
      const used = process.cpuUsage();
      process.send!({ cpuMs: (used.user + used.system) / 1000 });
      return;
    }
    if (message !== 'cpu') return;
    const now = backendTicks();
    process.send!({ node: cpuTimes.splice(0), databaseMs: (now - ticks) * 10 });
    ticks = now;
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const portOf = (server: typeof app.server) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  };
  process.once('SIGTERM', () => {
    Promise.all([app.close(), hello.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  const loaded: Loaded = {
    port: portOf(app.server),
    helloPort: portOf(hello.server),
    importSeconds,
    indexSeconds,
    indexed,
    indexBytes: sizes.total,
    indexBytesDetail: sizes.detail,
    databaseBytes: sizes.database,
  };
  process.send!(loaded);
}

interface Latency {
  kind: string;
  /** CPU time per request: the server process's (p50, p95), and its PostgreSQL connections' (mean). */
  cpuP50Ms?: number;
  cpuP95Ms?: number;
  databaseCpuMeanMs?: number;
  example: string;
  requests: number;
  meanResultCount: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  maxMs: number;
}

interface Throughput {
  name: string;
  route: string;
  /** 'lean' (http-load.ts) or 'autocannon'; a ratio is taken against the hello world by the same client. */
  client: 'lean' | 'autocannon';
  requestsPerSecond: number;
  meanLatencyMs: number;
  throughputRatio: number;
  /** The server's CPU time per request (µs), and the hello world's divided by it: the share of a bare Fastify's capacity per core. */
  serverCpuUsPerRequest: number;
  serverCpuRatio: number;
}

/** What a browser sends beside the address: the reply it takes (compressed) and its language. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8', accept: 'application/json, text/plain, */*' };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** The query kinds: each a list of query strings, asked in turn. */
function queryKinds(): Record<string, string[]> {
  const q = (text: string) => `q=${encodeURIComponent(text)}`;
  // West 150, east -150: a box across the 180th meridian (the Bering Sea, Chukotka, the Ross Sea...).
  const across = ['150,40,-150,80', '160,-85,-140,-60', '170,50,-170,70', '140,45,-160,75', '165,-80,-155,-65'];
  const licenses = ['CC BY 4.0', 'CC BY-NC 4.0'];
  return {
    zh: CHINESE_QUERIES.map(q),
    en: ENGLISH_QUERIES.map(q),
    facets3: THEME_VALUES.map(
      (theme, i) => `theme=${encodeURIComponent(theme)}&place=${encodeURIComponent(PLACE_VALUES[i % PLACE_VALUES.length]!)}&license=${encodeURIComponent(licenses[i % 2]!)}`,
    ),
    box180: across.map((box) => `bbox=${box}`),
    all: ['', 'sort=title', 'sort=newest', 'sort=relevance'],
  };
}

/**
 * Latency of one kind of query, requests one at a time. `fresh`: every request differs (the words
 * in turn, on page 1, 2, 3 ...), so none is answered from the kept replies; `repeated`: the same
 * few again, as a popular search is.
 */
async function measureLatency(
  base: string,
  kind: string,
  queries: string[],
  count: number,
  mode: 'fresh' | 'repeated',
  cpu: () => Promise<{ node: number[]; databaseMs: number }>,
): Promise<Latency> {
  const ask = async (query: string) => {
    const started = performance.now();
    const response = await fetch(`${base}/api/metadata/search/?${query}`, { headers: { 'accept-language': kind === 'en' ? 'en' : 'zh-hans' } });
    const body = (await response.json()) as { count: number };
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`${kind} ${query}: ${response.status} ${JSON.stringify(body)}`);
    return { ms, count: body.count };
  };
  const pageOf = (i: number) => (mode === 'fresh' ? Math.floor(i / queries.length) + 1 : 1);
  const urlOf = (i: number) => [queries[i % queries.length], `page=${pageOf(i)}`].filter(Boolean).join('&');
  // Warm-up (JIT, page caches, prepared statements), on pages the measure does not ask for.
  for (const [i, query] of queries.entries()) await ask([query, `page=${mode === 'fresh' ? 1000 + i : 1}`].filter(Boolean).join('&'));
  const times: number[] = [];
  let results = 0;
  await cpu();
  for (let i = 0; i < count; i += 1) {
    const { ms, count: found } = await ask(urlOf(i));
    times.push(ms);
    results += found;
  }
  times.sort((a, b) => a - b);
  const used = await cpu();
  const node = used.node.sort((a, b) => a - b);
  return {
    kind: mode === 'fresh' ? kind : `${kind} (repeated)`,
    cpuP50Ms: round(percentile(node, 50)),
    cpuP95Ms: round(percentile(node, 95)),
    databaseCpuMeanMs: round(used.databaseMs / count),
    example: `/api/metadata/search/?${urlOf(0)}`,
    requests: count,
    meanResultCount: Math.round(results / count),
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    meanMs: round(times.reduce((a, b) => a + b, 0) / times.length),
    maxMs: round(times.at(-1)!),
  };
}

async function bench(): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  const pg = (await import('pg')).default;
  const duration = Number(process.env.DURATION ?? 5);
  const connections = Number(process.env.CONNECTIONS ?? 10);
  const requests = Number(process.env.BENCH_REQUESTS ?? 200);
  const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const started = Date.now();
  // The code measured is the tree's as the servers start: its commit now, and whether it had changes.
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root }).toString().trim() !== '';
  const runs = [];

  for (const database of databases) {
    const kept = database === 'sqlite' ? process.env.BENCH_DATA_DIR : undefined;
    if (kept) fs.mkdirSync(kept, { recursive: true });
    const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-search-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'no-web') };
    delete env.DATABASE_URL;
    let pgName: string | undefined;
    if (database === 'postgres') {
      // BENCH_PG_DATABASE keeps a catalogue loaded by an earlier run (created when missing, never dropped).
      const keptPg = process.env.BENCH_PG_DATABASE;
      const name = keptPg ?? `bench_search_${randomBytes(4).toString('hex')}`;
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_PG_DATABASE: not a plain database name: ${name}`);
      if (!keptPg) pgName = name;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
      if (!exists) await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
    } else if (database !== 'sqlite') {
      throw new Error(`BENCH_DATABASES: unknown database ${database}`);
    }
    const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      const loaded = await new Promise<Loaded>((resolve, reject) => {
        server.once('message', (message) => resolve(message as Loaded));
        server.once('exit', (code) => reject(new Error(`the ${database} server exited (${code}) before it was ready`)));
      });
      const base = `http://127.0.0.1:${loaded.port}`;
      const cpu = () =>
        new Promise<{ node: number[]; databaseMs: number }>((resolve) => {
          server.once('message', (message) => resolve(message as { node: number[]; databaseMs: number }));
          server.send('cpu');
        });

      const latency: Latency[] = [];
      for (const mode of ['fresh', 'repeated'] as const) {
        for (const [kind, queries] of Object.entries(queryKinds())) {
          latency.push(await measureLatency(base, kind, queries, mode === 'fresh' ? requests : Math.min(requests, 100), mode, cpu));
          const last = latency.at(-1)!;
          process.stderr.write(
            `  ${database} ${last.kind}: p50 ${last.p50Ms} ms, p95 ${last.p95Ms} ms; CPU p50 ${last.cpuP50Ms} ms, p95 ${last.cpuP95Ms} ms, database ${last.databaseCpuMeanMs} ms (${last.meanResultCount} results on average)\n`,
          );
        }
      }

      const processCpu = () =>
        new Promise<number>((resolve) => {
          server.once('message', (message) => resolve((message as { cpuMs: number }).cpuMs));
          server.send('proc');
        });
      // Every request on a page of its own, so that none is a kept reply.
      const pageAfterPage = (paths: string[]) => (i: number) => `${paths[i % paths.length]}&page=${1 + (Math.floor(i / paths.length) % 10_000)}`;
      /** Requests/s by the lean client (http-load.ts), or by autocannon for comparison, and the server's CPU time per request. */
      async function load(
        url: string,
        paths: string[],
        { unique = false, headers = {}, client = 'lean' }: { unique?: boolean; headers?: Record<string, string>; client?: 'lean' | 'autocannon' } = {},
      ) {
        const cpuBefore = await processCpu();
        let measured: { requestsPerSecond: number; requests: number; meanLatencyMs: number };
        if (client === 'lean') {
          measured = await httpLoad({ url, paths: unique ? pageAfterPage(paths) : paths, connections, durationSeconds: duration, headers });
        } else {
          const result = await autocannon({ url, connections, duration, headers, requests: paths.map((p) => ({ method: 'GET' as const, path: p })) });
          if (result.non2xx || result.errors || result.timeouts) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
          measured = { requestsPerSecond: result.requests.average, requests: result.requests.total, meanLatencyMs: result.latency.mean };
        }
        const cpuMs = (await processCpu()) - cpuBefore;
        return {
          client,
          requestsPerSecond: measured.requestsPerSecond,
          meanLatencyMs: measured.meanLatencyMs,
          serverCpuUsPerRequest: round((cpuMs * 1000) / Math.max(1, measured.requests), 1),
        };
      }
      const hello = `http://127.0.0.1:${loaded.helloPort}`;
      await load(hello, ['/']); // warm-up
      const helloBefore = await load(hello, ['/']);
      const searchPaths = CHINESE_QUERIES.map((w) => `/api/metadata/search/?q=${encodeURIComponent(w)}`);
      await load(base, searchPaths.slice(0, 2));
      const search = await load(base, searchPaths);
      // The same as a browser asks for it: compressed (what a visitor's page is sent).
      const searchBrowser = await load(base, searchPaths, { headers: BROWSER_HEADERS });
      const searchFresh = await load(base, searchPaths, { unique: true });
      const hot = await load(base, ['/api/metadata/hot/']);
      const helloAfter = await load(hello, ['/']);
      // The same two by autocannon, whose work per reply grows with the reply (http-load.ts says why).
      const helloAutocannon = await load(hello, ['/'], { client: 'autocannon' });
      const searchAutocannon = await load(base, searchPaths, { client: 'autocannon' });
      const helloRps = (helloBefore.requestsPerSecond + helloAfter.requestsPerSecond) / 2;
      const helloCpu = (helloBefore.serverCpuUsPerRequest + helloAfter.serverCpuUsPerRequest) / 2;
      const against = (measured: typeof search, hello = { rps: helloRps, cpu: helloCpu }) => ({
        ...measured,
        throughputRatio: round(measured.requestsPerSecond / hello.rps, 4),
        serverCpuRatio: round(hello.cpu / measured.serverCpuUsPerRequest, 4),
      });
      const byAutocannon = { rps: helloAutocannon.requestsPerSecond, cpu: helloAutocannon.serverCpuUsPerRequest };
      const throughput: Throughput[] = [
        { name: 'hello world (bare Fastify)', route: 'GET /', ...helloBefore, throughputRatio: 1, serverCpuRatio: 1 },
        { name: 'search, repeated (kept replies)', route: 'GET /api/metadata/search/?q=冰川 ... (10 words)', ...against(search) },
        { name: 'search, repeated, as a browser asks', route: 'the same, Accept-Encoding: gzip, deflate, br', ...against(searchBrowser) },
        { name: 'search, every request new', route: 'GET /api/metadata/search/?q=冰川&page=N ...', ...against(searchFresh) },
        { name: 'hot list', route: 'GET /api/metadata/hot/', ...against(hot) },
        { name: 'hello world, autocannon', route: 'GET /', ...against(helloAutocannon, byAutocannon) },
        { name: 'search, repeated, autocannon', route: 'the 10 words, as autocannon asks', ...against(searchAutocannon, byAutocannon) },
      ];
      for (const t of throughput)
        process.stderr.write(
          `  ${database} ${t.name}: ${t.requestsPerSecond.toFixed(0)} req/s (ratio ${t.throughputRatio}), server ${t.serverCpuUsPerRequest} µs CPU a request (ratio ${t.serverCpuRatio})\n`,
        );

      runs.push({
        database,
        records: RECORDS,
        load: {
          importSeconds: round(loaded.importSeconds, 1),
          indexSeconds: round(loaded.indexSeconds, 1),
          indexed: loaded.indexed,
          indexSecondsPer100k: round((loaded.indexSeconds * 100_000) / loaded.indexed, 1),
          indexMegabytes: round(loaded.indexBytes / 2 ** 20, 1),
          indexMegabytesPer100k: round((loaded.indexBytes / 2 ** 20) * (100_000 / loaded.indexed), 1),
          indexMegabytesDetail: Object.fromEntries(Object.entries(loaded.indexBytesDetail).map(([k, v]) => [k, round(v / 2 ** 20, 1)])),
          databaseMegabytes: round(loaded.databaseBytes / 2 ** 20, 1),
        },
        latency,
        throughput: { helloBefore: helloBefore.requestsPerSecond, helloAfter: helloAfter.requestsPerSecond, calls: throughput },
      });
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
      if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
      if (pgName) {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
        await admin.end();
      }
    }
  }

  const targets = { sqliteP95Ms: 30, postgresP95Ms: 100, throughputRatio: 0.35 };
  const entry = {
    date: new Date().toISOString(),
    commit: dirty ? `${commit} with uncommitted changes` : commit,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    loadAverage: os.loadavg().map((l) => round(l, 1)),
    records: RECORDS,
    requestsPerKind: requests,
    durationSeconds: duration,
    connections,
    targets,
    runs,
    totalSeconds: round((Date.now() - started) / 1000, 1),
  };
  const file = path.join(root, 'bench/results/search.json');
  const history = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
  history.push(entry);
  fs.writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);

  console.log(
    `\nsearch on ${RECORDS} records, ${entry.cpus} cores (load ${entry.loadAverage.join(' ')}), ${process.version}; p95 targets: SQLite ${targets.sqliteP95Ms} ms, PostgreSQL ${targets.postgresP95Ms} ms`,
  );
  for (const run of runs) {
    console.log(`\n${run.database}: import ${run.load.importSeconds} s, index ${run.load.indexSeconds} s, index ${run.load.indexMegabytes} MB`);
    for (const l of run.latency) {
      console.log(
        `  ${l.kind.padEnd(19)} p50 ${String(l.p50Ms).padStart(8)} ms  p95 ${String(l.p95Ms).padStart(8)} ms   CPU p50 ${String(l.cpuP50Ms).padStart(7)} ms  p95 ${String(l.cpuP95Ms).padStart(7)} ms  db ${l.databaseCpuMeanMs} ms  (${l.meanResultCount} results)`,
      );
    }
    for (const t of run.throughput.calls)
      console.log(
        `  ${t.name.padEnd(38)} ${t.requestsPerSecond.toFixed(0).padStart(7)} req/s  ratio ${t.throughputRatio}  server ${String(t.serverCpuUsPerRequest).padStart(6)} µs CPU/request  ratio ${t.serverCpuRatio}`,
      );
  }
  console.log(`\n${entry.totalSeconds} s in all; recorded in ${path.relative(root, file)}`);
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  await bench();
}
