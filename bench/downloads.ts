/**
 * Download benchmark (issue 10):
 * 1. A 1 GiB file of random bytes (incompressible) downloaded as its owner through
 *    GET /api/metadata/meta-file/:id/download/ of the portal (SQLite in a fresh DATA_DIR, the row and
 *    the blob written as an upload would leave them: the 200 MB upload limit keeps 1 GiB out of the
 *    API), and the same file from a plain static server (node:http piping fs.createReadStream with
 *    the store's read size; Node's default 64 KiB reads measured once a round too) started in the same run. curl is the client (`-o /dev/null`), so the client is not what limits. The two
 *    alternate, static first, ROUNDS times; the ratio is the median over the rounds of the portal's
 *    MB/s over the static server's just before it (target >= 0.9).
 * 2. A zip of 50 files of 2 MiB through streamZip, written to a file by a child process whose RSS
 *    this process samples from /proc every 10 ms: peak minus the RSS before the zip began (after a
 *    GC); then 50 files of 20 MiB the same way, which must grow it no more if memory is flat. Each zip
 *    is checked with `unzip -t` and `sha256sum -c` on its manifest.
 * 3. ZIP64 by entry count: 70,000 empty files in one zip, `unzip -t` and the entry count checked.
 * Appends one entry to bench/results/downloads.json.
 *
 *   npm run bench                    (every benchmark)
 *   tsx bench/downloads.ts           (ROUNDS=5 by default: about a minute plus writing 1 GiB)
 *   BENCH_FILE_MIB=256 tsx bench/downloads.ts   (a quick run with a smaller file)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { appendResult, runConditions } from './results.js';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const MIB = 1024 * 1024;
const FILE_MIB = Number(process.env.BENCH_FILE_MIB ?? 1024);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ZIP_FILES = 50;
/** The asked-for zip (50 x 2 MiB), and one ten times larger: flat memory is the same growth for both. */
const ZIP_FILE_MIBS = [2, 20];
const ZIP64_ENTRIES = 70_000;

const mode = process.argv[2];
if (mode === '--serve-portal') await servePortal();
else if (mode === '--serve-static') await serveStatic(process.env.BENCH_FILE!);
else if (mode === '--zip') await zipChild();
else await bench();

/** Child: the portal as main.ts builds it, a user, their record and the big file as its data file. */
async function servePortal(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.js');
  const { loadConfig } = await import('../packages/server/src/config.js');
  const { app, accounts, database } = await buildApp(loadConfig(process.env));
  const password = 'bench-password-1';
  const user = await accounts.createActiveUser({ username: 'bench', email: 'bench@example.org', password });
  const { token } = await accounts.login('bench', password);
  const now = new Date().toISOString();
  const metadataId = randomUUID();
  await database.db
    .insertInto('metadata')
    .values({ id: metadataId, owner_id: user.id, status: 'draft', language: 'zh-hans', title: '下载基准', created_at: now, updated_at: now } as never)
    .execute();
  const fileId = randomUUID();
  await database.db
    .insertInto('meta_file')
    .values({
      id: fileId,
      metadata_id: metadataId,
      name: 'random-1GiB.bin',
      mime: 'application/octet-stream',
      storage_key: process.env.BENCH_BLOB_KEY!,
      sha256: process.env.BENCH_BLOB_SHA256!,
      size: Number(process.env.BENCH_BLOB_SIZE),
      created_by: user.id,
      created_at: now,
    })
    .execute();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.send!({ port: typeof address === 'object' && address ? address.port : 0, token, fileId });
}

/**
 * Child: the plainest way to serve a file with Node, reading it in the store's chunks
 * (READ_CHUNK_BYTES), or in Node's default 64 KiB at `/default-chunks`, kept for comparison.
 */
async function serveStatic(file: string): Promise<void> {
  const { READ_CHUNK_BYTES } = await import('../packages/server/src/storage/local-disk-store.js');
  const size = fs.statSync(file).size;
  const server = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    fs.createReadStream(file, request.url === '/default-chunks' ? {} : { highWaterMark: READ_CHUNK_BYTES }).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
}

/**
 * Child: stores the zip's files in a LocalDiskStore, reports its RSS, waits for 'go', streams the
 * zip into BENCH_ZIP_OUT and reports, then builds the ZIP64 zip of empty files into BENCH_ZIP64_OUT.
 */
