/**
 * Upload benchmark (issue 19): one large file of random bytes (incompressible; BENCH_UPLOAD_MIB, 1024
 * by default, the issue asks for 10240) sent to a real portal process (`tsx src/main.ts` on SQLite
 * in a fresh DATA_DIR on the same disk) through
 * 1. tus with tus-js-client (the file read from its path, one PATCH, as a program would send it),
 * 2. the spec's chunked upload as simple-uploader.js sends it (BENCH_CHUNK_MIB chunks, 16 by default,
 *    three at once as its `simultaneousUploads`), each chunk a multipart form streamed from the file's range,
 * against `dd bs=4M conv=fsync` copying the same file on the same disk just before it. Each upload
 * is finished only when the file is listed (its SHA-256 checked against the source's). The ratio is
 * that dd's seconds over the upload's (target >= 0.8), the load average recorded beside it. Peak RSS
 * is the server's VmHWM from /proc after each upload (the process is started anew for each
 * protocol), beside its RSS when idle.
 * Appends one entry to bench/results/uploads.json.
 *
 *   tsx bench/uploads.ts
 *   BENCH_UPLOAD_MIB=10240 tsx bench/uploads.ts     (the 10 GB run: about 30 GB of disk)
 *   BENCH_PROFILE=/tmp/prof tsx bench/uploads.ts    (a CPU profile of each server process)
 */
import { execFile } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';
import { portalProcess, type PortalProcess } from '../packages/server/test/uploads-crash.js';
import { appendResult, runConditions } from './results.js';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const MIB = 1024 * 1024;
const FILE_MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const CHUNK_MIB = Number(process.env.BENCH_CHUNK_MIB ?? 16);
const SIMULTANEOUS = 3;

/** Writes `mib` MiB of random bytes and answers their SHA-256. */
function writeSource(file: string, mib: number): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(16 * MIB);
  for (let written = 0; written < mib * MIB; written += block.length) {
    const piece = block.subarray(0, Math.min(block.length, mib * MIB - written));
    randomFillSync(piece);
    hash.update(piece);
    fs.writeSync(fd, piece);
  }
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return hash.digest('hex');
}

function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: Math.round(kib('VmRSS') / 1024), peakMiB: Math.round(kib('VmHWM') / 1024) };
}

async function listedSha256(server: PortalProcess, name: string): Promise<string | undefined> {
  const reply = await fetch(`${server.base}/api/data/file/?metadata__id=${server.record}&path=/&pageSize=100`, { headers: { Authorization: `Token ${server.token}` } });
  const page = (await reply.json()) as { results: { name: string; sha256: string }[] };
  return page.results.find((entry) => entry.name === name)?.sha256;
}

async function viaTus(server: PortalProcess, source: string, sha256: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(fs.createReadStream(source), {
      endpoint: `${server.base}/api/data/tus/`,
      headers: { Authorization: `Token ${server.token}` },
      metadata: { metadata: server.record, filename: 'tus.bin', path: '/', sha256 },
      retryDelays: [],
      onSuccess: () => resolve(),
      onError: (error) => reject(error),
    });
    upload.start();
  });
}

