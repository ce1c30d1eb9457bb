/**
 * FTP download benchmark (issue 19): one random file (BENCH_FTP_MIB, 1 GiB by default) of a record,
 * downloaded by its owner from the portal's FTP server (a download account, curl `ftp://`, passive
 * mode) and over HTTP from the same portal (GET /api/metadata/meta-file/:id/download/, curl with the
 * owner's token), both `-o /dev/null` so the client's disk is not what limits. The file reaches the
 * record as a provider's would: an upload account takes it (curl -T), POST /data/sync/ lists it, and
 * both downloads are checked against its SHA-256 once. The two alternate, HTTP first, ROUNDS times;
 * the ratio is the median over the rounds of FTP's MB/s over HTTP's just before it (target >= 0.9),
 * each over curl's whole time (FTP's sign-in, an argon2 check, included); the ratio of the transfers
 * alone (from the first byte) is recorded beside it.
 * The portal runs in this process (SQLite in a fresh DATA_DIR); curl runs beside it.
 * Appends one entry to bench/results/ftp-download.json.
 *
 *   tsx bench/ftp-download.ts                    (ROUNDS=5 by default)
 *   BENCH_FTP_MIB=256 tsx bench/ftp-download.ts  (a quick run with a smaller file)
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { benchAccount } from './bench-portal.js';
import { appendResult, runConditions } from './results.js';

const run = promisify(execFile);
const MIB = 1024 * 1024;
const FILE_MIB = Number(process.env.BENCH_FTP_MIB ?? 1024);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const loadAtStart = os.loadavg()[0]!;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ftp-'));
const source = path.join(dataDir, 'random.bin');
const pasv = randomInt(40_000, 60_000);
const portal = await buildApp(
  loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    FTP_ENABLED: 'true',
    FTP_PORT: '0',
    FTP_HOST: '127.0.0.1',
    FTP_LISTEN_HOST: '127.0.0.1',
    FTP_PASV_PORTS: `${pasv}-${pasv + 100}`,
    USER_STORAGE_QUOTA_MB: String(FILE_MIB * 4),
  }),
  { logger: false },
);

try {
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  const address = portal.app.server.address();
  const httpPort = typeof address === 'object' && address ? address.port : 0;
  const ftpPort = portal.ftpServer.endpoint()!.port;

  const { token, headers, post } = await benchAccount(portal);
  const record = await post('/api/metadata/metadata/', { language: 'zh-hans', title: 'FTP 下载基准' });

  // The file: random bytes (incompressible), its SHA-256 as written.
  const hash = createHash('sha256');
  await pipeline(
    (async function* () {
      for (let written = 0; written < FILE_MIB; written += 1) {
        const chunk = randomBytes(MIB);
        hash.update(chunk);
        yield chunk;
      }
    })(),
    fs.createWriteStream(source),
  );
  const sha256 = hash.digest('hex');

  // Into the record as a provider's file: an upload account, curl -T, sync.
  const uploader = await post('/api/data/ftp/', { metadata_id: record.id });
  await run('curl', ['-sS', '-T', source, `ftp://${uploader.username}:${uploader.password}@127.0.0.1:${ftpPort}/random.bin`]);
  const synced = await post('/data/sync/', { metadata_id: record.id });
  if (synced.count !== 1 || synced.files[0].sha256 !== sha256) throw new Error(`sync: ${JSON.stringify(synced)}`);
  fs.rmSync(source);
  const listing = (await portal.app.inject({ method: 'GET', url: `/api/metadata/meta-file/?metadata__id=${record.id}`, headers })).json();
  const fileId: string = listing.results[0].id;
  const downloader = await post('/data/download-user/', { metadata_id: record.id });

  const httpArgs = ['-H', `authorization: Token ${token}`, `http://127.0.0.1:${httpPort}/api/metadata/meta-file/${fileId}/download/`];
  const ftpArgs = [`ftp://${downloader.username}:${downloader.password}@127.0.0.1:${ftpPort}/random.bin`];

  // Both give the file's bytes (checked once, outside the timed rounds).
  for (const args of [httpArgs, ftpArgs]) {
    const { stdout } = await run('sh', ['-c', 'curl -sS "$@" | sha256sum', 'curl', ...args], { maxBuffer: MIB });
    if (!stdout.startsWith(sha256)) throw new Error(`the download's SHA-256 differs: ${stdout}`);
  }

  /**
   * One curl download to /dev/null: MB/s over its whole time (connecting and, for FTP, signing in
   * included) and over the transfer alone (from its first byte).
   */
  const speed = async (args: string[]) => {
    const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{size_download} %{time_total} %{time_starttransfer}', ...args]);
    const [size, total, start] = stdout.trim().split(' ').map(Number);
    if (size !== FILE_MIB * MIB) throw new Error(`downloaded ${size} bytes, not ${FILE_MIB * MIB}`);
    return { whole: size / total! / 1e6, transfer: size / (total! - start!) / 1e6 };
  };
  const rounds: { http: number; ftp: number; ratio: number; httpTransfer: number; ftpTransfer: number; transferRatio: number }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const http = await speed(httpArgs);
    const ftp = await speed(ftpArgs);
    rounds.push({
      http: Math.round(http.whole),
      ftp: Math.round(ftp.whole),
      ratio: Number((ftp.whole / http.whole).toFixed(3)),
      httpTransfer: Math.round(http.transfer),
      ftpTransfer: Math.round(ftp.transfer),
      transferRatio: Number((ftp.transfer / http.transfer).toFixed(3)),
    });
    console.log(`round ${round + 1}: ${JSON.stringify(rounds.at(-1))}`);
  }
  const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const median = medianOf(rounds.map((r) => r.ratio));
  const file = appendResult('ftp-download', {
    ...runConditions(loadAtStart),
    loadAverageAtEnd: Number(os.loadavg()[0]!.toFixed(2)),
    fileMiB: FILE_MIB,
    rounds,
    medianRatio: median,
    medianTransferRatio: medianOf(rounds.map((r) => r.transferRatio)),
    target: 0.9,
    met: median >= 0.9,
  });
  console.log(`median FTP/HTTP ratio ${median} (target 0.9): ${file}`);
} finally {
  await portal.app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
