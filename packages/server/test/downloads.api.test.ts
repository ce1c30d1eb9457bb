import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../src/storage/index.js';
import { buildUser, type Person } from './factories.js';
import { createTestPortal, tokenHeader, type TestPortal } from './helpers.js';
import { createRecord, expectStatus } from './metadata-builders.js';
import { upload } from './upload-builders.js';

const run = promisify(execFile);

let portal: TestPortal;
let baseUrl: string;
let owner: Person;
/** A data file of 300 KiB of random bytes, uploaded through the API. */
let content: Buffer;
let fileId: string;
let etag: string;
let downloadUrl: string;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  portal = await createTestPortal();
  owner = await buildUser(portal);
  const record = await createRecord(portal, owner.token);
  content = randomBytes(300 * 1024);
  const stored = expectStatus(await upload(portal, owner.token, '/metadata/upload-file/', record.id, { filename: '冰川 厚度.bin', content }), 201);
  fileId = stored.id;
  etag = `"${stored.sha256}"`;
  downloadUrl = `/api/metadata/meta-file/${fileId}/download/`;
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(portal.app.server.address() as net.AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await portal?.close();
});

function download(headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
  return portal.app.inject({ method, url: downloadUrl, headers: { ...tokenHeader(owner.token), ...headers } });
}

describe('GET /api/metadata/meta-file/:id/download/ (ranges)', () => {
  it('answers the whole file with its validators and Accept-Ranges', async () => {
    const response = await download();
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(content)).toBe(true);
    expect(response.headers).toMatchObject({
      'accept-ranges': 'bytes',
      etag,
      'content-length': String(content.length),
      'content-type': 'application/octet-stream',
      // sendStoredFile's 'private, no-cache' becomes the auth plugin's no-store for a signed-in caller.
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''%E5%86%B0%E5%B7%9D%20%E5%8E%9A%E5%BA%A6.bin");
    expect(Date.parse(String(response.headers['last-modified']))).not.toBeNaN();
  });

  it('answers one range with 206, its bytes and Content-Range', async () => {
    const response = await download({ range: 'bytes=1000-1999' });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 1000-1999/${content.length}`);
    expect(response.headers['content-length']).toBe('1000');
    expect(response.rawPayload.equals(content.subarray(1000, 2000))).toBe(true);

    const tail = await download({ range: 'bytes=-500' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(content.subarray(content.length - 500))).toBe(true);

    const rest = await download({ range: `bytes=${content.length - 10}-` });
    expect(rest.headers['content-range']).toBe(`bytes ${content.length - 10}-${content.length - 1}/${content.length}`);
    expect(rest.rawPayload.equals(content.subarray(content.length - 10))).toBe(true);
  });

  it('honours If-Range with the current ETag and answers the whole file for a stale one', async () => {
    const current = await download({ range: 'bytes=10-19', 'if-range': etag });
    expect(current.statusCode).toBe(206);
    expect(current.rawPayload.equals(content.subarray(10, 20))).toBe(true);

    const stale = await download({ range: 'bytes=10-19', 'if-range': `"${'0'.repeat(64)}"` });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(content)).toBe(true);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await download({ range: `bytes=${content.length}-` });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${content.length}`);
    expect(response.rawPayload).toHaveLength(0);
  });

  it('answers several ranges and a malformed one with the whole file', async () => {
    for (const range of ['bytes=0-9,20-29', 'bytes=9-2', 'lines=1-2']) {
      const response = await download({ range });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.equals(content), range).toBe(true);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await download({}, 'HEAD');
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'content-length': String(content.length), etag, 'accept-ranges': 'bytes' });
    expect(response.rawPayload).toHaveLength(0);
  });

  it('keeps who may download as it was: anonymous 401, another user 404 (the draft is hidden), on HEAD too', async () => {
    const other = await buildUser(portal);
    for (const method of ['GET', 'HEAD'] as const) {
      expect((await portal.app.inject({ method, url: downloadUrl, headers: { range: 'bytes=0-1' } })).statusCode).toBe(401);
      expect((await portal.app.inject({ method, url: downloadUrl, headers: { ...tokenHeader(other.token), range: 'bytes=0-1' } })).statusCode).toBe(404);
    }
  });

  it('resumes an interrupted download with curl -C - to the same SHA-256', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'resume-'));
    try {
      const target = path.join(dir, 'part.bin');
      // What an interrupted transfer leaves: the first bytes only.
      await fs.writeFile(target, content.subarray(0, 123_457));
      const { stdout: headers, stderr } = await run('curl', [
        '-sS',
        '-f',
        '-C',
        '-',
        '-D',
        '-',
        '-o',
        target,
        '-H',
        `Authorization: Token ${owner.token}`,
        `${baseUrl}${downloadUrl}`,
      ]);
      expect(stderr).toBe('');
      expect(headers).toMatch(/^HTTP\/1\.1 206 /);
      expect(headers).toContain(`content-range: bytes 123457-${content.length - 1}/${content.length}`);
      expect(sha256(await fs.readFile(target))).toBe(sha256(content));

      // Asking again for a file already complete is a 416 with `bytes */size`, which curl takes as done (exit 0).
      await run('curl', ['-sS', '-C', '-', '-o', target, '-H', `Authorization: Token ${owner.token}`, `${baseUrl}${downloadUrl}`]);
      expect(sha256(await fs.readFile(target))).toBe(sha256(content));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('resumes with wget -c', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'resume-'));
    try {
      const target = path.join(dir, 'part.bin');
      await fs.writeFile(target, content.subarray(0, 1000));
      await run('wget', ['-q', '-c', '-O', target, '--header', `Authorization: Token ${owner.token}`, `${baseUrl}${downloadUrl}`]);
      expect(sha256(await fs.readFile(target))).toBe(sha256(content));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('answers 404 on GET and HEAD when the blob is gone from the storage, whole or ranged', async () => {
    const record = await createRecord(portal, owner.token);
    const stored = expectStatus(await upload(portal, owner.token, '/metadata/upload-file/', record.id, { filename: 'lost.bin', content: 'gone soon' }), 201);
    const row = await portal.database.db.selectFrom('meta_file').select('storage_key').where('id', '=', stored.id).executeTakeFirstOrThrow();
    await createBlobStore({ dataDir: portal.config.dataDir }).delete(row.storage_key);
    const url = `/api/metadata/meta-file/${stored.id}/download/`;
    for (const [method, range] of [
      ['GET', undefined],
      ['GET', 'bytes=2-'],
      ['HEAD', undefined],
    ] as const) {
      const response = await portal.app.inject({ method, url, headers: { ...tokenHeader(owner.token), ...(range ? { range } : {}) } });
      expect(response.statusCode, `${method} ${range}`).toBe(404);
      expect(response.headers['content-disposition']).toBeUndefined();
    }
  });
});
