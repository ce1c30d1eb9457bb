import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LocalDiskStore } from '../../storage/index.js';
import { attachmentDisposition, sendZip } from './send-file.js';
import { streamZip } from './zip-stream.js';

const run = promisify(execFile);

describe('attachmentDisposition', () => {
  it('names downloads with an ASCII fallback and an RFC 5987 filename*', () => {
    expect(attachmentDisposition('data.csv')).toBe(`attachment; filename="data.csv"; filename*=UTF-8''data.csv`);
    expect(attachmentDisposition('青藏 "高原";%.nc')).toBe(`attachment; filename="__ ______.nc"; filename*=UTF-8''%E9%9D%92%E8%97%8F%20%22%E9%AB%98%E5%8E%9F%22%3B%25.nc`);
    expect(attachmentDisposition("a'(b)*.txt")).toBe(`attachment; filename="a'(b)*.txt"; filename*=UTF-8''a%27%28b%29%2A.txt`);
  });
});

describe('sendZip', () => {
  it('sends the zip with its length, and breaks the connection when a blob fails on the way', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'send-zip-'));
    const store = new LocalDiskStore(root);
    const app = Fastify();
    try {
      const stored = [await store.put(randomBytes(8 * 1024 * 1024), { maxBytes: 1e9 }), await store.put(randomBytes(1000), { maxBytes: 1e9 })];
      const entries = stored.map((blob, index) => ({ path: `d/${index}.bin`, size: blob.size, sha256: blob.sha256, storage_key: blob.key, mtime: new Date() }));
      app.get('/zip', async (request, reply) => {
        const zip = await streamZip(entries, store, request.log);
        // Gone after the check, before its turn: the zip has begun and cannot be answered otherwise.
        if ((request.query as { lose?: string }).lose) await store.delete(stored[1]!.key);
        return sendZip(reply, zip, '冰川.zip');
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/zip`;

      const whole = path.join(root, 'whole.zip');
      const { stdout: headers } = await run('curl', ['-sS', '-f', '-D', '-', '-o', whole, url]);
      expect(headers).toContain('content-type: application/zip');
      expect(Number(/content-length: (\d+)/.exec(headers)?.[1])).toBe((await fs.stat(whole)).size);
      expect((await run('unzip', ['-tq', whole])).stdout).toContain('No errors detected');

      // curl: exit 18, "transfer closed with ... bytes remaining".
      await expect(run('curl', ['-sS', '-f', '-o', path.join(root, 'broken.zip'), `${url}?lose=1`])).rejects.toMatchObject({ code: 18 });
    } finally {
      await app.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
