import type { FastifyInstance, FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageFromPath, type Language, type Tombstone } from '@portal/shared';
import { tombstoneSchema } from '@portal/shared/contracts/landing';
import { AppError } from '../../errors.js';
import { acceptableVariants } from '../../http/accept.js';
import type { ExportsService } from '../exports/index.js';
import { LANGUAGE_PREFIXES } from './addresses.js';
import type { LandingService } from './landing.service.js';
import { linksetJson, linksetText } from './signposting.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/**
 * What the landing page and its calls ask of the exports module. app.ts makes it with the exports
 * module's `exportsForLanding`: exports link to landing pages (addresses, signposting), so landing
 * imports no code of exports.
 */
export interface LandingExports extends Pick<ExportsService, 'landingFacts' | 'linkset' | 'withdrawnCitation'> {
  /** Sends the export an Accept header prefers at a landing page address; null when the page answers. */
  negotiated(accept: string | undefined, reply: FastifyReply, id: string, language: Language): Promise<FastifyReply | null>;
  /** A record that is not published, as a machine asking for it gets it: 410 with its tombstone, or the 404. */
  unpublished(reply: FastifyReply, notFound: AppError, id: string, language: Language): Promise<FastifyReply>;
}

/** A withdrawn record's tombstone with its citation in the language; null for any other record. */
export async function tombstoneOf(landing: LandingService, exports: Pick<ExportsService, 'withdrawnCitation'>, id: string, language: Language): Promise<Tombstone | null> {
  try {
    return { ...(await landing.tombstone(id)), citation: await exports.withdrawnCitation(id, language) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

/** The linkset's two forms (RFC 9264), JSON first: what a client that names neither gets. */
const LINKSET_VARIANTS = [
  { type: 'application/linkset+json', value: 'json' },
  { type: 'application/linkset', value: 'text' },
] as const;

/**
 * The landing page's own calls: the tombstone of an unpublished record (the page itself is
 * landing-page.ts, in the web app's shell), and the linkset of a published record's landing page (FAIR Signposting) at
 * `/data/{id}/linkset` beside the page, under each language prefix.
 */
export async function landingRoutes(parent: FastifyInstance, { landing, exports }: { landing: LandingService; exports: LandingExports }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/api/metadata/metadata/:id/tombstone/', { schema: { params: idParams, response: { 200: tombstoneSchema } }, config: { access: 'public' } }, async (request) => ({
    ...(await landing.tombstone(request.params.id)),
    citation: await exports.withdrawnCitation(request.params.id, request.language),
  }));

  for (const prefix of LANGUAGE_PREFIXES) {
    const language = languageFromPath(`${prefix}/`);
    app.get(`${prefix}/data/:id/linkset`, { schema: { params: idParams }, config: { access: 'public' } }, async (request, reply) => {
      reply.header('vary', 'Accept');
      const form = acceptableVariants(request.headers.accept, LINKSET_VARIANTS)[0]?.variant.value ?? 'json';
      let links;
      try {
        links = await exports.linkset(request.params.id, language);
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') {
          return exports.unpublished(reply, error, request.params.id, language);
        }
        throw error;
      }
      return form === 'text'
        ? reply.type('application/linkset; charset=utf-8').send(linksetText(links))
        : reply.type('application/linkset+json; charset=utf-8').send(JSON.stringify(linksetJson(links)));
    });
  }
}
