import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
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

export const authPlugin = fp<{ accounts: AccountService }>(async (app, { accounts }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenKey', null);
  app.decorateRequest('isCookieAuth', false);

  app.addHook('onRoute', (route) => {
    if (!route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access policy (config.access)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const token = readToken(request);
    if (token) {
      // An unknown or revoked token makes the caller anonymous; routes that need a user refuse below.
      const user = await accounts.authenticate(token.key);
      if (user) {
        request.user = user;
        request.tokenKey = token.key;
        request.isCookieAuth = token.fromCookie;
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
});
