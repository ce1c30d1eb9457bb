import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ORDER_LIMITS } from '@portal/shared';
import { AppError } from '../../errors.js';
import { BlobNotFoundError, type BlobStore } from '../../storage/index.js';
import { sendStoredFile, sendZip } from '../downloads/send-file.js';
import { downloadLinkQuery, verifyDownloadLink } from '../downloads/signed-link.js';
import { datasetFolders, streamZip } from '../downloads/zip-stream.js';
import { countDownload, startsDownload } from '../files/files.routes.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { DownloadAccess } from './download-access.js';
import type { OrdersService } from './orders.service.js';
import type { Usage } from './usage.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const zipQuery = z.object({
  files: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z
      .array(z.string().min(1).max(100), { error: 'orders.noFiles' })
      .min(1, 'orders.noFiles')
      .max(ORDER_LIMITS.downloadFilesMax, 'orders.tooManyFiles'),
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
  downloads: DownloadAccess;
  access: MetadataAccess;
  usage: Usage;
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
 * (`wget -c -i`), and the signed link itself. Every path checks the one rule (DownloadAccess) or, for a
 * link, the order behind it on every use.
 */
export async function downloadRoutes(parent: FastifyInstance, options: DownloadRoutesOptions) {
  const { orders, downloads, access, usage, storage, publicUrl, linkKey } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // A selection of data files (at most 50, at most 100 MB together) as one zip with its manifests.
  app.get('/api/data/zip/', { schema: { querystring: zipQuery }, config: { access: 'user' } }, async (request, reply) => {
    const wanted = [...new Set(request.query.files)];
    const files = await orders.repo.dataFiles(wanted);
    if (files.length !== wanted.length) throw new AppError('NOT_FOUND', 'errors.notFound');
    const grants = new Map<string, string | null>();
    const titles = await orders.repo.datasets(orders.repo.db, [...new Set(files.map((f) => f.metadata_id))]);
    for (const metadataId of titles.keys()) {
      const record = await access.readable(request.user, metadataId);
      grants.set(metadataId, (await downloads.assert(request.user, record)).order);
    }
    const total = files.reduce((sum, f) => sum + Number(f.size), 0);
    if (total > ORDER_LIMITS.browserDownloadMaxBytes) throw new AppError('VALIDATION_FAILED', 'orders.tooLarge');
    // In the order asked for; each dataset's files in a folder of its own, named after its title in the caller's language.
    const byId = new Map(files.map((f) => [f.id, f]));
    const folders = datasetFolders(
      wanted.map((id) => {
        const metadataId = byId.get(id)!.metadata_id;
        const dataset = titles.get(metadataId);
        return { id: metadataId, title: request.language === 'en' ? dataset?.title_en : dataset?.title };
      }),
    );
    const entries = wanted.map((id) => {
      const file = byId.get(id)!;
      return { path: `${folders.get(file.metadata_id)}/${file.name}`, size: Number(file.size), sha256: file.sha256, storage_key: file.storage_key, mtime: file.created_at };
    });
    const zip = await streamZip(entries, storage, request.log).catch((error: unknown) => {
      // A file whose bytes are gone: a clear refusal, never a zip without it (the store logged which).
      if (error instanceof BlobNotFoundError) throw new AppError('NOT_FOUND', 'errors.notFound');
      throw error;
    });
    for (const file of files) await countDownload(usage, request, file.metadata_id, file.id, grants.get(file.metadata_id) ?? null);
    return sendZip(reply, zip, `data-${new Date().toISOString().slice(0, 10)}.zip`);
  });

  // The command-line links of an approved order: one URL per line, for `wget -c -i links.txt`.
  app.get('/api/account/order/:id/links/', { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
    const { order, files } = await orders.orderFiles(request.user!, request.params.id);
    const expiresAt = new Date(order.expires_at!);
    const lines = files.map((file) => {
      const params = Object.fromEntries(new URLSearchParams(downloadLinkQuery({ orderId: order.id, fileId: file.id, expiresAt }, linkKey)));
      return `${publicUrl}${signedPath(params as { order: string; file: string; expires: string; signature: string }, file.name)}`;
    });
    return reply.type('text/plain; charset=utf-8').header('content-disposition', 'inline; filename="links.txt"').send(lines.length ? `${lines.join('\n')}\n` : '');
  });

  // A signed link: no sign-in (a command line has no cookie); the order is checked on every use.
  const signed = async (request: FastifyRequest<{ Params: z.infer<typeof signedParams> }>, reply: FastifyReply) => {
    const { name: _name, ...params } = request.params;
    const check = verifyDownloadLink(params, linkKey);
    if (!check.ok) throw new AppError('FORBIDDEN', check.reason === 'expired' ? 'orders.linkExpired' : 'orders.linkForged');
    const { order, file } = await orders.signedFile(check.link.orderId, check.link.fileId);
    if (startsDownload(request)) {
      await usage.countDownloadOf(file.metadata_id, file.id, { userId: order.applicant_id, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }, order.id).catch((error: unknown) => {
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
