import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { buildDataFile, buildRecord, buildUsers, setRecordStatus, type Person } from './factories.js';
import { createTestPortal, EN, FORM, form, tokenHeader, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { decide } from './review-builders.js';
import { upload } from './upload-builders.js';
import { listedNames, sendChunk, sourceBytes, tusCreate, tusPatch, type ChunkLayout } from './uploads-builders.js';

/**
 * A published record's data files do not change under its DOI (issue 19; record-policy.ts
 * `changeFiles`), on every write path: the tree's form posts, /metadata/upload-file/ and its delete,
 * tus, the chunked upload, an FTP upload account and /data/sync/. Its creator is told the spec's 'no
 * right', staff to reopen it; once the review workflow has reopened it (unpublished), staff change
 * its files and publish it again. Uploads begun while it was a draft are refused once it is published.
 */
let portal: TestPortal;
let people: Record<'creator' | 'staff', Person>;
let work: string;
let ftpPort: number;

const NO_RIGHT = translate('en', 'metadata.noRight');
const REOPEN = translate('en', 'metadata.filesPublished');

beforeAll(async () => {
  const pasv = randomInt(40_000, 60_000);
  portal = await createTestPortal({ env: { FTP_ENABLED: 'true', FTP_PORT: '0', FTP_HOST: '127.0.0.1', FTP_LISTEN_HOST: '127.0.0.1', FTP_PASV_PORTS: `${pasv}-${pasv + 100}` } });
  ftpPort = portal.ftpServer.endpoint()!.port;
  people = await buildUsers(portal, { creator: {}, staff: { staff: true } });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-published-'));
}, 60_000);

afterAll(async () => {
  await portal?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

/** A published record of the creator's with one data file, /seen.txt. */
async function publishedRecord(): Promise<string> {
  const id = await buildRecord(portal, { owner: people.creator, published: '2024-01-01' });
  await buildDataFile(portal, id, people.creator, { name: 'seen.txt', content: 'seen' });
  await setRecordStatus(portal, id, 'published');
  return id;
}

const post = (url: string, person: Person, fields: Record<string, string>) =>
  portal.app.inject({ method: 'POST', url, headers: { ...FORM, ...EN, ...tokenHeader(person.token) }, payload: form(fields) });

/** Runs a client to its end; its exit code and what it wrote. */
function run(command: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: work, timeout: 60_000 }, (error, _stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }));
  });
}

/** Every write call on the record's files, each answering its HTTP status and message. */
async function writes(person: Person, id: string): Promise<Record<string, [number, string]>> {
  const answer = (reply: { statusCode: number; json(): { detail?: string } }): [number, string] => [reply.statusCode, reply.json().detail ?? ''];
  const fileId = (await portal.database.db.selectFrom('meta_file').select('id').where('metadata_id', '=', id).where('name', '=', 'seen.txt').executeTakeFirstOrThrow()).id;
  const layout: ChunkLayout = { identifier: `pub-${person.id}-${id}`, filename: 'chunked.bin', metadataId: id, chunkSize: 1024, totalSize: 2048 };
  return {
    createFolder: answer(await post('/data/createFolder/', person, { metadata_id: id, path: '/', name: 'late' })),
    newfile: answer(await post('/data/newfile/', person, { metadata_id: id, path: '/', name: 'late.txt' })),
    moveFile: answer(await post('/data/moveFile/', person, { metadata_id: id, from: '/seen.txt', to: '/moved.txt' })),
    deleteFile: answer(await post('/data/deleteFile/', person, { metadata_id: id, path: '/', name: 'seen.txt' })),
    uploadFile: answer(await upload(portal, person.token, '/metadata/upload-file/', id, { filename: 'late.csv', content: 'x' }, EN)),
    deleteMetaFile: answer(await call(portal, 'DELETE', `/api/metadata/meta-file/${fileId}/`, person.token, { headers: EN })),
    tus: answer(await tusCreate(portal, person.token, 10, { metadata: id, filename: 'tus.bin' })),
    chunked: answer(await sendChunk(portal, person.token, layout, 1, sourceBytes(1024))),
    ftpAccount: answer(await call(portal, 'POST', '/api/data/ftp/', person.token, { body: { metadata_id: id }, headers: EN })),
    sync: answer(await call(portal, 'POST', '/data/sync/', person.token, { body: { metadata_id: id }, headers: EN })),
  };
}

const every = (answer: [number, string]) => ({
  createFolder: answer,
  newfile: answer,
  moveFile: answer,
  deleteFile: answer,
  uploadFile: answer,
  deleteMetaFile: answer,
  tus: answer,
  chunked: answer,
  ftpAccount: answer,
  sync: answer,
});

