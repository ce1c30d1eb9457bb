import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasIllegalText } from '@portal/shared';
import { AppError, fieldError } from '../../errors.js';
import { ChunkedUploads, type ChunkFields } from './chunked.js';
import { TUS_CHECKSUMS, TUS_EXTENSIONS, TUS_MAX_SIZE, TUS_VERSION, TusUploads, type TusState } from './tus.js';
import { asUploadFailure } from './uploads.service.js';

const TUS_BASE = '/api/data/tus/';
const TUS_BODY = 'application/offset+octet-stream';
/** The fields simple-uploader sends before the chunk, with the portal's three; anything else is ignored. */
const CHUNK_FIELDS = new Set([
  'identifier',
  'filename',
  'relativePath',
  'chunkNumber',
  'totalChunks',
  'chunkSize',
  'currentChunkSize',
  'totalSize',
  'metadata_id',
  'path',
  'sha256',
]);
/** A chunk is at most this big (simple-uploader sends 1 MB by default; the last one takes the rest, under twice the size). */
const CHUNK_MAX_BYTES = 2 * 1024 ** 3;

const idParams = z.object({ id: z.string().max(100) });
const chunkQuery = z.object({
  identifier: z.string({ error: 'uploads.chunkFields' }).min(1, 'uploads.chunkFields').max(800, 'uploads.chunkFields'),
  chunkNumber: z.coerce.number({ error: 'uploads.chunkFields' }).int('uploads.chunkFields').min(1, 'uploads.chunkFields'),
  metadata_id: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata').max(100, 'metadata.validation.metadata'),
});

/** Reads a chunk's form up to its file part, whose bytes are left to stream (the fields come first, so access is checked before a byte is kept). */
async function chunkForm(request: FastifyRequest): Promise<{ fields: ChunkFields; file: Readable; rest: AsyncIterableIterator<Multipart> }> {
  if (!request.isMultipart()) throw fieldError('file', 'metadata.files.noFile');
  const parts = request.parts({ limits: { fileSize: CHUNK_MAX_BYTES, files: 1, fields: 20, fieldSize: 4096, parts: 30, headerPairs: 20 } });
  const fields: Record<string, string> = {};
  try {
    for (;;) {
      const part = await parts.next();
      if (part.done) throw fieldError('file', 'metadata.files.noFile');
      if (part.value.type === 'file') return { fields: fields as ChunkFields, file: part.value.file, rest: parts };
      const value = String(part.value.value);
      if (!CHUNK_FIELDS.has(part.value.fieldname)) continue;
      // The text guard sees no multipart body: a NUL in a name or path is refused here.
      if (hasIllegalText(value)) throw fieldError(part.value.fieldname, 'validation.illegalText');
      fields[part.value.fieldname] ??= value;
    }
  } catch (error) {
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw new AppError('VALIDATION_FAILED', 'errors.malformedBody');
  }
}

/** What follows the chunk (the closing boundary) is read and ignored. */
async function drain(parts: AsyncIterableIterator<Multipart>): Promise<void> {
  try {
    for await (const part of parts) if (part.type === 'file') part.file.resume();
  } catch {
    // Nothing of it is kept.
  }
}

/** A refusal that leaves the body unread closes the connection rather than read gigabytes for nothing. */
function closeUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.raw.complete) reply.header('connection', 'close');
}

function tusHeaders(reply: FastifyReply, state: Pick<TusState, 'offset' | 'expiresAt'>): FastifyReply {
  return reply.header('Upload-Offset', String(state.offset)).header('Upload-Expires', new Date(state.expiresAt).toUTCString()).header('Cache-Control', 'no-store');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Uploads that resume (issue 19), thin: the spec's chunked upload (`/data/upload-chunked/`,
 * `/data/chunk/`) and tus 1.0 at `/api/data/tus/`. Signed-in callers only (the token or the cookie
 * with its CSRF header, as every other call).
 */
export async function uploadsRoutes(parent: FastifyInstance, { chunked, tus }: { chunked: ChunkedUploads; tus: TusUploads }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  // tus' data is streamed by the handler, never parsed into memory.
  app.addContentTypeParser(TUS_BODY, (_request, _payload, done) => done(null));
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith(TUS_BASE)) reply.header('Tus-Resumable', TUS_VERSION);
    if (reply.statusCode >= 400) closeUnread(request, reply);
    return payload;
  });
  // Every tus request but OPTIONS names the protocol's version it speaks.
  const tusVersion = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers['tus-resumable'] !== TUS_VERSION)
      return reply
        .status(412)
        .header('Tus-Version', TUS_VERSION)
        .send({ detail: request.t('uploads.version') });
  };

  app.post('/data/upload-chunked/', { config: { access: 'user' } }, async (request, reply) => {
    const form = await chunkForm(request);
    let result: { done: boolean; file?: unknown };
    try {
      result = await chunked.put(request.user, form.fields, form.file);
    } catch (error) {
      throw asUploadFailure(error);
    }
    await drain(form.rest);
    return reply.status(200).send(result);
  });

  app.get('/data/chunk/', { schema: { querystring: chunkQuery }, config: { access: 'user' } }, async (request, reply) => {
    const { identifier, chunkNumber, metadata_id: metadataId } = request.query;
    const held = await chunked.has(request.user, metadataId, identifier, chunkNumber);
    return held ? reply.status(200).send({ chunkNumber }) : reply.status(204).send();
  });

  for (const url of [TUS_BASE, `${TUS_BASE}:id`]) {
    app.options(url, { config: { access: 'public', anonymous: true } }, (_request, reply) =>
      reply
        .status(204)
        .header('Tus-Version', TUS_VERSION)
        .header('Tus-Extension', TUS_EXTENSIONS)
        .header('Tus-Max-Size', String(TUS_MAX_SIZE))
        .header('Tus-Checksum-Algorithm', TUS_CHECKSUMS)
        .send(),
    );
  }

  app.post(TUS_BASE, { preHandler: tusVersion, config: { access: 'user' } }, async (request, reply) => {
    if (request.headers['upload-defer-length'] !== undefined) throw fieldError('Upload-Length', 'uploads.length');
    const state = await tus.create(request.user, header(request, 'upload-length'), header(request, 'upload-metadata'));
    return tusHeaders(reply, state).status(201).header('Location', `${TUS_BASE}${state.id}`).send();
  });

  app.route({
    method: 'HEAD',
    url: `${TUS_BASE}:id`,
    schema: { params: idParams },
    preHandler: tusVersion,
    config: { access: 'user' },
    handler: async (request, reply) => {
      const state = await tus.state(request.user, request.params.id);
      return tusHeaders(reply, state).header('Upload-Length', String(state.length)).status(200).send();
    },
  });

  app.patch(`${TUS_BASE}:id`, { schema: { params: idParams }, preHandler: tusVersion, config: { access: 'user' } }, async (request, reply) => {
    if (request.headers['content-type'] !== TUS_BODY) return reply.status(415).send({ detail: request.t('uploads.contentType') });
    const state = await tus.append(request.user, request.params.id, header(request, 'upload-offset'), header(request, 'upload-checksum'), request.raw);
    return tusHeaders(reply, state).status(204).send();
  });

  app.delete(`${TUS_BASE}:id`, { schema: { params: idParams }, preHandler: tusVersion, config: { access: 'user' } }, async (request, reply) => {
    await tus.terminate(request.user, request.params.id);
    return reply.status(204).send();
  });
}
