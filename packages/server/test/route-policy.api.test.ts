import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import type { AccountService } from '../src/modules/account/account.service.js';
import { authPlugin, type Access } from '../src/plugins/auth.js';
import { buildUser } from './factories.js';
import type { TestPortal } from './helpers.js';

/** Every route the portal registers, seen by a hook added before any plugin of buildApp. */
const registered = vi.hoisted(() => [] as { method: string; url: string; access: unknown }[]);

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const withRouteList = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url, access: route.config?.access });
    });
    return app;
  }) as typeof actual.default;
  return { ...actual, default: withRouteList };
});

/** The account calls of spec section 7 and who may call them. */
const ACCOUNT_ROUTES: Record<string, Access> = {
  'GET /account/jpgcode': 'public',
  'POST /account/register/': 'public',
  'GET /account/activate/:key/': 'public',
  'POST /account/profile-login/': 'public',
  'GET /account/validate/': 'user',
  'POST /account/logout/': 'user',
  'POST /account/forgot/': 'public',
  'POST /account/send/': 'public',
  'POST /account/reset/': 'public',
  'POST /account/change/': 'user',
  'POST /account/ptpe-account/': 'user',
  'GET /api/account/account/': 'staff',
  // Orders (issue 10): every one needs a signed-in user; the service decides whose orders.
  'GET /api/account/line_item/': 'user',
  'POST /api/account/line_item/': 'user',
  'DELETE /api/account/line_item/': 'user',
  'DELETE /api/account/line_item/:id/': 'user',
  'GET /api/account/order/': 'user',
  'POST /api/account/order/': 'user',
  'GET /api/account/order/:id/': 'user',
  'PUT /api/account/order/:id/': 'user',
  'POST /account/order-handle/': 'user',
  'POST /account/delete_order/': 'user',
  'POST /account/delete-order/': 'user',
  'POST /account/reapply/': 'user',
  'GET /api/account/voucher/:id/': 'user',
  'GET /api/account/order/:id/links/': 'user',
  'GET /api/account/order/:id/index-link/': 'user',
  'GET /account/order-statistics/': 'user',
  'GET /account/order-statistics': 'user',
  'GET /api/account/order-date-statistics/': 'user',
};

let portal: TestPortal;
beforeAll(async () => {
  registered.length = 0;
  // The portal's modules afresh, so that its app.ts takes the Fastify above even where another test file
  // of this worker loaded them already (the API tests share a worker's modules: vitest's isolate is off).
  vi.resetModules();
  const { createTestPortal } = await import('./helpers.js');
  portal = await createTestPortal();
  await portal.app.ready();
});
afterAll(async () => {
  await portal.close();
});

describe('route access policy', () => {
  it('every route of the portal declares who may call it', () => {
    expect(registered.length).toBeGreaterThan(Object.keys(ACCOUNT_ROUTES).length);
    const without = registered.filter((route) => !['public', 'user', 'staff'].includes(route.access as string));
    expect(without).toEqual([]);
  });

  it('the account calls have the expected policy', () => {
    const accountRoutes = Object.fromEntries(
      registered.filter((route) => route.method !== 'HEAD' && /^\/(api\/)?account\//.test(route.url)).map((route) => [`${route.method} ${route.url}`, route.access]),
    );
    expect(accountRoutes).toEqual(ACCOUNT_ROUTES);
  });

  it('every route for users or staff refuses an anonymous caller with 401', async () => {
    const guarded = registered.filter((route) => route.access !== 'public');
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const response = await portal.app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:(\w+)/g, 'x'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : '',
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('every route for staff refuses a signed-in user who is not staff with 403, and lets staff past the door', async () => {
    const user = await buildUser(portal);
    const staff = await buildUser(portal, { staff: true });
    const staffOnly = registered.filter((route) => route.access === 'staff' && route.method !== 'HEAD');
    expect(staffOnly.length).toBeGreaterThan(0);
    const ask = (route: (typeof registered)[number], token: string) =>
      portal.app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:(\w+)/g, 'x'),
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Token ${token}` },
        payload: route.method === 'GET' ? undefined : '',
      });
    for (const route of staffOnly) {
      expect((await ask(route, user.token)).statusCode, `${route.method} ${route.url} as a user`).toBe(403);
      expect([401, 403], `${route.method} ${route.url} as staff`).not.toContain((await ask(route, staff.token)).statusCode);
    }
  });

  it('a route without config.access cannot be registered', async () => {
    const app = Fastify();
    await app.register(authPlugin, { accounts: { authenticate: async () => null } as unknown as AccountService });
    expect(() => app.get('/open', async () => 'open')).toThrow('Route GET /open declares no access policy (config.access)');
    expect(() => app.get('/fine', { config: { access: 'public' } }, async () => 'fine')).not.toThrow();
    await app.close();
  });

  it('a plugin registering a route without config.access keeps the app from starting', async () => {
    const app = Fastify();
    await app.register(authPlugin, { accounts: { authenticate: async () => null } as unknown as AccountService });
    const start = async () => {
      await app.register(async (child) => {
        child.post('/child/', async () => 'child');
      });
      await app.ready();
    };
    await expect(start()).rejects.toThrow('Route POST /child/ declares no access policy (config.access)');
  });
});
