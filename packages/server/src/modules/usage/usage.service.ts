import { createHash } from 'node:crypto';
import type { ApplyRole, Statistics } from '@portal/shared';
import type { Db } from '../../db/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { catalogueChanged } from '../search/index.js';
import { isRobot } from './robots.js';
import { applyStatistics, recordStatistics, type DatasetTitles } from './statistics.js';
import { slices, UsageRepo } from './usage.repo.js';

/** A download, as COUNTER counts it: a visitor's repeat of the same file within this window counts once. */
export const DOWNLOAD_WINDOW_MS = 30_000;
/** A view: a visitor's repeat of the same record's page within this window counts once (issue "Find data"). */
export const VIEW_WINDOW_MS = 30_000;

export interface Downloader {
  userId?: string;
  ip: string;
  userAgent: string;
  /** The country of the order that granted it (ISO 3166-1 alpha-2), '' when none. */
  country: string;
}

/** A view or a download waiting for its batch: who, what and when, and the answer its request waits for. */
interface PendingCount {
  kind: 'view' | 'download';
  metadataId: string;
  /** What the repeat window is kept for: the file of a download, the record of a view. */
  target: string;
  visitor: string;
  /** The key under which a count taken is remembered (Usage.counted). */
  memo: string;
  country: string;
  at: Date;
  settle: (counted: boolean) => void;
  fail: (error: unknown) => void;
}

/** A visitor, as the repeat windows know them: the account, else a hash of the address and the browser. */
function visitorKey(who: { userId?: string; ip: string; userAgent: string }): string {
  return who.userId ? `u:${who.userId}` : `a:${createHash('sha256').update(`${who.ip}\u0000${who.userAgent}`).digest('base64url').slice(0, 22)}`;
}

/** How long views wait for others to join their batch (no reply waits for a view). */
const VIEW_BATCH_MS = 50;
/** Counts remembered at most (the oldest go first; a count not remembered is asked of the database). */
const REMEMBERED_COUNTS = 100_000;

const windowOf = (kind: 'view' | 'download') => (kind === 'view' ? VIEW_WINDOW_MS : DOWNLOAD_WINDOW_MS);

/**
 * Usage of records: views and downloads counted once per visitor, record (or file) and 30 seconds,
 * never for robots; views, downloads and orders per day and country for the statistics.
 *
 * Views and downloads are counted in batches (group commit): a download joins the batch of the
 * current turn of the event loop (its reply waits for it), a view waits up to VIEW_BATCH_MS for
 * others (no reply waits for it), and one transaction writes the whole batch (one upsert of their
 * repeat-window rows, one update of each table's counters, one upsert of the daily counts) before
 * the requests go on. Counted one by one, each wrote five statements and a commit of its own on the
 * event loop (SQLite writes are synchronous): a counted download cost 1.75 times an uncounted one,
 * and counting a view was 40 % of a record page's time under load. The database keeps deciding what
 * counts (the repeat windows' rows), so that several instances still count a visitor's repeat once;
 * a repeat within the window of a count this instance wrote is known to be one without asking it
 * (a returning visitor's page costs no transaction).
 */
export class UsageService {
  readonly repo: UsageRepo;
  private pending: PendingCount[] = [];
  private draining: Promise<void> | null = null;
  /** Views waiting for their batch (VIEW_BATCH_MS after the first): written now, or at the end of this turn. */
  private viewTimer: { now: () => void; soon: () => void } | null = null;
  /**
   * What this instance counted and when (ms), by kind, target and visitor: a repeat inside the window
   * of a count the database took is a repeat whatever else happens (the row it wrote keeps that time
   * until the window has passed), so it is answered here without a transaction. Oldest first.
   */
  private readonly counted = new Map<string, number>();

  constructor(private readonly db: Db) {
    this.repo = new UsageRepo(db);
  }

  /** Counts a view of a published record's page; answers whether it counted once it is written. */
  countView(metadataId: string, who: { userId?: string; ip: string; userAgent: string }, now = new Date()): Promise<boolean> {
    return this.count('view', metadataId, metadataId, who, '', now);
  }

  /** Counts a download of a file of the record; answers whether it counted once it is written. */
  countDownload(metadataId: string, fileId: string, who: Downloader, now = new Date()): Promise<boolean> {
    return this.count('download', metadataId, fileId, who, who.country, now);
  }

