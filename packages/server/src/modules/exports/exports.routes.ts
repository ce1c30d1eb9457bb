import type { FastifyInstance, FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_FORMATS, LANGUAGES, languageFromHeader, translate, type ExportFormat, type Language, type Tombstone } from '@portal/shared';
import { AppError } from '../../errors.js';
import { acceptableVariants, type Variant } from '../../http/accept.js';
import { linkHeader, type LandingExports } from '../landing/index.js';
import { JSON_LD_PROFILES, type ExportsService, type RenderedExport } from './exports.service.js';

/**
 * A published record's exports: `GET /api/metadata/metadata/{id}/export/?format=` (a download), and
 * content negotiation on its landing page address (`/data/{id}/`, `/en/data/{id}/`,
 * `/zh-hans/data/{id}/`, landing/landing-page.ts): an Accept header that prefers one of the media types below
 * gets that export in the page's language; HTML, anything else or nothing is the page's. Negotiation
 * runs on these routes only: no other request pays for it.
 */

const idParams = z.object({ id: z.string().min(1).max(100) });
const exportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'metadata.exports.format' }),
  // The language of the citation and of the schema.org texts; the caller's language when not given.
  lang: z.enum(LANGUAGES, { error: 'metadata.validation.option' }).optional(),
});

/** What a landing page address can answer: the page, an export, or a formatted citation (`text/x-bibliography`). */
type Representation = 'page' | ExportFormat | 'bibliography';

/**
 * The media types a landing page answers, the server's preference first (a browser's `*\/*` gets the
 * page). `application/ld+json` is schema.org unless its `profile` names DCAT; the others are those
 * DOI resolvers' content negotiation serves, and ours.
 */
const VARIANTS: readonly Variant<Representation>[] = [
  { type: 'text/html', value: 'page' },
  { type: 'application/xhtml+xml', value: 'page' },
  { type: 'application/vnd.datacite.datacite+xml', value: 'datacite' },
  { type: 'application/ld+json', params: { profile: JSON_LD_PROFILES.schemaorg }, value: 'schemaorg' },
  { type: 'application/ld+json', params: { profile: JSON_LD_PROFILES.dcat }, value: 'dcat' },
  { type: 'application/vnd.schemaorg.ld+json', value: 'schemaorg' },
  { type: 'text/turtle', value: 'turtle' },
  { type: 'application/rdf+xml', value: 'rdfxml' },
  { type: 'application/vnd.citationstyles.csl+json', value: 'csl' },
  { type: 'application/x-research-info-systems', value: 'ris' },
  { type: 'application/x-bibtex', value: 'bibtex' },
  { type: 'text/x-bibliography', value: 'bibliography' },
];

