/**
 * Load benchmark of what every visitor asks for: GET /healthz, the HTML page of the site root and
 * the entry script of the built web app (a hashed asset, asked for with a browser's
 * Accept-Encoding), each against a bare Fastify hello world measured in the same run. Both servers
 * run in child processes (this file with --serve bare | portal); the load comes from this process.
 * The portal is built as main.ts builds it: default log level (info, written to /dev/null), SQLite
 * in a fresh DATA_DIR, the web app of packages/web/dist (built first when stale).
 *
 * Each route is measured right after the bare server, in several rounds, so that a change of the
 * machine's load hits baseline and subject alike; a route's ratio is the median over the rounds of its
 * requests/s over the bare server's just before it. Appends one entry to
 * bench/results/public-throughput.json (its first two entries, 'before' and the first 'after', divide
 * sums over rounds instead, a measure too easily moved by other work on a shared machine).
 *
 *   npm run bench                      (every benchmark)
 *   tsx bench/public-throughput.ts     (DURATION=5 ROUNDS=3 WARMUP=1 CONNECTIONS=10 by default: about 100 s)
 *   LABEL=before tsx bench/public-throughput.ts   (a note kept with the entry)
 *   PORTAL_SOURCE=/elsewhere/packages/server/src tsx bench/public-throughput.ts
 *                                      (that checkout's server instead: a before/after comparison on one machine)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appendResult, runConditions } from './results.js';

const root = path.resolve(import.meta.dirname, '..');
const serveIndex = process.argv.indexOf('--serve');

if (serveIndex >= 0) {
  await serve(process.argv[serveIndex + 1]);
} else {
  await bench();
}

/** Child: a bare Fastify hello world, or the portal as main.ts builds it. Sends its port when listening. */
async function serve(kind: string | undefined): Promise<void> {
  let app: import('fastify').FastifyInstance;
  if (kind === 'bare') {
    const { default: Fastify } = await import('fastify');
    app = Fastify();
    app.get('/', async () => ({ hello: 'world' }));
  } else {
    const source = process.env.PORTAL_SOURCE ?? path.join(root, 'packages/server/src');
    const { buildApp } = (await import(path.join(source, 'app.ts'))) as typeof import('../packages/server/src/app.js');
    const { loadConfig } = (await import(path.join(source, 'config.ts'))) as typeof import('../packages/server/src/config.js');
    ({ app } = await buildApp(loadConfig(process.env)));
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.once('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
}

interface Target {
  name: string;
  server: 'bare' | 'portal';
  path: string;
  headers?: Record<string, string>;
}

interface Measure {
  requestsPerSecond: number;
  meanLatencyMs: number;
  latencyP99Ms: number;
  bytesPerRequest: number;
}

async function start(kind: 'bare' | 'portal', env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve', kind], {
    cwd: root,
    env,
    // The portal's request log goes to /dev/null: its cost is measured, not its disk.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number }));
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code}) before it was ready`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function bench(): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  const duration = Number(process.env.DURATION ?? 5);
  const rounds = Number(process.env.ROUNDS ?? 3);
  const warmup = Number(process.env.WARMUP ?? 1);
  const connections = Number(process.env.CONNECTIONS ?? 10);
  execFileSync(process.execPath, [path.join(root, 'scripts/ensure-web-build.mjs')], { cwd: root, stdio: 'inherit' });
  const webDist = path.join(root, 'packages/web/dist');
  const entryScript = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(fs.readFileSync(path.join(webDist, 'index.html'), 'utf8'))?.[1];
  if (!entryScript) throw new Error('no entry script in packages/web/dist/index.html');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, WEB_DIST: webDist };
  for (const name of ['DATABASE_URL', 'LOG_LEVEL', 'PUBLIC_URL']) delete env[name]; // the defaults: SQLite, info
  const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };
  const targets: Target[] = [
    { name: 'bare Fastify hello world', server: 'bare', path: '/' },
    { name: 'GET /healthz', server: 'portal', path: '/healthz' },
    { name: 'GET / (HTML page)', server: 'portal', path: '/', headers: browser },
    { name: `GET ${entryScript} (hashed asset)`, server: 'portal', path: entryScript, headers: { ...browser, accept: '*/*' } },
  ];

  const servers: Partial<Record<'bare' | 'portal', { child: ChildProcess; base: string }>> = {};
  try {
    servers.bare = await start('bare', env);
    servers.portal = await start('portal', env);
    async function load(target: Target, seconds: number): Promise<Measure> {
      const result = await autocannon({ url: `${servers[target.server]!.base}${target.path}`, headers: target.headers, connections, duration: seconds });
      if (result.non2xx > 0 || result.errors + result.timeouts > 0) {
        throw new Error(`${target.name}: ${result.non2xx} non-2xx replies, ${result.errors + result.timeouts} errors: the measure is not valid`);
      }
      return {
        requestsPerSecond: result.requests.average,
        meanLatencyMs: result.latency.mean,
        latencyP99Ms: result.latency.p99,
        bytesPerRequest: Math.round(result.throughput.total / Math.max(result.requests.total, 1)),
      };
    }

    const loadAverage = os.loadavg()[0]!;
    const [bare, ...subjects] = targets as [Target, ...Target[]];
    for (const target of targets) if (warmup > 0) await load(target, warmup); // JIT, caches
    // Each measure of a route right after one of the bare server: the pair sees the same load.
    const pairs = new Map<Target, { bare: Measure; subject: Measure }[]>(subjects.map((t) => [t, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const subject of subjects) pairs.get(subject)!.push({ bare: await load(bare, duration), subject: await load(subject, duration) });
    }

    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const bareMeasures = [...pairs.values()].flat().map((pair) => pair.bare);
    const entry = {
      ...runConditions(loadAverage),
      durationSeconds: duration,
      rounds,
      connections,
      database: 'sqlite',
      logLevel: 'info',
      ratio: "median over the rounds of the route's requests/s over the bare server's, measured just before it",
      baseline: { route: bare.name, requestsPerSecond: Math.round(mean(bareMeasures.map((m) => m.requestsPerSecond))) },
      subjects: subjects.map((subject) => {
        const measured = pairs.get(subject)!;
        const ratios = measured.map((pair) => pair.subject.requestsPerSecond / pair.bare.requestsPerSecond);
        return {
          route: subject.name,
          requestsPerSecond: Math.round(mean(measured.map((pair) => pair.subject.requestsPerSecond))),
          perRound: measured.map((pair) => ({ bare: Math.round(pair.bare.requestsPerSecond), route: Math.round(pair.subject.requestsPerSecond) })),
          meanLatencyMs: Number(mean(measured.map((pair) => pair.subject.meanLatencyMs)).toFixed(2)),
          latencyP99Ms: Math.max(...measured.map((pair) => pair.subject.latencyP99Ms)),
          // Headers and body as read from the socket.
          bytesPerRequest: measured[0]!.subject.bytesPerRequest,
          throughputRatio: Number(median(ratios).toFixed(3)),
        };
      }),
    };
    const file = appendResult('public-throughput', entry);
    console.log(`bare Fastify hello world: ${entry.baseline.requestsPerSecond} req/s`);
    for (const s of entry.subjects)
      console.log(`${s.route.padEnd(48)} ${String(s.requestsPerSecond).padStart(7)} req/s  ratio ${s.throughputRatio}  (${s.bytesPerRequest} B a reply)`);
    console.log(`recorded in ${file}`);
  } finally {
    for (const server of Object.values(servers)) server.child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
