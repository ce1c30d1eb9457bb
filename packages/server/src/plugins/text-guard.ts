import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasIllegalText, illegalTextPath } from '@portal/shared';
import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route answers text XML cannot carry itself (OAI-PMH answers badArgument in its own
     * envelope). Every other route refuses it here, before validation and before any database sees it.
     */
    textGuard?: boolean;
  }
}

/** The path parameters in one string, for one look at them all (they are few and short). */
function paramsHold(params: unknown): boolean {
  if (!params || typeof params !== 'object') return false;
  for (const value of Object.values(params as Record<string, unknown>)) if (typeof value === 'string' && hasIllegalText(value)) return true;
  return false;
}

/**
 * Refuses characters that no XML export, and (NUL) no PostgreSQL text, can hold: C0 controls but tab
 * and line breaks, lone surrogates, U+FFFE/FFFF (packages/shared rules/text.ts). A path holding one
 * names nothing that exists (404); a query parameter or body field holding one is a 400 that names
 * it, in the DRF shape the forms show at the field. Both databases answer alike, since neither sees it.
 */
export const textGuardPlugin = fp(async (app) => {
  app.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (request.routeOptions.config?.textGuard === false) return done();
    const inPath = paramsHold(request.params);
    const where = inPath ? null : (illegalTextPath(request.query) ?? illegalTextPath(request.body));
    if (!inPath && !where) return done();
    // A browser's page address with such a character: the web app's own "not found" / "bad request" page.
    if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html') && reply.sendPortalPage) {
      void reply.sendPortalPage(inPath ? 404 : 400);
      return;
    }
    if (inPath) return done(new AppError('NOT_FOUND', 'errors.notFound'));
    const field = where![0] ?? '';
    if (!field || hasIllegalText(field)) return done(new AppError('VALIDATION_FAILED', 'validation.illegalText'));
    done(
      new AppError('VALIDATION_FAILED', 'validation.illegalTextIn', {
        params: { field: where!.join('.') },
        fields: { [field]: 'validation.illegalText' },
      }),
    );
  });
});
