import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, buildUser, type Person } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';
import { addKeyword, call, countRows, createRecord, expectStatus, patchRecord, resourceUrl, setStatus } from './metadata-builders.js';

/** The editor's empty-draft clean-up on leaving, and the server's clean-up of abandoned empty drafts. */
let portal: TestPortal;
let owner: Person;
let other: Person;
let staff: Person;
beforeAll(async () => {
  portal = await createTestPortal();
  [owner, other, staff] = await Promise.all([buildUser(portal), buildUser(portal), buildUser(portal, { staff: true })]);
}, 60_000);
afterAll(async () => {
  await portal?.close();
});

const drop = (token: string, id: string) => call(portal, 'POST', '/metadata/drop-empty-draft/', token, { body: { id } });
const exists = async (id: string) => (await countRows(portal, 'metadata', { id })) === 1;
/** A new draft as the editor's create call leaves it (what the clean-up is about), so through the API. */
const emptyDraft = (token = owner.token) => createRecord(portal, token, { title: '' });

/** Makes the record look last changed `ms` ago (and created before that). */
async function age(id: string, ms: number) {
  const time = new Date(Date.now() - ms).toISOString();
  await portal.database.db.updateTable('metadata').set({ created_at: time, updated_at: time }).where('id', '=', id).execute();
}

const DAY = 24 * 3_600_000;

describe('POST /metadata/drop-empty-draft/', () => {
  it("deletes the caller's draft that is empty and was never changed, with its translation", async () => {
    const record = await emptyDraft();
    expect(expectStatus(await drop(owner.token, record.id), 200)).toEqual({ deleted: true });
    expect(await exists(record.id)).toBe(false);
    expect(await countRows(portal, 'metadata_i18n', { metadata_id: record.id })).toBe(0);
  });

  it('keeps a draft that holds something', async () => {
    const titled = await buildRecord(portal, { owner, title: '冰川' });
    expect(expectStatus(await drop(owner.token, titled), 200)).toEqual({ deleted: false });
    const keyworded = await emptyDraft();
    await addKeyword(portal, owner.token, keyworded.id, 'place');
    expect(expectStatus(await drop(owner.token, keyworded.id), 200)).toEqual({ deleted: false });
    expect(await exists(titled)).toBe(true);
    expect(await exists(keyworded.id)).toBe(true);
  });

  it('keeps a draft that was typed into, even when it is empty again (another tab may be saving into it)', async () => {
    const record = await emptyDraft();
    await patchRecord(portal, owner.token, record.id, { title: '正在输入' });
    await patchRecord(portal, owner.token, record.id, { title: '' });
    expect(expectStatus(await call(portal, 'GET', `/metadata/metadata-is-null/?id=${record.id}`, owner.token), 200)).toEqual({ is_null: true });
    expect(expectStatus(await drop(owner.token, record.id), 200)).toEqual({ deleted: false });
    expect(await exists(record.id)).toBe(true);

    const translated = await emptyDraft();
    const url = resourceUrl('metadata-i18n', translated.translations[0].id);
    expectStatus(await call(portal, 'PATCH', url, owner.token, { body: { title: 'Typing' } }), 200);
    expectStatus(await call(portal, 'PATCH', url, owner.token, { body: { title: '' } }), 200);
    expect(expectStatus(await drop(owner.token, translated.id), 200)).toEqual({ deleted: false });
    expect(await exists(translated.id)).toBe(true);
  });

  it("never deletes another user's draft, not even for staff", async () => {
    const record = await emptyDraft();
    const refused = await drop(other.token, record.id);
    expect([403, 404]).toContain(refused.statusCode);
    expect(expectStatus(await drop(staff.token, record.id), 200)).toEqual({ deleted: false });
    expect(await exists(record.id)).toBe(true);
  });

  it('keeps an empty record that is no longer a draft', async () => {
    const record = await emptyDraft();
    await setStatus(portal, record.id, 'submitted');
    expect(expectStatus(await drop(owner.token, record.id), 200)).toEqual({ deleted: false });
    expect(await exists(record.id)).toBe(true);
  });

  it('refuses an anonymous caller', async () => {
    const record = await emptyDraft();
    expect((await call(portal, 'POST', '/metadata/drop-empty-draft/', null, { body: { id: record.id } })).statusCode).toBe(401);
    expect(await exists(record.id)).toBe(true);
  });
});

describe('abandoned empty drafts', () => {
  it('are deleted once untouched for a day, whoever owns them; touched, non-empty or submitted ones stay', async () => {
    const abandoned = await emptyDraft();
    const othersAbandoned = await emptyDraft(other.token);
    const recent = await emptyDraft();
    const keyworded = await emptyDraft();
    await addKeyword(portal, owner.token, keyworded.id, 'theme');
    const titled = await buildRecord(portal, { owner, title: '旧数据' });
    const submitted = await emptyDraft();
    await setStatus(portal, submitted.id, 'submitted');
    for (const id of [abandoned.id, othersAbandoned.id, keyworded.id, titled, submitted.id]) await age(id, 2 * DAY);
    await age(recent.id, 2 * 3_600_000);

    const removed = await portal.metadata.removeAbandonedDrafts(new Date(Date.now() - DAY));
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(await exists(abandoned.id)).toBe(false);
    expect(await exists(othersAbandoned.id)).toBe(false);
    for (const id of [recent.id, keyworded.id, titled, submitted.id]) expect(await exists(id)).toBe(true);
  });

  it('are removed by the server at start (the same job runs regularly while it runs)', async () => {
    const second = await createTestPortal();
    try {
      const user = await buildUser(second);
      const record = await createRecord(second, user.token, { title: '' });
      const time = new Date(Date.now() - 2 * DAY).toISOString();
      await second.database.db.updateTable('metadata').set({ created_at: time, updated_at: time }).where('id', '=', record.id).execute();
      // A restart on the same data directory (SQLite) runs the clean-up before it serves.
      await second.app.close();
      const { buildApp } = await import('../src/app.js');
      const restarted = await buildApp(second.config, { logger: false });
      try {
        expect(await restarted.database.db.selectFrom('metadata').select('id').where('id', '=', record.id).executeTakeFirst()).toBeUndefined();
      } finally {
        await restarted.app.close();
      }
    } finally {
      await second.close().catch(() => undefined);
    }
  });

  it('are removed by `npm run portal -- cleanup` too', async () => {
    const record = await emptyDraft();
    await age(record.id, 2 * DAY);
    const root = path.resolve(import.meta.dirname, '../../..');
    const env = { ...process.env, DATA_DIR: portal.config.dataDir, DATABASE_URL: portal.config.databaseUrl ?? '' };
    const { stdout } = await promisify(execFile)(path.join(root, 'node_modules/.bin/tsx'), ['packages/server/src/cli.ts', 'cleanup'], { cwd: root, env });
    expect(stdout).toContain('Clean-up done.');
    expect(await exists(record.id)).toBe(false);
  });
});
