import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LANGUAGES,
  methodInputSchema,
  methodPageSchema,
  methodPatchSchema,
  methodSchema,
  methodVersionListSchema,
  runInputSchema,
  runPageSchema,
  runSchema,
  runStartedSchema,
} from '@portal/shared';
import { pagingQuery } from '../../http/paging.js';
import { attachmentDisposition, markInert } from '../downloads/index.js';
import type { AnalysisService } from './analysis.service.js';

const idParams = z.object({ id: z.string().max(100, 'validation.invalid') });
const flag = z.enum(['true', 'false', '1', '0'], { error: 'validation.invalid' }).optional();
const idText = z.string().max(100, 'validation.invalid').optional();
const listQuery = z.object({ ...pagingQuery.shape, public: flag, mine: flag, search: z.string().max(200, 'validation.invalid').optional(), forked_from: idText });
const runListQuery = z.object({ ...pagingQuery.shape, method: idText });
const csvQuery = z.object({ lang: z.enum(LANGUAGES, { error: 'validation.invalid' }).optional() });
const isSet = (value: string | undefined) => value === 'true' || value === '1';

/** Analysis methods and their runs (issue 20; spec section 2 "Analysis"). Thin: the rules are AnalysisService's. */
export async function analysisRoutes(parent: FastifyInstance, { analysis }: { analysis: AnalysisService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // `public=true` (the default) lists public methods; `mine=true` the caller's own, public or not.
  app.get('/api/analysis/methods/', { schema: { querystring: listQuery, response: { 200: methodPageSchema } }, config: { access: 'public' } }, async (request) => {
    const { page, pageSize, mine, search, forked_from } = request.query;
    return analysis.list(request.user, { mine: isSet(mine), search, forkedFrom: forked_from }, { page, pageSize }, request.url);
  });

  app.post('/api/analysis/methods/', { schema: { body: methodInputSchema, response: { 201: methodSchema } }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(201).send(await analysis.create(request.user!, request.body)),
  );

  app.get('/api/analysis/methods/:id/', { schema: { params: idParams, response: { 200: methodSchema } }, config: { access: 'public' } }, async (request) =>
    analysis.get(request.user, request.params.id),
  );

  app.get('/api/analysis/methods/:id/versions/', { schema: { params: idParams, response: { 200: methodVersionListSchema } }, config: { access: 'public' } }, async (request) =>
    analysis.versions(request.user, request.params.id),
  );

  app.patch('/api/analysis/methods/:id/', { schema: { params: idParams, body: methodPatchSchema, response: { 200: methodSchema } }, config: { access: 'user' } }, async (request) =>
    analysis.update(request.user!, request.params.id, request.body),
  );

  app.delete('/api/analysis/methods/:id/', { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
    await analysis.remove(request.user!, request.params.id);
    return reply.status(204).send();
  });

  app.post('/api/analysis/methods/:id/fork/', { schema: { params: idParams, response: { 201: methodSchema } }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(201).send(await analysis.fork(request.user!, request.params.id)),
  );

  app.post(
    '/api/analysis/methods/:id/runs/',
    { schema: { params: idParams, body: runInputSchema, response: { 202: runStartedSchema } }, config: { access: 'user' } },
    async (request, reply) => reply.status(202).send(await analysis.startRun(request.user!, request.params.id, request.body)),
  );

  // The caller's own runs, of one method with `method=`.
  app.get('/api/analysis/runs/', { schema: { querystring: runListQuery, response: { 200: runPageSchema } }, config: { access: 'user' } }, async (request) => {
    const { page, pageSize, method } = request.query;
    return analysis.listRuns(request.user!, method, { page, pageSize }, request.url, request.language);
  });

  // A download is a plain navigation, which sends the browser's languages: `lang` names the page's.
  app.get('/api/analysis/runs/:id/csv/', { schema: { params: idParams, querystring: csvQuery }, config: { access: 'user' } }, async (request, reply) => {
    const { filename, text } = await analysis.resultCsv(request.user!, request.params.id, request.query.lang ?? request.language);
    return markInert(reply).type('text/csv; charset=utf-8').header('content-disposition', attachmentDisposition(filename)).send(text);
  });

  app.get('/api/analysis/runs/:id/', { schema: { params: idParams, response: { 200: runSchema } }, config: { access: 'user' } }, async (request) =>
    analysis.getRun(request.user!, request.params.id, request.language),
  );

  app.post('/api/analysis/runs/:id/rerun/', { schema: { params: idParams, response: { 202: runStartedSchema } }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(202).send(await analysis.rerun(request.user!, request.params.id)),
  );
}
