import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
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

/** Whether the request repeats its `csrftoken` cookie in the X-CSRFToken header. */
function passesDoubleSubmit(request: FastifyRequest): boolean {
  const cookie = request.cookies?.csrftoken ?? '';
  const header = request.headers[CSRF_HEADER_NAME];
  return !!cookie && typeof header === 'string' && sameSecret(cookie, header);
}

/** The origin (scheme://host[:port]) of a URL, or undefined for what is no URL (`null`, garbage). */
function originOf(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Login CSRF: a call that signs an anonymous browser in (it sets the token cookie) is refused when
 * another site made the browser send it, or the attacker's session would be the victim's.
 * - Origin, which browsers send with every POST, must be the portal's own: `publicUrl`'s origin, or
 *   the host the request was sent to (`request.host`: the Host header, X-Forwarded-Host behind a
 *   trusted proxy). `Origin: null` (a sandboxed frame, a redirect across sites) is refused.
 * - Without Origin (older browsers), the Referer's origin is checked the same way.
 * - With neither, the caller is no browser on another site's page but a program (curl, an API
 *   client, a test), which keeps working; unless it carries cookies, the mark of a browser whose
 *   headers were suppressed: then it must pass the double-submit check (a portal page can).
 */
export function sameOriginSignIn(publicUrl: string): onRequestHookHandler {
  const portalOrigin = originOf(publicUrl)?.origin;
  // The request's host read with the caller's scheme, so that a default port counts as none.
  const isOwn = (url: URL | undefined, request: FastifyRequest) => !!url && (url.origin === portalOrigin || originOf(`${url.protocol}//${request.host}`)?.origin === url.origin);
  return (request, _reply, done) => {
    const origin = request.headers.origin;
    const referer = request.headers.referer;
    let allowed: boolean;
    if (typeof origin === 'string' && origin !== '') allowed = isOwn(originOf(origin), request);
    else if (typeof referer === 'string' && referer !== '') allowed = isOwn(originOf(referer), request);
    else allowed = !request.headers.cookie || passesDoubleSubmit(request);
    done(allowed ? undefined : new AppError('CSRF_FAILED', 'errors.csrf'));
  };
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
    done(passesDoubleSubmit(request) ? undefined : new AppError('CSRF_FAILED', 'errors.csrf'));
  });
});
