import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AccountService } from './modules/account/index.js';
import type { OrdersService } from './modules/orders/index.js';
import type { UsageService } from './modules/usage/index.js';
import type { MetadataService } from './modules/metadata/index.js';
import type { DoiService } from './modules/doi/index.js';
import type { FtpService } from './modules/ftp/index.js';
import type { ReviewService } from './modules/review/index.js';
import type { SearchService } from './modules/search/index.js';
import type { UploadsService } from './modules/uploads/index.js';
import type { LocalDiskStore } from './storage/index.js';
import type { ArchiveService } from './modules/archive/index.js';
import type { TablesService } from './modules/tables/index.js';

/** One clean-up the server repeats while it runs (and `npm run portal -- cleanup` runs once). */
export interface CleanupJob {
  name: string;
  everyMs: number;
  /** Does the work; answers how many things it removed. */
  run(): Promise<number>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A temporary upload file untouched this long belongs to a write that died (a killed process, a
 * lost client): a running write touches its file with every chunk. Several instances may share
 * DATA_DIR/files, so the age, not this process's memory, tells a dead write from another's live one.
 */
export const UNFINISHED_UPLOAD_IDLE_MS = 15 * MINUTE;
/** An empty draft nobody touched for this long was abandoned (its editor is long closed). */
export const ABANDONED_DRAFT_MS = 24 * HOUR;

export function cleanupJobs(parts: {
  accounts: AccountService;
  metadata: MetadataService;
  storage: LocalDiskStore;
  review?: ReviewService;
  search?: SearchService;
  orders?: OrdersService;
  usage?: UsageService;
  doi?: DoiService;
  uploads?: UploadsService;
  ftp?: FtpService;
  archives?: ArchiveService;
  tables?: TablesService;
}): CleanupJob[] {
  return [
    {
      name: 'unfinished uploads',
      everyMs: 10 * MINUTE,
      run: () => parts.storage.removeStaleTemporaryFiles(UNFINISHED_UPLOAD_IDLE_MS),
    },
    {
      name: 'abandoned empty drafts',
      everyMs: HOUR,
      run: () => parts.metadata.removeAbandonedDrafts(new Date(Date.now() - ABANDONED_DRAFT_MS)),
    },
    // Resumable uploads not written to for UPLOAD_EXPIRY_HOURS: their rows and parts go.
    ...(parts.uploads ? [{ name: 'expired uploads', everyMs: 10 * MINUTE, run: () => parts.uploads!.expire() }] : []),
    // So do the parts of FTP uploads whose connection or process died (the same expiry).
    ...(parts.uploads && parts.ftp ? [{ name: 'abandoned FTP parts', everyMs: 10 * MINUTE, run: () => parts.ftp!.incoming.sweepParts(parts.uploads!.expiryMs) }] : []),
    { name: 'expired tokens', everyMs: HOUR, run: () => parts.accounts.deleteExpiredTokens() },
    // Not a clean-up, but the same kind of periodic, idempotent work: experts past their deadline.
    ...(parts.review ? [{ name: 'review reminders', everyMs: HOUR, run: () => parts.review!.remindOverdue() }] : []),
    // Views older than the counting window no longer hold a repeat back.
    ...(parts.usage ? [{ name: 'old record views', everyMs: 10 * MINUTE, run: () => parts.usage!.forgetViews() }] : []),
    // So do downloads; and offline requests unanswered for three days are told to the applicant.
    ...(parts.usage ? [{ name: 'old downloads', everyMs: 10 * MINUTE, run: () => parts.usage!.forgetDownloads() }] : []),
    ...(parts.orders ? [{ name: 'unanswered data requests', everyMs: HOUR, run: () => parts.orders!.remindOverdue() }] : []),
    // Order mails left in the outbox: the process died before sending them, or the mailer failed (retried with backoff).
    ...(parts.orders ? [{ name: 'order mails', everyMs: MINUTE, run: () => parts.orders!.sendPendingMails() }] : []),
    ...(parts.orders ? [{ name: 'sent order mails', everyMs: HOUR, run: () => parts.orders!.forgetSentMails() }] : []),
    // DOI registrations DataCite has not taken yet (it failed, or the process died first), with backoff.
    ...(parts.doi ? [{ name: 'DOI registrations', everyMs: MINUTE, run: () => parts.doi!.deliverDue() }] : []),
    // Protection periods ended: the exports' access right turns, and every view of the record follows.
    ...(parts.doi ? [{ name: 'ended protection periods', everyMs: HOUR, run: () => parts.doi!.noteEndedEmbargoes() }] : []),
    // FTP download accounts end with their download (spec section 4): past their expiry they are deleted.
    ...(parts.ftp ? [{ name: 'expired FTP accounts', everyMs: 10 * MINUTE, run: () => parts.ftp!.removeExpired() }] : []),
    // Whole-dataset archives: drops those of records no longer published, checks changed records, builds what is pending
    // (a build whose process died included). Started, not awaited: a build of tens of GB must not hold the start or the other jobs.
    ...(parts.archives?.enabled ? [{ name: 'whole-dataset archives', everyMs: MINUTE, run: () => (void parts.archives!.kick(), Promise.resolve(0)) }] : []),
    // Tables whose import's process died while they loaded (a day after it began): dropped with their catalogue rows.
    ...(parts.tables ? [{ name: 'abandoned table imports', everyMs: HOUR, run: () => parts.tables!.dropAbandoned() }] : []),
  ];
}

/** Runs every job once, in turn; a failing job is logged and the others still run. */
export async function runCleanupJobs(jobs: CleanupJob[], log: Pick<FastifyBaseLogger, 'info' | 'error'>): Promise<void> {
  for (const job of jobs) await runLogged(job, log);
}

async function runLogged(job: CleanupJob, log: Pick<FastifyBaseLogger, 'info' | 'error'>): Promise<void> {
  try {
    const removed = await job.run();
    if (removed > 0) log.info({ job: job.name, removed }, 'clean-up');
  } catch (error) {
    log.error({ err: error, job: job.name }, 'clean-up failed');
  }
}

/**
 * Repeats each job on its own timer while the app runs. The timers are unref'd (they never keep the
 * process alive) and stopped when the app closes, which also waits for a run under way, so that the
 * database is not closed under it.
 */
export function scheduleCleanupJobs(app: FastifyInstance, jobs: CleanupJob[]): void {
  const running = new Set<Promise<void>>();
  const timers = jobs.map((job) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const run = runLogged(job, app.log).finally(() => {
        busy = false;
        running.delete(run);
      });
      running.add(run);
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  // preClose: before the database is closed (onClose).
  app.addHook('preClose', async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(running);
  });
}