async function zipChild(): Promise<void> {
  const { LocalDiskStore } = await import('../packages/server/src/storage/index.js');
  const { datasetFolder, streamZip } = await import('../packages/server/src/modules/downloads/index.js');
  const store = new LocalDiskStore(path.join(process.env.BENCH_ZIP_DIR!, 'files'));
  const log = { warn: console.warn, error: console.error };
  const fileBytes = Number(process.env.BENCH_ZIP_FILE_MIB) * MIB;
  const entries = [];
  for (let index = 0; index < ZIP_FILES; index += 1) {
    const blob = await store.put(randomBytes(fileBytes), { maxBytes: fileBytes });
    // Five records of ten files, all named alike: the zip's folders and numbering sort them out.
    entries.push({ path: `${datasetFolder(`冰川数据集 ${index % 5}`, 'id')}/data.bin`, size: blob.size, sha256: blob.sha256, storage_key: blob.key, mtime: new Date() });
  }
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  process.send!({ ready: true, rss: process.memoryUsage.rss() });
  await new Promise((resolve) => process.once('message', resolve));
  let started = performance.now();
  const zip = await streamZip(entries, store, log);
  await pipeline(zip.stream, fs.createWriteStream(process.env.BENCH_ZIP_OUT!));
  process.send!({ zipBytes: zip.size, zipSeconds: (performance.now() - started) / 1000 });
  if (!process.env.BENCH_ZIP64_OUT) return;

  const empty = await store.put(Buffer.alloc(0), { maxBytes: 0 });
  const many = Array.from({ length: ZIP64_ENTRIES }, (_, index) => ({ path: `many/${index}.txt`, size: 0, sha256: empty.sha256, storage_key: empty.key, mtime: new Date() }));
  started = performance.now();
  const zip64 = await streamZip(many, store, log);
  await pipeline(zip64.stream, fs.createWriteStream(process.env.BENCH_ZIP64_OUT!));
  process.send!({ zip64Bytes: zip64.size, zip64Seconds: (performance.now() - started) / 1000 });
}

