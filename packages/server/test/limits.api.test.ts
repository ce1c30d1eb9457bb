import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, countRows, createRecord, expectStatus } from './metadata-builders.js';
import { upload } from './upload-builders.js';

/** Per-account limits: records created per hour (METADATA_CREATE_PER_HOUR), stored bytes (USER_STORAGE_QUOTA_MB). */
let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal({ env: { METADATA_CREATE_PER_HOUR: '3', USER_STORAGE_QUOTA_MB: '1' } });
}, 60_000);
afterAll(async () => {
  await portal?.close();
});

const MIB = 1024 * 1024;
const createDraft = (token: string, headers: Record<string, string> = {}) =>
  call(portal, 'POST', '/api/metadata/metadata/', token, { body: { language: 'zh-hans', title: '冰川' }, headers });

async function recordsOf(ownerId: string): Promise<number> {
  return countRows(portal, 'metadata', { owner_id: ownerId });
}

/** Every file under DATA_DIR/files, blobs and temporary files alike. */
async function storedFiles(): Promise<string[]> {
  const root = path.join(portal.config.dataDir, 'files');
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** A data file of this size, each under a name of its own (one folder holds one file of a name). */
let uploaded = 0;
const bytes = (size: number) => ({ filename: `data-${++uploaded}.bin`, content: new Uint8Array(size).fill(7) });

describe('records created per hour', () => {
  it("refuses the record past the limit with 429 in the caller's language, writing nothing", async () => {
    const user = await buildUser(portal);
    for (let i = 0; i < 3; i += 1) expectStatus(await createDraft(user.token), 201);
    const chinese = await createDraft(user.token);
    expect(chinese.statusCode).toBe(429);
    expect(chinese.json()).toEqual({ detail: '您在过去一小时内已创建 3 条元数据，已达到每个账户的上限，请稍后再试。' });
    const english = await createDraft(user.token, EN);
    expect(english.statusCode).toBe(429);
    expect(english.json().detail).toBe('You have created 3 metadata records in the last hour, the most one account may. Please try again later.');
    expect(await recordsOf(user.id)).toBe(3);
    expect(await countRows(portal, 'metadata_i18n')).toBe(await countRows(portal, 'metadata'));
  });

  it('counts duplicates too', async () => {
    const user = await buildUser(portal);
    const first = await createRecord(portal, user.token);
    expectStatus(await call(portal, 'POST', `/metadata/duplication/${first.id}`, user.token), 201);
    expectStatus(await call(portal, 'POST', `/metadata/duplication/${first.id}`, user.token), 201);
    const refused = await call(portal, 'POST', `/metadata/duplication/${first.id}`, user.token, { headers: EN });
    expect(refused.statusCode).toBe(429);
    expect(await recordsOf(user.id)).toBe(3);
  });

  it("counts only the last hour, and only the caller's records", async () => {
    const user = await buildUser(portal);
    const other = await buildUser(portal);
    for (let i = 0; i < 3; i += 1) await createRecord(portal, user.token);
    expectStatus(await createDraft(other.token), 201);
    const earlier = new Date(Date.now() - 61 * 60_000).toISOString();
    await portal.database.db.updateTable('metadata').set({ created_at: earlier }).where('owner_id', '=', user.id).execute();
    expectStatus(await createDraft(user.token), 201);
  });

  it('holds when requests come at once', async () => {
    const user = await buildUser(portal);
    const replies = await Promise.all(Array.from({ length: 6 }, () => createDraft(user.token)));
    expect(replies.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(replies.filter((r) => r.statusCode === 429)).toHaveLength(3);
    expect(await recordsOf(user.id)).toBe(3);
  });

  it('does not hold staff back', async () => {
    const staff = await buildUser(portal, { staff: true });
    for (let i = 0; i < 4; i += 1) expectStatus(await createDraft(staff.token), 201);
  });
});

describe('stored bytes per user', () => {
  it("refuses an upload past the quota with 413 in the caller's language, leaving no row, blob or temporary file", async () => {
    const user = await buildUser(portal);
    const record = await createRecord(portal, user.token);
    expectStatus(await upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(700 * 1024)), 201);
    const before = await storedFiles();
    const chinese = await upload(portal, user.token, '/metadata/upload-attachment', record.id, { filename: 'spec.pdf', content: new Uint8Array(400 * 1024) });
    expect(chinese.statusCode).toBe(413);
    expect(chinese.json()).toEqual({ detail: '您上传的文件总共最多占用 1 MB；请删除一些文件，或联系数据中心增加空间。' });
    const english = await upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(400 * 1024), EN);
    expect(english.statusCode).toBe(413);
    expect(english.json().detail).toBe('Your uploaded files may take up at most 1 MB in all; delete some files or ask the data centre for more room.');
    expect(await countRows(portal, 'meta_file', { metadata_id: record.id })).toBe(1);
    expect(await countRows(portal, 'meta_attach', { metadata_id: record.id })).toBe(0);
    expect(await storedFiles()).toEqual(before);
    // What fits still goes in.
    expectStatus(await upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(300 * 1024)), 201);
  });

  it('refuses before streaming once the quota is used up', async () => {
    const user = await buildUser(portal);
    const record = await createRecord(portal, user.token);
    expectStatus(await upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(MIB)), 201);
    const refused = await upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(1), EN);
    expect(refused.statusCode).toBe(413);
    expect(await countRows(portal, 'meta_file', { metadata_id: record.id })).toBe(1);
  });

  it('checks again when the row is written: two uploads at once cannot both take the last room', async () => {
    const user = await buildUser(portal);
    const record = await createRecord(portal, user.token);
    const replies = await Promise.all([
      upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(600 * 1024)),
      upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(600 * 1024)),
    ]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 413]);
    expect(await countRows(portal, 'meta_file', { metadata_id: record.id })).toBe(1);
    const keys = await portal.database.db.selectFrom('meta_file').select('storage_key').where('metadata_id', '=', record.id).execute();
    const files = await storedFiles();
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    for (const { storage_key: key } of keys) expect(files).toContain(key);
  });

  it("counts the caller's uploads only, and does not hold staff back", async () => {
    const user = await buildUser(portal);
    const other = await buildUser(portal);
    const staff = await buildUser(portal, { staff: true });
    const record = await createRecord(portal, user.token);
    const otherRecord = await createRecord(portal, other.token);
    expectStatus(await upload(portal, user.token, '/metadata/upload-file/', record.id, bytes(900 * 1024)), 201);
    expectStatus(await upload(portal, other.token, '/metadata/upload-file/', otherRecord.id, bytes(900 * 1024)), 201);
    expectStatus(await upload(portal, staff.token, '/metadata/upload-file/', record.id, bytes(900 * 1024)), 201);
    expectStatus(await upload(portal, staff.token, '/metadata/upload-file/', record.id, bytes(900 * 1024)), 201);
  });
});
