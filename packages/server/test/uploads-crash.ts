import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildRecord, buildUser } from './factories.js';
import { createTestDatabase, type TestPortal } from './helpers.js';

/**
 * A real portal process for the crash test of the uploads that resume (issue 19): `tsx src/main.ts`
 * on a DATA_DIR of its own and a database of its own (its SQLite file, or, when DATABASE_URL is a
 * postgres:// URL, a fresh PostgreSQL database beside it, dropped by `remove`), which the test kills
 * with SIGKILL and starts again.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface PortalProcess {
  base: string;
  /** The server process's id while it runs. */
  pid(): number | undefined;
  dataDir: string;
  /** The process's database: its PostgreSQL URL, or undefined for DATA_DIR/portal.sqlite3. */
  databaseUrl: string | undefined;
  token: string;
  record: string;
  start(): Promise<void>;
  /** SIGKILL: no clean-up, no flush, as a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/** Makes the DATA_DIR with an account (signed in: its token) and a draft of it, then serves it from a child process. */
export async function portalProcess(options: { env?: Record<string, string>; parentDir?: string; nodeArgs?: string[] } = {}): Promise<PortalProcess> {
  const dataDir = await fs.mkdtemp(path.join(options.parentDir ?? os.tmpdir(), 'portal-crash-'));
  const database = await createTestDatabase('portal_crash');
  const databaseUrl = database?.url;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    WEB_DIST: path.join(dataDir, 'no-web'),
    FTP_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  };
  // The account and the record are written by the same code in this process, before the server starts on the file.
  const config = loadConfig(env);
  const built = await buildApp(config, { logger: false, passwordHashing: 'fast-for-tests' });
  const seed = { ...built, config, outbox: path.join(dataDir, 'mail'), close: () => built.app.close() } as TestPortal;
  const user = await buildUser(seed);
  const record = await buildRecord(seed, { owner: user });
  await built.app.close();

  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!databaseUrl) delete childEnv.DATABASE_URL;
  let child: ChildProcess | undefined;
  let output = '';
  const exited = () => new Promise<void>((resolve) => (child && child.exitCode === null && child.signalCode === null ? child.once('exit', () => resolve()) : resolve()));

  return {
    base,
    pid: () => child?.pid,
    dataDir,
    databaseUrl,
    token: user.token,
    record,
    async start() {
      child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'packages/server/src/main.ts'], {
        cwd: repoRoot,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
      child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
      // Ready when /healthz answers; a bounded wait (tsx compiles the sources first).
      for (let attempt = 0; attempt < 600; attempt++) {
        if (child.exitCode !== null) throw new Error(`the portal exited: ${output}`);
        const ready = await fetch(`${base}/healthz`).then(
          (reply) => reply.ok,
          () => false,
        );
        if (ready) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the portal did not start: ${output}`);
    },
    async kill() {
      const done = exited();
      child?.kill('SIGKILL');
      await done;
    },
    async stop() {
      const done = exited();
      child?.kill('SIGTERM');
      await done;
    },
    async remove() {
      await fs.rm(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
