import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METADATA_LIMITS, translate } from '@portal/shared';
import { buildRecord, buildUser, buildUsers, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { listedNames } from './uploads-builders.js';

/**
 * What an FTP upload account may put in a record's incoming folder (issue 19): no file past 50 GB and
 * no more than what is left of the account's storage quota (USER_STORAGE_QUOTA_MB, 1 MB here), as on
 * every other upload path. A STOR that would go beyond is refused with a 550 and the reason, and
 * nothing of it is kept; /data/sync/ refuses a file over 50 GB without reading it. The 51st GB is
 * reached with a sparse file in the incoming folder, so that no test writes 50 GB.
 */
let portal: TestPortal;
let people: Record<'creator' | 'staff', Person>;
let work: string;
let port: number;

const GB50 = METADATA_LIMITS.compressAboveBytes;

beforeAll(async () => {
  const pasv = randomInt(40_000, 60_000);
  portal = await createTestPortal({
    env: { USER_STORAGE_QUOTA_MB: '1', FTP_ENABLED: 'true', FTP_PORT: '0', FTP_HOST: '127.0.0.1', FTP_LISTEN_HOST: '127.0.0.1', FTP_PASV_PORTS: `${pasv}-${pasv + 100}` },
  });
  port = portal.ftpServer.endpoint()!.port;
  people = await buildUsers(portal, { creator: {}, staff: { staff: true } });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-ftp-limits-'));
}, 60_000);

afterAll(async () => {
  await portal?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

interface Account {
  username: string;
  password: string;
}

function curl(account: Account, remote: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '-v', '--max-time', '30', ...args, `ftp://${account.username}:${account.password}@127.0.0.1:${port}${remote}`], { cwd: work }, (error, _out, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
    );
  });
}

async function accountOn(person: Person, metadataId: string): Promise<Account> {
  return expectStatus(await call(portal, 'POST', '/api/data/ftp/', person.token, { body: { metadata_id: metadataId } }), 201);
}

async function local(name: string, size: number): Promise<string> {
  const file = path.join(work, name);
  await fs.writeFile(file, randomBytes(size));
  return file;
}

describe("an FTP upload account's limits", () => {
  it("stops a STOR at the account's quota with a 550 and the reason; nothing of it is kept, and what was kept syncs", async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const account = await accountOn(people.creator, record);
    const incoming = await portal.ftp.incoming.folderOf(record);
    expect((await curl(account, '/first.bin', '-T', await local('first.bin', 600 * 1024))).code).toBe(0);
    const refused = await curl(account, '/second.bin', '-T', await local('second.bin', 600 * 1024));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`550 ${translate('en', 'metadata.files.quotaExceeded', { limit: '1 MB' })}`);
    // Neither the file nor its hidden part remains.
    expect(await fs.readdir(incoming)).toEqual(['first.bin']);
    // Room freed by a deletion is room again.
    expect((await curl(account, '/', '-Q', 'DELE first.bin', '--list-only')).code).toBe(0);
    expect((await curl(account, '/second.bin', '-T', path.join(work, 'second.bin'))).code).toBe(0);
    const synced = expectStatus(await call(portal, 'POST', '/data/sync/', people.creator.token, { body: { metadata_id: record }, headers: EN }), 200);
    expect(synced).toMatchObject({ count: 1, refused: [] });
    expect(await listedNames(portal, record)).toEqual(['second.bin']);
    // The synced file now counts as stored: the quota is full, a new STOR is refused before a byte.
    const full = await curl(account, '/third.bin', '-T', await local('third.bin', 500 * 1024));
    expect(full.code).not.toBe(0);
    expect(full.stderr).toContain('550 Your uploaded files may take up at most 1 MB');
    expect(await fs.readdir(incoming).catch(() => [])).toEqual([]);
  });

  it('refuses the byte past 50 GB (APPE and REST + STOR), keeping the file as it was', async () => {
    // Staff have no quota: only the per-file limit applies.
    const record = await buildRecord(portal, { owner: people.creator });
    const account = await accountOn(people.staff, record);
    const incoming = await portal.ftp.incoming.folderOf(record);
    const big = path.join(incoming, 'big.nc');
    await fs.writeFile(big, '');
    await fs.truncate(big, GB50 - 4);
    const appended = await curl(account, '/big.nc', '--append', '-T', await local('tail.bin', 10));
    expect(appended.code).not.toBe(0);
    expect(appended.stderr).toContain(`550 ${translate('en', 'uploads.compress')}`);
    expect((await fs.stat(big)).size).toBe(GB50 - 4);
    // Up to the limit is allowed.
    expect((await curl(account, '/big.nc', '--append', '-T', await local('four.bin', 4))).code).toBe(0);
    expect((await fs.stat(big)).size).toBe(GB50);
    // REST past the limit, then STOR: refused before a byte.
    const resumed = await curl(account, '/big.nc', '-Q', `REST ${GB50 + 1}`, '-T', await local('more.bin', 10));
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain(`550 ${translate('en', 'uploads.compress')}`);
    expect((await fs.stat(big)).size).toBe(GB50);
  });

  it('has /data/sync/ count the quota across the files it lists together: the one that would go over stays, with the reason', async () => {
    const owner = await buildUser(portal, { language: 'en' });
    const record = await buildRecord(portal, { owner });
    const incoming = await portal.ftp.incoming.folderOf(record);
    await fs.mkdir(path.join(incoming, 'day'));
    for (const name of ['a.bin', 'b.bin']) await fs.writeFile(path.join(incoming, 'day', name), randomBytes(600 * 1024));
    const synced = expectStatus(await call(portal, 'POST', '/data/sync/', owner.token, { body: { metadata_id: record }, headers: EN }), 200);
    expect(synced).toMatchObject({ count: 1, refused: [{ path: '/day/b.bin', detail: translate('en', 'metadata.files.quotaExceeded', { limit: '1 MB' }) }] });
    expect(await listedNames(portal, record)).toEqual(['a.bin']);
    expect(await fs.readdir(path.join(incoming, 'day'))).toEqual(['b.bin']);
  });

  it('has /data/sync/ refuse a file over 50 GB without reading it; it stays in the incoming folder', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const incoming = await portal.ftp.incoming.folderOf(record);
    const big = path.join(incoming, 'huge.nc');
    await fs.writeFile(big, '');
    await fs.truncate(big, GB50 + 1);
    await fs.writeFile(path.join(incoming, 'small.csv'), 'a,b\n');
    const synced = expectStatus(await call(portal, 'POST', '/data/sync/', people.creator.token, { body: { metadata_id: record }, headers: EN }), 200);
    expect(synced).toMatchObject({ count: 1, refused: [{ path: '/huge.nc', detail: translate('en', 'uploads.compress') }] });
    expect(await listedNames(portal, record)).toEqual(['small.csv']);
    expect(await fs.readdir(incoming)).toEqual(['huge.nc']);
    await fs.rm(big);
  });
});
