import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { BlobNotFoundError, type BlobStore } from '../../storage/index.js';

/** One stored file to put in a zip, as its row tells it. */
export interface ZipEntry {
  /** Where it goes in the zip, e.g. `<dataset folder>/<file name>`; made safe and unique by streamZip. */
  path: string;
  size: number;
  sha256: string;
  storage_key: string;
  /** The file's time in the zip (its upload): a Date or ISO-8601 text. */
  mtime: Date | string;
}

export interface ZipLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ZipDownload {
  /** The zip's bytes; destroyed with an error if a blob fails on the way, never ended short. */
  stream: Readable;
  /** The zip's exact length in bytes (every entry is stored, sizes known), for Content-Length. */
  size: number;
  /** The paths the entries got, in the order given: sanitized, de-duplicated. */
  paths: string[];
}

/** `sha256sum -c MANIFEST-SHA256.txt` in the unpacked folder checks every file. */
export const MANIFEST_SHA256 = 'MANIFEST-SHA256.txt';
/** Path, bytes and SHA-256 of every file, tab-separated, with a header line. */
export const MANIFEST_TABLE = 'MANIFEST.tsv';

const EMPTY = Buffer.alloc(0);

/** Blobs stat'ed at once before the zip starts. */
const CHECK_CONCURRENCY = 16;
/** A folder named after a record's title stays short enough for every file system. */
const FOLDER_MAX_CHARS = 100;

/**
 * A selection of stored files as one zip, streamed: memory does not grow with the files' sizes or
 * count (each blob is piped through, one at a time; yazl keeps one small record per entry for the
 * central directory). ZIP64 is written when the zip passes 4 GiB or 65,535 entries.
 *
 * Decisions:
 * - Every entry is stored, not deflated: research data is mostly compressed already (NetCDF-4, HDF5,
 *   GeoTIFF, archives), deflate would cost most of the two cores for little, and stored entries make
 *   the zip's length known in advance (Content-Length, a progress bar).
 * - Every blob is checked (present, the row's size) before the first byte, so a missing file is an
 *   error reply (BlobNotFoundError), not a zip without it. A blob that fails after that destroys the
 *   stream with the error: the client sees a broken download, never a short valid zip.
 * - Two manifests lead the zip (their names are reserved at the top level): MANIFEST-SHA256.txt in
 *   `sha256sum` format, and MANIFEST.tsv with the sizes. The SHA-256 are the rows' (computed at
 *   upload); the server does not hash again on the way out, the client checks.
 */
export async function streamZip(entries: ZipEntry[], store: BlobStore, log: ZipLog): Promise<ZipDownload> {
  await checkBlobs(entries, store, log);
  const paths = uniquePaths(entries.map((entry) => entry.path));

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const reading = new Set<Readable>();
  const fail = (error: Error) => {
    if (output.destroyed) return;
    log.error({ err: error }, 'zip download failed on the way');
    output.destroy(error);
  };
  zip.on('error', fail);
  // A client that hangs up (or a failure) ends the reading of the blob in progress and of any after it.
  output.once('close', () => {
    for (const stream of reading) stream.destroy();
  });

  const now = new Date();
  zip.addBuffer(Buffer.from(sha256Manifest(entries, paths)), MANIFEST_SHA256, { mtime: now, compress: false });
  zip.addBuffer(Buffer.from(tableManifest(entries, paths)), MANIFEST_TABLE, { mtime: now, compress: false });
  entries.forEach((entry, index) => {
    const options = { mtime: new Date(entry.mtime), compress: false };
    // An empty file has nothing to read: its blob was checked, opening it would only cost time.
    if (entry.size === 0) return zip.addBuffer(EMPTY, paths[index]!, options);
    zip.addReadStreamLazy(paths[index]!, { ...options, size: entry.size }, (callback) => {
      if (output.destroyed) return callback(new Error('zip download closed'), undefined as never);
      store.open(entry.storage_key).then(
        (blob) => {
          // Opened after the reader went away: nothing will read it.
          if (output.destroyed) {
            blob.stream.destroy();
            return callback(new Error('zip download closed'), undefined as never);
          }
          reading.add(blob.stream);
          // yazl pipes the stream without listening for its errors.
          blob.stream.once('error', fail);
          blob.stream.once('close', () => reading.delete(blob.stream));
          callback(null, blob.stream);
        },
        (error: Error) => callback(error, undefined as never),
      );
    });
  });
  let size = -1;
  // Every size is known and nothing is compressed, so yazl answers at once.
  // (@types/yazl leaves out the callback's argument.)
  zip.end(undefined, ((total: number) => {
    size = total;
  }) as () => void);
  return { stream: output, size, paths };
}

