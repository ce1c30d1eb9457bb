import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { archiveSchema, orderIndexLinkSchema, translate } from '@portal/shared';
import type { BlobStore } from '../../storage/index.js';
import { countDownload, sendStoredFile, startsDownload } from '../downloads/index.js';
import type { UsageService } from '../usage/index.js';
import type { ArchiveService } from './archive.service.js';
import { HttpIndex, INDEX_BASE, indexPath, listingHtml } from './http-index.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const indexParams = z.object({ order: z.string().max(100), expires: z.string().max(20), signature: z.string().max(100) });

export interface ArchiveRoutesOptions {
  archives: ArchiveService;
  index: HttpIndex;
  usage: UsageService;
  storage: BlobStore;
}

/**
 * Whole datasets (issue 19): a published record's archive (its state, and its download, which
 * resumes), and an order's signed HTTP index (its address beside links.txt, and its pages and files).
 */
export async function archiveRoutes(parent: FastifyInstance, { archives, index, usage, storage }: ArchiveRoutesOptions) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.get('/api/archive/archives/:id/', { schema: { params: idParams, response: { 200: archiveSchema } }, config: { access: 'user' } }, async (request) => {
    const archive = await archives.state(request.user, request.params.id);
    if (archive.state === 'failed') return { ...archive, detail: translate(request.language, 'datasetArchive.failed') };
    if (archive.state === 'too_large') return { ...archive, detail: translate(request.language, 'datasetArchive.tooLarge', { limit: archives.limitText() }) };
    return archive;
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/archive/archives/:id/download/',
    // HEAD is this route's own (sendStoredFile answers it without reading the blob).
    exposeHeadRoute: false,
    schema: { params: idParams },
    config: { access: 'user' },
    handler: async (request, reply) => {
      const { file, order } = await archives.download(request.user, request.params.id);
      // One count per download started from its first byte; a resumed one (a later range, HEAD) is not another.
      if (startsDownload(request)) await countDownload(usage, request, request.params.id, `archive:${request.params.id}`, order);
      return sendStoredFile(request, reply, file, storage);
    },
  });

  // Beside links.txt: the address of the order's HTTP index, and the wget command that fetches it whole.
  app.get('/api/account/order/:id/index-link/', { schema: { params: idParams, response: { 200: orderIndexLinkSchema } }, config: { access: 'user' } }, async (request) =>
    index.linkFor(request.user!, request.params.id),
  );

  // The index itself: no sign-in (a command line has no cookie); the signature and the order checked on every request.
  const page = async (request: FastifyRequest<{ Params: z.infer<typeof indexParams> }>, reply: FastifyReply) => {
    const { order, expires, signature } = request.params;
    const target = await index.resolve({ order, expires, signature }, indexPath(request.raw.url ?? ''));
    if (target.kind === 'slash') {
      const pathname = (request.raw.url ?? '').split('?')[0]!;
      return reply.redirect(`${pathname.slice(pathname.lastIndexOf('/') + 1)}/`, 301);
    }
    if (target.kind === 'file') {
      if (startsDownload(request)) {
        await usage
          .countDownloadOf(
            target.metadataId,
            target.file.id,
            { userId: target.order.applicant_id, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' },
            target.order.id,
          )
          .catch((error: unknown) => request.log.error({ err: error }, 'download not counted'));
      }
      return sendStoredFile(request, reply, target.file, storage);
    }
    reply
      .type('text/html; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .header('cache-control', 'private, no-cache');
    if (request.method === 'HEAD') return reply.send();
    return reply.send(Readable.from(listingHtml(target, request.language)));
  };
  const config = { access: 'public' as const, anonymous: true };
  app.route({
    method: ['GET', 'HEAD'],
    url: `${INDEX_BASE}/:order/:expires/:signature/*`,
    exposeHeadRoute: false,
    schema: { params: indexParams.extend({ '*': z.string() }) },
    config,
    handler: page,
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: `${INDEX_BASE}/:order/:expires/:signature`,
    exposeHeadRoute: false,
    schema: { params: indexParams },
    config,
    handler: async (request, reply) => reply.redirect(`${request.params.signature}/`, 301),
  });
}
