import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { COUNTED_ORDER_STATUSES, EXPERT_OUTCOMES, type ApplyRole, type Statistics } from '@portal/shared';
import type { Db } from '../../db/index.js';
import type { AuthenticatedUser } from '../account/account.service.js';
import type { OrdersRepo } from './orders.repo.js';
import { isRobot } from '../search/robots.js';
import { catalogueChanged } from '../search/catalogue-changes.js';

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

/** Adds one to a record's count of a kind on a day and in a country (an upsert: concurrent counts add up). */
export async function addUsage(trx: Db, metadataId: string, kind: 'view' | 'download' | 'order', country: string, at: Date, by = 1): Promise<void> {
  await trx
    .insertInto('usage_days')
    .values({ metadata_id: metadataId, day: at.toISOString().slice(0, 10), kind, country, count: by })
    .onConflict((oc) => oc.columns(['metadata_id', 'kind', 'day', 'country']).doUpdateSet((eb) => ({ count: eb('usage_days.count', '+', by) })))
    .execute();
}

/**
 * Counts again the daily order rows of these records on these days (UTC dates) from the orders that
 * count (`COUNTED_ORDER_STATUSES`, each under its application's country), in the caller's transaction:
 * after an order is withdrawn or rejected, or its application's country changed. Counting again rather
 * than subtracting one keeps the rows right whatever moved.
 */
export async function recountOrders(trx: Db, metadataIds: readonly string[], days: readonly string[]): Promise<void> {
  if (!metadataIds.length || !days.length) return;
  const ids = [...new Set(metadataIds)];
  const dates = [...new Set(days)];
  await trx.deleteFrom('usage_days').where('kind', '=', 'order').where('metadata_id', 'in', ids).where('day', 'in', dates).execute();
  const day = sql<string>`substr(o.created_at, 1, 10)`;
  await trx
    .insertInto('usage_days')
    .columns(['metadata_id', 'day', 'kind', 'country', 'count'])
    .expression(
      trx
        .selectFrom('order_lines as l')
        .innerJoin('orders as o', 'o.id', 'l.order_id')
        .innerJoin('applications as a', 'a.id', 'o.application_id')
        .select(['l.metadata_id', day.as('day'), sql<'order'>`'order'`.as('kind'), 'a.country', (eb) => eb.fn.countAll<number>().as('count')])
        .where('l.metadata_id', 'in', ids)
        .where(day, 'in', dates)
        .where('o.status', 'in', [...COUNTED_ORDER_STATUSES])
        .groupBy(['l.metadata_id', day, 'a.country']),
    )
    .execute();
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

/** Rows a multi-row statement carries at most (SQLite and PostgreSQL parameter limits are far above). */
const ROWS_PER_STATEMENT = 200;

/** A visitor, as the repeat windows know them: the account, else a hash of the address and the browser. */
function visitorKey(who: { userId?: string; ip: string; userAgent: string }): string {
  return who.userId ? `u:${who.userId}` : `a:${createHash('sha256').update(`${who.ip}\u0000${who.userAgent}`).digest('base64url').slice(0, 22)}`;
}

/** How long views wait for others to join their batch (no reply waits for a view). */
const VIEW_BATCH_MS = 50;
/** Counts remembered at most (the oldest go first; a count not remembered is asked of the database). */
const REMEMBERED_COUNTS = 100_000;

const windowOf = (kind: 'view' | 'download') => (kind === 'view' ? VIEW_WINDOW_MS : DOWNLOAD_WINDOW_MS);

const slices = <T>(rows: readonly T[]) => Array.from({ length: Math.ceil(rows.length / ROWS_PER_STATEMENT) }, (_, i) => rows.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT));

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
export class Usage {
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

  constructor(private readonly db: Db) {}

  /** Counts a view of a published record's page; answers whether it counted once it is written. */
  countView(metadataId: string, who: { userId?: string; ip: string; userAgent: string }, now = new Date()): Promise<boolean> {
    return this.count('view', metadataId, metadataId, who, '', now);
  }

