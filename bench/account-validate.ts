/**
 * Load benchmark: GET /account/validate/ (token lookup, user serialisation) against the trivial
 * GET /healthz of the same server, both measured in one run from this process while the server
 * runs in a child process. The ratio, not the absolute numbers, is what compares across machines.
 * Appends one entry to bench/results/account-validate.json.
 *
 *   npm run bench            (DURATION=10 CONNECTIONS=10 by default)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 8190);
const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 10);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'no-web') };

interface Measure {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Measure> {
  const result = await autocannon({ url, headers, connections, duration });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

async function waitForServer(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start');
}

const tsx = path.join(root, 'node_modules/.bin/tsx');
execFileSync(tsx, ['packages/server/src/cli.ts', 'create-user', '--username', 'bench', '--email', 'bench@example.org', '--password', 'bench-password-1'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
const server = spawn(tsx, ['packages/server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
try {
  await waitForServer();
  const login = await fetch(`${base}/account/profile-login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=bench&password=bench-password-1',
  });
  const { token } = (await login.json()) as { token: string };
  const authorization = { Authorization: `Token ${token}` };

  // Warm both paths up (JIT, SQLite page cache), then measure baseline and subject back to back.
  await autocannon({ url: `${base}/healthz`, connections, duration: 2 });
  await autocannon({ url: `${base}/account/validate/`, headers: authorization, connections, duration: 2 });
  const baseline = await load(`${base}/healthz`);
  const validate = await load(`${base}/account/validate/`, authorization);
  if (validate.non2xx > 0 || baseline.non2xx > 0) throw new Error('some requests failed: the measure is not valid');

  const entry = {
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim(),
    node: process.version,
    cpus: os.cpus().length,
    durationSeconds: duration,
    connections,
    database: 'sqlite',
    baseline: { route: 'GET /healthz', ...baseline },
    subject: { route: 'GET /account/validate/', ...validate },
    throughputRatio: Number((validate.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)),
    p50LatencyRatio: Number((validate.latencyP50Ms / Math.max(baseline.latencyP50Ms, 0.001)).toFixed(3)),
  };
  const file = path.join(root, 'bench/results/account-validate.json');
  const history = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
  history.push(entry);
  fs.writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);
  console.log(
    `validate ${validate.requestsPerSecond.toFixed(0)} req/s vs healthz ${baseline.requestsPerSecond.toFixed(0)} req/s: ratio ${entry.throughputRatio} (recorded in ${path.relative(root, file)})`,
  );
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