function spawnChild(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, ...args], {
    cwd: root,
    env,
    // The portal's request log goes to /dev/null: its cost is measured, not its disk.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
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

/** Writes `mib` MiB of random bytes; returns their SHA-256. */
async function writeRandomFile(file: string, mib: number): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  for (let written = 0; written < mib; written += 1) {
    const chunk = randomBytes(MIB);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return hash.digest('hex');
}

/** One download with curl to /dev/null: MB/s (10^6 bytes) over the whole transfer. */
async function download(url: string, size: number, headers: string[] = []): Promise<number> {
  const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', ...headers.flatMap((h) => ['-H', h]), url]);
  const [status, bytes, seconds] = stdout.trim().split(' ');
  if (status !== '200' || Number(bytes) !== size) throw new Error(`${url}: ${status}, ${bytes} of ${size} bytes: the measure is not valid`);
  return size / Number(seconds) / 1e6;
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function bench(): Promise<void> {
  const { READ_CHUNK_BYTES } = await import('../packages/server/src/storage/local-disk-store.js');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-downloads-'));
  const children: ChildProcess[] = [];
  try {
    const loadAverage = os.loadavg()[0]!;
    // The blob where LocalDiskStore keeps it: DATA_DIR/files/<first two digits>/<key>.
    const dataDir = path.join(work, 'data');
    const key = randomBytes(16).toString('hex');
    const blob = path.join(dataDir, 'files', key.slice(0, 2), key);
    fs.mkdirSync(path.dirname(blob), { recursive: true });
    const started = performance.now();
    const sha256 = await writeRandomFile(blob, FILE_MIB);
    const size = FILE_MIB * MIB;
    console.log(`wrote ${FILE_MIB} MiB of random bytes in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BENCH_BLOB_KEY: key, BENCH_BLOB_SHA256: sha256, BENCH_BLOB_SIZE: String(size), BENCH_FILE: blob };
    for (const name of ['DATABASE_URL', 'LOG_LEVEL', 'PUBLIC_URL']) delete env[name]; // the defaults: SQLite, info
    const portal = spawnChild(['--serve-portal'], env);
    const plain = spawnChild(['--serve-static'], env);
    children.push(portal, plain);
    const [{ port: portalPort, token, fileId }, { port: staticPort }] = await Promise.all([
      nextMessage<{ port: number; token: string; fileId: string }>(portal, 'portal'),
      nextMessage<{ port: number }>(plain, 'static server'),
    ]);
    const portalUrl = `http://127.0.0.1:${portalPort}/api/metadata/meta-file/${fileId}/download/`;
    const staticUrl = `http://127.0.0.1:${staticPort}/random.bin`;
    const staticDefaultChunksUrl = `http://127.0.0.1:${staticPort}/default-chunks`;
    const authorization = [`Authorization: Token ${token}`];

    // Warm-up: the page cache holds the file for both, the JIT has seen the path.
    await download(staticUrl, size);
    await download(portalUrl, size, authorization);
    const rounds: { static: number; portal: number; staticDefaultChunks: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const plainSpeed = await download(staticUrl, size);
      const portalSpeed = await download(portalUrl, size, authorization);
      rounds.push({ static: plainSpeed, portal: portalSpeed, staticDefaultChunks: await download(staticDefaultChunksUrl, size) });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ratio = median(rounds.map((r) => r.portal / r.static));
    for (const child of [portal, plain]) child.kill('SIGTERM');

    // The zips, each in a child whose memory is watched.
    const zips = [];
    let zipped64 = { zip64Bytes: 0, zip64Seconds: 0 };
    for (const fileMib of ZIP_FILE_MIBS) {
      const zipOut = path.join(work, `selection-${fileMib}.zip`);
      const zip64Out = fileMib === ZIP_FILE_MIBS[0] ? path.join(work, 'many.zip') : '';
      const zipper = spawnChild(['--zip'], {
        ...env,
        BENCH_ZIP_DIR: path.join(work, `zip-${fileMib}`),
        BENCH_ZIP_FILE_MIB: String(fileMib),
        BENCH_ZIP_OUT: zipOut,
        BENCH_ZIP64_OUT: zip64Out,
      });
      children.push(zipper);
      const { rss: baseline } = await nextMessage<{ rss: number }>(zipper, 'zip setup');
      let peak = baseline;
      const sampler = setInterval(() => {
        try {
          peak = Math.max(peak, rssOf(zipper.pid!));
        } catch {
          // The child has just ended.
        }
      }, 10);
      const finished = nextMessage<{ zipBytes: number; zipSeconds: number }>(zipper, 'zip');
      zipper.send('go');
      const zipped = await finished;
      clearInterval(sampler);
      if (zip64Out) zipped64 = await nextMessage<{ zip64Bytes: number; zip64Seconds: number }>(zipper, 'ZIP64 zip');

      const unpacked = path.join(work, `unpacked-${fileMib}`);
      const tested = await run('unzip', ['-tq', zipOut]);
      if (!tested.stdout.includes('No errors detected')) throw new Error(`unzip -t: ${tested.stdout}`);
      await run('unzip', ['-q', zipOut, '-d', unpacked]);
      const checked = await run('sha256sum', ['-c', '--strict', 'MANIFEST-SHA256.txt'], { cwd: unpacked });
      const verified = checked.stdout
        .trim()
        .split('\n')
        .filter((line) => line.endsWith(': OK')).length;
      if (verified !== ZIP_FILES) throw new Error(`sha256sum -c confirmed ${verified} of ${ZIP_FILES} files`);
      fs.rmSync(unpacked, { recursive: true });
      fs.rmSync(zipOut);
      zips.push({
        files: ZIP_FILES,
        fileBytes: fileMib * MIB,
        zipBytes: zipped.zipBytes,
        seconds: Number(zipped.zipSeconds.toFixed(2)),
        MBps: Math.round(zipped.zipBytes / zipped.zipSeconds / 1e6),
        rssBaselineBytes: baseline,
        rssPeakBytes: peak,
        rssGrowthBytes: peak - baseline,
      });
    }
    const zip64Out = path.join(work, 'many.zip');
    const tested64 = await run('unzip', ['-tq', zip64Out], { maxBuffer: 64 * MIB });
    const listed64 = (await run('unzip', ['-Z1', zip64Out], { maxBuffer: 64 * MIB })).stdout.trim().split('\n').length;
    if (!tested64.stdout.includes('No errors detected') || listed64 !== ZIP64_ENTRIES + 2) throw new Error(`ZIP64: ${tested64.stdout} ${listed64} entries`);

    const entry = {
      ...runConditions(loadAverage),
      database: 'sqlite',
      logLevel: 'info',
      client: 'curl -o /dev/null over loopback',
      single: {
        route: 'GET /api/metadata/meta-file/:id/download/ (owner, Token header)',
        baseline: 'node:http piping fs.createReadStream, same file, same run',
        fileBytes: size,
        readChunkBytes: READ_CHUNK_BYTES,
        rounds: rounds.map((r) => ({ staticMBps: Math.round(r.static), portalMBps: Math.round(r.portal), staticNodeDefault64KiBMBps: Math.round(r.staticDefaultChunks) })),
        ratio: 'median over the rounds of the portal MB/s over the static server MB/s measured just before it',
        throughputRatio: Number(ratio.toFixed(3)),
        target: 0.9,
      },
      zip: {
        sampled: 'VmRSS of the child every 10 ms while it streamed the zip to a file; growth = peak minus the RSS after setup and a GC',
        checked: 'unzip -t, unzip, sha256sum -c --strict on MANIFEST-SHA256.txt',
        runs: zips,
      },
      zip64: { entries: ZIP64_ENTRIES, zipBytes: zipped64.zip64Bytes, seconds: Number(zipped64.zip64Seconds.toFixed(2)), checked: 'unzip -t, unzip -Z1 count' },
    };
    const file = appendResult('downloads', entry);
    console.log(`single file of ${FILE_MIB} MiB: portal / static = ${entry.single.throughputRatio}`, entry.single.rounds);
    for (const zip of zips) {
      console.log(
        `zip of ${zip.files} x ${zip.fileBytes / MIB} MiB: ${zip.MBps} MB/s, RSS +${(zip.rssGrowthBytes / MIB).toFixed(1)} MiB (baseline ${(zip.rssBaselineBytes / MIB).toFixed(0)} MiB)`,
      );
    }
    console.log(`ZIP64 zip of ${ZIP64_ENTRIES} empty files: ${entry.zip64.seconds} s, unzip -t passed`);
    console.log(`recorded in ${file}`);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
  }
}
