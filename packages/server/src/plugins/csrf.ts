import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CSRF_HEADER } from '@portal/shared';
import { AppError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CSRF_HEADER_NAME = CSRF_HEADER.toLowerCase();

/** Gives the browser a `csrftoken` cookie (readable by the page, as the spec's client needs). */
export function ensureCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies?.csrftoken) return;
  reply.setCookie('csrftoken', randomBytes(24).toString('hex'), {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: request.protocol === 'https',
    maxAge: 365 * 24 * 3600,
  });
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit check: a state-changing request authenticated by the cookie alone must repeat the
 * `csrftoken` cookie in the X-CSRFToken header. A request with an Authorization header cannot be
 * forged by another site, and an anonymous one has no session to abuse.
 */
export const csrfPlugin = fp(async (app) => {
  // onRequest, after the auth plugin's: refused before the body is read or validated.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || !request.isCookieAuth) return done();
    const cookie = request.cookies?.csrftoken ?? '';
    const header = request.headers[CSRF_HEADER_NAME];
    if (!cookie || typeof header !== 'string' || !sameSecret(cookie, header)) return done(new AppError('CSRF_FAILED', 'errors.csrf'));
    done();
  });
});
