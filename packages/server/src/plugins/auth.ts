import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_COOKIES } from '@portal/shared';
import { AppError } from '../errors.js';
import type { AuthenticatedUser, AccountService } from '../modules/account/account.service.js';

/** Who may call a route. Every route declares one; app.ts refuses to register a route without. */
export type Access = 'public' | 'user' | 'staff';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
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
  if (typeof cacheControl === 'string' && /(^|,)\s*public\b/.test(cacheControl)) return false;
  return request.user !== null || request.url.startsWith('/account/');
}

export const authPlugin = fp<{ accounts: AccountService }>(async (app, { accounts }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenKey', null);
  app.decorateRequest('isCookieAuth', false);

  app.addHook('onRoute', (route) => {
    if (!route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access policy (config.access)`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const token = readToken(request);
    if (token) {
      // An unknown, revoked or expired token makes the caller anonymous; routes that need a user refuse below.
      const user = await accounts.authenticate(token.key);
      if (user) {
        request.user = user;
        request.tokenKey = token.key;
        request.isCookieAuth = token.fromCookie;
      } else if (token.fromCookie) {
        // The browser forgets a dead token, and `csrftoken`, by which the web client knows it is signed in.
        clearAuthCookies(reply, ['token', 'csrftoken']);
      }
    }
    // Checked before the body is read and validated: a caller who may not use the route gets 401 or
    // 403, never the route's validation errors.
    const access = request.routeOptions.config?.access;
    if (access === 'user' || access === 'staff') {
      if (!request.user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
      if (access === 'staff' && !request.user.is_staff) throw new AppError('FORBIDDEN', 'account.forbidden');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (isPrivateReply(request, reply.getHeader('cache-control'))) reply.header('cache-control', 'no-store');
    return payload;
  });
});
