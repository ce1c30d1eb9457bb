import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupJobs, runCleanupJobs } from '../src/jobs.js';
import { createBlobStore } from '../src/storage/index.js';
import { buildRecord, buildUsers, type Person } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';
import { chunkOf, partsInUploadArea, sendChunk, sourceBytes, tusCreate, tusPatch, uploadRows, type ChunkLayout } from './uploads-builders.js';

/**
 * Abandoned uploads are swept by the portal's clean-up jobs (src/jobs.ts, what the server repeats and
 * `npm run portal -- cleanup` runs): a tus and a chunked upload past UPLOAD_EXPIRY_HOURS lose their
 * rows and their parts in the upload area, and the hidden part files a killed FTP session left in an
 * incoming folder go once they are as old. The clock is moved by dating the rows' expiry and the
 * files' modification time back; what is younger stays.
 */
let portal: TestPortal;
let people: Record<'creator', Person>;

const DAY = 24 * 3600_000;

beforeAll(async () => {
  portal = await createTestPortal();
  people = await buildUsers(portal, { creator: {} });
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

async function runJobs(): Promise<void> {
  const jobs = cleanupJobs({ ...portal, storage: createBlobStore({ dataDir: portal.config.dataDir }), ftp: portal.ftp });
  const errors: unknown[] = [];
  await runCleanupJobs(jobs, { info: () => undefined, error: (details: unknown) => errors.push(details) });
  expect(errors).toEqual([]);
}

/** Dates a file's modification back by `ms`. */
async function age(file: string, ms: number): Promise<void> {
  const then = new Date(Date.now() - ms);
  await fs.utimes(file, then, then);
}

describe('the clean-up jobs', () => {
  it('sweep expired tus and chunked uploads with their parts, and FTP part files as old; younger ones stay', async () => {
    const record = await buildRecord(portal, { owner: people.creator });
    const old = await tusCreate(portal, people.creator.token, 1000, { metadata: record, filename: 'old.bin' });
    expect((await tusPatch(portal, people.creator.token, old.headers.location as string, 0, sourceBytes(400))).statusCode).toBe(204);
    const fresh = await tusCreate(portal, people.creator.token, 1000, { metadata: record, filename: 'fresh.bin' });
    expect(fresh.statusCode).toBe(201);
    const layout: ChunkLayout = { identifier: 'swept', filename: 'chunked.bin', metadataId: record, chunkSize: 1024, totalSize: 2048 };
    const source = sourceBytes(2048);
    expect((await sendChunk(portal, people.creator.token, layout, 1, chunkOf(source, layout, 1))).statusCode).toBe(200);
    const freshId = (fresh.headers.location as string).split('/').pop()!;
    // The two abandoned uploads: expired a day ago, their parts untouched as long.
    await portal.database.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - DAY).toISOString() })
      .where('id', '!=', freshId)
      .execute();
    for (const part of await partsInUploadArea(portal, record)) {
      if (!part.startsWith(freshId)) await age(path.join(portal.config.dataDir, 'files', 'uploads', part), DAY + 3600_000);
    }
    // What a killed FTP session leaves: a hidden part beside a file that arrived whole, one old, one new.
    const incoming = await portal.ftp.incoming.folderOf(record);
    await fs.mkdir(path.join(incoming, 'daily'));
    const oldPart = path.join(incoming, 'daily', '.ftp-part-0123456789abcdef');
    const newPart = path.join(incoming, '.ftp-part-fedcba9876543210');
    await fs.writeFile(oldPart, 'cut short');
    await fs.writeFile(newPart, 'still arriving');
    await fs.writeFile(path.join(incoming, 'daily', 'whole.nc'), 'arrived');
    await age(oldPart, DAY + 3600_000);
    await age(path.join(incoming, 'daily', 'whole.nc'), DAY + 3600_000);

    await runJobs();
    expect(await uploadRows(portal, record)).toBe(1);
    expect(await partsInUploadArea(portal, record)).toEqual([`${freshId}.part`]);
    expect((await fs.readdir(path.join(portal.config.dataDir, 'files', 'uploads'))).sort()).toEqual([`${freshId}.part`]);
    await expect(fs.stat(oldPart)).rejects.toThrow();
    expect((await fs.stat(newPart)).isFile()).toBe(true);
    // A file that arrived whole is the provider's until they sync it.
    expect(await fs.readFile(path.join(incoming, 'daily', 'whole.nc'), 'utf8')).toBe('arrived');
  });
});
