/**
 * FTP sync at scale (issue 19): a provider pushes BENCH_SYNC_FILES small files (30,000 by default,
 * 1-4 KiB of random bytes each, in 30 folders of a tree two deep, as station archives are) into a
 * draft's incoming folder with `lftp mirror -R` through an upload account, then POST /data/sync/
 * brings them into the record's tree, each checksummed. Timed: the mirror (lftp's whole run) and the
 * sync (the one request), with files a second for each; checked: the sync's count and bytes, the
 * listed count of every folder, and a sample of SHA-256 against the sources.
 * The portal runs in this process as main.ts builds it, on SQLite (a fresh DATA_DIR) and then on
 * PostgreSQL (a database of its own, BENCH_PG_URL the admin URL); lftp runs beside it.
 * Appends one entry to bench/results/ftp-sync.json.
 *
 *   tsx bench/ftp-sync.ts                              (30,000 files, both databases)
 *   BENCH_SYNC_FILES=3000 BENCH_SKIP_PG=1 tsx bench/ftp-sync.ts   (a quick run)
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/ftp-sync.ts   (where the time goes)
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { benchAccount, withPgDatabase } from './bench-portal.js';
import { appendResult, runConditions } from './results.js';

const run = promisify(execFile);
const FILES = Number(process.env.BENCH_SYNC_FILES ?? 30_000);
const FOLDERS = 30;
const SAMPLE = 200;

const loadAtStart = os.loadavg()[0]!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ftp-sync-'));
const source = path.join(work, 'source');

/** The provider's tree: FOLDERS folders (station/year), FILES files spread over them; their SHA-256 and bytes. */
function makeSource(): { hashes: Map<string, string>; bytes: number } {
  const hashes = new Map<string, string>();
  let bytes = 0;
  for (let i = 0; i < FILES; i += 1) {
    const folder = `station-${String(i % 10).padStart(2, '0')}/${2000 + (Math.floor(i / 10) % (FOLDERS / 10))}`;
    const name = `obs-${String(i).padStart(6, '0')}.csv`;
    const content = randomBytes(1024 + ((i * 7919) % 3072));
    fs.mkdirSync(path.join(source, folder), { recursive: true });
    fs.writeFileSync(path.join(source, folder, name), content);
    hashes.set(`/${folder}/${name}`, createHash('sha256').update(content).digest('hex'));
    bytes += content.length;
  }
  return { hashes, bytes };
}

async function runOn(database: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv, expected: { hashes: Map<string, string>; bytes: number }) {
  const dataDir = path.join(work, database);
  const pasv = randomInt(40_000, 60_000);
  const portal = await buildApp(
    loadConfig({
      ...process.env,
      ...env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      FTP_ENABLED: 'true',
      FTP_PORT: '0',
      FTP_HOST: '127.0.0.1',
      FTP_LISTEN_HOST: '127.0.0.1',
      FTP_PASV_PORTS: `${pasv}-${pasv + 200}`,
    }),
    { logger: false },
  );
  try {
    const ftpPort = portal.ftpServer.endpoint()!.port;
    const { headers, post } = await benchAccount(portal);
    const record = await post('/api/metadata/metadata/', { language: 'zh-hans', title: 'FTP 同步基准' });
    const account = await post('/api/data/ftp/', { metadata_id: record.id });

    // The push: lftp's mirror of the whole tree (permissions not sent: the portal ignores them).
    const pushStart = performance.now();
    await run(
      'lftp',
      [
        '-c',
        `set net:max-retries 2; set ftp:ssl-allow no; set cmd:fail-exit yes; open -u ${account.username},${account.password} -p ${ftpPort} 127.0.0.1; ${process.env.BENCH_LFTP_DEBUG ? `debug -t -o ${process.env.BENCH_LFTP_DEBUG} 5; ` : ''}mirror -R --no-perms ${source} /`,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const pushMs = performance.now() - pushStart;

    const syncStart = performance.now();
    const synced = await post('/data/sync/', { metadata_id: record.id });
    const syncMs = performance.now() - syncStart;
    if (synced.count !== FILES || synced.bytes !== expected.bytes || synced.refused.length) {
      throw new Error(`sync: ${synced.count} files, ${synced.bytes} bytes, ${synced.refused.length} refused`);
    }
    // A sample of the synced files' SHA-256 against their sources, and every folder's listed count.
    const byPath = new Map<string, string>(synced.files.map((file: { path: string; sha256: string }) => [file.path, file.sha256]));
    const paths = [...expected.hashes.keys()];
    for (let i = 0; i < SAMPLE; i += 1) {
      const at = paths[randomInt(paths.length)]!;
      if (byPath.get(at) !== expected.hashes.get(at)) throw new Error(`${at}: SHA-256 differs`);
    }
    let listed = 0;
    for (const folder of new Set(paths.map((p) => p.slice(0, p.lastIndexOf('/') + 1)))) {
      const page = await portal.app.inject({ method: 'GET', url: `/api/data/file/?metadata__id=${record.id}&path=${encodeURIComponent(folder)}&pageSize=1`, headers });
      listed += page.json().count;
    }
    if (listed !== FILES) throw new Error(`listed ${listed} files, not ${FILES}`);
    const result = {
      pushSeconds: Number((pushMs / 1000).toFixed(1)),
      pushFilesPerSecond: Math.round(FILES / (pushMs / 1000)),
      syncSeconds: Number((syncMs / 1000).toFixed(1)),
      syncFilesPerSecond: Math.round(FILES / (syncMs / 1000)),
    };
    console.log(`${database}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await portal.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  const expected = makeSource();
  console.log(`${FILES} files, ${expected.bytes} bytes in ${source}`);
  const results: Record<string, unknown> = {};
  results.sqlite = await runOn('sqlite', { DATABASE_URL: '' }, expected);
  if (!process.env.BENCH_SKIP_PG) results.postgres = await withPgDatabase('bench_sync', (url) => runOn('postgres', { DATABASE_URL: url }, expected));
  const file = appendResult('ftp-sync', {
    ...runConditions(loadAtStart),
    loadAverageAtEnd: Number(os.loadavg()[0]!.toFixed(2)),
    files: FILES,
    bytes: expected.bytes,
    ...results,
  });
  console.log(`recorded in ${file}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
// The portal is closed, yet something left of the FTP sessions (not found yet) kept the process alive after lftp's run.
process.exit(0);
