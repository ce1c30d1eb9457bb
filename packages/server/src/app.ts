import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { DEFAULT_LANGUAGE, languageFromHeader, translate, type Language } from '@portal/shared';
import type { Config, PasswordHashing } from './config.js';
import { migrateToLatest, openDatabase, type DbHandle } from './db/index.js';
import { storedSecret } from './db/server-secret.js';
import { cleanupJobs, runCleanupJobs, scheduleCleanupJobs } from './jobs.js';
import { AppError } from './errors.js';
import { parseQuery } from './http/query.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { AccountDirectory, accountRoutes, AccountService } from './modules/account/index.js';
import { filesRoutes } from './modules/files/index.js';
import { FilesService, StoredFiles } from './modules/files/index.js';
import { ExportsService, exportsForLanding, exportsRoutes } from './modules/exports/index.js';
import { LandingRepo, LandingService, landingPages, landingRoutes, tombstoneOf } from './modules/landing/index.js';
import { MetadataAccess, MetadataService, metadataRoutes, ResourceService } from './modules/metadata/index.js';
import { downloadRoutes, ordersRoutes, OrdersService } from './modules/orders/index.js';
import { downloadLinkKey } from './modules/downloads/index.js';
import { Notify } from './modules/notify/index.js';
import { UsageService } from './modules/usage/index.js';
import { OaiIndex, OaiRepo, OaiService, oaiRoutes, tokenKey } from './modules/oai/index.js';
import { ReviewService, reviewRoutes } from './modules/review/index.js';
import { SearchIndex, SearchRepo, SearchService, searchRoutes } from './modules/search/index.js';
import { DoiService, doiRoutes } from './modules/doi/index.js';
import { createFtp, ftpRoutes, type FtpService, type PortalFtpServer } from './modules/ftp/index.js';
import { ChunkedUploads, TusUploads, UploadsRepo, uploadsRoutes, UploadsService } from './modules/uploads/index.js';
import { ArchiveService, archiveRoutes, HttpIndex } from './modules/archive/index.js';
import { TablesService, tablesRoutes, type MeasuredVariable } from './modules/tables/index.js';
import { AnalysisRepo, analysisRoutes, AnalysisService } from './modules/analysis/index.js';
import { authPlugin } from './plugins/auth.js';
import { csrfPlugin } from './plugins/csrf.js';
import { errorsPlugin } from './plugins/errors.js';
import { i18nPlugin } from './plugins/i18n.js';
import { createDatabaseRateLimitStore } from './plugins/rate-limit-store.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { textGuardPlugin } from './plugins/text-guard.js';
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
  search: SearchService;
  searchIndex: SearchIndex;
  metadataAccess: MetadataAccess;
  oaiIndex: OaiIndex;
  orders: OrdersService;
  usage: UsageService;
  doi: DoiService;
  ftp: FtpService;
  ftpServer: PortalFtpServer;
  uploads: UploadsService;
  archives: ArchiveService;
  tables: TablesService;
  analysis: AnalysisService;
}

export interface BuildOptions {
  /** Replaces the configured mailer (tests that inspect mail without a server). */
  mailer?: Mailer;
  logger?: boolean;
  /** 'owasp' unless given: only test code (the API tests' portal, e2e's server) passes 'fast-for-tests'. */
  passwordHashing?: PasswordHashing;
}

