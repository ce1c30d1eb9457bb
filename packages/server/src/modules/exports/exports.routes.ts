import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_FORMATS, LANGUAGES, type ExportFormat } from '@portal/shared';
import type { ExportsService, RenderedExport } from './exports.service.js';

/**
 * A published record's exports: `GET /api/metadata/metadata/{id}/export/?format=` (a download), and
 * content negotiation on its landing page address (`/data/{id}/`, `/en/data/{id}/`,
 * `/zh-hans/data/{id}/`): an Accept header that prefers one of NEGOTIATED's media types gets that
 * export in the page's language (plugins/web.ts asks `negotiatedFormat` before it serves the page);
 * any other request is the page's. Negotiation runs on these routes only: no other request pays for it.
 */

const idParams = z.object({ id: z.string().min(1).max(100) });
const exportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'metadata.exports.format' }),
  // The language of the citation and of the schema.org texts; the caller's language when not given.
  lang: z.enum(LANGUAGES, { error: 'metadata.validation.option' }).optional(),
});

/** Media types a landing page answers with an export, and the export of each. */
export const NEGOTIATED: Record<string, ExportFormat> = {
  'application/vnd.datacite.datacite+xml': 'datacite',
  'application/ld+json': 'schemaorg',
  'application/x-research-info-systems': 'ris',
  'application/x-bibtex': 'bibtex',
  'application/vnd.citationstyles.csl+json': 'csl',
};
const HTML = 'text/html';
const negotiator = new Negotiator({ supportedValues: [HTML, ...Object.keys(NEGOTIATED)], cache: new Map() });

/** Which export an Accept header asks for; null for the page (HTML, anything else, or nothing). */
export function negotiatedFormat(accept: string | undefined): ExportFormat | null {
  if (!accept) return null;
  const chosen = negotiator.negotiate(accept);
  return chosen && chosen !== HTML ? NEGOTIATED[chosen]! : null;
}

/** An export as the reply: a download (the API call) or the landing page's negotiated form. */
export function sendExport(reply: FastifyReply, rendered: RenderedExport, download: boolean) {
  if (download) reply.header('content-disposition', `attachment; filename="${rendered.filename.replace(/[^\w.-]/g, '_')}"`);
  return reply.type(rendered.type).send(rendered.body);
}

export async function exportsRoutes(parent: FastifyInstance, { exports }: { exports: ExportsService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get(
    '/api/metadata/metadata/:id/export/',
    { schema: { params: idParams, querystring: exportQuery }, config: { access: 'public' } },
    async (request, reply) => {
      const rendered = await exports.render(request.params.id, request.query.format, request.query.lang ?? request.language);
      return sendExport(reply, rendered, true);
    },
  );
}