describe("a published record's files", () => {
  it("are refused on every write path: to the creator with the spec's 'no right', to staff with 'reopen it first'; nothing changes", async () => {
    const id = await publishedRecord();
    expect(await writes(people.creator, id)).toEqual(every([403, NO_RIGHT]));
    expect(await writes(people.staff, id)).toEqual(every([409, REOPEN]));
    expect(await listedNames(portal, id)).toEqual(['seen.txt']);
    expect(await portal.database.db.selectFrom('meta_folder').select('id').where('metadata_id', '=', id).execute()).toEqual([]);
    expect(await portal.database.db.selectFrom('uploads').select('id').where('metadata_id', '=', id).execute()).toEqual([]);
    // In Chinese too.
    const zh = await portal.app.inject({
      method: 'POST',
      url: '/data/createFolder/',
      headers: { ...FORM, ...tokenHeader(people.staff.token), 'accept-language': 'zh-hans' },
      payload: form({ metadata_id: id, path: '/', name: 'late' }),
    });
    expect(zh.json().detail).toBe(translate('zh-hans', 'metadata.filesPublished'));
  });

  it('refuse the rest of a tus and a chunked upload begun while the record was a draft; nothing is listed', async () => {
    const id = await buildRecord(portal, { owner: people.creator });
    const begun = await tusCreate(portal, people.creator.token, 2048, { metadata: id, filename: 'begun-tus.bin' });
    expect(begun.statusCode).toBe(201);
    const tusAt = begun.headers.location as string;
    expect((await tusPatch(portal, people.creator.token, tusAt, 0, sourceBytes(1024))).statusCode).toBe(204);
    const layout: ChunkLayout = { identifier: 'begun-chunked', filename: 'begun-chunked.bin', metadataId: id, chunkSize: 1024, totalSize: 2048 };
    expect((await sendChunk(portal, people.creator.token, layout, 1, sourceBytes(1024))).statusCode).toBe(200);
    await setRecordStatus(portal, id, 'published');
    const tusRest = await tusPatch(portal, people.creator.token, tusAt, 1024, sourceBytes(1024));
    expect([tusRest.statusCode, tusRest.json().detail]).toEqual([403, NO_RIGHT]);
    const chunkRest = await sendChunk(portal, people.creator.token, layout, 2, sourceBytes(1024));
    expect([chunkRest.statusCode, chunkRest.json().detail]).toEqual([403, NO_RIGHT]);
    expect(await listedNames(portal, id)).toEqual([]);
  });

  it('refuse an FTP session signed in while the record was a draft, and a sync of what arrived before', async () => {
    const id = await buildRecord(portal, { owner: people.creator });
    const account = expectStatus(await call(portal, 'POST', '/api/data/ftp/', people.creator.token, { body: { metadata_id: id } }), 201);
    await fs.writeFile(path.join(work, 'early.nc'), 'early');
    await fs.writeFile(path.join(work, 'late.nc'), 'late');
    const incoming = await portal.ftp.incoming.folderOf(id);
    // One session: the first file goes in, the record is published meanwhile, the second is refused.
    const session = run('lftp', [
      '-c',
      `set net:max-retries 1; set ftp:ssl-allow no; set cmd:fail-exit yes; open -u ${account.username},${account.password} -p ${ftpPort} 127.0.0.1; put early.nc; sleep 3; put late.nc; mkdir later`,
    ]);
    for (let i = 0; i < 100 && !(await fs.readdir(incoming)).includes('early.nc'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await setRecordStatus(portal, id, 'published');
    const ended = await session;
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toMatch(/put: .*late\.nc/);
    expect((await fs.readdir(incoming)).sort()).toEqual(['early.nc']);
    // A new session is refused at login.
    expect((await run('curl', ['-sS', '-T', path.join(work, 'late.nc'), `ftp://${account.username}:${account.password}@127.0.0.1:${ftpPort}/late.nc`])).code).toBe(67);
    const synced = await call(portal, 'POST', '/data/sync/', people.creator.token, { body: { metadata_id: id }, headers: EN });
    expect([synced.statusCode, synced.json().detail]).toEqual([403, NO_RIGHT]);
    expect(await listedNames(portal, id)).toEqual([]);
  });

  it('change once the review workflow reopened the record (unpublished): staff change them and publish it again; its creator still may not', async () => {
    const id = await publishedRecord();
    expectStatus(await decide(portal, people.staff.token, id, { review_status: 'unpublish', content: 'A corrected release of the files.' }), 200);
    expect((await post('/data/newfile/', people.creator, { metadata_id: id, path: '/', name: 'creator.txt' })).statusCode).toBe(409);
    expect((await post('/data/createFolder/', people.staff, { metadata_id: id, path: '/', name: 'v2' })).statusCode).toBe(201);
    const created = await tusCreate(portal, people.staff.token, 4, { metadata: id, filename: 'fix.nc', path: '/v2' });
    expect(created.statusCode).toBe(201);
    expect((await tusPatch(portal, people.staff.token, created.headers.location as string, 0, Buffer.from('v2!!'))).statusCode).toBe(204);
    expect((await post('/data/deleteFile/', people.staff, { metadata_id: id, path: '/', name: 'seen.txt' })).statusCode).toBe(200);
    expect(await listedNames(portal, id)).toEqual(['fix.nc']);
    expectStatus(await decide(portal, people.staff.token, id, { review_status: 'publish' }), 200);
    expect((await post('/data/newfile/', people.staff, { metadata_id: id, path: '/', name: 'after.txt' })).statusCode).toBe(409);
  });
});
