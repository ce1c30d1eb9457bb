import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tombstoneSchema } from '@portal/shared/contracts/landing';
import type { ExportsService } from '../exports/exports.service.js';
import type { LandingService } from './landing.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** The landing page's own call: the tombstone of an unpublished record (the page itself is served by plugins/web.ts). */
export async function landingRoutes(parent: FastifyInstance, { landing, exports }: { landing: LandingService; exports: ExportsService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get(
    '/api/metadata/metadata/:id/tombstone/',
    { schema: { params: idParams, response: { 200: tombstoneSchema } }, config: { access: 'public' } },
    async (request) => ({ ...(await landing.tombstone(request.params.id)), citation: await exports.withdrawnCitation(request.params.id, request.language) }),
  );
}
