/**
 * The serving children of bench/mixed-load.ts (this file with --serve hello|portal): a bare Fastify
 * hello world, or the portal built as main.ts does with BENCH_RECORDS published records, a data file
 * each and BENCH_USERS signed-in users; and the parent's side of them (start, ask).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const RECORDS = Number(process.env.BENCH_RECORDS ?? 200);
export const USERS = Number(process.env.BENCH_USERS ?? 200);
export const FILE_KIB = Number(process.env.BENCH_FILE_KIB ?? 64);
export const PASSWORD = 'bench-password-1';

export interface Served {
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
  const { RecordsIoRepo } = (await import(
    path.join(source, 'modules/records-io/records-io.repo.ts')
  )) as typeof import('../packages/server/src/modules/records-io/records-io.repo.js');
  const { RecordsIoService } = (await import(
    path.join(source, 'modules/records-io/records-io.service.ts')
  )) as typeof import('../packages/server/src/modules/records-io/records-io.service.js');
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
      .values({
        id,
        metadata_id: metadataId,
        name: `data-${index}.bin`,
        mime: 'application/octet-stream',
        storage_key: blob.key,
        sha256: blob.sha256,
        size: blob.size,
        created_by: owner.id,
        created_at: now,
      })
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
    if (i > 0)
      await db
        .insertInto('users')
        .values({ ...model, id, username, email: `${username}@example.org` })
        .execute();
    const token = randomBytes(20).toString('hex');
    await db
      .insertInto('auth_tokens')
      .values({ key_hash: createHash('sha256').update(token).digest('hex'), user_id: id, created_at: now, last_used_at: now })
      .execute();
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
      const row = await db
        .selectFrom('metadata')
        .select((eb) => eb.fn.sum<number>('download_count').as('downloads'))
        .executeTakeFirst();
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

/** Starts a serving child (this file) and waits for what it serves. */
export function start(kind: 'hello' | 'portal', env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<{ child: ChildProcess; served: Served }> {
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

/** A message to a serving child, and its answer. */
export function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as T));
    child.send(message);
  });
}

const serveIndex = process.argv.indexOf('--serve');
if (serveIndex >= 0) await serve(process.argv[serveIndex + 1]!);
