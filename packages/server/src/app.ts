import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { DEFAULT_LANGUAGE, languageFromHeader, translate } from '@portal/shared';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, type DbHandle } from './db/index.js';
import { cleanupJobs, runCleanupJobs, scheduleCleanupJobs } from './jobs.js';
import { AppError } from './errors.js';
import { parseQuery } from './http/query.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { AccountRepo } from './modules/account/account.repo.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { AccountService } from './modules/account/account.service.js';
import { FilesRepo } from './modules/files/files.repo.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { FilesService } from './modules/files/files.service.js';
import { MetadataAccess } from './modules/metadata/metadata-access.js';
import { MetadataRepo } from './modules/metadata/metadata.repo.js';
import { metadataRoutes } from './modules/metadata/metadata.routes.js';
import { MetadataService } from './modules/metadata/metadata.service.js';
import { reviewRoutes } from './modules/review/review.routes.js';
import { ReviewService } from './modules/review/review.service.js';
import { authPlugin } from './plugins/auth.js';
import { csrfPlugin } from './plugins/csrf.js';
import { errorsPlugin } from './plugins/errors.js';
import { i18nPlugin } from './plugins/i18n.js';
import { createDatabaseRateLimitStore } from './plugins/rate-limit-store.js';
import { webPlugin } from './plugins/web.js';
import { createBlobStore } from './storage/index.js';

/** Form and JSON bodies of the account and metadata forms; uploads have their own limits. */
const BODY_LIMIT = 1024 * 1024;

export interface Portal {
  app: FastifyInstance;
  database: DbHandle;
  accounts: AccountService;
  metadata: MetadataService;
  review: ReviewService;
}

export interface BuildOptions {
  /** Replaces the configured mailer (tests that inspect mail without a server). */
  mailer?: Mailer;
  logger?: boolean;
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Builds the whole portal on a migrated database; tests build it too. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Portal> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: BODY_LIMIT,
    // A hop count trusts that many proxies nearest the server, as proxy-addr does for a number.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { querystringParser: parseQuery },
    // The router's own refusals (a bad %-escape, a path parameter over 100 characters) come before
    // every hook and the error handler: answer them in the same translated `{detail}` form.
    frameworkErrors: (error, request, reply) => {
      const language = languageFromHeader(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply)
        .status(status)
        .send({ detail: translate(language, status >= 500 ? 'errors.generic' : 'errors.badRequest') });
    },
  });
  const database = openDatabase({ ...config, onPoolError: (error) => app.log.error({ err: error }, 'PostgreSQL dropped an idle connection') });
  app.addHook('onClose', async () => {
    await database.db.destroy();
  });
  await migrateToLatest(database.db);

  const mailer =
    options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const accounts = new AccountService(new AccountRepo(database.db), mailer, {
    publicUrl: config.publicUrl,
    siteVariant: config.siteVariant,
    tokenTtlDays: config.tokenTtlDays,
  });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: BODY_LIMIT });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Ant Design writes its styles at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyRateLimit, {
    global: false,
    store: createDatabaseRateLimitStore(database.db),
    // context.after is English ('1 minute'); the catalogues word the wait in seconds themselves.
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', 'account.rateLimited', { params: { seconds: Math.ceil(context.ttl / 1000) } }),
  });
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(authPlugin, { accounts });
  await app.register(csrfPlugin);

  app.get('/healthz', { config: { access: 'public' } }, async () => ({ status: 'ok' }));
  await app.register(accountRoutes, { accounts, rateLimits: config.rateLimits });
  const metadataAccess = new MetadataAccess(database.db);
  const metadata = new MetadataService(new MetadataRepo(database.db), metadataAccess, config.accountLimits);
  const review = new ReviewService(database.db, metadataAccess, metadata, mailer, {
    publicUrl: config.publicUrl,
    siteVariant: config.siteVariant,
    log: app.log,
  });
  await app.register(metadataRoutes, { metadata, review });
  await app.register(reviewRoutes, { review });
  // Uploaded files live in DATA_DIR/files.
  const storage = createBlobStore({ dataDir: config.dataDir });
  const files = new FilesService(new FilesRepo(database.db), metadataAccess, storage, {
    log: app.log,
    storageQuotaBytes: config.accountLimits.storageBytes,
  });
  // A deleted record takes its stored files with it (rows go by cascade, blobs here, first).
  metadata.onDelete((id) => files.removeAllOf(id));
  await app.register(filesRoutes, { files });
  // Unfinished uploads, abandoned empty drafts and expired tokens: removed at start, then regularly.
  const jobs = cleanupJobs({ accounts, metadata, storage, review });
  await runCleanupJobs(jobs, app.log);
  scheduleCleanupJobs(app, jobs);
  await app.register(webPlugin, { webDist: config.webDist, siteVariant: config.siteVariant });

  return { app, database, accounts, metadata, review };
}
