/**
 * Load benchmark of the metadata editor's heaviest calls on a large record (100 authors, 100 keywords,
 * 200 cited literature entries), each against the trivial GET /healthz of the same server measured in
 * the same run. The server runs in a child process (this file with --serve: buildApp on a fresh
 * SQLite data dir); the load comes from this process. The ratios, not the absolute numbers, are what
 * compare across machines. Appends one entry to bench/results/metadata-editor.json and prints a table.
 *
 *   npm run bench                   (both benchmarks)
 *   tsx bench/metadata-editor.ts    (DURATION=6 WARMUP=1 CONNECTIONS=10 by default: about 75 s)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

if (process.argv.includes('--serve')) {
  await serve();
} else {
  await bench();
}

/** Child: the portal as main.ts builds it, plus an active user and a token of theirs. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.js');
  const { loadConfig } = await import('../packages/server/src/config.js');
  const config = loadConfig(process.env);
  const { app, accounts } = await buildApp(config, { logger: false });
  const password = 'bench-password-1';
  await accounts.createActiveUser({ username: 'bench', email: 'bench@example.org', password, realname: 'Bench' });
  const { token } = await accounts.login('bench', password);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.once('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.send!({ port, token });
}

interface Measure {
  requestsPerSecond: number;
  meanLatencyMs: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

interface Call {
  name: string;
  method: 'GET' | 'PUT';
  path: string;
  body?: () => string;
}

async function bench(): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  const duration = Number(process.env.DURATION ?? 6);
  const warmup = Number(process.env.WARMUP ?? 1);
  const connections = Number(process.env.CONNECTIONS ?? 10);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'no-web') };
  delete env.DATABASE_URL; // always the embedded SQLite database
  const started = Date.now();

  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { port, token } = await new Promise<{ port: number; token: string }>((resolve, reject) => {
      server.once('message', (message) => resolve(message as { port: number; token: string }));
      server.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const authorization = { Authorization: `Token ${token}` };
    const json = { ...authorization, 'content-type': 'application/json', 'accept-language': 'en' };

    async function call(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
      const response = await fetch(`${base}${url}`, { method, headers: json, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    }

    /** Runs the tasks a few at a time, as the editor's parallel saves would. */
    async function inParallel(count: number, task: (index: number) => Promise<unknown>, width = 4) {
      let next = 0;
      await Promise.all(
        Array.from({ length: width }, async () => {
          while (next < count) await task(next++);
        }),
      );
    }

    // --- The record: 100 authors, 100 keywords (25 of each type), 200 cited literature entries. ---
    const record = await call('POST', '/api/metadata/metadata/', { language: 'en', title: 'Glacier mass balance of the Third Pole, 2000-2020' });
    const id = record.id as string;
    await inParallel(100, async (i) => {
      const author = await call('POST', '/api/metadata/author/', {
        name: `作者${i}`,
        email: `author${i}@example.org`,
        affiliation: `青藏高原研究所 ${i}`,
        name_en: `Author ${i}`,
        affiliation_en: `Institute of Tibetan Plateau Research ${i}`,
      });
      await call('POST', '/api/metadata/meta-author/', {
        metadata: id,
        author: author.id,
        role: i === 0 ? 'resourceProvider' : 'principalInvestigator',
        event_date: '2024-01-01',
        sort: i,
      });
    });
    const types = ['discipline', 'place', 'temporal', 'theme'] as const;
    await inParallel(100, (i) => call('POST', '/api/metadata/keyword/', { name: `keyword ${types[i % 4]} ${i}`, type: types[i % 4], language: 'en', metadata: id }));
    await inParallel(200, (i) =>
      call('POST', '/api/metadata/literature/', {
        title: `Observations of glacier change on the Tibetan Plateau, part ${i}`,
        type: 'reference',
        year: String(1990 + (i % 30)),
        publisher: 'Journal of Glaciology',
        doi: `10.1000/bench.${i}`,
        sort: i,
        metadata: id,
      }),
    );
    const seededSeconds = (Date.now() - started) / 1000;

    let autosaves = 0;
    const overview = {
      description: 'Annual glacier mass balance derived from geodetic and glaciological measurements. '.repeat(20),
      data_source: 'ASTER and SRTM digital elevation models; in-situ stake measurements.',
      use_term: 'Cite the data set and the references below.',
      usage_method: 'NetCDF files, one per year, readable with any CF-aware tool.',
      time_start: '2000-01-01',
      time_end: '2020-12-31',
      time_description: 'Hydrological years 2000 to 2020.',
    };
    const calls: Call[] = [
      { name: 'record', method: 'GET', path: `/api/metadata/metadata/${id}/` },
      { name: 'submit check', method: 'GET', path: `/metadata/metadata-submit/?id=${id}` },
      { name: 'meta-author list', method: 'GET', path: `/api/metadata/meta-author/?metadata__id=${id}&pageSize=100` },
      { name: 'keyword list (theme)', method: 'GET', path: `/api/metadata/keyword/?metadatakeyword__metadata__id=${id}&type=theme&pageSize=100` },
      { name: 'citation list', method: 'GET', path: `/api/metadata/citation/?metadata__id=${id}&pageSize=100` },
      { name: 'literature list', method: 'GET', path: `/api/metadata/literature/?metadata__id=${id}&pageSize=100` },
      {
        name: 'overview autosave',
        method: 'PUT',
        path: `/api/metadata/metadata/${id}/`,
        body: () => JSON.stringify({ ...overview, title: `Glacier mass balance of the Third Pole, 2000-2020 (draft ${(autosaves += 1)})` }),
      },
    ];

    // Each call once first: it must answer, and with the whole data set.
    const counts: Record<string, unknown> = {};
    for (const c of calls) {
      const reply = await call(c.method, c.path, c.body ? JSON.parse(c.body()) : undefined);
      counts[c.name] = 'count' in reply ? reply.count : 'status' in reply ? `status ${String(reply.status)}` : 'ok';
    }
    const expected: Record<string, number> = { 'meta-author list': 100, 'keyword list (theme)': 25, 'citation list': 200, 'literature list': 200 };
    for (const [name, count] of Object.entries(expected)) {
      if (counts[name] !== count) throw new Error(`${name}: count ${String(counts[name])}, expected ${count}`);
    }

    async function load(c: Call, seconds: number): Promise<Measure> {
      const result = await autocannon({
        url: `${base}${c.path}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: c.method,
            headers: c.body ? json : { ...authorization, 'accept-language': 'en' },
            ...(c.body ? { setupRequest: (request: Record<string, unknown>) => ({ ...request, body: c.body!() }) } : {}),
          },
        ],
      });
      return {
        requestsPerSecond: result.requests.average,
        meanLatencyMs: result.latency.mean,
        latencyP99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      };
    }
    async function measure(c: Call): Promise<Measure> {
      if (warmup > 0) await load(c, warmup); // JIT, SQLite page and statement caches
      const m = await load(c, duration);
      if (m.non2xx > 0 || m.errors > 0) throw new Error(`${c.method} ${c.path}: ${m.non2xx} non-2xx replies, ${m.errors} errors: the measure is not valid`);
      return m;
    }

    // The baseline before and after the calls: the reference is their mean, the spread shows drift.
    const healthz: Call = { name: 'healthz', method: 'GET', path: '/healthz' };
    const before = await measure(healthz);
    const measured: { call: Call; measure: Measure }[] = [];
    for (const c of calls) {
      measured.push({ call: c, measure: await measure(c) });
      process.stderr.write(`  ${c.name}: ${measured.at(-1)!.measure.requestsPerSecond.toFixed(0)} req/s\n`);
    }
    const after = await measure(healthz);
    const baselineRps = (before.requestsPerSecond + after.requestsPerSecond) / 2;
    const baselineMeanMs = (before.meanLatencyMs + after.meanLatencyMs) / 2;
    const round = (value: number, digits = 3) => Number(value.toFixed(digits));

    const entry = {
      date: new Date().toISOString(),
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      durationSeconds: duration,
      warmupSeconds: warmup,
      connections,
      database: 'sqlite',
      dataset: { authors: 100, keywords: 100, keywordsPerType: 25, literature: 200, seedSeconds: round(seededSeconds, 1) },
      baseline: {
        route: 'GET /healthz',
        requestsPerSecond: round(baselineRps, 1),
        meanLatencyMs: round(baselineMeanMs),
        before: { requestsPerSecond: before.requestsPerSecond, meanLatencyMs: before.meanLatencyMs },
        after: { requestsPerSecond: after.requestsPerSecond, meanLatencyMs: after.meanLatencyMs },
      },
      calls: measured.map(({ call: c, measure: m }) => ({
        name: c.name,
        route: `${c.method} ${c.path.replace(id, '{id}')}`,
        count: counts[c.name],
        requestsPerSecond: m.requestsPerSecond,
        meanLatencyMs: m.meanLatencyMs,
        latencyP99Ms: m.latencyP99Ms,
        throughputRatio: round(m.requestsPerSecond / baselineRps, 4),
        meanLatencyRatio: round(m.meanLatencyMs / Math.max(baselineMeanMs, 0.001), 2),
      })),
      totalSeconds: 0,
    };
    entry.totalSeconds = round((Date.now() - started) / 1000, 1);

    const file = path.join(root, 'bench/results/metadata-editor.json');
    const history = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
    history.push(entry);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);

    const rows = [
      ['call', 'route', 'req/s', 'mean ms', 'ratio'],
      ['healthz (baseline)', 'GET /healthz', baselineRps.toFixed(0), baselineMeanMs.toFixed(2), '1'],
      ...entry.calls.map((c) => [c.name, c.route, c.requestsPerSecond.toFixed(0), c.meanLatencyMs.toFixed(2), c.throughputRatio.toFixed(4)]),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    const line = (row: string[]) => row.map((cell, column) => (column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
    console.log(`\nmetadata editor, ${entry.cpus} cores, ${entry.node}, ${connections} connections x ${duration} s per call (ratio: req/s over healthz req/s)`);
    console.log(line(rows[0]!));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of rows.slice(1)) console.log(line(row));
    console.log(
      `healthz before ${before.requestsPerSecond.toFixed(0)} / after ${after.requestsPerSecond.toFixed(0)} req/s; ${entry.totalSeconds} s in all; recorded in ${path.relative(root, file)}`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
