import type { Readable } from 'node:stream';
import { hasIllegalText } from '@portal/shared';
import { AppError, fieldError } from '../../errors.js';
import type { PartChecksum } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { LARGEST_UPLOAD_BYTES, type UploadsService } from './uploads.service.js';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,expiration,checksum,termination';
export const TUS_CHECKSUMS = 'sha1,md5,sha256';
export const TUS_MAX_SIZE = LARGEST_UPLOAD_BYTES;

const DECIMAL = /^\d{1,16}$/;
const METADATA_KEY = /^[\x21-\x2b\x2d-\x7e]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Upload-Metadata: comma-separated `key base64value` pairs (a key may stand alone). */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  if (!header) return values;
  for (const pair of header.split(',')) {
    const [key, encoded, ...rest] = pair.trim().split(' ');
    if (!key || !METADATA_KEY.test(key) || rest.length > 0 || key in values) throw new AppError('VALIDATION_FAILED', 'uploads.metadata');
    if (encoded !== undefined && !BASE64.test(encoded)) throw new AppError('VALIDATION_FAILED', 'uploads.metadata');
    values[key] = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  }
  return values;
}

/** Upload-Checksum: `algorithm base64digest`, the algorithm one of TUS_CHECKSUMS. */
export function parseUploadChecksum(header: string | undefined): PartChecksum | undefined {
  if (header === undefined) return undefined;
  const [algorithm, encoded, ...rest] = header.trim().split(' ');
  const lengths: Record<string, number> = { sha1: 20, md5: 16, sha256: 32 };
  if (!algorithm || !(algorithm in lengths) || !encoded || rest.length > 0 || !BASE64.test(encoded)) throw new AppError('VALIDATION_FAILED', 'uploads.checksumAlgorithm');
  const digest = Buffer.from(encoded, 'base64');
  if (digest.length !== lengths[algorithm]) throw new AppError('VALIDATION_FAILED', 'uploads.checksumAlgorithm');
  return { algorithm: algorithm as PartChecksum['algorithm'], digest };
}

/** A whole number header (Upload-Length, Upload-Offset), or undefined when it is not one. */
export function decimalHeader(value: string | undefined): number | undefined {
  return value !== undefined && DECIMAL.test(value) ? Number(value) : undefined;
}

export interface TusState {
  id: string;
  offset: number;
  length: number;
  expiresAt: string;
}

/**
 * tus 1.0 (https://tus.io/protocols/resumable-upload) with the creation, expiration, checksum and
 * termination extensions, over UploadsService: `Upload-Metadata` names the record (`metadata`), the
 * file (`filename`), its folder (`path`), optionally its type (`filetype`) and the whole file's
 * SHA-256 (`sha256`, hex), checked when the last byte is in. Bytes are appended at the upload's offset,
 * which is the size of its part on the disk: what a killed process had written counts after a restart.
 * One request at a time writes an upload (in this process; another is answered 409, which clients retry).
 */
export class TusUploads {
  private readonly writing = new Set<string>();

  constructor(private readonly uploads: UploadsService) {}

  async create(user: AuthenticatedUser | null, lengthHeader: string | undefined, metadataHeader: string | undefined): Promise<TusState> {
    const metadata = parseUploadMetadata(metadataHeader);
    // The record's id reaches the database (PostgreSQL refuses NUL in text); the name and folder have their own messages.
    if (hasIllegalText(metadata.metadata ?? '')) throw fieldError('metadata', 'validation.illegalText');
    const caller = await this.uploads.writable(user, metadata.metadata || undefined);
    const length = decimalHeader(lengthHeader);
    if (length === undefined) throw fieldError('Upload-Length', 'uploads.length');
    if (!metadata.filename) throw fieldError('filename', 'uploads.badName');
    const row = await this.uploads.start(caller, {
      protocol: 'tus',
      metadataId: metadata.metadata,
      path: metadata.path,
      filename: metadata.filename,
      totalSize: length,
      sha256: metadata.sha256,
      mime: metadata.filetype,
    });
    // Only the chunked protocol names its uploads: a tus upload's row is always new.
    if (row === 'taken') throw new AppError('CONFLICT', 'uploads.busy');
    return { id: row.id, offset: 0, length: row.total_size, expiresAt: row.expires_at };
  }

  async state(user: AuthenticatedUser | null, id: string): Promise<TusState> {
    const row = await this.uploads.own(user, id);
    const offset = await this.uploads.area.size(row.id);
    if (offset === undefined) throw new AppError('NOT_FOUND', 'uploads.notFound');
    return { id: row.id, offset, length: row.total_size, expiresAt: row.expires_at };
  }

  /** Appends the body at `offsetHeader`, which must be the upload's offset; finishes the upload with its last byte. */
  async append(
    user: AuthenticatedUser | null,
    id: string,
    offsetHeader: string | undefined,
    checksumHeader: string | undefined,
    body: Readable,
  ): Promise<TusState & { file?: unknown }> {
    const row = await this.uploads.own(user, id);
    await this.uploads.writable(user, row.metadata_id);
    const checksum = parseUploadChecksum(checksumHeader);
    const given = decimalHeader(offsetHeader);
    if (given === undefined) throw fieldError('Upload-Offset', 'uploads.length');
    if (row.state !== 'open' || this.writing.has(row.id)) throw new AppError('CONFLICT', 'uploads.busy');
    this.writing.add(row.id);
    try {
      const offset = await this.uploads.area.size(row.id);
      if (offset === undefined) throw new AppError('NOT_FOUND', 'uploads.notFound');
      if (given !== offset) throw new AppError('CONFLICT', 'uploads.offset', { params: { offset } });
      const written = await this.uploads.writePart(row, offset, body, {
        maxBytes: row.total_size - offset,
        // A part sent with a checksum counts whole or not at all; without one, what arrived is kept.
        onFailure: checksum ? 'truncate' : 'keep',
        checksum,
        tooLong: () => new AppError('PAYLOAD_TOO_LARGE', 'uploads.tooLong'),
      });
      const reached = offset + written;
      const state = { id: row.id, offset: reached, length: row.total_size, expiresAt: this.uploads.expiresAt() };
      if (reached < row.total_size) return state;
      return { ...state, file: await this.uploads.finish(user!, row) };
    } finally {
      this.writing.delete(row.id);
    }
  }

  /** Termination: the upload and its bytes are removed. */
  async terminate(user: AuthenticatedUser | null, id: string): Promise<void> {
    const row = await this.uploads.own(user, id);
    if (this.writing.has(row.id) || row.state !== 'open') throw new AppError('CONFLICT', 'uploads.busy');
    await this.uploads.drop(row.id);
  }
}