  private count(
    kind: PendingCount['kind'],
    metadataId: string,
    target: string,
    who: { userId?: string; ip: string; userAgent: string },
    country: string,
    at: Date,
  ): Promise<boolean> {
    if (isRobot(who.userAgent)) return Promise.resolve(false);
    // The key of the memory: the account, else the address and browser themselves (hashed only for the database).
    const memo = `${kind}\u0000${target}\u0000${who.userId ? `u:${who.userId}` : `a:${who.ip}\u0000${who.userAgent}`}`;
    const last = this.counted.get(memo);
    if (last !== undefined && at.getTime() - last <= windowOf(kind)) return Promise.resolve(false);
    return this.enqueue({ kind, metadataId, target, visitor: visitorKey(who), memo, country, at });
  }

  private enqueue(count: Omit<PendingCount, 'settle' | 'fail'>): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      this.pending.push({ ...count, settle, fail });
      // A download's reply waits for its count: the views waiting go with it, at the end of this turn.
      if (count.kind === 'download') this.viewTimer?.soon();
      if (this.draining) return;
      if (count.kind === 'download') {
        // The rest of this turn's counts join the batch; then it is written.
        this.draining = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
        return;
      }
      // No reply waits for a view: views gather for VIEW_BATCH_MS (or until a download or a flush) and are written together.
      let release!: () => void;
      const due = new Promise<void>((resolve) => (release = resolve));
      const timer = setTimeout(release, VIEW_BATCH_MS);
      const stop = () => {
        clearTimeout(timer);
        return true;
      };
      this.viewTimer = { now: () => stop() && release(), soon: () => stop() && setImmediate(release) };
      this.draining = due.then(() => {
        this.viewTimer = null;
        return this.drain();
      });
    });
  }

  /** Writes what waits to be counted, at once; resolves when nothing does. */
  async flush(): Promise<void> {
    this.viewTimer?.now();
    while (this.draining) await this.draining;
  }

  /** Remembers a count the database took, and forgets those whose window has passed. */
  private remember(memo: string, at: number): void {
    this.counted.delete(memo);
    this.counted.set(memo, at);
    const before = at - Math.max(VIEW_WINDOW_MS, DOWNLOAD_WINDOW_MS);
    for (const [key, time] of this.counted) {
      if (time >= before && this.counted.size <= REMEMBERED_COUNTS) break;
      this.counted.delete(key);
    }
  }

  /** Forgets remembered counts of a kind made before `before` (ms), as the database forgets their rows. */
  private forgetCounted(kind: PendingCount['kind'], before: number): void {
    for (const [key, time] of this.counted) if (time < before && key.startsWith(`${kind}\u0000`)) this.counted.delete(key);
  }

  /** Writes batches until none waits (counts that come while one is written make the next). */
  private async drain(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0);
        let counted: boolean[];
        try {
          counted = await this.writeBatch(batch);
        } catch {
          // One count the batch could not take (its file or record deleted meanwhile) fails alone, as before batches.
          counted = [];
          for (const count of batch) {
            try {
              counted.push((await this.writeBatch([count]))[0]!);
            } catch (error) {
              counted.push(false);
              count.fail(error);
            }
          }
        }
        for (const [i, count] of batch.entries()) {
          if (counted[i]) this.remember(count.memo, count.at.getTime());
          count.settle(counted[i]!);
        }
      }
    } finally {
      this.draining = null;
    }
  }

  /** One transaction for a batch of counts; answers, in the batch's order, which counted. */
  private async writeBatch(batch: readonly PendingCount[]): Promise<boolean[]> {
    // A visitor's second view of a record (download of a file) in the same batch is a repeat within the window: only the first may count.
    const keyOf = (c: Pick<PendingCount, 'kind' | 'target' | 'visitor'>) => `${c.kind}\u0000${c.target}\u0000${c.visitor}`;
    const firsts = new Map<string, PendingCount>();
    for (const count of batch) if (!firsts.has(keyOf(count))) firsts.set(keyOf(count), count);
    // A repeat counts when the visitor's last counted one is older than the window before the
    // batch's first moment (a batch spans milliseconds).
    const first = Math.min(...batch.map((c) => c.at.getTime()));
    const countedKeys = new Set<string>();
    await this.db.transaction().execute(async (trx) => {
      const rows = [...firsts.values()];
      for (const slice of slices(rows.filter((c) => c.kind === 'download'))) {
        const cutoff = new Date(first - DOWNLOAD_WINDOW_MS).toISOString();
        const written = await this.repo.rememberDownloads(
          trx,
          slice.map((d) => ({ file_id: d.target, visitor: d.visitor, downloaded_at: d.at.toISOString() })),
          cutoff,
        );
        for (const row of written) countedKeys.add(keyOf({ kind: 'download', target: row.file_id, visitor: row.visitor }));
      }
      for (const slice of slices(rows.filter((c) => c.kind === 'view'))) {
        const cutoff = new Date(first - VIEW_WINDOW_MS).toISOString();
        const written = await this.repo.rememberViews(
          trx,
          slice.map((v) => ({ metadata_id: v.target, visitor: v.visitor, viewed_at: v.at.toISOString() })),
          cutoff,
        );
        for (const row of written) countedKeys.add(keyOf({ kind: 'view', target: row.metadata_id, visitor: row.visitor }));
      }
      if (!countedKeys.size) return;
      const counted = [...firsts.entries()].filter(([key]) => countedKeys.has(key)).map(([, c]) => c);
      for (const kind of ['view', 'download'] as const) {
        const column = kind === 'view' ? 'hit_count' : 'download_count';
        // Each record's counts, its rows in one order (two instances' batches lock them alike).
        const perRecord = new Map<string, number>();
        for (const c of counted) if (c.kind === kind) perRecord.set(c.metadataId, (perRecord.get(c.metadataId) ?? 0) + 1);
        for (const slice of slices([...perRecord.keys()].sort())) await this.repo.addToCounters(trx, column, slice, perRecord);
      }
      // The daily counts, per record, kind, day and country.
      const daily = new Map<string, { metadata_id: string; day: string; kind: 'view' | 'download'; country: string; count: number }>();
      for (const c of counted) {
        const day = c.at.toISOString().slice(0, 10);
        const key = `${c.metadataId}\u0000${c.kind}\u0000${day}\u0000${c.country}`;
        const row = daily.get(key) ?? { metadata_id: c.metadataId, day, kind: c.kind, country: c.country, count: 0 };
        row.count += 1;
        daily.set(key, row);
      }
      // In the order of their keys, compared by code units (localeCompare's collation cost a batch of views milliseconds).
      const days = [...daily.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
      for (const slice of slices(days)) await this.repo.addDays(trx, slice);
    });
    if (countedKeys.size) catalogueChanged('counts');
    // Only a visitor's first view of a record (download of a file) in the batch can have counted.
    return batch.map((c) => countedKeys.has(keyOf(c)) && firsts.get(keyOf(c)) === c);
  }

  /** Counts a download granted by `order` (its application's country) or without one. */
  async countDownloadOf(metadataId: string, fileId: string, who: Omit<Downloader, 'country'>, order: string | null, now = new Date()): Promise<boolean> {
    if (isRobot(who.userAgent)) return false;
    const country = order ? await this.repo.orderCountry(order) : '';
    return this.countDownload(metadataId, fileId, { ...who, country }, now);
  }

  /** Forgets downloads older than the window (they no longer hold a repeat back). */
  async forgetDownloads(now = new Date()): Promise<number> {
    this.forgetCounted('download', now.getTime() - DOWNLOAD_WINDOW_MS);
    const before = new Date(now.getTime() - DOWNLOAD_WINDOW_MS).toISOString();
    return this.repo.forgetDownloads(before);
  }

  /** Forgets views older than the window (they no longer hold a repeat back). */
  async forgetViews(now = new Date()): Promise<number> {
    this.forgetCounted('view', now.getTime() - VIEW_WINDOW_MS);
    const before = new Date(now.getTime() - VIEW_WINDOW_MS).toISOString();
    return this.repo.forgetViews(before);
  }

  /** A published record's views and downloads, as the catalogue counts them (none for a record it does not hold). */
  async countsOf(id: string): Promise<{ hit_count: number; download_count: number }> {
    const row = await this.repo.countsOf(id);
    return { hit_count: Number(row?.hit_count ?? 0), download_count: Number(row?.download_count ?? 0) };
  }

  /** Counts the orders of these records placed now, in the transaction that places them (each under the application's country). */
  async countOrders(trx: Db, metadataIds: readonly string[], country: string, at: Date): Promise<void> {
    for (const metadataId of metadataIds) await this.repo.addUsage(trx, metadataId, 'order', country, at);
  }

  /** Counts again the daily order rows of these records on these days, in the caller's transaction (`UsageRepo.recountOrders`). */
  recountOrders(trx: Db, metadataIds: readonly string[], days: readonly string[]): Promise<void> {
    return this.repo.recountOrders(trx, metadataIds, days);
  }

  /** Views, downloads and orders of a record by day or month, and downloads and orders by country. */
  statistics(metadataId: string, by: 'day' | 'month'): Promise<Omit<Statistics, 'title' | 'title_en'>> {
    return recordStatistics(this.repo, metadataId, by);
  }

  /** The Apply Statistics page: each role's totals, and one role's datasets, most downloaded first. */
  applyStatistics(user: AuthenticatedUser, role: ApplyRole, slice: { offset: number; limit: number }, titles: DatasetTitles) {
    return applyStatistics(this.repo, user, role, slice, titles);
  }
}
