import { createQueryId, sql, type CompiledQuery } from 'kysely';
import { COUNTED_ORDER_STATUSES, EXPERT_OUTCOMES, type ApplyRole } from '@portal/shared';
import type { Db } from '../../db/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { MetadataAccess } from '../metadata/index.js';

export type UsageKind = 'view' | 'download' | 'order';
type Slice = { offset: number; limit: number };

/** Rows a multi-row statement carries at most (SQLite and PostgreSQL parameter limits are far above). */
const ROWS_PER_STATEMENT = 200;

export const slices = <T>(rows: readonly T[]) =>
  Array.from({ length: Math.ceil(rows.length / ROWS_PER_STATEMENT) }, (_, i) => rows.slice(i * ROWS_PER_STATEMENT, (i + 1) * ROWS_PER_STATEMENT));

/**
 * The only SQL of usage: it alone writes `record_views`, `recent_downloads`, `usage_days` and the
 * catalogue entries' counters; the records' own (`hit_count`, `download_count` of `metadata`) it adds
 * through the metadata module (MetadataAccess.addCounts).
 */
export class UsageRepo {
  private countsQuery?: CompiledQuery;

  /** The metadata module, which writes the records' own counters (one of its own on this database: it tells no events). */
  private readonly records: Pick<MetadataAccess, 'addCounts'>;

  constructor(readonly db: Db) {
    this.records = new MetadataAccess(db);
  }