/** A `profile` names schema.org or DCAT however it is spelt (with or without `www`, `#`, `/`); any other is not read. */
function profileOf(value: string): string | undefined {
  const bare = value
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/[#/]+$/, '');
  if (bare === 'schema.org') return JSON_LD_PROFILES.schemaorg;
  if (bare === 'w3.org/ns/dcat') return JSON_LD_PROFILES.dcat;
  return undefined;
}

/** The citation styles `text/x-bibliography; style=` takes: ours by format name, the CSL project's ids, and the names DOI resolvers use. */
const STYLES: Record<string, 'apa' | 'gbt7714'> = {
  apa: 'apa',
  gbt7714: 'gbt7714',
  'gb-t-7714': 'gbt7714',
  'gb-t-7714-2015': 'gbt7714',
  'china-national-standard-gb-t-7714-2015-numeric': 'gbt7714',
};

/** One way to answer, in order of the client's preference. */
export type Negotiated = { kind: 'page' } | { kind: 'export'; format: ExportFormat; language: Language; type?: string } | { kind: 'refused'; error: AppError };

/**
 * What an Accept header asks of a landing page in `language`, best first. A formatted citation reads
 * `style` (apa, gb-t-7714 or the CSL ids) and `locale` (en, zh-Hans, zh-CN ...), else it is the page
 * language's (GB/T 7714 in Chinese, APA in English); one we do not make is refused.
 */
export function negotiate(accept: string | undefined, language: Language): Negotiated[] {
  const acceptable = acceptableVariants(accept, VARIANTS, (name, value) => (name === 'profile' ? profileOf(value) : undefined));
  return acceptable.map(({ variant, params }): Negotiated => {
    if (variant.value === 'page') return { kind: 'page' };
    if (variant.value !== 'bibliography') return { kind: 'export', format: variant.value, language };
    const locale = params.locale === undefined ? language : languageFromHeader(params.locale);
    const style = params.style === undefined ? (locale === 'en' ? 'apa' : 'gbt7714') : STYLES[params.style.trim().toLowerCase()];
    if (!locale || !style) return { kind: 'refused', error: new AppError('VALIDATION_FAILED', 'metadata.exports.style') };
    return { kind: 'export', format: style, language: locale, type: 'text/x-bibliography; charset=utf-8' };
  });
}

/** An export as the reply: a download (the API call) or the landing page's negotiated form. */
export function sendExport(reply: FastifyReply, rendered: RenderedExport, download: boolean, type = rendered.type) {
  if (download) reply.header('content-disposition', `attachment; filename="${rendered.filename.replace(/[^\w.-]/g, '_')}"`);
  return reply.type(type).send(rendered.body);
}

/** An error of the negotiation in the page's language (the path's, not the caller's Accept-Language). */
function sendError(reply: FastifyReply, error: AppError, language: Language) {
  return reply.status(error.status).send({ ...error.extra, detail: translate(language, error.messageKey, error.params) });
}

/** The tombstone of a withdrawn record with its citation, null for any other (landing.routes.ts). */
export type TombstoneOf = (id: string, language: Language) => Promise<Tombstone | null>;

/**
 * What a machine asking for a record that is not published gets, in the page's language: 410 with the
 * tombstone's facts for one that was withdrawn (as its page answers), else the 404 it was refused with.
 */
export async function sendUnpublished(reply: FastifyReply, notFound: AppError, id: string, language: Language, tombstone: TombstoneOf) {
  const gone = await tombstone(id, language);
  if (gone) return reply.status(410).send({ detail: translate(language, 'metadata.exports.withdrawn'), ...gone });
  return sendError(reply, notFound, language);
}

/**
 * Answers a landing page request with the export its Accept header prefers, trying the next one it
 * accepts when an export cannot be made (DataCite without a DOI); null when the page should answer:
 * HTML comes first, or is accepted at all and no export could be given (the page says 404 or 410
 * itself). Otherwise, in the page's language: a withdrawn record 410 with its tombstone's facts, an
 * unknown or unpublished one 404, an export that cannot be made its error (409 no DOI, 400 a citation
 * style we do not make).
 */
export async function sendNegotiated(
  reply: FastifyReply,
  choices: readonly Negotiated[],
  id: string,
  language: Language,
  { exports, tombstone }: { exports: ExportsService; tombstone: TombstoneOf },
): Promise<FastifyReply | null> {
  const pageAccepted = choices.some((choice) => choice.kind === 'page');
  let refusal: AppError | undefined;
  for (const choice of choices) {
    if (choice.kind === 'page') return null;
    if (choice.kind === 'refused') {
      refusal ??= choice.error;
      continue;
    }
    try {
      const rendered = await exports.render(id, choice.format, choice.language);
      // Signposting: the metadata names what it describes, the page asked for (as a download does).
      reply.header('link', describesLink(exports, id, language));
      return sendExport(reply, rendered, false, choice.type);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'NOT_FOUND') return pageAccepted ? null : sendUnpublished(reply, error, id, language, tombstone);
      refusal ??= error;
    }
  }
  if (pageAccepted || !refusal) return null;
  return sendError(reply, refusal, language);
}

/** The Link header of an export: the landing page it describes, in a language (FAIR Signposting). */
const describesLink = (exports: ExportsService, id: string, language: Language) =>
  linkHeader([{ anchor: '', rel: 'describes', href: exports.landingUrl(id, language), type: 'text/html' }]);

/** What the landing module's page and calls ask of exports (app.ts gives it to them). */
export function exportsForLanding(exports: ExportsService, tombstone: TombstoneOf): LandingExports {
  return {
    landingFacts: (id, language) => exports.landingFacts(id, language),
    linkset: (id, language) => exports.linkset(id, language),
    withdrawnCitation: (id, language) => exports.withdrawnCitation(id, language),
    negotiated: async (accept, reply, id, language) => {
      const choices = negotiate(accept, language);
      if (!choices.length || choices[0]!.kind === 'page') return null;
      return sendNegotiated(reply, choices, id, language, { exports, tombstone });
    },
    unpublished: (reply, notFound, id, language) => sendUnpublished(reply, notFound, id, language, tombstone),
  };
}

export async function exportsRoutes(parent: FastifyInstance, { exports, tombstone }: { exports: ExportsService; tombstone: TombstoneOf }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/api/metadata/metadata/:id/export/', { schema: { params: idParams, querystring: exportQuery }, config: { access: 'public' } }, async (request, reply) => {
    const language = request.query.lang ?? request.language;
    // Without lang= the language is the caller's Accept-Language: caches keep one reply per language.
    if (!request.query.lang) reply.header('vary', 'Accept-Language');
    let rendered;
    try {
      rendered = await exports.render(request.params.id, request.query.format, language);
    } catch (error) {
      // A withdrawn record: 410 with its tombstone's facts, as its page, negotiation and linkset answer.
      if (error instanceof AppError && error.code === 'NOT_FOUND') return sendUnpublished(reply, error, request.params.id, language, tombstone);
      throw error;
    }
    // Signposting: a metadata resource names what it describes, the landing page.
    reply.header('link', describesLink(exports, request.params.id, language));
    return sendExport(reply, rendered, true);
  });
}
