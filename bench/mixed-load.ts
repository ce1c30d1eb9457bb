/**
 * Mixed load (issue 16): the published catalogue as a crowd uses it. BENCH_RECORDS (200) records are
 * published, each with one open-access data file of BENCH_FILE_KIB (64) KiB, and BENCH_USERS (200)
 * accounts are signed in (a `token` cookie and its `csrftoken`, as a browser keeps them). A child
 * process (bench/mixed-load-serve.ts --serve portal) builds the portal as main.ts does (SQLite in a fresh
 * DATA_DIR, log level info to /dev/null, the built web app); another (--serve hello) a bare Fastify
 * hello world. This process is the client: one keep-alive connection per user, each sending its next
 * request as soon as the last reply is whole (no think time), the kind drawn by weight:
 *
 *   home     18 %  GET / (the page's HTML with the hot list and counts in it, brotli)
 *   search   25 %  GET /api/metadata/search/?q=... (one or two of 20 words, page 1-3, either language)
 *   landing  20 %  GET /api/metadata/metadata/{id}/ (what the landing page reads; views count)
 *   hot      10 %  GET /api/metadata/hot/
 *   login     5 %  POST /account/profile-login/ (argon2id)
 *   basket   10 %  POST /api/account/line_item/ then DELETE of that line, in turn
 *   download 10 %  GET /api/metadata/meta-file/{id}/download/ (counted once per user, file and 30 s)
 *
 * Measured, and appended to bench/results/mixed-load.json:
 * 1. the mix: requests/s, p50/p95/p99 per kind, the portal's RSS (peak, end) and CPU time;
 * 2. the record detail call against the hello world by the lean client (http-load.ts), in rounds,
 *    each right after the hello world: a returning visitor (one browser: a view counts once per
 *    record and 30 s) and new visitors (a browser of its own each request: every view counts);
 * 3. downloads by the 200 users, counted (a browser) against uncounted (a crawler's User-Agent: the
 *    same request, which COUNTER does not count), in rounds; and that the counts reached the database.
 * The login rate limit is raised for the run (all users share 127.0.0.1); nothing else is changed.
 *
 *   npm run bench                       (every benchmark)
 *   tsx bench/mixed-load.ts             (DURATION=30 ROUNDS=3 RATIO_SECONDS=5: about 3 minutes)
 *   LABEL=before tsx bench/mixed-load.ts    (a note kept with the entry)
 *   BENCH_PROFILE=dir tsx bench/mixed-load.ts  (the portal writes a CPU profile of each phase into dir:
 *                                       mix, record-detail, downloads-(un)counted; read them with
 *                                       bench/profile-summary.ts)
 *   PORTAL_SOURCE=/elsewhere/packages/server/src tsx bench/mixed-load.ts  (that checkout's server)
 *   BENCH_RECORD=0 tsx bench/mixed-load.ts  (print, do not append to the results)
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runMix } from './mixed-load-mix.js';
import { downloadsRatio, recordDetailRatio } from './mixed-load-ratios.js';
import { ask, FILE_KIB, RECORDS, start } from './mixed-load-serve.js';
import { appendResult, runConditions } from './results.js';

const root = path.resolve(import.meta.dirname, '..');

async function bench(): Promise<void> {
  const duration = Number(process.env.DURATION ?? 30);
  const rounds = Number(process.env.ROUNDS ?? 3);
  const ratioSeconds = Number(process.env.RATIO_SECONDS ?? 5);
  const ratioConnections = Number(process.env.CONNECTIONS ?? 20);
  let webDist = process.env.WEB_DIST;
  if (!webDist) {
    execFileSync('flock', ['/tmp/web-build.lock', process.execPath, path.join(root, 'scripts/ensure-web-build.mjs')], { cwd: root, stdio: 'inherit' });
    webDist = path.join(root, 'packages/web/dist');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-mixed-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, WEB_DIST: webDist, RATE_LIMIT_LOGIN: '1000000' };
  for (const name of ['DATABASE_URL', 'LOG_LEVEL', 'PUBLIC_URL']) delete env[name]; // the defaults: SQLite, info
  const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;
  const children: ChildProcess[] = [];
  try {
    const loadAverage = os.loadavg()[0]!;
    const started = performance.now();
    const hello = await start('hello', env);
    const portal = await start('portal', { ...env, BENCH_PROFILE: profileDir ?? '' });
    const profiled = async (what: 'start' | 'stop', name = '') => {
      if (profileDir) await ask(portal.child, `profile ${what} ${name}`);
    };
    children.push(hello.child, portal.child);
    const { users, records, files } = portal.served;
    console.log(`portal ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${records.length} records, ${files.length} files, ${users.length} users`);

    const mixed = await runMix(portal.child.pid!, portal.served, duration, profiled);
    const ratios = { rounds, ratioSeconds, ratioConnections, profiled };
    const detail = await recordDetailRatio(hello.served.port, portal.served, ratios);
    const downloads = await downloadsRatio(portal, ratios);

    const entry = {
      ...runConditions(loadAverage),
      database: 'sqlite',
      logLevel: 'info',
      records: RECORDS,
      fileBytes: FILE_KIB * 1024,
      mix: mixed,
      recordDetail: detail,
      downloads,
    };
    if (process.env.BENCH_RECORD !== '0') console.log(`recorded in ${appendResult('mixed-load', entry)}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await bench();