  /** Adds one to a record's count of a kind on a day and in a country (an upsert: concurrent counts add up). */
  async addUsage(trx: Db, metadataId: string, kind: UsageKind, country: string, at: Date, by = 1): Promise<void> {
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
  async recountOrders(trx: Db, metadataIds: readonly string[], days: readonly string[]): Promise<void> {
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

  // ---- The repeat windows and the counters (a batch's transaction) ----

  /** Writes the downloads whose visitor's last one of the file is older than `cutoff`; answers those written. */
  async rememberDownloads(trx: Db, rows: readonly { file_id: string; visitor: string; downloaded_at: string }[], cutoff: string) {
    return trx
      .insertInto('recent_downloads')
      .values([...rows])
      .onConflict((oc) =>
        oc
          .columns(['file_id', 'visitor'])
          .doUpdateSet((eb) => ({ downloaded_at: eb.ref('excluded.downloaded_at') }))
          .where('recent_downloads.downloaded_at', '<', cutoff),
      )
      .returning(['file_id', 'visitor'])
      .execute();
  }

  /** Writes the views whose visitor's last one of the record is older than `cutoff`; answers those written. */
  async rememberViews(trx: Db, rows: readonly { metadata_id: string; visitor: string; viewed_at: string }[], cutoff: string) {
    return trx
      .insertInto('record_views')
      .values([...rows])
      .onConflict((oc) =>
        oc
          .columns(['metadata_id', 'visitor'])
          .doUpdateSet((eb) => ({ viewed_at: eb.ref('excluded.viewed_at') }))
          .where('record_views.viewed_at', '<', cutoff),
      )
      .returning(['metadata_id', 'visitor'])
      .execute();
  }

  /** Adds each record's count to its counter, in the record and in its catalogue entry (the ids in one order). */
  async addToCounters(trx: Db, column: 'hit_count' | 'download_count', ids: readonly string[], perRecord: ReadonlyMap<string, number>): Promise<void> {
    const added = (key: 'id' | 'metadata_id') =>
      sql<number>`case ${sql.ref(key)} ${sql.join(
        ids.map((id) => sql`when ${id} then ${perRecord.get(id)!}`),
        sql` `,
      )} else 0 end`;
    // The record's own counter is the metadata module's to write.
    await this.records.addCounts(trx, column, perRecord, ids);
    await trx
      .updateTable('search_entries')
      .set((eb) => ({ [column]: eb(column, '+', added('metadata_id')) }))
      .where('metadata_id', 'in', [...ids])
      .execute();
  }

  /** Adds daily counts (an upsert each: concurrent batches add up). */
  async addDays(trx: Db, rows: readonly { metadata_id: string; day: string; kind: 'view' | 'download'; country: string; count: number }[]): Promise<void> {
    await trx
      .insertInto('usage_days')
      .values([...rows])
      .onConflict((oc) => oc.columns(['metadata_id', 'kind', 'day', 'country']).doUpdateSet((eb) => ({ count: eb('usage_days.count', '+', eb.ref('excluded.count')) })))
      .execute();
  }

  async forgetDownloads(before: string): Promise<number> {
    const result = await this.db.deleteFrom('recent_downloads').where('downloaded_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async forgetViews(before: string): Promise<number> {
    const result = await this.db.deleteFrom('record_views').where('viewed_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The country of the application behind an order ('' when unknown). */
  async orderCountry(orderId: string): Promise<string> {
    return (
      (await this.db.selectFrom('orders as o').innerJoin('applications as a', 'a.id', 'o.application_id').select('a.country').where('o.id', '=', orderId).executeTakeFirst())
        ?.country ?? ''
    );
  }

  /** A record's downloads as its index entry holds them; 0 when it has none. */
  async countsOf(id: string): Promise<{ hit_count: number; download_count: number } | undefined> {
    // Built and compiled once: every record page asks it, and building it cost more than running it.
    this.countsQuery ??= this.db.selectFrom('search_entries').select(['hit_count', 'download_count']).where('metadata_id', '=', '').compile();
    const { rows } = await this.db.executeQuery<{ hit_count: number; download_count: number }>({ ...this.countsQuery, queryId: createQueryId(), parameters: [id] });
    return rows[0];
  }

  // ---- Statistics ----

  /** A record's daily counts summed by period (day or month) and kind. */
  async series(metadataId: string, by: 'day' | 'month') {
    const period = by === 'day' ? sql<string>`day` : sql<string>`substr(day, 1, 7)`;
    return this.db
      .selectFrom('usage_days')
      .select([period.as('period'), 'kind', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('metadata_id', '=', metadataId)
      .groupBy([period, 'kind'])
      .execute();
  }

  /** A record's downloads and orders summed by country. */
  async countries(metadataId: string) {
    return this.db
      .selectFrom('usage_days')
      .select(['country', 'kind', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('metadata_id', '=', metadataId)
      .where('kind', 'in', ['download', 'order'])
      .groupBy(['country', 'kind'])
      .execute();
  }

  async counters(metadataId: string) {
    return this.db.selectFrom('metadata').select(['hit_count', 'download_count']).where('id', '=', metadataId).executeTakeFirst();
  }

  /** A record's orders that count. */
  async orderCount(metadataId: string) {
    const { orders } = await this.db
      .selectFrom('order_lines as l')
      .innerJoin('orders as o', 'o.id', 'l.order_id')
      .select((eb) => eb.fn.countAll<number | string>().as('orders'))
      .where('l.metadata_id', '=', metadataId)
      .where('o.status', 'in', [...COUNTED_ORDER_STATUSES])
      .executeTakeFirstOrThrow();
    return Number(orders);
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
  private ordersOf(ids: ReturnType<UsageRepo['idsAs']>) {
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

  /** One role's totals: its datasets, their views, downloads, orders and orders waiting. */
  async roleTotals(user: AuthenticatedUser, role: ApplyRole) {
    const totals = await this.db
      .selectFrom('metadata')
      .select([
        (eb) => eb.fn.countAll<number | string>().as('datasets'),
        (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('hit_count'), sql<number>`0`).as('views'),
        (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('download_count'), sql<number>`0`).as('downloads'),
      ])
      .where('id', 'in', this.idsAs(user, role))
      .executeTakeFirstOrThrow();
    const orders = await this.db
      .selectFrom(this.ordersOf(this.idsAs(user, role)).as('per'))
      .select([
        (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('per.orders'), sql<number>`0`).as('orders'),
        (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('per.waiting'), sql<number>`0`).as('waiting'),
      ])
      .executeTakeFirstOrThrow();
    return {
      role,
      datasets: Number(totals.datasets),
      views: Number(totals.views),
      downloads: Number(totals.downloads),
      orders: Number(orders.orders),
      waiting: Number(orders.waiting),
    };
  }

  /** One role's datasets with their counts, most downloaded first. */
  async roleDatasets(user: AuthenticatedUser, role: ApplyRole, slice: Slice) {
    return this.db
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
  }
}
