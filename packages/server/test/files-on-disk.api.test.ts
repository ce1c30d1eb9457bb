import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { buildUser } from './factories.js';
import { createTestPortal, readOutbox, registerAndActivate, type TestPortal } from './helpers.js';
import { createRecord, expectStatus } from './metadata-builders.js';
import { upload } from './upload-builders.js';

/** What the portal leaves in DATA_DIR: unfinished uploads are swept, nothing is world-readable. */
let portal: TestPortal | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await portal?.close();
  portal = undefined;
});

const MINUTE = 60_000;

/** A temporary upload file as LocalDiskStore names it, last written `idleMs` ago. */
async function temporaryFile(root: string, idleMs: number): Promise<string> {
  const key = Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32);
  const folder = path.join(root, key.slice(0, 2));
  await fs.mkdir(folder, { recursive: true });
  const file = path.join(folder, `.${key}.0123456789ab.tmp`);
  await fs.writeFile(file, 'half an upload');
  const time = new Date(Date.now() - idleMs);
  await fs.utimes(file, time, time);
  return file;
}

const present = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe('unfinished uploads', () => {
  it('are swept at every start once untouched for 15 minutes; a file another instance is writing stays', async () => {
    portal = await createTestPortal();
    const root = path.join(portal.config.dataDir, 'files');
    const dead = await temporaryFile(root, 20 * MINUTE);
    const live = await temporaryFile(root, 1 * MINUTE);
    // A restart on the same data directory, as after a killed server.
    const restarted = await buildApp(portal.config, { logger: false });
    await restarted.app.close();
    expect(await present(dead)).toBe(false);
    expect(await present(live)).toBe(true);
  });

  it('are swept regularly while the server runs', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    portal = await createTestPortal();
    const root = path.join(portal.config.dataDir, 'files');
    const dead = await temporaryFile(root, 20 * MINUTE);
    expect(await present(dead)).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    await vi.waitFor(async () => expect(await present(dead)).toBe(false));
  });
});

describe('files written by the portal', () => {
  async function modeOf(file: string): Promise<number> {
    return (await fs.stat(file)).mode & 0o777;
  }

  it("are readable by the portal's user only: folders 0700, files 0600", async () => {
    portal = await createTestPortal();
    const dataDir = portal.config.dataDir;
    // A mail in the outbox, an uploaded file.
    await registerAndActivate(portal);
    const user = await buildUser(portal);
    const record = await createRecord(portal, user.token);
    const stored = expectStatus(await upload(portal, user.token, '/metadata/upload-file/', record.id, { filename: 'a.csv', content: 'x,y\n1,2\n' }), 201);
    expect((await readOutbox(portal.outbox)).length).toBeGreaterThan(0);

    const key = (await portal.database.db.selectFrom('meta_file').select('storage_key').where('id', '=', stored.id).executeTakeFirstOrThrow()).storage_key;
    const folders = [dataDir, portal.outbox, path.join(dataDir, 'files'), path.join(dataDir, 'files', key.slice(0, 2))];
    const files = [path.join(dataDir, 'files', key.slice(0, 2), key), ...(await fs.readdir(portal.outbox)).map((name) => path.join(portal!.outbox, name))];
    if (!portal.config.databaseUrl) {
      for (const name of ['portal.sqlite3', 'portal.sqlite3-wal', 'portal.sqlite3-shm']) files.push(path.join(dataDir, name));
    }
    for (const folder of folders) expect((await modeOf(folder)).toString(8), folder).toBe('700');
    for (const file of files) expect((await modeOf(file)).toString(8), file).toBe('600');
  });
});
