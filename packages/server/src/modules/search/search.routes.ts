import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { catalogueStatsSchema, hotReplySchema, SEARCH_QUERY_MAX, searchQuerySchema, searchReplySchema, suggestReplySchema } from '@portal/shared/contracts/search';
import type { Language, SearchQuery } from '@portal/shared';
import { toPageAt } from '../../http/paging.js';
import { sendStatic, type KeptJson } from '../../plugins/static-files.js';
import { CATALOGUE_CACHE_CONTROL, type SearchService } from './search.service.js';

/** Public catalogue replies may be kept briefly by browsers and proxies, per language. */
function shortCache(reply: FastifyReply) {
  return reply.header('cache-control', CATALOGUE_CACHE_CONTROL).header('vary', 'Accept-Language');
}

/**
 * The address a search's reply is kept under: the request's own, without the `_r` cache-buster the
 * portal's client adds to every GET (spec section 7). Keyed with it, every click was a new key and no
 * kept reply was ever reused. The reply's page links drop `_r` too (toPageAt).
 */
export function keptAddress(url: string): string {
  if (!url.includes('_r=')) return url;
  const at = url.indexOf('?');
  const kept = url
    .slice(at + 1)
    .split('&')
    .filter((part) => !part.startsWith('_r='))
    .join('&');
  return kept ? `${url.slice(0, at)}?${kept}` : url.slice(0, at);
}

/** A kept reply as bytes made once, compressed as the client accepts, 304 for the copy it holds. */
function sendKept(request: FastifyRequest, reply: FastifyReply, kept: KeptJson) {
  return sendStatic(request, reply.header('vary', 'Accept-Language'), kept.body);
}

/**
 * The reply to the search at `address` (`/api/metadata/search/?...`) as sent: written through the
 * reply's schema once, then kept as text (search.service.ts). The search page's HTML carries the
 * same text for its first results (plugins/web.ts).
 */
export function searchReplyText(search: SearchService, query: SearchQuery, language: Language, address: string): Promise<KeptJson> {
  return search.searchReply(query, language, `${language}\u0000${address}`, ({ count, results, facets }) =>
    JSON.stringify(searchReplySchema.parse({ ...toPageAt(address, query, count, results), facets })),
  );
}

/** The hot list's reply as sent (kept: search.service.ts listReply); the home page's HTML carries it too. */
export function hotReplyText(search: SearchService, language: Language): Promise<KeptJson> {
  return search.listReply(`hot\u0000${language}`, async () => JSON.stringify(hotReplySchema.parse({ results: await search.hot(language) })));
}

/** The home page's counts as sent (kept likewise). */
export function statsReplyText(search: SearchService, language: Language): Promise<KeptJson> {
  return search.listReply(`stats\u0000${language}`, async () => JSON.stringify(catalogueStatsSchema.parse(await search.stats(language))));
}

/** The public catalogue's calls. Thin: schema, one service call, the reply through its schema. */
export async function searchRoutes(parent: FastifyInstance, { search }: { search: SearchService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get(
    '/api/metadata/search/',
    {
      schema: { querystring: searchQuerySchema },
      config: { access: 'public' },
      // A search asked again is answered from its kept reply before its query is even read.
      onRequest: (request, reply, done) => {
        const kept = search.keptReply(`${request.language}\u0000${keptAddress(request.url)}`);
        if (kept === undefined) return done();
        sendKept(request, reply, kept);
      },
    },
    async (request, reply) => sendKept(request, reply, await searchReplyText(search, request.query, request.language, keptAddress(request.url))),
  );

  app.get(
    '/api/metadata/search/suggest/',
    {
      schema: { querystring: z.object({ q: z.string().trim().max(SEARCH_QUERY_MAX, 'search.validation.query').default('') }), response: { 200: suggestReplySchema } },
      config: { access: 'public' },
    },
    async (request, reply) => {
      shortCache(reply);
      return search.suggest(request.query.q, request.language);
    },
  );

  // The home page's lists: written through their schemas once, then kept as text (search.service.ts).
  app.get('/api/metadata/hot/', { config: { access: 'public' } }, async (request, reply) => sendKept(request, reply, await hotReplyText(search, request.language)));

  app.get('/api/metadata/catalogue-stats/', { config: { access: 'public' } }, async (request, reply) => sendKept(request, reply, await statsReplyText(search, request.language)));
}
