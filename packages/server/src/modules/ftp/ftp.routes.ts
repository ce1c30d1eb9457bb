import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { FtpService } from './ftp.service.js';

const id = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(100, 'validation.invalid');
const recordBody = z.object({ metadata_id: id });

/**
 * The FTP accounts' calls (spec section 7, "Data files and FTP"; issue 19's shapes): download accounts
 * (`/data/download-user/`, `/data/ftpinfo/`), upload accounts (`/api/data/ftp/`) and `/data/sync/`.
 */
export async function ftpRoutes(parent: FastifyInstance, { ftp }: { ftp: FtpService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.post('/data/download-user/', { schema: { body: recordBody }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(201).send(await ftp.createDownload(request.user!, request.body.metadata_id)),
  );

  // The panel shows a reply with a message as an error (spec section 8): refusals carry `message` beside `detail`.
  app.get('/data/ftpinfo/', { schema: { querystring: z.object({ id }) }, config: { access: 'user' } }, async (request, reply) => {
    try {
      return await ftp.info(request.user!, request.query.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const message = request.t(error.messageKey, error.params);
      return reply.status(error.status).send({ message, detail: message });
    }
  });

  app.get('/api/data/ftp/', { schema: { querystring: z.object({ metadata__id: id }) }, config: { access: 'user' } }, async (request) => {
    const results = await ftp.listUpload(request.user!, request.query.metadata__id);
    return { count: results.length, results };
  });

  app.post('/api/data/ftp/', { schema: { body: recordBody }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(201).send(await ftp.createUpload(request.user!, request.body.metadata_id)),
  );

  app.delete('/api/data/ftp/:id/', { schema: { params: z.object({ id }) }, config: { access: 'user' } }, async (request, reply) => {
    await ftp.removeUpload(request.user!, request.params.id);
    return reply.status(204).send();
  });

  // What was brought in, and what was refused with the reason in the caller's language.
  app.post('/data/sync/', { schema: { body: recordBody }, config: { access: 'user' } }, async (request) => {
    const { refused, ...synced } = await ftp.sync(request.user!, request.body.metadata_id);
    return { ...synced, refused: refused.map(({ path, error }) => ({ path, detail: request.t(error.messageKey, error.params) })) };
  });
}