/** Every blob is there with the row's size (a key named twice is asked once); the first that is not throws. */
async function checkBlobs(entries: ZipEntry[], store: BlobStore, log: ZipLog): Promise<void> {
  const sizes = new Map(entries.map((entry) => [entry.storage_key, entry.size]));
  const keys = [...sizes.keys()];
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      let size: number;
      try {
        ({ size } = await store.stat(key));
      } catch (error) {
        if (error instanceof BlobNotFoundError) log.warn({ key }, 'stored file missing from the storage');
        throw error;
      }
      if (size !== sizes.get(key)) throw new Error(`stored file ${key} has ${size} bytes, its row says ${sizes.get(key)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECK_CONCURRENCY, keys.length) }, worker));
}

/** `<sha256>  <path>` lines, as `sha256sum` writes them (paths hold no newline or backslash). */
function sha256Manifest(entries: ZipEntry[], paths: string[]): string {
  return entries.map((entry, index) => `${entry.sha256}  ${paths[index]}\n`).join('');
}

function tableManifest(entries: ZipEntry[], paths: string[]): string {
  return 'path\tbytes\tsha256\n' + entries.map((entry, index) => `${paths[index]}\t${entry.size}\t${entry.sha256}\n`).join('');
}

/**
 * One segment of a path in a zip: NFC, without control and direction characters, without what
 * Windows refuses in a name (`<>:"|?*`, trailing dots and spaces), at most SEGMENT_MAX_BYTES of
 * UTF-8; '' when nothing is left.
 */
export function safeSegment(segment: string): string {
  const clean = (text: string) => text.trim().replace(/[. ]+$/, '');
  return clean(
    fitBytes(
      clean(
        segment
          .normalize('NFC')
          .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
          .replace(/[<>:"|?*]/g, '_'),
      ),
    ),
  );
}

/**
 * Ext4, XFS and most file systems refuse a name over 255 bytes, and a Chinese character takes 3 in
 * UTF-8: a long name would stop `unzip` at that file. Names are cut to 240 bytes, which leaves room
 * for a copy's ` (n)`; the cut falls between characters and keeps a short extension.
 */
const SEGMENT_MAX_BYTES = 240;
const encoder = new TextEncoder();

function fitBytes(name: string): string {
  if (encoder.encode(name).length <= SEGMENT_MAX_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let room = SEGMENT_MAX_BYTES - encoder.encode(extension).length;
  let stem = '';
  for (const character of name.slice(0, name.length - extension.length)) {
    room -= encoder.encode(character).length;
    if (room < 0) break;
    stem += character;
  }
  return stem + extension;
}

/**
 * A folder name for a record's files: its title (one segment: a slash in it is no sub-folder),
 * shortened, or its id when the title leaves nothing.
 */
export function datasetFolder(title: string | null | undefined, id: string): string {
  const name = safeSegment([...(title ?? '')].slice(0, FOLDER_MAX_CHARS).join('').replace(/[/\\]/g, '_'));
  return name || safeSegment(id) || 'dataset';
}

/**
 * One folder per record, in the order given: `datasetFolder`, and ` (2)`, ` (3)` ... for a record
 * whose title another record's folder already took (two datasets of one title never mix their files).
 */
export function datasetFolders(records: readonly { id: string; title: string | null | undefined }[]): Map<string, string> {
  const folders = new Map<string, string>();
  const taken = new Set<string>();
  for (const { id, title } of records) {
    if (folders.has(id)) continue;
    const name = datasetFolder(title, id);
    let candidate = name;
    for (let copy = 2; taken.has(foldCase(candidate)); copy += 1) candidate = `${name} (${copy})`;
    taken.add(foldCase(candidate));
    folders.set(id, candidate);
  }
  return folders;
}

/**
 * A relative path without `..`, `.`, empty segments, a drive or a leading slash; `\` counts as a
 * separator (a Windows name must not become a folder on one system and a name on another).
 */
export function safeZipPath(path: string): string {
  const segments = path
    .split(/[/\\]/)
    .map(safeSegment)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  return segments.join('/') || 'file';
}

/**
 * Safe paths, each one different from the others and from the manifests even on a file system that
 * ignores case: a repeated path becomes `name (2).ext`, `name (3).ext` ...
 */
export function uniquePaths(paths: string[]): string[] {
  const taken = new Set([MANIFEST_SHA256, MANIFEST_TABLE].map(foldCase));
  return paths.map((raw) => {
    const path = safeZipPath(raw);
    let candidate = path;
    for (let copy = 2; taken.has(foldCase(candidate)); copy += 1) candidate = numbered(path, copy);
    taken.add(foldCase(candidate));
    return candidate;
  });
}

function foldCase(path: string): string {
  return path.toLowerCase();
}

/** `dir/name (n).ext`: the number goes before the last extension of the last segment. */
function numbered(path: string, copy: number): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const cut = dot > slash + 1 ? dot : path.length;
  return `${path.slice(0, cut)} (${copy})${path.slice(cut)}`;
}
