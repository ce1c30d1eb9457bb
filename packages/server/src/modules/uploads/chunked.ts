import type { Readable } from 'node:stream';
import { normaliseFolderPath } from '@portal/shared';
import { AppError, fieldError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { UploadRow } from './uploads.repo.js';
import type { UploadsService } from './uploads.service.js';

/** simple-uploader.js's fields of one chunk, with the portal's `metadata_id`, `path` (the folder) and `sha256`. */
export interface ChunkFields {
  identifier?: string;
  filename?: string;
  relativePath?: string;
  chunkNumber?: string;
  totalChunks?: string;
  chunkSize?: string;
  currentChunkSize?: string;
  totalSize?: string;
  metadata_id?: string;
  path?: string;
  /** Optional, the portal's own: the whole file's SHA-256 (hex), checked when the last chunk is in (as tus' `sha256`). */
  sha256?: string;
}

interface Chunk {
  identifier: string;
  number: number;
  totalChunks: number;
  chunkSize: number;
  currentChunkSize: number;
  totalSize: number;
}

const WHOLE = /^\d{1,16}$/;
const IDENTIFIER_MAX = 200;

function whole(value: string | undefined, field: string): number {
  if (value === undefined || !WHOLE.test(value)) throw fieldError(field, 'uploads.chunkFields');
  return Number(value);
}

/** The fields as numbers, and checked against each other: the chunk's number and its size must fit the file's layout. */
export function readChunk(fields: ChunkFields): Chunk {
  const identifier = fields.identifier ?? '';
  if (identifier === '' || [...identifier].length > IDENTIFIER_MAX) throw fieldError('identifier', 'uploads.chunkFields');
  const chunk = {
    identifier,
    number: whole(fields.chunkNumber, 'chunkNumber'),
    totalChunks: whole(fields.totalChunks, 'totalChunks'),
    chunkSize: whole(fields.chunkSize, 'chunkSize'),
    currentChunkSize: whole(fields.currentChunkSize, 'currentChunkSize'),
    totalSize: whole(fields.totalSize, 'totalSize'),
  };
  if (chunk.chunkSize === 0) throw fieldError('chunkSize', 'uploads.chunkFields');
  // simple-uploader makes floor(total / size) chunks, the last one taking the rest (or ceil with forceChunkSize).
  const layouts = [Math.max(1, Math.floor(chunk.totalSize / chunk.chunkSize)), Math.max(1, Math.ceil(chunk.totalSize / chunk.chunkSize))];
  if (!layouts.includes(chunk.totalChunks)) throw fieldError('totalChunks', 'uploads.chunkLayout');
  if (chunk.number < 1 || chunk.number > chunk.totalChunks) {
    throw new AppError('VALIDATION_FAILED', 'uploads.chunkNumber', { params: { total: chunk.totalChunks }, fields: { chunkNumber: 'uploads.chunkNumber' } });
  }
  const expected = expectedSize(chunk);
  if (chunk.currentChunkSize !== expected) {
    throw new AppError('VALIDATION_FAILED', 'uploads.chunkSize', { params: { actual: chunk.currentChunkSize, expected }, fields: { currentChunkSize: 'uploads.chunkSize' } });
  }
  return chunk;
}

function expectedSize(chunk: Pick<Chunk, 'number' | 'totalChunks' | 'chunkSize' | 'totalSize'>): number {
  return chunk.number < chunk.totalChunks ? chunk.chunkSize : chunk.totalSize - (chunk.number - 1) * chunk.chunkSize;
}

/**
 * The spec's chunked upload (`/data/upload-chunked/`, `/data/chunk/`), as simple-uploader.js sends
 * it: an upload is named by its identifier within a record; its first chunk declares it (every check
 * of UploadsService.start), every chunk is written in its place (chunks may come in any order, and
 * again), and the chunk that completes the set finishes the file.
 */
export class ChunkedUploads {
  constructor(private readonly uploads: UploadsService) {}

  /** Stores one chunk; answers whether the file is complete (and then the listed file). */
  async put(user: AuthenticatedUser | null, fields: ChunkFields, stream: Readable): Promise<{ done: boolean; file?: unknown }> {
    const caller = await this.uploads.writable(user, fields.metadata_id);
    const chunk = readChunk(fields);
    this.uploads.checkSize(chunk.totalSize);
    const row = await this.upload(caller, fields, chunk);
    if (row.state !== 'open') throw new AppError('CONFLICT', 'uploads.busy');
    const expected = expectedSize(chunk);
    const written = await this.uploads.writePart(row, (chunk.number - 1) * chunk.chunkSize, stream, {
      maxBytes: expected,
      onFailure: 'keep',
      tooLong: () => chunkSizeError(expected + 1, expected),
    });
    if (written !== expected) throw chunkSizeError(written, expected);
    const held = await this.uploads.repo.addChunk(row.id, chunk.number);
    if (held < row.total_chunks) return { done: false };
    const file = await this.uploads.finish(caller, row);
    return { done: true, file };
  }

  /** GET /data/chunk/: whether the server holds this chunk of the caller's upload (an unknown upload holds none). */
  async has(user: AuthenticatedUser | null, metadataId: string | undefined, identifier: string | undefined, number: number): Promise<boolean> {
    const caller = await this.uploads.writable(user, metadataId);
    if (!identifier) throw fieldError('identifier', 'uploads.chunkFields');
    const row = await this.uploads.repo.findByIdentifier(metadataId!, identifier);
    if (!row) return false;
    if (row.user_id !== caller.id) throw new AppError('FORBIDDEN', 'uploads.notYours');
    return this.uploads.repo.hasChunk(row.id, number);
  }

  /** The upload this chunk belongs to, declared by the first chunk to arrive; the same identifier must describe the same file. */
  private async upload(user: AuthenticatedUser, fields: ChunkFields, chunk: Chunk): Promise<UploadRow> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const found = await this.uploads.repo.findByIdentifier(fields.metadata_id!, chunk.identifier);
      if (found) {
        if (found.user_id !== user.id) throw new AppError('FORBIDDEN', 'uploads.notYours');
        const folder = normaliseFolderPath(fields.path ?? '/');
        const same =
          'path' in folder &&
          found.path === folder.path &&
          found.total_size === chunk.totalSize &&
          found.chunk_size === chunk.chunkSize &&
          found.total_chunks === chunk.totalChunks &&
          found.name === (fields.filename ?? '').normalize('NFC') &&
          (fields.sha256 === undefined || found.sha256 === fields.sha256.toLowerCase());
        if (!same) throw new AppError('CONFLICT', 'uploads.changed');
        return found;
      }
      const started = await this.uploads.start(user, {
        protocol: 'chunked',
        metadataId: fields.metadata_id,
        path: fields.path,
        filename: fields.filename,
        totalSize: chunk.totalSize,
        identifier: chunk.identifier,
        chunkSize: chunk.chunkSize,
        totalChunks: chunk.totalChunks,
        sha256: fields.sha256,
      });
      if (started !== 'taken') return started;
      // Another chunk declared it at the same moment: use theirs.
    }
    throw new AppError('CONFLICT', 'uploads.busy');
  }
}

function chunkSizeError(actual: number, expected: number): AppError {
  return new AppError('VALIDATION_FAILED', 'uploads.chunkSize', { params: { actual, expected }, fields: { file: 'uploads.chunkSize' } });
}
