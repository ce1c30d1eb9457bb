import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, LocalDiskStore } from '../../storage/index.js';
import { datasetFolder, datasetFolders, MANIFEST_SHA256, MANIFEST_TABLE, safeZipPath, streamZip, uniquePaths, type ZipEntry, type ZipLog } from './zip-stream.js';

const run = promisify(execFile);

let root: string;
let store: LocalDiskStore;
const logged: string[] = [];
const log: ZipLog = {
  warn: (_details, message) => void logged.push(message),
  error: (_details, message) => void logged.push(message),
};

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'zip-stream-'));
  store = new LocalDiskStore(path.join(root, 'files'));
  logged.length = 0;
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Stores the bytes and describes them as a row would. */
async function entry(entryPath: string, content: Buffer): Promise<ZipEntry> {
  const blob = await store.put(content, { maxBytes: content.length });
  return { path: entryPath, size: blob.size, sha256: blob.sha256, storage_key: blob.key, mtime: '2026-01-02T03:04:05.000Z' };
}

/** How many files under `folder` this process has open (Linux: /proc/self/fd). */
async function openFilesUnder(folder: string): Promise<number> {
  const links = await Promise.all((await fs.readdir('/proc/self/fd')).map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return links.filter((link) => link.startsWith(folder)).length;
}

async function writeZip(entries: ZipEntry[], name = 'out.zip'): Promise<string> {
  const target = path.join(root, name);
  const zip = await streamZip(entries, store, log);
  await pipeline(zip.stream, createWriteStream(target));
  expect((await fs.stat(target)).size).toBe(zip.size);
  return target;
}

describe('streamZip', () => {
  it('makes a zip that unzip tests and unpacks, whose manifest sha256sum -c confirms', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const entries = [
      await entry('冰川数据集/冰川 厚度.nc', big),
      await entry('冰川数据集/empty.txt', Buffer.alloc(0)),
      await entry('冰川数据集/readme.txt', Buffer.from('first')),
      // Another record's file of the same name in a folder of the same title.
      await entry('冰川数据集/README.txt', Buffer.from('second')),
      await entry('../../etc/passwd', Buffer.from('not outside')),
    ];
    const zipPath = await writeZip(entries);

    const tested = await run('unzip', ['-t', zipPath]);
    expect(tested.stdout).toContain('No errors detected');
    const out = path.join(root, 'unpacked');
    await run('unzip', ['-q', zipPath, '-d', out]);
    const listing = (await fs.readdir(out, { recursive: true })).sort();
    expect(listing).toEqual(
      [
        MANIFEST_SHA256,
        MANIFEST_TABLE,
        'etc',
        'etc/passwd',
        '冰川数据集',
        '冰川数据集/README (2).txt',
        '冰川数据集/empty.txt',
        '冰川数据集/readme.txt',
        '冰川数据集/冰川 厚度.nc',
      ].sort(),
    );
    expect((await fs.readFile(path.join(out, '冰川数据集/冰川 厚度.nc'))).equals(big)).toBe(true);
    expect(await fs.readFile(path.join(out, '冰川数据集/README (2).txt'), 'utf8')).toBe('second');
    expect((await fs.stat(path.join(out, '冰川数据集/empty.txt'))).size).toBe(0);

    const checked = await run('sha256sum', ['-c', '--strict', MANIFEST_SHA256], { cwd: out });
    expect(checked.stdout.trim().split('\n')).toHaveLength(entries.length);
    expect(checked.stdout).not.toContain('FAILED');
    const table = await fs.readFile(path.join(out, MANIFEST_TABLE), 'utf8');
    expect(table.split('\n')[0]).toBe('path\tbytes\tsha256');
    expect(table).toContain(`冰川数据集/冰川 厚度.nc\t${big.length}\t${createHash('sha256').update(big).digest('hex')}\n`);
    expect(table).toContain(`冰川数据集/empty.txt\t0\t`);
  });

  it('refuses before the first byte when a blob is missing', async () => {
    const present = await entry('a/one.txt', Buffer.from('one'));
    const missing = { ...(await entry('a/two.txt', Buffer.from('two'))), storage_key: 'f'.repeat(32) };
    await expect(streamZip([present, missing], store, log)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(logged).toContain('stored file missing from the storage');
  });

  it('refuses before the first byte when a blob is not the size its row says', async () => {
    const wrong = { ...(await entry('a/one.txt', Buffer.from('one'))), size: 4 };
    await expect(streamZip([wrong], store, log)).rejects.toThrow('has 3 bytes, its row says 4');
  });

  it('fails the stream, never a shorter valid zip, when a blob disappears after the check', async () => {
    const first = await entry('a/first.bin', randomBytes(200_000));
    const second = await entry('a/second.bin', randomBytes(1000));
    const zip = await streamZip([first, second], store, log);
    await store.delete(second.storage_key);
    const target = path.join(root, 'broken.zip');
    await expect(pipeline(zip.stream, createWriteStream(target))).rejects.toBeInstanceOf(BlobNotFoundError);
    expect((await fs.stat(target)).size).toBeLessThan(zip.size);
    await expect(run('unzip', ['-t', target])).rejects.toThrow();
  });

  it('fails the stream when a blob turns out shorter than its row while it is read', async () => {
    // Larger than what is read ahead before anyone reads the zip (reads of 512 KiB, held by
    // backpressure): a 100 KB file was sometimes read whole before the truncation, and its zip was right.
    const short = await entry('a/short.bin', randomBytes(4 * 1024 * 1024));
    const zip = await streamZip([short], store, log);
    await fs.truncate(path.join(store.root, short.storage_key.slice(0, 2), short.storage_key), 50_000);
    await expect(pipeline(zip.stream, createWriteStream(path.join(root, 'short.zip')))).rejects.toThrow('unexpected number of bytes');
    expect(logged).toContain('zip download failed on the way');
  });

  it('closes the blob being read, or about to be, when the reader hangs up', async () => {
    const entries = [await entry('a/big.bin', randomBytes(4 * 1024 * 1024)), await entry('a/next.bin', randomBytes(10))];
    const zip = await streamZip(entries, store, log);
    // A client that closes the connection in the middle of the first file, and one that closes it
    // before the first file was opened.
    let received = 0;
    await new Promise<void>((resolve) =>
      zip.stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 1024 * 1024) resolve();
      }),
    );
    expect(await openFilesUnder(store.root)).toBe(1);
    zip.stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await openFilesUnder(store.root)).toBe(0);

    const early = await streamZip(entries, store, log);
    await new Promise<void>((resolve) => early.stream.once('data', () => resolve()));
    early.stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await openFilesUnder(store.root)).toBe(0);
  });

  // ZIP64 past 65,535 entries is proved by bench/downloads.ts (unzip -t on 70,000 entries): yazl's
  // pump rescans the finished entries, so that many take tens of seconds, too long for this suite.
});

