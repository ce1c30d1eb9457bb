import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { doiRegistrationFilters, doiRegistrationPageSchema, recordDoiSchema } from '@portal/shared/contracts/doi';
import { pagingQuery, toPage } from '../../http/paging.js';
import type { DoiService } from './doi.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** DOI registration for staff (ours, issue 17): where each DOI stands with DataCite, and a retry. */
export async function doiRoutes(parent: FastifyInstance, { doi }: { doi: DoiService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Every registration (or those whose last try failed: `failing=true`), those failed or waiting first, with DataCite's errors and what they mean.
  app.get(
    '/api/metadata/doi-registrations/',
    { schema: { querystring: pagingQuery.extend(doiRegistrationFilters), response: { 200: doiRegistrationPageSchema } }, config: { access: 'staff' } },
    async (request) => {
      const { page, pageSize, status, failing } = request.query;
      const { count, results } = await doi.list(request.language, { status, failing: failing === 'true' }, (page - 1) * pageSize, pageSize);
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  app.get('/api/metadata/metadata/:id/doi-registration/', { schema: { params: idParams, response: { 200: recordDoiSchema } }, config: { access: 'staff' } }, async (request) =>
    doi.ofRecord(request.language, request.params.id),
  );

  // Tries the record's registrations now and answers how they stand after the try.
  app.post(
    '/api/metadata/metadata/:id/doi-registration/retry/',
    { schema: { params: idParams, response: { 200: recordDoiSchema } }, config: { access: 'staff' } },
    async (request) => doi.retry(request.language, request.params.id),
  );
}
