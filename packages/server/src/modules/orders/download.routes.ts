import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ORDER_LIMITS } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { BlobStore } from '../../storage/index.js';
import { countDownload, downloadLinkQuery, sendStoredFile, sendZip, startsDownload, verifyDownloadLink } from '../downloads/index.js';
import type { UsageService } from '../usage/index.js';
import type { OrdersService } from './orders.service.js';
import type { ZipDownloads } from './zip-downloads.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const zipQuery = z.object({
  files: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z.array(z.string().min(1).max(100), { error: 'orders.noFiles' }).min(1, 'orders.noFiles').max(ORDER_LIMITS.downloadFilesMax, 'orders.tooManyFiles'),
  ),
});
const signedParams = z.object({
  order: z.string().max(100),
  file: z.string().max(100),
  expires: z.string().max(20),
  signature: z.string().max(100),
  name: z.string().max(300),
});

export interface DownloadRoutesOptions {
  orders: OrdersService;
  zips: ZipDownloads;
  usage: UsageService;
  storage: BlobStore;
  publicUrl: string;
  linkKey: Buffer;
}

/** A signed link's path: every part in the path, so that wget and curl -O name the file after its last segment. */
function signedPath(params: { order: string; file: string; expires: string; signature: string }, name: string): string {
  return `/api/data/signed/${params.order}/${params.file}/${params.expires}/${params.signature}/${encodeURIComponent(name)}`;
}

/**
 * The downloads of orders (issue 10): a selection of files as one zip, an order's command-line links
 * (`wget -c -i`), and the signed link itself. Every path checks the one rule (DownloadAccess, in
 * ZipDownloads) or, for a link, the order behind it on every use.
 */
export async function downloadRoutes(parent: FastifyInstance, options: DownloadRoutesOptions) {
  const { orders, zips, usage, storage, publicUrl, linkKey } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // A selection of data files (at most 50, at most 100 MB together) as one zip with its manifests.
  app.get('/api/data/zip/', { schema: { querystring: zipQuery }, config: { access: 'user' } }, async (request, reply) => {
    const { zip, files } = await zips.selection(request.user, request.query.files, request.language, request.log);
    for (const file of files) await countDownload(usage, request, file.metadata_id, file.id, file.order);
    return sendZip(reply, zip, `data-${new Date().toISOString().slice(0, 10)}.zip`);
  });

  // The command-line links of an approved order: one URL per line, for `wget -c -i links.txt`.
  app.get('/api/account/order/:id/links/', { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
    const { order, files } = await orders.queries.orderFiles(request.user!, request.params.id);
    const expiresAt = new Date(order.expires_at!);
    const lines = files.map((file) => {
      const params = Object.fromEntries(new URLSearchParams(downloadLinkQuery({ orderId: order.id, fileId: file.id, expiresAt }, linkKey)));
      return `${publicUrl}${signedPath(params as { order: string; file: string; expires: string; signature: string }, file.name)}`;
    });
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', 'inline; filename="links.txt"')
      .send(lines.length ? `${lines.join('\n')}\n` : '');
  });

  // A signed link: no sign-in (a command line has no cookie); the order is checked on every use.
  const signed = async (request: FastifyRequest<{ Params: z.infer<typeof signedParams> }>, reply: FastifyReply) => {
    const { name: _name, ...params } = request.params;
    const check = verifyDownloadLink(params, linkKey);
    if (!check.ok) throw new AppError('FORBIDDEN', check.reason === 'expired' ? 'orders.linkExpired' : 'orders.linkForged');
    const { order, file } = await orders.queries.signedFile(check.link.orderId, check.link.fileId);
    if (startsDownload(request)) {
      await usage
        .countDownloadOf(file.metadata_id, file.id, { userId: order.applicant_id, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }, order.id)
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'download not counted');
        });
    }
    return sendStoredFile(request, reply, { name: file.name, size: Number(file.size), sha256: file.sha256, created_at: file.created_at, storage_key: file.storage_key }, storage);
  };
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/data/signed/:order/:file/:expires/:signature/:name',
    // HEAD is this route's own (sendStoredFile answers it without reading the blob).
    exposeHeadRoute: false,
    schema: { params: signedParams },
    config: { access: 'public', anonymous: true },
    handler: signed,
  });
}
