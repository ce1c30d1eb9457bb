import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { EN, tokenHeader, type TestPortal } from './helpers.js';
import { multipart } from './metadata-builders.js';

/** The calls of the uploads that resume (issue 19), as simple-uploader.js and tus clients make them. */

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Bytes nobody could guess, so that a checksum tells one file from another. */
export const sourceBytes = (size: number) => randomBytes(size);

export interface ChunkLayout {
  identifier: string;
  filename: string;
  metadataId: string;
  /** The folder, '/' unless given. */
  path?: string;
  chunkSize: number;
  totalSize: number;
  /** simple-uploader's count: floor(total / size), at least 1. */
  totalChunks?: number;
}

export function chunkCount(layout: ChunkLayout): number {
  return layout.totalChunks ?? Math.max(1, Math.floor(layout.totalSize / layout.chunkSize));
}

/** Chunk `number` (from 1) of `source` as simple-uploader cuts it: the last chunk takes the rest. */
export function chunkOf(source: Buffer, layout: ChunkLayout, number: number): Buffer {
  const start = (number - 1) * layout.chunkSize;
  return number === chunkCount(layout) ? source.subarray(start) : source.subarray(start, start + layout.chunkSize);
}

/** POST /data/upload-chunked/ with simple-uploader's fields (overridable) and the chunk in `file`. */
export async function sendChunk(
  portal: TestPortal,
  token: string | null,
  layout: ChunkLayout,
  number: number,
  bytes: Buffer,
  options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const fields: Record<string, string> = {
    chunkNumber: String(number),
    totalChunks: String(chunkCount(layout)),
    chunkSize: String(layout.chunkSize),
    currentChunkSize: String(bytes.length),
    totalSize: String(layout.totalSize),
    identifier: layout.identifier,
    filename: layout.filename,
    relativePath: layout.filename,
    metadata_id: layout.metadataId,
    path: layout.path ?? '/',
    ...options.fields,
  };
  const body = await multipart([...Object.entries(fields), ['file', { filename: 'blob', content: bytes }]]);
  return portal.app.inject({
    method: 'POST',
    url: '/data/upload-chunked/',
    headers: { ...(token ? tokenHeader(token) : {}), ...EN, ...body.headers, ...options.headers },
    payload: body.payload,
  });
}

/** GET /data/chunk/: 200 when the server holds the chunk, 204 when not. */
export function checkChunk(portal: TestPortal, token: string | null, layout: ChunkLayout, number: number): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams({ identifier: layout.identifier, chunkNumber: String(number), metadata_id: layout.metadataId });
  return portal.app.inject({ method: 'GET', url: `/data/chunk/?${query}`, headers: { ...(token ? tokenHeader(token) : {}), ...EN } });
}

/** Parts of uploads under way in the storage's upload area (of one record's uploads when given). */
export async function partsInUploadArea(portal: TestPortal, metadataId?: string): Promise<string[]> {
  const parts = await fs.readdir(path.join(portal.config.dataDir, 'files', 'uploads')).catch(() => [] as string[]);
  if (!metadataId) return parts;
  const rows = await portal.database.db.selectFrom('uploads').select('id').where('metadata_id', '=', metadataId).execute();
  const ids = new Set(rows.map((row) => `${row.id}.part`));
  return parts.filter((part) => ids.has(part));
}

/** Every blob in the store (not the upload area). */
export async function blobsInStore(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'files');
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && /^[0-9a-f]{32}$/.test(entry.name)).map((entry) => path.join(entry.parentPath, entry.name));
}

/** The SHA-256 of the bytes the store holds for a listed file, read from the disk. */
export async function storedSha256(portal: TestPortal, metadataId: string, name: string): Promise<string | undefined> {
  const row = await portal.database.db.selectFrom('meta_file').select('storage_key').where('metadata_id', '=', metadataId).where('name', '=', name).executeTakeFirst();
  if (!row) return undefined;
  const key = row.storage_key;
  return sha256(await fs.readFile(path.join(portal.config.dataDir, 'files', key.slice(0, 2), key)));
}

export async function listedNames(portal: TestPortal, metadataId: string): Promise<string[]> {
  const rows = await portal.database.db.selectFrom('meta_file').select('name').where('metadata_id', '=', metadataId).orderBy('name').execute();
  return rows.map((row) => row.name);
}

/** Uploads under way (into one record when given). */
export async function uploadRows(portal: TestPortal, metadataId?: string): Promise<number> {
  let query = portal.database.db.selectFrom('uploads').select((eb) => eb.fn.countAll<number | string>().as('count'));
  if (metadataId) query = query.where('metadata_id', '=', metadataId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

// ---- tus ----

export const TUS = { 'tus-resumable': '1.0.0' };

/** Upload-Metadata from plain values. */
export function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

export function tusCreate(portal: TestPortal, token: string | null, length: number | string, metadata: Record<string, string>, headers: Record<string, string> = {}) {
  return portal.app.inject({
    method: 'POST',
    url: '/api/data/tus/',
    headers: { ...(token ? tokenHeader(token) : {}), ...EN, ...TUS, 'upload-length': String(length), 'upload-metadata': tusMetadata(metadata), ...headers },
  });
}

export function tusHead(portal: TestPortal, token: string | null, location: string) {
  return portal.app.inject({ method: 'HEAD', url: location, headers: { ...(token ? tokenHeader(token) : {}), ...EN, ...TUS } });
}

export function tusPatch(portal: TestPortal, token: string | null, location: string, offset: number, bytes: Buffer, headers: Record<string, string> = {}) {
  return portal.app.inject({
    method: 'PATCH',
    url: location,
    headers: { ...(token ? tokenHeader(token) : {}), ...EN, ...TUS, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset), ...headers },
    payload: bytes,
  });
}

export function tusDelete(portal: TestPortal, token: string | null, location: string) {
  return portal.app.inject({ method: 'DELETE', url: location, headers: { ...(token ? tokenHeader(token) : {}), ...EN, ...TUS } });
}
