import type { FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANGE_RESULT, languagePrefix } from '@portal/shared';
import {
  changeSchema,
  forgotSchema,
  loginReplySchema,
  loginSchema,
  programmeAccountReplySchema,
  registerReplySchema,
  registerSchema,
  resetSchema,
  sendSchema,
  statusReplySchema,
  userPageSchema,
  userSchema,
} from '@portal/shared/contracts/account';
import { expertCandidatePageSchema } from '@portal/shared/contracts/review';
import type { RateLimits } from '../../config.js';
import { pagingQuery, toPage } from '../../http/paging.js';
import { clearAuthCookies, setTokenCookie } from '../../plugins/auth.js';
import { compiledSerializerCompiler } from '../../plugins/compiled-serializer.js';
import { ensureCsrfCookie, sameOriginSignIn } from '../../plugins/csrf.js';
import type { AccountService } from './account.service.js';

const CAPTCHA_COOKIE = 'captcha_key';

const changeMessages: Record<number, string> = {
  [CHANGE_RESULT.success]: 'account.changeSuccess',
  [CHANGE_RESULT.passwordChanged]: 'account.passwordChanged',
};

/** Account calls of spec section 7. Thin: schema, access, one service call. */
export async function accountRoutes(parent: FastifyInstance, { accounts, rateLimits }: { accounts: AccountService; rateLimits: RateLimits }) {
  // The zod compilers are set in this scope only: plugins with JSON schemas stay untouched.
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Replies through their contracts (shared/contracts/account.ts) compiled once (plugins/compiled-serializer.ts).
  app.setSerializerCompiler(compiledSerializerCompiler);

  const limit = (name: keyof RateLimits) => ({
    rateLimit: { max: rateLimits[name].max, timeWindow: rateLimits[name].timeWindowMs },
  });

  // No HEAD twins for these two: a HEAD must not draw a captcha or use up an activation link.
  app.get('/account/jpgcode', { exposeHeadRoute: false, config: { access: 'public', ...limit('captcha') } }, async (_request, reply) => {
    const { id, image } = await accounts.createCaptcha();
    reply.setCookie(CAPTCHA_COOKIE, id, { path: '/account/', httpOnly: true, sameSite: 'lax', maxAge: 600 });
    reply.header('cache-control', 'no-store');
    return reply.type('image/jpeg').send(image);
  });

  app.post(
    '/account/register/',
    { schema: { body: registerSchema, response: { 201: registerReplySchema } }, config: { access: 'public', ...limit('register') } },
    async (request, reply) => {
      const user = await accounts.register(request.body, request.cookies[CAPTCHA_COOKIE], request.language);
      reply.clearCookie(CAPTCHA_COOKIE, { path: '/account/' });
      return reply.status(201).send({
        status: 1,
        msg: `${request.t('account.registerSuccess')} ${request.t('account.registerMailSent', { email: user.email })}`,
        email: user.email,
      });
    },
  );

  app.get(
    '/account/activate/:key/',
    { exposeHeadRoute: false, schema: { params: z.object({ key: z.string().max(100) }) }, config: { access: 'public' } },
    async (request, reply) => {
      const result = await accounts.activate(request.params.key);
      const language = result?.language ?? request.language;
      const state = result ? 'activated=1' : 'activation=invalid';
      return reply.redirect(`${languagePrefix(language)}/personal/#/login?${state}`);
    },
  );

  // Signing in sets the session: another site's form may not do it (login CSRF), see sameOriginSignIn.
  app.post(
    '/account/profile-login/',
    { schema: { body: loginSchema, response: { 200: loginReplySchema } }, onRequest: sameOriginSignIn(accounts.publicUrl), config: { access: 'public', ...limit('login') } },
    async (request, reply) => {
      // The page's language (the web client sends it as Accept-Language) becomes the mail language; a
      // client that names none (no Accept-Language, no lang cookie) leaves it as it is.
      const named = request.headers['accept-language'] || request.cookies.lang ? request.language : undefined;
      const user = await accounts.login(request.body.username, request.body.password, named);
      // The browser keeps the token as an HttpOnly cookie; API clients read it from the reply (spec).
      setTokenCookie(request, reply, user.token, accounts.tokenTtlMs);
      ensureCsrfCookie(request, reply);
      return { ...user, msg: request.t('account.loginSuccess') };
    },
  );

  app.get('/account/validate/', { schema: { response: { 200: userSchema } }, config: { access: 'user' } }, async (request, reply) => {
    // The web client asks on every page load: the cookie's lifetime slides with the token's.
    if (request.isCookieAuth) setTokenCookie(request, reply, request.tokenKey!, accounts.tokenTtlMs);
    ensureCsrfCookie(request, reply);
    // Never the token: the cookie is HttpOnly so that no script, injected ones included, can read it;
    // an API client has it already (it sent it).
    return request.user!;
  });

  app.post('/account/logout/', { config: { access: 'user' } }, async (request, reply) => {
    await accounts.logout(request.tokenKey!);
    clearAuthCookies(reply);
    return reply.status(204).send();
  });

  app.post('/account/forgot/', { schema: { body: forgotSchema, response: { 200: statusReplySchema } }, config: { access: 'public', ...limit('mail') } }, async (request) => {
    await accounts.forgot(request.body.email);
    return { status: 1, msg: request.t('account.forgotSent', { email: request.body.email }) };
  });

  app.post('/account/send/', { schema: { body: sendSchema, response: { 200: statusReplySchema } }, config: { access: 'public', ...limit('mail') } }, async (request) => {
    await accounts.resendActivation(request.body.username);
    return { status: 1, msg: request.t('account.sendDone') };
  });

  app.post('/account/reset/', { schema: { body: resetSchema, response: { 200: statusReplySchema } }, config: { access: 'public', ...limit('mail') } }, async (request) => {
    await accounts.reset(request.body.key, request.body.password);
    return { status: 1, msg: request.t('account.resetSuccess') };
  });

  app.post('/account/change/', { schema: { body: changeSchema, response: { 200: statusReplySchema } }, config: { access: 'user', ...limit('login') } }, async (request, reply) => {
    const status = await accounts.change(request.user!, request.body);
    // Every token was revoked: the browser forgets its cookies too (log in again).
    if (status === CHANGE_RESULT.passwordChanged) clearAuthCookies(reply);
    return { status, msg: request.t(changeMessages[status]!) };
  });

  app.post(
    '/account/ptpe-account/',
    {
      schema: { body: z.object({ username: sendSchema.shape.username }), response: { 200: programmeAccountReplySchema } },
      config: { access: 'user', ...limit('login') },
    },
    async (request) => ({ s: (await accounts.isProgrammeAccount(request.body.username)) ? 1 : 0 }) as const,
  );

  app.get(
    '/api/account/account/',
    {
      schema: {
        querystring: pagingQuery.extend({
          search: z.string().trim().max(100).optional(),
          // The experts staff may invite to review (issue 7): active accounts, no e-mail.
          role: z.enum(['expert']).optional(),
        }),
        response: { 200: z.union([userPageSchema, expertCandidatePageSchema]) },
      },
      config: { access: 'staff' },
    },
    async (request) => {
      const { page, pageSize, search, role } = request.query;
      if (role === 'expert') {
        const { count, results } = await accounts.listExpertCandidates(search || undefined, page, pageSize);
        // Serialized through its contract, so that nothing but the candidate's fields leaves the server.
        return expertCandidatePageSchema.parse(toPage(request, { page, pageSize }, count, results));
      }
      const { count, results } = await accounts.listUsers(search || undefined, page, pageSize);
      return toPage(request, { page, pageSize }, count, results);
    },
  );
}