/** Levels at which every request is logged (two lines each); above them only what goes wrong. */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug']);
/** What /healthz answers, serialized once. */
const HEALTHY = JSON.stringify({ status: 'ok' });

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Builds the whole portal on a migrated database; tests build it too. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Portal> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    // Logging each request cost a third of a small reply's time (bench/results/public-throughput.json);
    // errors are logged by the error handler at any level, a reverse proxy keeps the access log.
    logController: new LogController({ disableRequestLogging: !REQUEST_LOG_LEVELS.has(config.logLevel) }),
    bodyLimit: BODY_LIMIT,
    // A hop count trusts that many proxies nearest the server, as proxy-addr does for a number.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { querystringParser: parseQuery },
    // The router's own refusals (a bad %-escape, a path parameter over 100 characters) come before
    // every hook and the error handler: answer them in the same translated `{detail}` form.
    frameworkErrors: (error, request, reply) => {
      const language = languageFromHeader(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply).status(status).send({ detail: translate(language, status >= 500 ? 'errors.generic' : 'errors.badRequest') });
    },
  });
  const database = openDatabase({ ...config, onPoolError: (error) => app.log.error({ err: error }, 'PostgreSQL dropped an idle connection') });
  // Counts still waiting for their batch are written before the database closes.
  const usage = new UsageService(database.db);
  app.addHook('onClose', async () => {
    await usage.flush();
    await database.db.destroy();
  });
  await migrateToLatest(database.db);

  const mailer = options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const accounts = new AccountService(database.db, mailer, {
    publicUrl: config.publicUrl,
    siteVariant: config.siteVariant,
    tokenTtlDays: config.tokenTtlDays,
    passwordHashing: options.passwordHashing ?? 'owasp',
  });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: BODY_LIMIT });
  await app.register(securityHeadersPlugin);
  await app.register(fastifyRateLimit, {
    global: false,
    store: createDatabaseRateLimitStore(database.db),
    // context.after is English ('1 minute'); the catalogues word the wait in seconds themselves.
    errorResponseBuilder: (_request, context) => new AppError('RATE_LIMITED', 'account.rateLimited', { params: { seconds: Math.ceil(context.ttl / 1000) } }),
  });
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(authPlugin, { accounts });
  await app.register(csrfPlugin);
  await app.register(textGuardPlugin);

  app.get('/healthz', { config: { access: 'public', anonymous: true } }, (_request, reply) => reply.type('application/json; charset=utf-8').send(HEALTHY));
  await app.register(accountRoutes, { accounts, rateLimits: config.rateLimits });
  const metadataAccess = new MetadataAccess(database.db);
  // DOIs the data centre assigns are minted in the publishing transaction, before the views that show them follow it.
  const doi = new DoiService(database.db, metadataAccess, { site: { publicUrl: config.publicUrl, siteVariant: config.siteVariant }, datacite: config.datacite, log: app.log });
  metadataAccess.onChange(doi);
  // DataCite hears of a change once its reply has gone (its transaction committed): publication never waits for it.
  app.addHook('onResponse', (_request, _reply, done) => {
    doi.afterResponse();
    done();
  });
  app.addHook('preClose', () => doi.settled());
  // The public catalogue follows every change of a published record, in the same transaction.
  const searchIndex = new SearchIndex(database.db, database.dialect);
  metadataAccess.onChange(searchIndex);
  // So does the OAI-PMH feed; records published before it existed get their items now.
  const oaiIndex = new OaiIndex(database.db);
  metadataAccess.onChange(oaiIndex);
  await oaiIndex.fillMissing();
  const search = new SearchService(new SearchRepo(database.db, database.dialect));
  const metadata = new MetadataService(database.db, metadataAccess, new AccountDirectory(database.db), config.accountLimits);
  // The generic attached entities (authors, keywords, funds ...) of metadata.routes.ts.
  const resources = new ResourceService(database.db, metadataAccess);
  // One localised mail with a link to the personal centre, for review and orders.
  const notify = new Notify(mailer, { publicUrl: config.publicUrl, siteVariant: config.siteVariant, log: app.log });
  const review = new ReviewService(database.db, metadataAccess, metadata, notify, {
    publicUrl: config.publicUrl,
    siteVariant: config.siteVariant,
    log: app.log,
  });
  await app.register(searchRoutes, { search });
  await app.register(reviewRoutes, { review });
  await app.register(doiRoutes, { doi });
  // A published record's JSON-LD names the columns of its tables (variableMeasured); `tables` is made below, asked only once requests come.
  const exports = new ExportsService(database.db, metadataAccess, { publicUrl: config.publicUrl, siteVariant: config.siteVariant }, (id): Promise<MeasuredVariable[]> =>
    tables.variablesOf(id),
  );
  const landing = new LandingService(new LandingRepo(database.db));
  const tombstone = (id: string, language: Language) => tombstoneOf(landing, exports, id, language);
  await app.register(exportsRoutes, { exports, tombstone });
  const oai = new OaiService(database.db, new OaiRepo(database.db), {
    publicUrl: config.publicUrl,
    siteVariant: config.siteVariant,
    adminEmail: config.adminEmail,
    pageSize: config.oaiPageSize,
    // oai_datacite's datacentreSymbol: the DataCite repository's account, when one is configured.
    datacentreSymbol: config.datacite?.user,
    tokenKey: tokenKey(config.secretKey ?? (await storedSecret(database.db))),
  });
  await app.register(oaiRoutes, { oai, rateLimit: config.rateLimits.oai });
  // Orders (issue 10): one rule decides who downloads a record's files, on every download path.
  const orders = new OrdersService(database.db, metadataAccess, usage, mailer, notify, {
    validDays: config.orderValidDays,
    adminEmail: config.adminEmail,
    appliesPerHour: config.accountLimits.appliesPerHour,
    log: app.log,
    cite: (id, language) => exports.citationOf(id, language),
  });
  const downloads = orders.downloads;
  await app.register(metadataRoutes, { metadata, resources, review, usage });
  await app.register(ordersRoutes, { orders });
  // Uploaded files live in DATA_DIR/files.
  const storage = createBlobStore({ dataDir: config.dataDir });
  const files = new FilesService(database.db, metadataAccess, storage, {
    log: app.log,
    storageQuotaBytes: config.accountLimits.storageBytes,
    downloads,
  });
  // A deleted record takes its stored files with it (rows go by cascade, blobs here, first).
  metadataAccess.events.on('removing', ({ id }) => files.removeAllOf(id));
  await app.register(filesRoutes, { files, storage, usage, landingUrl: (id, language) => exports.landingUrl(id, language) });
  // Uploads that resume (issue 19): the chunked protocol and tus write through the storage's upload area; a finished file goes to the files module.
  const uploads = new UploadsService(new UploadsRepo(database.db), metadataAccess, storage.uploads, storage, files, {
    storageQuotaBytes: config.accountLimits.storageBytes,
    storedBytesOf: (userId) => files.storedBytesOf(userId),
    expiryMs: config.uploadExpiryHours * 3600_000,
    log: app.log,
  });
  await app.register(uploadsRoutes, { chunked: new ChunkedUploads(uploads), tus: new TusUploads(uploads) });
  const linkKey = downloadLinkKey(config.secretKey ?? (await storedSecret(database.db)));
  await app.register(downloadRoutes, { orders, zips: orders.zips(metadataAccess, storage), usage, storage, publicUrl: config.publicUrl, linkKey });
  // Whole datasets (issue 19): a published record's archive, built in the background after each change, and an order's signed HTTP index.
  const storedFiles = new StoredFiles(database.db);
  const archives = new ArchiveService(database.db, metadataAccess, downloads, storedFiles, storage, { ...config.archive, log: app.log });
  if (config.archive.enabled) {
    metadataAccess.onChange(archives);
    metadataAccess.events.on('removing', ({ id }) => archives.remove(id));
  }
  // A change (publication, a file) asks for the archive worker: it starts once the reply has gone (its transaction committed).
  app.addHook('onResponse', (_request, _reply, done) => {
    archives.afterResponse();
    done();
  });
  // A build under way stops (its row pending again) before the database closes.
  app.addHook('preClose', () => archives.stop());
  await app.register(archiveRoutes, { archives, index: new HttpIndex(orders, storedFiles, linkKey, config.publicUrl), usage, storage });
  // Excel to table (issue 20): a record's workbook or CSV file as a database table, read by the record's download rule; its tables go with the file or the record.
  const tables = new TablesService(database.db, database.dialect, metadataAccess, downloads, storedFiles, storage, app.log);
  metadataAccess.events.on('deleting', ({ trx, ids }) => tables.forgetRecords(trx, ids));
  files.events.onDataFilesDeleting(({ trx, ids }) => tables.forgetFiles(trx, ids));
  await app.register(tablesRoutes, { tables, usage });
  // Analysis methods (issue 20): queries in a DuckDB child process over the imported tables and tabular files of records the runner may download.
  const analysis = new AnalysisService(new AnalysisRepo(database.db), metadataAccess, downloads, storedFiles, tables, storage, config.analysis, app.log);
  // Queued runs are taken up; runs a dead process left running have failed.
  await analysis.recover();
  app.addHook('preClose', () => analysis.stop());
  await app.register(analysisRoutes, { analysis });
  // FTP accounts and the FTP server in this process (issue 19): a record's files through the files module's face.
  const ftp = createFtp(config, {
    db: database.db,
    access: metadataAccess,
    orders,
    accounts,
    files,
    storage,
    usedBytesOf: (userId) => uploads.usedBytesOf(userId),
    log: app.log,
  });
  metadataAccess.events.on('removing', ({ id }) => ftp.service.incoming.remove(id));
  await app.register(ftpRoutes, { ftp: ftp.service });
  // Unfinished uploads, abandoned empty drafts and expired tokens: removed at start, then regularly.
  const jobs = cleanupJobs({ accounts, metadata, storage, review, search, orders, usage, doi, uploads, ftp: ftp.service, archives, tables });
  await runCleanupJobs(jobs, app.log);
  scheduleCleanupJobs(app, jobs);
  // Landing pages and their calls ask exports through what exports gives them (exports link to landing pages).
  const landingExports = exportsForLanding(exports, tombstone);
  await app.register(landingRoutes, { landing, exports: landingExports });
  await app.register(webPlugin, {
    webDist: config.webDist,
    siteVariant: config.siteVariant,
    publicUrl: config.publicUrl,
    landing,
    search,
    pages: [landingPages(landing, landingExports)],
  });

  // The FTP server listens once the portal is built (FTP_ENABLED), and stops before the database closes.
  app.addHook('preClose', () => ftp.server.stop());
  if (config.ftp.enabled) await ftp.server.start();

  return {
    app,
    database,
    accounts,
    metadata,
    review,
    search,
    searchIndex,
    metadataAccess,
    oaiIndex,
    orders,
    usage,
    doi,
    uploads,
    ftp: ftp.service,
    ftpServer: ftp.server,
    archives,
    tables,
    analysis,
  };
}