describe('zip paths', () => {
  it('keeps paths relative and inside, without control, direction or Windows-reserved characters', () => {
    expect(safeZipPath('/abs/./x/../y.txt')).toBe('abs/x/y.txt');
    expect(safeZipPath('C:\\Users\\me\\data.csv')).toBe('C_/Users/me/data.csv');
    expect(safeZipPath('a\u0000b\u202e\nc/d?.txt')).toBe('abc/d_.txt');
    expect(safeZipPath('trailing. /name. ')).toBe('trailing/name');
    expect(safeZipPath('../..')).toBe('file');
  });

  it("numbers repeated paths, ignoring case, and keeps the manifests' names free", () => {
    expect(uniquePaths(['d/a.nc', 'd/A.nc', 'd/a.nc', 'd/noext', 'd/noext', 'manifest-sha256.txt', 'd/.hidden', 'd/.hidden'])).toEqual([
      'd/a.nc',
      'd/A (2).nc',
      'd/a (3).nc',
      'd/noext',
      'd/noext (2)',
      'manifest-sha256 (2).txt',
      'd/.hidden',
      'd/.hidden (2)',
    ]);
  });

  it("names a record's folder after its title, or its id when the title leaves nothing", () => {
    expect(datasetFolder('青藏高原/冰川 2020', 'id-1')).toBe('青藏高原_冰川 2020');
    expect(datasetFolder('???', 'id-1')).toBe('___');
    expect(datasetFolder(' \u0001 ', 'id-1')).toBe('id-1');
    expect(datasetFolder(null, 'id-1')).toBe('id-1');
    // A hundred Chinese characters are 300 bytes: more than a file system takes in one name.
    const long = datasetFolder('青'.repeat(100), 'id-1');
    expect(long).toBe('青'.repeat(80));
    expect(Buffer.byteLength(long)).toBe(240);
  });

  it('gives each record a folder of its own, numbered when another record of the same title took its name', () => {
    const folders = datasetFolders([
      { id: 'a', title: '冰川厚度' },
      { id: 'b', title: '冰川厚度' },
      { id: 'a', title: '冰川厚度' },
      { id: 'c', title: 'Glacier' },
      { id: 'd', title: 'GLACIER' },
      { id: 'e', title: null },
    ]);
    expect([...folders]).toEqual([
      ['a', '冰川厚度'],
      ['b', '冰川厚度 (2)'],
      ['c', 'Glacier'],
      ['d', 'GLACIER (2)'],
      ['e', 'e'],
    ]);
  });

  it('cuts a name to 240 bytes of UTF-8 between characters, keeping its extension, so that unzip can write it', async () => {
    const name = `${'冰川厚度'.repeat(30)}.nc`; // 363 bytes
    const [first, second] = uniquePaths([`d/${name}`, `d/${name}`]);
    expect(first).toBe(`d/${'冰川厚度'.repeat(20)}.nc`.replace(/冰川厚度\.nc$/, '冰川厚.nc'));
    expect(Buffer.byteLength(first!.slice(2))).toBe(240);
    expect(second).toBe(first!.replace(/\.nc$/, ' (2).nc'));
    // An emoji (4 bytes) is never cut in half.
    expect(safeZipPath('😀'.repeat(70))).toBe('😀'.repeat(60));

    const zipPath = await writeZip([await entry(`d/${name}`, Buffer.from('one')), await entry(`d/${name}`, Buffer.from('two'))], 'long-names.zip');
    const out = path.join(root, 'long-names');
    await run('unzip', ['-q', zipPath, '-d', out]);
    expect(await fs.readFile(path.join(out, second!), 'utf8')).toBe('two');
  });
});