  /** Counts a download of a file of the record; answers whether it counted once it is written. */
  countDownload(metadataId: string, fileId: string, who: Downloader, now = new Date()): Promise<boolean> {
    return this.count('download', metadataId, fileId, who, who.country, now);
  }

  private count(kind: PendingCount['kind'], metadataId: string, target: string, who: { userId?: string; ip: string; userAgent: string }, country: string, at: Date): Promise<boolean> {
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
        const written = await trx
          .insertInto('recent_downloads')
          .values(slice.map((d) => ({ file_id: d.target, visitor: d.visitor, downloaded_at: d.at.toISOString() })))
          .onConflict((oc) =>
            oc
              .columns(['file_id', 'visitor'])
              .doUpdateSet((eb) => ({ downloaded_at: eb.ref('excluded.downloaded_at') }))
              .where('recent_downloads.downloaded_at', '<', cutoff),
          )
          .returning(['file_id', 'visitor'])
          .execute();
        for (const row of written) countedKeys.add(keyOf({ kind: 'download', target: row.file_id, visitor: row.visitor }));
      }
      for (const slice of slices(rows.filter((c) => c.kind === 'view'))) {
        const cutoff = new Date(first - VIEW_WINDOW_MS).toISOString();
        const written = await trx
          .insertInto('record_views')
          .values(slice.map((v) => ({ metadata_id: v.target, visitor: v.visitor, viewed_at: v.at.toISOString() })))
          .onConflict((oc) =>
            oc
              .columns(['metadata_id', 'visitor'])
              .doUpdateSet((eb) => ({ viewed_at: eb.ref('excluded.viewed_at') }))
              .where('record_views.viewed_at', '<', cutoff),
          )
          .returning(['metadata_id', 'visitor'])
          .execute();
        for (const row of written) countedKeys.add(keyOf({ kind: 'view', target: row.metadata_id, visitor: row.visitor }));
      }
      if (!countedKeys.size) return;
      const counted = [...firsts.entries()].filter(([key]) => countedKeys.has(key)).map(([, c]) => c);
      for (const kind of ['view', 'download'] as const) {
        const column = kind === 'view' ? 'hit_count' : 'download_count';
        // Each record's counts, its rows in one order (two instances' batches lock them alike).
        const perRecord = new Map<string, number>();
        for (const c of counted) if (c.kind === kind) perRecord.set(c.metadataId, (perRecord.get(c.metadataId) ?? 0) + 1);
        for (const slice of slices([...perRecord.keys()].sort())) {
          const added = (key: 'id' | 'metadata_id') =>
            sql<number>`case ${sql.ref(key)} ${sql.join(
              slice.map((id) => sql`when ${id} then ${perRecord.get(id)!}`),
              sql` `,
            )} else 0 end`;
          await trx.updateTable('metadata').set((eb) => ({ [column]: eb(column, '+', added('id')) })).where('id', 'in', slice).execute();
          await trx.updateTable('search_entries').set((eb) => ({ [column]: eb(column, '+', added('metadata_id')) })).where('metadata_id', 'in', slice).execute();
        }
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
      for (const slice of slices(days)) {
        await trx
          .insertInto('usage_days')
          .values(slice)
          .onConflict((oc) => oc.columns(['metadata_id', 'kind', 'day', 'country']).doUpdateSet((eb) => ({ count: eb('usage_days.count', '+', eb.ref('excluded.count')) })))
          .execute();
      }
    });
    if (countedKeys.size) catalogueChanged('counts');
    // Only a visitor's first view of a record (download of a file) in the batch can have counted.
    return batch.map((c) => countedKeys.has(keyOf(c)) && firsts.get(keyOf(c)) === c);
  }

  /** Counts a download granted by `order` (its application's country) or without one. */
  async countDownloadOf(metadataId: string, fileId: string, who: Omit<Downloader, 'country'>, order: string | null, now = new Date()): Promise<boolean> {
    if (isRobot(who.userAgent)) return false;
    const country = order
      ? ((await this.db.selectFrom('orders as o').innerJoin('applications as a', 'a.id', 'o.application_id').select('a.country').where('o.id', '=', order).executeTakeFirst())?.country ?? '')
      : '';
    return this.countDownload(metadataId, fileId, { ...who, country }, now);
  }

  /** Forgets downloads older than the window (they no longer hold a repeat back). */
  async forgetDownloads(now = new Date()): Promise<number> {
    this.forgetCounted('download', now.getTime() - DOWNLOAD_WINDOW_MS);
    const before = new Date(now.getTime() - DOWNLOAD_WINDOW_MS).toISOString();
    const result = await this.db.deleteFrom('recent_downloads').where('downloaded_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Forgets views older than the window (they no longer hold a repeat back). */
  async forgetViews(now = new Date()): Promise<number> {
    this.forgetCounted('view', now.getTime() - VIEW_WINDOW_MS);
    const before = new Date(now.getTime() - VIEW_WINDOW_MS).toISOString();
    const result = await this.db.deleteFrom('record_views').where('viewed_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Views, downloads and orders of a record by day or month, and downloads and orders by country. */
  async statistics(metadataId: string, by: 'day' | 'month'): Promise<Omit<Statistics, 'title' | 'title_en'>> {
    const period = by === 'day' ? sql<string>`day` : sql<string>`substr(day, 1, 7)`;
    const series = await this.db
      .selectFrom('usage_days')
      .select([period.as('period'), 'kind', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('metadata_id', '=', metadataId)
      .groupBy([period, 'kind'])
      .execute();
    const periods = new Map<string, { period: string; views: number; downloads: number; orders: number }>();
    for (const row of series) {
      const entry = periods.get(row.period) ?? { period: row.period, views: 0, downloads: 0, orders: 0 };
      entry[row.kind === 'view' ? 'views' : row.kind === 'download' ? 'downloads' : 'orders'] += Number(row.count);
      periods.set(row.period, entry);
    }
    const countries = await this.db
      .selectFrom('usage_days')
      .select(['country', 'kind', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('metadata_id', '=', metadataId)
      .where('kind', 'in', ['download', 'order'])
      .groupBy(['country', 'kind'])
      .execute();
    const byCountry = new Map<string, { country: string; downloads: number; orders: number }>();
    for (const row of countries) {
      const entry = byCountry.get(row.country) ?? { country: row.country, downloads: 0, orders: 0 };
      entry[row.kind === 'download' ? 'downloads' : 'orders'] += Number(row.count);
      byCountry.set(row.country, entry);
    }
    const record = await this.db.selectFrom('metadata').select(['hit_count', 'download_count']).where('id', '=', metadataId).executeTakeFirst();
    const { orders } = await this.db
      .selectFrom('order_lines as l')
      .innerJoin('orders as o', 'o.id', 'l.order_id')
      .select((eb) => eb.fn.countAll<number | string>().as('orders'))
      .where('l.metadata_id', '=', metadataId)
      .where('o.status', 'in', [...COUNTED_ORDER_STATUSES])
      .executeTakeFirstOrThrow();
    return {
      metadata_id: metadataId,
      by,
      // The record's counters hold what was counted before the daily counts existed too.
      totals: { views: Number(record?.hit_count ?? 0), downloads: Number(record?.download_count ?? 0), orders: Number(orders) },
      series: [...periods.values()].sort((a, b) => a.period.localeCompare(b.period)),
      countries: [...byCountry.values()].sort((a, b) => b.downloads + b.orders - (a.downloads + a.orders) || a.country.localeCompare(b.country)),
    };
  }

  /** The published records the user is the given role of, as a subquery of their ids. */
  private idsAs(user: AuthenticatedUser, role: ApplyRole) {
    if (role === 'provider') return this.db.selectFrom('metadata').select('id').where('owner_id', '=', user.id).where('status', '=', 'published');
    if (role === 'author') {
      return this.db
        .selectFrom('meta_author as ma')
        .innerJoin('authors as a', 'a.id', 'ma.author_id')
        .innerJoin('metadata as m', 'm.id', 'ma.metadata_id')
        .select('ma.metadata_id as id')
        .where(sql`lower(a.email)`, '=', user.email.toLowerCase())
        .where('m.status', '=', 'published');
    }
    return this.db
      .selectFrom('reviews as r')
      .innerJoin('metadata as m', 'm.id', 'r.metadata_id')
      .select('r.metadata_id as id')
      .where('r.expert_id', '=', user.id)
      .where('r.status', 'in', [...EXPERT_OUTCOMES])
      .where('m.status', '=', 'published');
  }

  /**
   * Orders (lines) of each record among the ids, and how many of them wait for an answer. Only orders
   * that count (`COUNTED_ORDER_STATUSES`): one its applicant withdrew, or one rejected, is not counted.
   */
  private ordersOf(ids: ReturnType<Usage['idsAs']>) {
    return this.db
      .selectFrom('order_lines as l')
      .innerJoin('orders as o', 'o.id', 'l.order_id')
      .select([
        'l.metadata_id',
        (eb) => eb.fn.countAll<number | string>().as('orders'),
        sql<number | string>`sum(case when o.status in ('waiting', 'returned') then 1 else 0 end)`.as('waiting'),
      ])
      .where('l.metadata_id', 'in', ids)
      .where('o.status', 'in', [...COUNTED_ORDER_STATUSES])
      .groupBy('l.metadata_id');
  }

  /** The Apply Statistics page: each role's totals, and one role's datasets, most downloaded first. */
  async applyStatistics(user: AuthenticatedUser, role: ApplyRole, slice: { offset: number; limit: number }, titles: OrdersRepo) {
    const roles = [];
    for (const each of ['provider', 'author', 'assessor'] as const) {
      const totals = await this.db
        .selectFrom('metadata')
        .select([
          (eb) => eb.fn.countAll<number | string>().as('datasets'),
          (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('hit_count'), sql<number>`0`).as('views'),
          (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('download_count'), sql<number>`0`).as('downloads'),
        ])
        .where('id', 'in', this.idsAs(user, each))
        .executeTakeFirstOrThrow();
      const orders = await this.db
        .selectFrom(this.ordersOf(this.idsAs(user, each)).as('per'))
        .select([(eb) => eb.fn.coalesce(eb.fn.sum<number | string>('per.orders'), sql<number>`0`).as('orders'), (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('per.waiting'), sql<number>`0`).as('waiting')])
        .executeTakeFirstOrThrow();
      roles.push({ role: each, datasets: Number(totals.datasets), views: Number(totals.views), downloads: Number(totals.downloads), orders: Number(orders.orders), waiting: Number(orders.waiting) });
    }
    const rows = await this.db
      .selectFrom('metadata as m')
      .leftJoin(this.ordersOf(this.idsAs(user, role)).as('per'), 'per.metadata_id', 'm.id')
      .select(['m.id', 'm.hit_count', 'm.download_count', 'per.orders', 'per.waiting'])
      .where('m.id', 'in', this.idsAs(user, role))
      .orderBy('m.download_count', 'desc')
      .orderBy('m.published_at', 'desc')
      .orderBy('m.id')
      .offset(slice.offset)
      .limit(slice.limit)
      .execute();
    const facts = await titles.datasets(this.db, rows.map((r) => r.id));
    return {
      count: roles.find((r) => r.role === role)!.datasets,
      roles,
      results: rows.map((row) => {
        const dataset = facts.get(row.id);
        return {
          metadata_id: row.id,
          title: dataset?.title ?? '',
          title_en: dataset?.title_en ?? '',
          language: dataset?.language ?? '',
          views: Number(row.hit_count),
          downloads: Number(row.download_count),
          orders: Number(row.orders ?? 0),
          waiting: Number(row.waiting ?? 0),
        };
      }),
    };
  }
}
