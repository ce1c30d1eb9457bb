import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasIllegalText, MEDIA_TYPES, METADATA_LIMITS, type Language } from '@portal/shared';
import { mediaPageSchema, mediaSchema, storedFilePageSchema, storedFileSchema } from '@portal/shared/contracts/metadata-replies';
import { AppError, fieldError } from '../../errors.js';
import { pagingQuery, toPage } from '../../http/paging.js';
import type { BlobStore } from '../../storage/index.js';
import { countDownload, markInert, sendStoredFile, startsDownload } from '../downloads/index.js';
import { linkHeader } from '../landing/index.js';
import type { UsageService } from '../usage/index.js';
import type { FileKind } from './files.repo.js';
import { FilesService, type IncomingFile } from './files.service.js';

const idParams = z.object({ id: z.string().max(100) });
const metadataFilter = z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata').max(100, 'metadata.validation.metadata');
const fileListQuery = pagingQuery.extend({ metadata__id: metadataFilter });
const mediaListQuery = fileListQuery.extend({ type: z.enum(MEDIA_TYPES, { error: 'metadata.validation.option' }).optional() });
const imageQuery = z.object({ size: z.enum(['resized', 'original'], { error: 'metadata.validation.option' }).default('resized') });

/** The fields before the file part, the file part itself, and what reads the rest of the form. */
interface UploadForm {
  fields: Record<string, string>;
  file: IncomingFile | undefined;
  finish(): Promise<void>;
}

/**
 * Reads a multipart form up to its first file part, whose bytes are left to stream: the record's
 * id (and the media type) must come before the file, so access is checked before a byte is stored.
 */
async function openForm(request: FastifyRequest, fileSize: number): Promise<UploadForm> {
  if (!request.isMultipart()) throw fieldError('file', 'metadata.files.noFile');
  const parts = request.parts({
    // One byte over the limit reaches the storage, which refuses it; busboy drops the rest.
    limits: { fileSize: fileSize + 1, files: 1, fields: 10, fieldSize: 1024, fieldNameSize: 100, parts: 20, headerPairs: 20 },
  });
  const fields: Record<string, string> = {};
  let part: IteratorResult<Multipart>;
  try {
    while (!(part = await parts.next()).done) {
      if (part.value.type === 'file') return { fields, file: incoming(part.value), finish: () => drain(parts) };
      const value = String(part.value.value);
      // The text guard sees no multipart body: its fields (the record's id, the type) are checked here.
      if (hasIllegalText(part.value.fieldname) || hasIllegalText(value)) throw fieldError(part.value.fieldname.replace(/[^\w]/g, '') || 'file', 'validation.illegalText');
      if (!(part.value.fieldname in fields)) fields[part.value.fieldname] = value;
    }
  } catch (error) {
    // Malformed multipart: busboy's own errors carry no status.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw new AppError('VALIDATION_FAILED', 'errors.malformedBody');
  }
  return { fields, file: undefined, finish: async () => undefined };
}

function incoming(part: MultipartFile): IncomingFile {
  return { filename: part.filename, mimetype: part.mimetype, stream: part.file };
}

/** Reads what follows the stored file (the closing boundary, stray fields) and ignores it. */
async function drain(parts: AsyncIterableIterator<Multipart>): Promise<void> {
  try {
    for await (const part of parts) {
      if (part.type === 'file') part.file.resume();
    }
  } catch {
    // Extra parts over the limits: nothing of them is kept.
  }
}

function slice(paging: { page: number; pageSize: number }) {
  return { offset: (paging.page - 1) * paging.pageSize, limit: paging.pageSize };
}

const ok = (reply: FastifyReply) => reply.type('text/plain; charset=utf-8').send('ok');

/**
 * Stored files of a record (spec section 7): /metadata/upload-file/, /metadata/upload-attachment,
 * /api/metadata/meta-file/, meta-attach/ and meta-media/. Thin: form reading, access, one service call.
 * Registered by files.plugin.ts, whose scope parses multipart.
 */
