import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How a body may travel: brotli first, gzip for older clients, as it is otherwise. */
export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * A reply body held in memory with its compressed forms, made once (at build time or at start),
 * never per request. `bodies` holds a compressed form only where it is smaller.
 */
export interface StaticBody {
  type: string;
  cacheControl: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** One strong validator per encoding: the bytes differ, so must the ETag. */
  etags: Partial<Record<Encoding, string>>;
  /** Whether the reply depends on Accept-Encoding (a compressed form exists). */
  negotiated: boolean;
}

/** Hashed build output: the name changes with the content, so it never needs revalidating. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files of the web app's public folder (favicon, logos): same name across releases, revalidated by ETag. */
export const DAILY = 'public, max-age=86400';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};
/** Formats that are already compressed (images, fonts) gain nothing from brotli or gzip. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.txt', '.xml', '.svg', '.ico', '.wasm']);

export function contentTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE.has(path.extname(file).toLowerCase());
}

/**
 * Brotli at its best quality for what is made once and small (the HTML pages, robots.txt); the web
 * build writes its assets' .br and .gz itself (packages/web/precompress.ts), and a build without them
 * is compressed at start with a quicker brotli level.
 */
export function compress(bytes: Buffer, brotliQuality: number = zlib.BROTLI_MAX_QUALITY): Record<'br' | 'gzip', Buffer> {
  return {
    br: brotliCompressSync(bytes, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
    gzip: gzipSync(bytes, { level: 9 }),
  };
}

export function staticBody(
  identity: Buffer,
  { type, cacheControl, compressed }: { type: string; cacheControl: string; compressed?: Partial<Record<'br' | 'gzip', Buffer>> },
): StaticBody {
  const bodies: StaticBody['bodies'] = { identity };
  for (const encoding of ['br', 'gzip'] as const) {
    const form = compressed?.[encoding];
    if (form && form.length < identity.length) bodies[encoding] = form;
  }
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  const etags: StaticBody['etags'] = {};
  for (const encoding of Object.keys(bodies) as Encoding[]) etags[encoding] = encoding === 'identity' ? `"${hash}"` : `"${hash}-${encoding}"`;
  return { type, cacheControl, bodies, etags, negotiated: Object.keys(bodies).length > 1 };
}

/** A text made on the server (a page, robots.txt, the sitemap), compressed once. */
export function staticText(text: string, type: string, cacheControl: string, brotliQuality?: number): StaticBody {
  const identity = Buffer.from(text, 'utf8');
  return staticBody(identity, { type, cacheControl, compressed: compress(identity, brotliQuality) });
}

/**
 * A JSON reply kept as sent (the catalogue's kept replies, search.service.ts): its text, and on first
 * use its bytes and compressed forms, so that each later request writes bytes made once (no encoding
 * of the text, no compression) and a phone receives a quarter of them. A quicker brotli level than
 * for static files: a reply is kept for seconds, not for a release.
 */
export class KeptJson {
  private sent?: StaticBody;

  constructor(
    readonly text: string,
    private readonly cacheControl: string,
  ) {}

  get body(): StaticBody {
    this.sent ??= staticText(this.text, TYPES['.json']!, this.cacheControl, 4);
    return this.sent;
  }
}

function readIfFresh(file: string, notOlderThan: number): Buffer | undefined {
  try {
    return fs.statSync(file).mtimeMs >= notOlderThan ? fs.readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every file of a built web app below `root`, by URL path (`/assets/index-abc.js`), in memory with
 * the .br and .gz files the build wrote beside it (when not older than the file), compressed here
 * otherwise. Files under `assets/` are hashed by Vite and cached for a year; the others for a day.
 * Dot files, the compressed siblings and the names in `skip` (relative to root) are left out.
 */
export function loadStaticFiles(root: string, skip: ReadonlySet<string>): Map<string, StaticBody> {
  const files = new Map<string, StaticBody>();
  const visit = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const name = path.posix.join(relative, entry.name);
      if (entry.name.startsWith('.') || skip.has(name)) continue;
      if (entry.isDirectory()) {
        visit(name);
        continue;
      }
      if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
      const file = path.join(root, name);
      const stat = fs.statSync(file);
      const identity = fs.readFileSync(file);
      let compressed: Partial<Record<'br' | 'gzip', Buffer>> | undefined;
      if (isCompressible(name)) {
        const br = readIfFresh(`${file}.br`, stat.mtimeMs);
        const gzip = readIfFresh(`${file}.gz`, stat.mtimeMs);
        // The build leaves out a form that is not smaller; a build without any is compressed here.
        compressed = br || gzip ? { br, gzip } : compress(identity, 5);
      }
      const cacheControl = name.startsWith('assets/') ? IMMUTABLE : DAILY;
      files.set(`/${name}`, staticBody(identity, { type: contentTypeOf(name), cacheControl, compressed }));
    }
  };
  visit('');
  return files;
}

// Browsers send a handful of distinct Accept-Encoding values: remember the answer for the first
// hundred seen, so that a client sending new ones every time cannot grow the cache.
const encodingByHeader = new Map<string, Encoding>();

export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  let encoding = encodingByHeader.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = negotiate<Encoding>(acceptEncoding, ['br', 'gzip']) ?? 'identity';
    if (encodingByHeader.size < 100) encodingByHeader.set(acceptEncoding, encoding);
  }
  return encoding;
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Replies with the form the client accepts best (`Vary: Accept-Encoding` whenever there is a
 * choice), or 304 when a 200 reply would carry the ETag the client already holds. `revalidated: false`
 * for a reply no cache may keep (a signed-in browser's page, made `no-store` by the auth plugin): no
 * ETag, never 304, which would tell the browser to use a copy it was told not to keep.
 */
export function sendStatic(
  request: FastifyRequest,
  reply: FastifyReply,
  body: StaticBody,
  { status = 200, revalidated = true }: { status?: number; revalidated?: boolean } = {},
): FastifyReply {
  let encoding: Encoding = 'identity';
  if (body.negotiated) {
    encoding = preferredEncoding(request.headers['accept-encoding']);
    // A form is left out only when it is not smaller: then none is.
    if (!body.bodies[encoding]) encoding = 'identity';
    // Kept beside what the route varies on already (a landing page's Accept).
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  }
  reply.header('cache-control', body.cacheControl);
  if (status === 200 && revalidated) {
    const etag = body.etags[encoding]!;
    reply.header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
  }
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.status(status).type(body.type).send(body.bodies[encoding]);
}
