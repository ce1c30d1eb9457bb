import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_COOKIES } from '@portal/shared';
import { AppError } from '../errors.js';
import type { AuthenticatedUser, AccountService } from '../modules/account/index.js';

/** Who may call a route. Every route declares one; app.ts refuses to register a route without. */
export type Access = 'public' | 'user' | 'staff';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The reply is the same for every caller (the web app's files, robots.txt, /healthz): the caller
     * is not looked up, so a signed-in browser's requests for them cost no database work.
     */
    anonymous?: boolean;
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
    /** The raw token the caller authenticated with, to revoke it at logout. */
    tokenKey: string | null;
    /** True when the token came from the cookie alone, so CSRF protection applies. */
    isCookieAuth: boolean;
  }
}

/** `Authorization: Token <key>` as the web client sends it (spec section 7), else the `token` cookie. */
function readToken(request: FastifyRequest): { key: string; fromCookie: boolean } | null {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Token\s+([A-Za-z0-9]{20,128})$/.exec(header.trim());
    return match ? { key: match[1]!, fromCookie: false } : null;
  }
  const cookie = request.cookies?.token;
  return cookie && /^[A-Za-z0-9]{20,128}$/.test(cookie) ? { key: cookie, fromCookie: true } : null;
}

/**
 * The login token as the browser keeps it: HttpOnly (no script reads it; the web client is
 * authenticated by the cookie and repeats `csrftoken` in X-CSRFToken), SameSite=Lax, Secure on
 * https, living as long as the token (set again by /account/validate/, so it slides too).
 */
export function setTokenCookie(request: FastifyRequest, reply: FastifyReply, key: string, maxAgeMs: number): void {
  reply.setCookie('token', key, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

/** Expires the token, csrftoken and sessionid cookies (logout, spec section 2; a dead token). */
export function clearAuthCookies(reply: FastifyReply, names: readonly string[] = AUTH_COOKIES): void {
  for (const name of names) reply.clearCookie(name, { path: '/' });
}

/**
 * Replies that carry a token or personal data are never stored by a browser or a proxy: every reply
 * to an authenticated request and every account call. Only what a route marks `public` (the web
 * app's hashed assets and static files, the same for everyone) keeps its own caching.
 */
function isPrivateReply(request: FastifyRequest, cacheControl: unknown): boolean {
  if (request.user === null && !request.url.startsWith('/account/')) return false;
  return !(typeof cacheControl === 'string' && /(^|,)\s*public\b/.test(cacheControl));
}

/** Who may not call a route of this policy: 401 or 403, before the body is read and validated. */
function refusal(access: Access | undefined, user: AuthenticatedUser | null): AppError | undefined {
  if (access !== 'user' && access !== 'staff') return undefined;
  if (!user) return new AppError('UNAUTHENTICATED', 'account.loginRequired');
  if (access === 'staff' && !user.is_staff) return new AppError('FORBIDDEN', 'account.forbidden');
  return undefined;
}

export const authPlugin = fp<{ accounts: AccountService }>(async (app, { accounts }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenKey', null);
  app.decorateRequest('isCookieAuth', false);

  app.addHook('onRoute', (route) => {
    if (!route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access policy (config.access)`);
    }
    if (route.config.anonymous && route.config.access !== 'public') {
      throw new Error(`Route ${route.method} ${route.url} is anonymous: its access policy must be public`);
    }
  });

  // Callback hooks: a request without a token (most of them) passes without a promise or a lookup.
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config;
    if (config.anonymous) return done();
    const token = readToken(request);
    if (!token) return done(refusal(config.access, null));
    accounts
      .authenticate(token.key)
      .then(
        (user) => {
          // An unknown, revoked or expired token makes the caller anonymous; routes that need a user refuse.
          if (user) {
            request.user = user;
            request.tokenKey = token.key;
            request.isCookieAuth = token.fromCookie;
          } else if (token.fromCookie) {
            // The browser forgets a dead token, and `csrftoken`, by which the web client knows it is signed in.
            clearAuthCookies(reply, ['token', 'csrftoken']);
          }
          return refusal(config.access, user);
        },
        (error: Error) => error,
      )
      .then(done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPrivateReply(request, reply.getHeader('cache-control'))) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
