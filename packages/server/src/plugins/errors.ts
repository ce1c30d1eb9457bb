import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { hasMessage } from '@portal/shared';
import { AppError } from '../errors.js';

/** Translates a message key, falling back to a generic text for messages that are no keys (zod defaults). */
function messageOf(request: FastifyRequest, key: string | undefined, fallbackKey: string): string {
  return key && hasMessage(key) ? request.t(key) : request.t(fallbackKey);
}

/**
 * The one place that turns errors into replies. Field errors answer DRF style
 * (`{"email": ["..."]}`), everything else `{"detail": "..."}`; 5xx details stay in the log.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      const body: Record<string, unknown> = { ...error.extra };
      if (error.fields) {
        for (const [field, key] of Object.entries(error.fields)) body[field] = [messageOf(request, key, 'validation.invalid')];
      }
      body.detail = hasMessage(error.messageKey) ? request.t(error.messageKey, error.params) : request.t('errors.badRequest');
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const body: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = (issue.instancePath ?? '').replace(/^\//, '').split('/')[0] || 'non_field_errors';
        (body[field] ??= []).push(messageOf(request, issue.message, 'validation.invalid'));
      }
      const first = Object.values(body)[0]?.[0] ?? request.t('errors.badRequest');
      return reply.status(400).send({ ...body, detail: first });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ detail: request.t('errors.generic') });
    }
    const key =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'errors.bodyTooLarge'
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'errors.unsupportedMediaType'
          : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError
            ? 'errors.malformedBody'
            : status === 405
              ? 'errors.methodNotAllowed'
              : 'errors.badRequest';
    return reply.status(status).send({ detail: request.t(key) });
  });

  app.setNotFoundHandler((request, reply) => {
    // A browser asking for an unknown address gets the web app, which shows 'not found'.
    if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html') && reply.sendPortalPage) {
      return reply.sendPortalPage(404);
    }
    return reply.status(404).send({ detail: request.t('errors.notFound') });
  });
});