export async function storedFileRoutes(
  parent: FastifyInstance,
  { files, storage, usage, landingUrl }: { files: FilesService; storage: BlobStore; usage?: UsageService; landingUrl?: (metadataId: string, language: Language) => string },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const upload = (kind: FileKind, maxBytes: number) => async (request: FastifyRequest, reply: FastifyReply) => {
    const form = await openForm(request, maxBytes);
    const row = await files.upload(request.user, kind, form.fields.metadata, form.file);
    await form.finish();
    return reply.status(201).send(row);
  };

  const uploaded = { response: { 201: storedFileSchema } };
  app.post('/metadata/upload-file/', { schema: uploaded, config: { access: 'user' } }, upload('file', METADATA_LIMITS.dataFileMaxBytes));
  for (const url of ['/metadata/upload-attachment', '/metadata/upload-attachment/']) {
    app.post(url, { schema: uploaded, config: { access: 'user' } }, upload('attach', METADATA_LIMITS.attachmentMaxBytes));
  }

  for (const [kind, base] of [
    ['file', '/api/metadata/meta-file/'],
    ['attach', '/api/metadata/meta-attach/'],
  ] as const) {
    app.get(base, { schema: { querystring: fileListQuery, response: { 200: storedFilePageSchema } }, config: { access: 'public' } }, async (request) => {
      const { metadata__id: metadataId, ...paging } = request.query;
      const { count, totalSize, results } = await files.list(request.user, kind, metadataId, slice(paging));
      return { ...toPage(request, paging, count, results), total_size: totalSize };
    });

    app.get(`${base}:id/`, { schema: { params: idParams, response: { 200: storedFileSchema } }, config: { access: 'public' } }, async (request) =>
      files.get(request.user, kind, request.params.id),
    );

    app.delete(`${base}:id/`, { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
      await files.remove(request.user, kind, request.params.id);
      return ok(reply);
    });

    app.route({
      method: ['GET', 'HEAD'],
      url: `${base}:id/download/`,
      // Data files are for the record's creator and staff only (FilesService.download); documents are public.
      // HEAD is this route's own (see sendStoredFile), not Fastify's.
      exposeHeadRoute: false,
      schema: { params: idParams },
      config: { access: kind === 'file' ? 'user' : 'public' },
      handler: async (request, reply) => {
        const { file, storageKey, metadataId, order } = await files.download(request.user, kind, request.params.id);
        // A download counts once it starts from the first byte; a resumed one (a later range, HEAD) does not.
        if (kind === 'file' && usage && startsDownload(request)) await countDownload(usage, request, metadataId, file.id, order);
        // FAIR Signposting: a data file names its landing page (`collection`).
        if (kind === 'file' && landingUrl) reply.header('link', linkHeader([{ anchor: '', rel: 'collection', href: landingUrl(metadataId, request.language), type: 'text/html' }]));
        return sendStoredFile(request, reply, { ...file, storage_key: storageKey }, storage);
      },
    });
  }

  app.post('/api/metadata/meta-media/', { schema: { response: { 201: mediaSchema } }, config: { access: 'user' } }, async (request, reply) => {
    // Busboy stops at the limit; the service refuses anything of 1 MiB or more.
    const form = await openForm(request, METADATA_LIMITS.thumbnailMaxBytes);
    const row = await files.setMedia(request.user, form.fields.metadata, form.fields.type, form.file);
    await form.finish();
    return reply.status(201).send(row);
  });

  app.get('/api/metadata/meta-media/', { schema: { querystring: mediaListQuery, response: { 200: mediaPageSchema } }, config: { access: 'public' } }, async (request) => {
    const { metadata__id: metadataId, type, ...paging } = request.query;
    const { count, results } = await files.listMedia(request.user, metadataId, type, slice(paging));
    return toPage(request, paging, count, results);
  });

  app.get('/api/metadata/meta-media/:id/', { schema: { params: idParams, response: { 200: mediaSchema } }, config: { access: 'public' } }, async (request) =>
    files.getMedia(request.user, request.params.id),
  );

  app.delete('/api/metadata/meta-media/:id/', { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
    await files.removeMedia(request.user, request.params.id);
    return ok(reply);
  });

  app.get(
    '/api/metadata/meta-media/:id/image/',
    { exposeHeadRoute: false, schema: { params: idParams, querystring: imageQuery }, config: { access: 'public' } },
    async (request, reply) => {
      const { file, stream, size } = await files.image(request.user, request.params.id, request.query.size);
      return markInert(reply).header('content-type', file.mime).header('content-length', size).header('cache-control', 'private, max-age=3600').send(stream);
    },
  );
}