/** One multipart POST of a chunk, its file part streamed from the file's range (as a browser streams a File slice). */
function postChunk(server: PortalProcess, fields: Record<string, string | number>, source: string, start: number, end: number): Promise<void> {
  const boundary = `----bench${Date.now().toString(16)}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${server.base}/data/upload-chunked/`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          Authorization: `Token ${server.token}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + (end - start) + tail.length,
        },
      },
      (reply) => {
        let body = '';
        reply.on('data', (data: Buffer) => (body += data.toString()));
        reply.on('end', () => (reply.statusCode === 200 ? resolve() : reject(new Error(`chunk: ${reply.statusCode} ${body}`))));
      },
    );
    request.on('error', reject);
    request.write(head);
    const file = fs.createReadStream(source, { start, end: end - 1, highWaterMark: MIB });
    file.on('error', reject);
    file.on('end', () => request.end(tail));
    file.pipe(request, { end: false });
  });
}

async function viaChunks(server: PortalProcess, source: string): Promise<void> {
  const size = fs.statSync(source).size;
  const chunkSize = CHUNK_MIB * MIB;
  const total = Math.max(1, Math.floor(size / chunkSize));
  let next = 1;
  const send = async (number: number) => {
    const start = (number - 1) * chunkSize;
    const end = number === total ? size : start + chunkSize;
    const fields = {
      chunkNumber: number,
      totalChunks: total,
      chunkSize,
      currentChunkSize: end - start,
      totalSize: size,
      identifier: `${size}-chunked`,
      filename: 'chunked.bin',
      relativePath: 'chunked.bin',
      metadata_id: server.record,
      path: '/',
    };
    await postChunk(server, fields, source, start, end);
  };
  await Promise.all(
    Array.from({ length: SIMULTANEOUS }, async () => {
      while (next <= total) await send(next++);
    }),
  );
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const load = os.loadavg()[0]!;
fs.mkdirSync(path.join(root, 'var'), { recursive: true });
const workDir = fs.mkdtempSync(path.join(root, 'var', 'bench-uploads-'));
try {
  const source = path.join(workDir, 'source.bin');
  const sha256 = writeSource(source, FILE_MIB);
  // dd of the same bytes on the same disk just before each upload: the machine is shared, and what it
  // does beside the benchmark changes from one minute to the next.
  const dd = async () => {
    const seconds = await timed(() => run('dd', [`if=${source}`, `of=${path.join(workDir, 'dd.bin')}`, 'bs=4M', 'conv=fsync']));
    fs.rmSync(path.join(workDir, 'dd.bin'));
    return seconds;
  };
  const ddRuns: number[] = [];
  const env = { USER_STORAGE_QUOTA_MB: String(4 * FILE_MIB + 1024) };
  // BENCH_PROFILE=dir: a CPU profile of each server process (node --cpu-prof, written when it stops).
  const nodeArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const protocols: Record<string, object> = {};
  for (const [name, upload, listedAs] of [
    ['tus', (server: PortalProcess) => viaTus(server, source, sha256), 'tus.bin'],
    ['chunked', (server: PortalProcess) => viaChunks(server, source), 'chunked.bin'],
  ] as const) {
    const server = await portalProcess({ env, parentDir: workDir, nodeArgs });
    try {
      await server.start();
      const ddSeconds = await dd();
      ddRuns.push(ddSeconds);
      const idle = memoryOf(server.pid()!);
      const seconds = await timed(() => upload(server));
      const memory = memoryOf(server.pid()!);
      const listed = await listedSha256(server, listedAs);
      if (listed !== sha256) throw new Error(`${name}: the listed file's SHA-256 is ${listed}, not the source's ${sha256}`);
      protocols[name] = {
        seconds: Number(seconds.toFixed(2)),
        mbPerSecond: Math.round((FILE_MIB * MIB) / 1e6 / seconds),
        ddSeconds: Number(ddSeconds.toFixed(2)),
        ratioToDd: Number((ddSeconds / seconds).toFixed(2)),
        loadAverage: Number(os.loadavg()[0]!.toFixed(2)),
        idleRssMiB: idle.rssMiB,
        peakRssMiB: memory.peakMiB,
      };
      console.log(name, protocols[name]);
    } finally {
      await server.stop();
      await server.remove();
    }
  }
  const entry = {
    ...runConditions(load),
    fileMiB: FILE_MIB,
    chunkMiB: CHUNK_MIB,
    dd: ddRuns.map((seconds) => ({ seconds: Number(seconds.toFixed(2)), mbPerSecond: Math.round((FILE_MIB * MIB) / 1e6 / seconds) })),
    ...protocols,
  };
  console.log(`dd: ${JSON.stringify(entry.dd)}`);
  console.log(`recorded in ${appendResult('uploads', entry)}`);
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}
