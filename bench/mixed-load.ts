/**
 * Mixed load (issue 16): the published catalogue as a crowd uses it. BENCH_RECORDS (200) records are
 * published, each with one open-access data file of BENCH_FILE_KIB (64) KiB, and BENCH_USERS (200)
 * accounts are signed in (a `token` cookie and its `csrftoken`, as a browser keeps them). A child
 * process (this file with --serve portal) builds the portal as main.ts does (SQLite in a fresh
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
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { httpLoad } from './http-load.js';
import { appendResult, runConditions } from './results.js';
import { CHINESE_QUERIES, ENGLISH_QUERIES } from './search-catalogue.js';

const root = path.resolve(import.meta.dirname, '..');
const RECORDS = Number(process.env.BENCH_RECORDS ?? 200);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const FILE_KIB = Number(process.env.BENCH_FILE_KIB ?? 64);
const PASSWORD = 'bench-password-1';
const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const CRAWLER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const KINDS = ['home', 'search', 'landing', 'hot', 'login', 'basket', 'download'] as const;
type Kind = (typeof KINDS)[number];
const MIX: Record<Kind, number> = { home: 18, search: 25, landing: 20, hot: 10, login: 5, basket: 10, download: 10 };

interface Served {
  port: number;
  users: { username: string; token: string; csrf: string }[];
  records: string[];
  files: string[];
}

/** Child: the hello world, or the portal with its catalogue, files and signed-in users. */
async function serve(kind: string): Promise<void> {
  if (kind === 'hello') {
    const { default: Fastify } = await import('fastify');
    const hello = Fastify();
    hello.get('/', async () => ({ hello: 'world' }));
    await hello.listen({ port: 0, host: '127.0.0.1' });
    process.once('SIGTERM', () => void hello.close().then(() => process.exit(0)));
    process.on('disconnect', () => process.exit(0));
    const address = hello.server.address();
    process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
    return;
  }
  const source = process.env.PORTAL_SOURCE ?? path.join(root, 'packages/server/src');
  const { buildApp } = (await import(path.join(source, 'app.ts'))) as typeof import('../packages/server/src/app.js');
  const { loadConfig } = (await import(path.join(source, 'config.ts'))) as typeof import('../packages/server/src/config.js');
  const { RecordsIoRepo } = (await import(path.join(source, 'modules/records-io/records-io.repo.ts'))) as typeof import('../packages/server/src/modules/records-io/records-io.repo.js');
  const { RecordsIoService } = (await import(path.join(source, 'modules/records-io/records-io.service.ts'))) as typeof import('../packages/server/src/modules/records-io/records-io.service.js');
  const { createBlobStore } = (await import(path.join(source, 'storage/index.ts'))) as typeof import('../packages/server/src/storage/index.js');
  const { catalogueRecord } = await import('./search-catalogue.js');

  const config = loadConfig(process.env);
  const { app, accounts, database, searchIndex, usage } = await buildApp(config);
  const { db } = database;
  const owner = await accounts.createActiveUser({ username: 'datacentre', email: 'datacentre@example.org', password: PASSWORD, isStaff: true });
  const io = new RecordsIoService(new RecordsIoRepo(db, database.dialect), [searchIndex]);
  const candidates = Array.from({ length: RECORDS }, (_, i) => ({ position: i + 1, value: { ...catalogueRecord(i), sharing_policy: 'online' } }));
  const summary = await io.importRecords(candidates, { ownerId: owner.id, source: 'mixed-load benchmark', batchSize: 100 });
  if (summary.imported !== RECORDS) throw new Error(`imported ${summary.imported} of ${RECORDS}: ${JSON.stringify(summary.errors.slice(0, 3))}`);
  const records = (await db.selectFrom('metadata').select('id').where('status', '=', 'published').orderBy('id').execute()).map((r) => r.id);

  // One data file a record, stored as an upload leaves it.
  const storage = createBlobStore({ dataDir: config.dataDir });
  const files: string[] = [];
  const now = new Date().toISOString();
  for (const [index, metadataId] of records.entries()) {
    const bytes = Buffer.alloc(FILE_KIB * 1024, index % 251);
    const blob = await storage.put(bytes, { maxBytes: bytes.length });
    const id = randomUUID();
    await db
      .insertInto('meta_file')
      .values({ id, metadata_id: metadataId, name: `data-${index}.bin`, mime: 'application/octet-stream', storage_key: blob.key, sha256: blob.sha256, size: blob.size, created_by: owner.id, created_at: now })
      .execute();
    files.push(id);
  }

  // The users, signed in: the first through the service; the others the same rows (argon2 is slow on
  // purpose: one hash for all, and their tokens as login stores them).
  const first = await accounts.createActiveUser({ username: 'reader0', email: 'reader0@example.org', password: PASSWORD });
  const model = await db.selectFrom('users').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
  const users: Served['users'] = [];
  for (let i = 0; i < USERS; i += 1) {
    const username = `reader${i}`;
    const id = i === 0 ? first.id : randomUUID();
    if (i > 0) await db.insertInto('users').values({ ...model, id, username, email: `${username}@example.org` }).execute();
    const token = randomBytes(20).toString('hex');
    await db.insertInto('auth_tokens').values({ key_hash: createHash('sha256').update(token).digest('hex'), user_id: id, created_at: now, last_used_at: now }).execute();
    users.push({ username, token, csrf: randomBytes(16).toString('hex') });
  }
  // A check that the tokens are stored as login stores them.
  if (!(await accounts.authenticate(users[USERS - 1]!.token))) throw new Error('a token the portal does not know');

  // Gone with the benchmark, whatever became of it.
  process.on('disconnect', () => process.exit(0));
  // BENCH_PROFILE: a CPU profile of each phase, by the inspector (the setup stays out of it).
  const { Session } = await import('node:inspector/promises');
  const inspector = new Session();
  inspector.connect();
  process.on('message', (message) => {
    if (typeof message === 'string' && message.startsWith('profile ')) {
      const [, what, name] = message.split(' ');
      void (async () => {
        if (what === 'start') {
          await inspector.post('Profiler.enable');
          await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
          await inspector.post('Profiler.start');
        } else {
          const { profile } = await inspector.post('Profiler.stop');
          fs.writeFileSync(path.join(process.env.BENCH_PROFILE!, `${name}.cpuprofile`), JSON.stringify(profile));
        }
        process.send!({ profiled: what });
      })();
      return;
    }
    if (message !== 'counts') return;
    void (async () => {
      // Counts kept in memory are written first, where the portal keeps them so.
      await (usage as { flush?: () => Promise<unknown> }).flush?.();
      const row = await db.selectFrom('metadata').select((eb) => eb.fn.sum<number>('download_count').as('downloads')).executeTakeFirst();
      process.send!({ downloads: Number(row?.downloads ?? 0) });
    })();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  const address = app.server.address();
  const served: Served = { port: typeof address === 'object' && address ? address.port : 0, users, records, files };
  process.send!(served);
}

function start(kind: 'hello' | 'portal', env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<{ child: ChildProcess; served: Served }> {
  const child = spawn(process.execPath, [...execArgv, '--import', 'tsx', import.meta.filename, '--serve', kind], {
    cwd: root,
    env,
    // The portal's log goes to /dev/null: its cost is measured, not its disk.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, served: message as Served }));
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code}) before it was ready`)));
  });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as T));
    child.send(message);
  });
}

/** What a process has used: RSS now (bytes) and CPU time so far (ms), from /proc. */
function processUse(pid: number): { rss: number; cpuMs: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024, cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/** A request as the client writes it, with the statuses that are a right answer. */
interface Request {
  kind: string;
  bytes: Buffer;
  ok: readonly number[];
  /** Called with the reply's status and body when the body is wanted (basket: the new line's id). */
  keep?: (status: number, body: Buffer) => void;
}

interface Sample {
  kind: string;
  ms: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * A closed-loop HTTP/1.1 client: one keep-alive connection per user, each sending the request
 * `next(user)` makes as soon as the last reply is whole, until the deadline. Replies are read by
 * their status line and Content-Length (or chunks), bodies counted, not decoded (but where kept).
 */
async function closedLoop(
  port: number,
  users: number,
  seconds: number,
  next: (user: number) => Request,
): Promise<{ samples: Sample[]; errors: Record<string, number>; unfinished: Record<string, number>; seconds: number }> {
  const samples: Sample[] = [];
  const errors: Record<string, number> = {};
  const unfinished: Record<string, number> = {};
  const deadline = performance.now() + seconds * 1000;
  const open = new Map<net.Socket, () => Request | undefined>();
  const user = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      open.set(socket, () => current);
      socket.on('close', () => resolve());
      socket.setNoDelay(true);
      let head: Buffer = Buffer.alloc(0);
      let bodyLeft = -1;
      let chunked = false;
      let body: Buffer[] = [];
      let status = 0;
      let current: Request | undefined;
      let sentAt = 0;
      const send = () => {
        if (performance.now() >= deadline) {
          socket.end();
          open.delete(socket);
          return resolve();
        }
        current = next(index);
        sentAt = performance.now();
        socket.write(current.bytes);
      };
      const finish = () => {
        const request = current!;
        if (request.ok.includes(status)) samples.push({ kind: request.kind, ms: performance.now() - sentAt });
        else errors[`${request.kind} ${status}`] = (errors[`${request.kind} ${status}`] ?? 0) + 1;
        request.keep?.(status, Buffer.concat(body));
        body = [];
        send();
      };
      socket.on('data', (chunk: Buffer) => {
        let data = chunk;
        while (data.length) {
          if (bodyLeft < 0 && !chunked) {
            head = head.length ? Buffer.concat([head, data]) : data;
            const end = head.indexOf(HEADER_END);
            if (end < 0) return;
            const text = head.subarray(0, end).toString('latin1');
            status = Number(text.slice(9, 12));
            const length = /\r\ncontent-length: *(\d+)/i.exec(text);
            chunked = !length && /\r\ntransfer-encoding: *chunked/i.test(text);
            bodyLeft = length ? Number(length[1]) : 0;
            data = head.subarray(end + HEADER_END.length);
            head = Buffer.alloc(0);
            if (chunked) bodyLeft = -1;
          }
          if (chunked) {
            // Chunks are read whole from what has arrived so far (replies here are small when chunked).
            head = head.length ? Buffer.concat([head, data]) : data;
            data = Buffer.alloc(0);
            for (;;) {
              const line = head.indexOf('\r\n');
              if (line < 0) return;
              const size = parseInt(head.subarray(0, line).toString('latin1'), 16);
              if (head.length < line + 2 + size + 2) return;
              if (current?.keep) body.push(head.subarray(line + 2, line + 2 + size));
              head = head.subarray(line + 2 + size + 2);
              if (size === 0) {
                chunked = false;
                bodyLeft = -1;
                if (head.length) return reject(new Error('bytes after a chunked reply'));
                head = Buffer.alloc(0);
                finish();
                return;
              }
            }
          }
          const take = Math.min(bodyLeft, data.length);
          if (current?.keep) body.push(data.subarray(0, take));
          bodyLeft -= take;
          data = data.subarray(take);
          if (bodyLeft === 0) {
            bodyLeft = -1;
            if (data.length) return reject(new Error(`bytes after a reply that was not asked for (${current?.kind})`));
            finish();
          }
        }
      });
      socket.on('error', reject);
      socket.on('connect', send);
    });
  const started = performance.now();
  // At the deadline, a request still waiting for its reply (a sign-in queued for its hash) is left
  // unanswered and counted as unfinished: the run lasts its duration, not the longest queue.
  const cut = setTimeout(() => {
    for (const [socket, request] of open) {
      const kind = request()?.kind ?? 'none';
      unfinished[kind] = (unfinished[kind] ?? 0) + 1;
      socket.destroy();
    }
  }, seconds * 1000 + 50);
  await Promise.all(Array.from({ length: users }, (_, i) => user(i)));
  clearTimeout(cut);
  return { samples, errors, unfinished, seconds: Math.min(seconds, (performance.now() - started) / 1000) };
}

/**
 * Waits until the portal has finished what the last load left it (sign-ins queued for their hash
 * run on after their clients left): its CPU idle for a second, for at most 10 minutes.
 */
async function settle(pid: number): Promise<void> {
  let last = processUse(pid).cpuMs;
  for (let waited = 0; waited < 600; waited += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = processUse(pid).cpuMs;
    if (now - last < 100) return;
    last = now;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A small deterministic generator, so that every run asks the same things. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    let started = performance.now();
    const hello = await start('hello', env);
    const portal = await start('portal', { ...env, BENCH_PROFILE: profileDir ?? '' });
    const profiled = async (what: 'start' | 'stop', name = '') => {
      if (profileDir) await ask(portal.child, `profile ${what} ${name}`);
    };
    children.push(hello.child, portal.child);
    const { port, users, records, files } = portal.served;
    console.log(`portal ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${records.length} records, ${files.length} files, ${users.length} users`);
    const host = `127.0.0.1:${port}`;

    // ---- The requests of each kind ----
    const rand = random(20261201);
    const words = [...CHINESE_QUERIES, ...ENGLISH_QUERIES];
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    const base = (user: number, language: string, extra = '') =>
      `Host: ${host}\r\nUser-Agent: ${BROWSER_AGENT}\r\nAccept-Language: ${language}\r\nCookie: token=${users[user]!.token}; csrftoken=${users[user]!.csrf}\r\n${extra}`;
    const get = (kind: string, target: string, user: number, language: string, extra = '', ok: readonly number[] = [200]): Request => ({
      kind,
      bytes: Buffer.from(`GET ${target} HTTP/1.1\r\n${base(user, language, extra)}\r\n`, 'utf8'),
      ok,
    });
    const withBody = (kind: string, method: string, target: string, user: number, body: string, ok: readonly number[], extra = ''): Request => ({
      kind,
      bytes: Buffer.from(
        `${method} ${target} HTTP/1.1\r\n${base(user, 'zh-hans', `X-CSRFToken: ${users[user]!.csrf}\r\nOrigin: http://${host}\r\n${extra}`)}${body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`,
        'utf8',
      ),
      ok,
    });
    const basketLines = new Map<number, string>();
    const weights = KINDS.map((k) => MIX[k]);
    const total = weights.reduce((a, b) => a + b, 0);
    const drawKind = (): Kind => {
      let at = rand() * total;
      for (const [i, kind] of KINDS.entries()) if ((at -= weights[i]!) < 0) return kind;
      return KINDS[0];
    };
    const requestOf = (kind: Kind, user: number): Request => {
      const language = rand() < 0.7 ? 'zh-hans' : 'en';
      switch (kind) {
        case 'home':
          return get('home', language === 'en' ? '/en/' : '/', user, language, 'Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\nAccept-Encoding: gzip, deflate, br\r\n');
        case 'search': {
          const q = rand() < 0.3 ? `${pick(words)} ${pick(words)}` : pick(words);
          const page = 1 + Math.floor(rand() * 3);
          return get('search', `/api/metadata/search/?q=${encodeURIComponent(q)}&page=${page}&_r=${Math.floor(rand() * 1e9)}`, user, language, 'Accept-Encoding: gzip, deflate, br\r\n');
        }
        case 'landing':
          return get('landing', `/api/metadata/metadata/${pick(records)}/`, user, language, 'Accept-Encoding: gzip, deflate, br\r\n');
        case 'hot':
          return get('hot', '/api/metadata/hot/', user, language, 'Accept-Encoding: gzip, deflate, br\r\n');
        case 'login':
          return withBody('login', 'POST', '/account/profile-login/', user, JSON.stringify({ username: users[user]!.username, password: PASSWORD }), [200]);
        case 'basket': {
          const line = basketLines.get(user);
          if (line) {
            basketLines.delete(user);
            return withBody('basket', 'DELETE', `/api/account/line_item/${line}/`, user, '', [204]);
          }
          const request = withBody('basket', 'POST', '/api/account/line_item/', user, JSON.stringify({ metadata_id: pick(records) }), [201, 409]);
          request.keep = (status, body) => {
            if (status === 201) basketLines.set(user, (JSON.parse(body.toString('utf8')) as { id: string }).id);
          };
          return request;
        }
        case 'download':
          return get('download', `/api/metadata/meta-file/${pick(files)}/download/`, user, language);
      }
    };

    // ---- 1. The mix ----
    const warm = await closedLoop(port, USERS, 5, (user) => requestOf(drawKind(), user));
    await settle(portal.child.pid!);
    console.log(`warm-up: ${warm.samples.length} requests`);
    const before = processUse(portal.child.pid!);
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, processUse(portal.child.pid!).rss);
    }, 250);
    await profiled('start');
    const mix = await closedLoop(port, USERS, duration, (user) => requestOf(drawKind(), user));
    await profiled('stop', 'mix');
    clearInterval(sampler);
    const after = processUse(portal.child.pid!);
    await settle(portal.child.pid!);
    const kinds = KINDS.map((kind) => {
      const times = mix.samples.filter((s) => s.kind === kind).map((s) => s.ms).sort((a, b) => a - b);
      return {
        kind,
        share: MIX[kind],
        requests: times.length,
        unfinishedAtEnd: mix.unfinished[kind] ?? 0,
        requestsPerSecond: Math.round(times.length / mix.seconds),
        p50Ms: Math.round(percentile(times, 50)),
        p95Ms: Math.round(percentile(times, 95)),
        p99Ms: Math.round(percentile(times, 99)),
        targetP95Ms: kind === 'login' ? null : 500,
      };
    });
    const mixed = {
      users: USERS,
      durationSeconds: duration,
      requestsPerSecond: Math.round(mix.samples.length / mix.seconds),
      errors: mix.errors,
      unfinishedAtEnd: mix.unfinished,
      kinds,
      portalRssBytes: { start: before.rss, peak: peakRss, end: after.rss },
      portalCpuMsPerRequest: Number(((after.cpuMs - before.cpuMs) / Math.max(1, mix.samples.length)).toFixed(3)),
    };
    console.log(`mix: ${mixed.requestsPerSecond} req/s, RSS peak ${(peakRss / 2 ** 20).toFixed(0)} MiB, errors ${JSON.stringify(mix.errors)}, unfinished at the end ${JSON.stringify(mix.unfinished)}`);
    for (const k of kinds) console.log(`  ${k.kind.padEnd(9)} ${String(k.requests).padStart(6)} req  p50 ${String(k.p50Ms).padStart(5)} ms  p95 ${String(k.p95Ms).padStart(5)} ms  p99 ${String(k.p99Ms).padStart(5)} ms`);

    // ---- 2. The record detail call against the hello world ----
    const detailPath = (i: number) => `/api/metadata/metadata/${records[i % records.length]}/`;
    const browser = { 'user-agent': BROWSER_AGENT, 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'zh-hans' };
    const ratioRounds: { hello: number; returning: number; newVisitors: number }[] = [];
    for (let round = 0; round < rounds; round += 1) {
      if (round === rounds - 1) await profiled('start');
      const helloLoad = await httpLoad({ url: `http://127.0.0.1:${hello.served.port}`, paths: ['/'], connections: ratioConnections, durationSeconds: ratioSeconds });
      const returning = await httpLoad({ url: `http://${host}`, paths: detailPath, connections: ratioConnections, durationSeconds: ratioSeconds, headers: browser });
      const newVisitors = await httpLoad({
        url: `http://${host}`,
        paths: detailPath,
        connections: ratioConnections,
        durationSeconds: ratioSeconds,
        headers: (i) => ({ ...browser, 'user-agent': `${BROWSER_AGENT} visitor/${round}.${i}` }),
      });
      if (round === rounds - 1) await profiled('stop', 'record-detail');
      ratioRounds.push({ hello: helloLoad.requestsPerSecond, returning: returning.requestsPerSecond, newVisitors: newVisitors.requestsPerSecond });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const detail = {
      route: 'GET /api/metadata/metadata/{id}/ (anonymous browser, the 200 records in turn)',
      client: 'lean keep-alive (bench/http-load.ts)',
      connections: ratioConnections,
      secondsEach: ratioSeconds,
      rounds: ratioRounds,
      returningVisitorRatio: Number(median(ratioRounds.map((r) => r.returning / r.hello)).toFixed(3)),
      newVisitorsRatio: Number(median(ratioRounds.map((r) => r.newVisitors / r.hello)).toFixed(3)),
      target: 0.35,
    };
    console.log(`record detail / hello world: returning visitor ${detail.returningVisitorRatio}, new visitors ${detail.newVisitorsRatio}`, ratioRounds);

    // ---- 3. Downloads counted against uncounted ----
    const { downloads: countedBefore } = await ask<{ downloads: number }>(portal.child, 'counts');
    let sequence = 0;
    const downloadBy = (agent: string) => (user: number): Request => {
      // Each user walks the files from its own place: a repeat of a file within 30 s is rare.
      const file = files[(user * 37 + sequence++) % files.length]!;
      return {
        kind: 'download',
        bytes: Buffer.from(`GET /api/metadata/meta-file/${file}/download/ HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${agent}\r\nCookie: token=${users[user]!.token}; csrftoken=${users[user]!.csrf}\r\n\r\n`, 'utf8'),
        ok: [200],
      };
    };
    const downloadRounds: { uncounted: number; counted: number; countedP95Ms: number; uncountedP95Ms: number }[] = [];
    let countedRequests = 0;
    for (let round = 0; round < rounds; round += 1) {
      if (round === rounds - 1) await profiled('start');
      const uncounted = await closedLoop(port, USERS, ratioSeconds, downloadBy(CRAWLER_AGENT));
      if (round === rounds - 1) await profiled('stop', 'downloads-uncounted');
      await settle(portal.child.pid!);
      if (round === rounds - 1) await profiled('start');
      const counted = await closedLoop(port, USERS, ratioSeconds, downloadBy(BROWSER_AGENT));
      if (round === rounds - 1) await profiled('stop', 'downloads-counted');
      await settle(portal.child.pid!);
      // Those cut at the end reached the portal too, and count.
      countedRequests += counted.samples.length + (counted.unfinished.download ?? 0);
      const p95 = (run: typeof counted) => Math.round(percentile(run.samples.map((s) => s.ms).sort((a, b) => a - b), 95));
      downloadRounds.push({
        uncounted: Math.round(uncounted.samples.length / uncounted.seconds),
        counted: Math.round(counted.samples.length / counted.seconds),
        uncountedP95Ms: p95(uncounted),
        countedP95Ms: p95(counted),
      });
    }
    const { downloads: countedAfter } = await ask<{ downloads: number }>(portal.child, 'counts');
    const downloads = {
      route: 'GET /api/metadata/meta-file/{id}/download/ (200 signed-in users, 64 KiB files)',
      uncounted: "a crawler's User-Agent (COUNTER leaves robots out), otherwise the same requests",
      rounds: downloadRounds,
      ratio: Number(median(downloadRounds.map((r) => r.counted / r.uncounted)).toFixed(3)),
      countedRequests,
      countedInDatabase: countedAfter - countedBefore,
      target: 0.8,
    };
    console.log(`downloads counted / uncounted: ${downloads.ratio}; ${downloads.countedInDatabase} counted of ${countedRequests} browser downloads`, downloadRounds);

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

const serveIndex = process.argv.indexOf('--serve');
if (serveIndex >= 0) await serve(process.argv[serveIndex + 1]!);
else await bench();
