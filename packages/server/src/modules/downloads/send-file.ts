import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { BlobNotFoundError, type BlobStore, type ByteRange } from '../../storage/index.js';
import { decideRange } from './http-range.js';
import type { ZipDownload } from './zip-stream.js';

/** What a download needs to know of a stored file: its row in `meta_file` / `meta_attach`. */
export interface StoredFileFacts {
  /** The display name, offered as the download's name. */
  name: string;
  size: number;
  sha256: string;
  /** ISO-8601; stored files never change after their upload, so this is their Last-Modified. */
  created_at: string;
  storage_key: string;
}

/** `attachment` with an ASCII fallback and the real name in RFC 5987 form. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Bytes a browser must never interpret as a page of the portal. */
export function markInert(reply: FastifyReply): FastifyReply {
  return reply.header('x-content-type-options', 'nosniff').header('content-security-policy', "default-src 'none'; sandbox");
}

/**
 * Sends a stored file as an attachment, answering HEAD and single byte ranges (see http-range.ts):
 * a strong ETag (the content's SHA-256, which never changes for a row) and Last-Modified let
 * `curl -C -`, `wget -c` and browsers resume with If-Range. Who may download is the caller's check;
 * this only decides how the bytes go out. Register the route for GET and HEAD (Fastify's own HEAD
 * route would read the whole stream to drop it, and answer Content-Length: 0 without one).
 *
 * A blob missing from the store is a 404 (and a warning: the row promised it); a blob whose size
 * is not the row's is an error of the server rather than a download that ends early or late.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoredFileFacts,
  store: BlobStore,
  log: FastifyBaseLogger = request.log,
): Promise<FastifyReply> {
  const etag = `"${file.sha256}"`;
  const lastModified = new Date(file.created_at).toUTCString();
  const decision = decideRange({ method: request.method, range: request.headers.range, ifRange: single(request.headers['if-range']) }, { size: file.size, etag, lastModified });
  // The blob is opened before any header is set, so that a failure is an ordinary error reply.
  const body = decision.status === 416 ? undefined : await openBody(request.method, file, store, decision.status === 206 ? decision : undefined, log);
  markInert(reply)
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', attachmentDisposition(file.name))
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('last-modified', lastModified)
    // Access may be withdrawn at any time: a cache keeps the bytes only to revalidate them.
    .header('cache-control', 'private, no-cache');
  if (decision.status === 416) {
    return reply.status(416).header('content-range', `bytes */${file.size}`).header('content-length', 0).send();
  }
  if (decision.status === 206) {
    reply
      .status(206)
      .header('content-range', `bytes ${decision.start}-${decision.end}/${file.size}`)
      .header('content-length', decision.end - decision.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  return reply.send(body);
}

/**
 * Sends a zip made by streamZip as an attachment with its exact length. No ranges: the zip is made
 * anew on every request, so a broken zip download starts again. If a blob fails on the way the
 * stream is destroyed, and with it the connection: the client sees fewer bytes than Content-Length.
 */
export function sendZip(reply: FastifyReply, zip: ZipDownload, name: string): FastifyReply {
  return markInert(reply)
    .header('content-type', 'application/zip')
    .header('content-disposition', attachmentDisposition(name))
    .header('content-length', zip.size)
    .header('cache-control', 'private, no-cache')
    .send(zip.stream);
}

/** The bytes to send (none for HEAD, which only checks that the blob is there). */
async function openBody(method: string, file: StoredFileFacts, store: BlobStore, range: ByteRange | undefined, log: FastifyBaseLogger): Promise<Readable | undefined> {
  try {
    if (method === 'HEAD') {
      // Checked so that HEAD does not promise a file that GET would answer with 404.
      assertSize((await store.stat(file.storage_key)).size, file);
      return undefined;
    }
    const blob = await store.open(file.storage_key, range);
    if (blob.size !== file.size) blob.stream.destroy();
    assertSize(blob.size, file);
    return blob.stream;
  } catch (error) {
    if (error instanceof BlobNotFoundError) {
      log.warn({ key: file.storage_key }, 'stored file missing from the storage');
      throw new AppError('NOT_FOUND', 'errors.notFound');
    }
    throw error;
  }
}

/** A repeated If-Range arrives as a list: it validates nothing, so it is made one that never matches. */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? '' : value;
}

function assertSize(actual: number, file: StoredFileFacts): void {
  if (actual !== file.size) throw new Error(`stored file ${file.storage_key} has ${actual} bytes, its row says ${file.size}`);
}
