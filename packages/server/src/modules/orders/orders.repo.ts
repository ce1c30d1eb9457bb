import { sql, type Selectable } from 'kysely';
import { newId, staffUsers, type Db } from '../../db/index.js';
import type { ApplicationTable, OrderTable } from '../../db/schema.js';

export type OrderRow = Selectable<OrderTable>;
export type ApplicationRow = Selectable<ApplicationTable>;
type Slice = { offset: number; limit: number };

/** What orders show of a dataset, and what placing and deciding them needs. */
export interface DatasetFacts {
  metadata_id: string;
  status: string;
  title: string;
  title_en: string;
  language: string;
  doi: string;
  sharing_policy: string;
  owner_id: string;
  owner_name: string;
  owner_email: string;
  owner_language: string;
  dist_email: string;
  embargo_until: string | null;
  use_term: string;
  /** The terms of use in the record's other language, as the provider translated them ('' when not). */
  use_term_translated: string;
  license: string;
}

export interface OrderFilter {
  applicantId?: string;
  /** Orders the user decides: their own records' requests; staff: the data centre's and every owner's. */
  handler?: { userId: string; isStaff: boolean };
  statuses?: string[];
  now: string;
}

/** The only SQL of orders: the basket, applications, orders and their lines. */
export class OrdersRepo {
  constructor(readonly db: Db) {}

  /** Facts of these records, each once; titles in both languages from the catalogue's entry when published. */
  async datasets(trx: Db, ids: readonly string[]): Promise<Map<string, DatasetFacts>> {
    if (!ids.length) return new Map();
    const rows = await trx
      .selectFrom('metadata as m')
      .innerJoin('users as u', 'u.id', 'm.owner_id')
      .leftJoin('search_entries as e', 'e.metadata_id', 'm.id')
      .leftJoin('metadata_i18n as t', (join) => join.onRef('t.metadata_id', '=', 'm.id'))
      .select([
        'm.id as metadata_id',
        'm.status',
        'm.title',
        'm.language',
        'm.doi',
        'm.sharing_policy',
        'm.owner_id',
        'm.dist_email',
        'm.embargo_until',
        'm.use_term',
        'm.license',
        'u.realname',
        'u.username',
        'u.email as owner_email',
        'u.language as owner_language',
        'e.title_zh',
        'e.title_en',
        't.title as translated_title',
        't.language as translated_language',
        't.use_term as translated_use_term',
      ])
      .where('m.id', 'in', [...new Set(ids)])
      .execute();
    const facts = new Map<string, DatasetFacts>();
    for (const row of rows) {
      const known = facts.get(row.metadata_id);
      // The catalogue's titles for a published record; otherwise the record's and its translation's.
      const zh = row.title_zh || (row.language === 'en' ? (row.translated_language === 'zh-hans' && row.translated_title) || known?.title : row.title) || row.title;
      const en = row.title_en || (row.language === 'en' ? row.title : (row.translated_language === 'en' && row.translated_title) || known?.title_en) || row.title;
      facts.set(row.metadata_id, {
        metadata_id: row.metadata_id,
        status: row.status,
        title: zh,
        title_en: en,
        language: row.language,
        doi: row.doi,
        sharing_policy: row.sharing_policy,
        owner_id: row.owner_id,
        owner_name: row.realname || row.username,
        owner_email: row.owner_email,
        owner_language: row.owner_language,
        dist_email: row.dist_email,
        embargo_until: row.embargo_until,
        use_term: row.use_term,
        use_term_translated: (row.translated_language && row.translated_language !== row.language && row.translated_use_term) || known?.use_term_translated || '',
        license: row.license,
      });
    }
    return facts;
  }

  // ---- Basket ----

  async cartLines(userId: string, slice: Slice) {
    const base = this.db.selectFrom('cart_lines').where('user_id', '=', userId);
    const { count } = await base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(slice.offset).limit(slice.limit).execute();
    return { count: Number(count), rows };
  }

  async cartLineCount(trx: Db, userId: string): Promise<number> {
    const row = await trx
      .selectFrom('cart_lines')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async cartLinesById(trx: Db, userId: string, ids: readonly string[]) {
    return trx
      .selectFrom('cart_lines')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', [...ids])
      .execute();
  }

  async addCartLine(trx: Db, line: { id: string; user_id: string; metadata_id: string; created_at: string }): Promise<void> {
    await trx.insertInto('cart_lines').values(line).execute();
  }

  /** Removes the user's lines among `ids`; answers how many went. */
  async deleteCartLines(trx: Db, userId: string, ids: readonly string[]): Promise<number> {
    const result = await trx
      .deleteFrom('cart_lines')
      .where('user_id', '=', userId)
      .where('id', 'in', [...ids])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // ---- Orders ----

  async insertApplication(trx: Db, application: ApplicationRow): Promise<void> {
    await trx.insertInto('applications').values(application).execute();
  }

  async updateApplication(trx: Db, id: string, changes: Partial<Omit<ApplicationRow, 'id'>>): Promise<void> {
    await trx.updateTable('applications').set(changes).where('id', '=', id).execute();
  }

  /** An order and its lines, one a dataset. */
  async insertOrder(trx: Db, order: OrderRow, metadataIds: readonly string[]): Promise<void> {
    await trx.insertInto('orders').values(order).execute();
    await trx
      .insertInto('order_lines')
      .values(metadataIds.map((metadataId) => ({ id: newId(), order_id: order.id, metadata_id: metadataId })))
      .execute();
  }

  async findOrders(trx: Db, ids: readonly string[]): Promise<OrderRow[]> {
    if (!ids.length) return [];
    return trx
      .selectFrom('orders')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
  }

  async applications(trx: Db, ids: readonly string[]): Promise<Map<string, ApplicationRow>> {
    if (!ids.length) return new Map();
    const rows = await trx
      .selectFrom('applications')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  async linesOf(trx: Db, orderIds: readonly string[]): Promise<Map<string, string[]>> {
    const lines = new Map<string, string[]>();
    if (!orderIds.length) return lines;
    const rows = await trx
      .selectFrom('order_lines')
      .select(['order_id', 'metadata_id'])
      .where('order_id', 'in', [...orderIds])
      .orderBy('id')
      .execute();
    for (const row of rows) lines.set(row.order_id, [...(lines.get(row.order_id) ?? []), row.metadata_id]);
    return lines;
  }

  /** The records of every order of an application. */
  async datasetsOfApplication(trx: Db, applicationId: string): Promise<string[]> {
    const rows = await trx
      .selectFrom('order_lines as l')
      .innerJoin('orders as o', 'o.id', 'l.order_id')
      .select('l.metadata_id')
      .where('o.application_id', '=', applicationId)
      .execute();
    return rows.map((row) => row.metadata_id);
  }

  async userNames(trx: Db, ids: readonly (string | null)[]): Promise<Map<string, { name: string; email: string; language: string; username: string }>> {
    const known = [...new Set(ids.filter((id): id is string => !!id))];
    if (!known.length) return new Map();
    const rows = await trx.selectFrom('users').select(['id', 'realname', 'username', 'email', 'language']).where('id', 'in', known).execute();
    return new Map(rows.map((row) => [row.id, { name: row.realname || row.username, email: row.email, language: row.language, username: row.username }]));
  }

  private filtered(filter: OrderFilter) {
    let query = this.db.selectFrom('orders');
    if (filter.applicantId) query = query.where('applicant_id', '=', filter.applicantId);
    if (filter.handler) {
      const { userId, isStaff } = filter.handler;
      query = isStaff ? query.where('handler', '<>', 'online') : query.where('handler', '=', 'owner').where('owner_id', '=', userId);
    }
    if (filter.statuses?.length) {
      // `expired` is an approved order past its expiry; `approved` one that still stands.
      const wanted = filter.statuses;
      const stored = wanted.filter((s) => s !== 'expired' && s !== 'approved');
      query = query.where((eb) =>
        eb.or([
          ...(stored.length ? [eb('status', 'in', stored)] : []),
          ...(wanted.includes('approved') ? [eb.and([eb('status', '=', 'approved'), eb('expires_at', '>', filter.now)])] : []),
          ...(wanted.includes('expired') ? [eb.and([eb('status', '=', 'approved'), eb('expires_at', '<=', filter.now)])] : []),
        ]),
      );
    }
    return query;
  }

  async listOrders(filter: OrderFilter, slice: Slice) {
    const { count } = await this.filtered(filter)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await this.filtered(filter).selectAll().orderBy('created_at', 'desc').orderBy('id').offset(slice.offset).limit(slice.limit).execute();
    return { count: Number(count), rows };
  }

  /**
   * Moves an order from the status it was read in: answers false when someone changed it meanwhile
   * (two decisions at once, or a decision and a deletion: one wins).
   */
  async moveOrder(trx: Db, id: string, from: string, changes: Partial<Omit<OrderRow, 'id'>>): Promise<boolean> {
    const result = await trx.updateTable('orders').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Which of these records the user holds a standing order for: waiting, returned, or approved and
   * unexpired (`isStandingOrder`).
   */
  async standingFor(trx: Db, userId: string, metadataIds: readonly string[], now: string): Promise<string[]> {
    if (!metadataIds.length) return [];
    const rows = await trx
      .selectFrom('orders as o')
      .innerJoin('order_lines as l', 'l.order_id', 'o.id')
      .select('l.metadata_id')
      .distinct()
      .where('o.applicant_id', '=', userId)
      .where('l.metadata_id', 'in', [...metadataIds])
      .where((eb) => eb.or([eb('o.status', 'in', ['waiting', 'returned']), eb.and([eb('o.status', '=', 'approved'), eb('o.expires_at', '>', now)])]))
      .execute();
    return rows.map((row) => row.metadata_id);
  }

  /** Applications (and reapplications) the user sent since `since`. */
  async applicationsSince(trx: Db, userId: string, since: string): Promise<number> {
    const row = await trx
      .selectFrom('applications')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('applicant_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The country the user named in their latest application that named one ('' when none did). */
  async lastCountry(trx: Db, userId: string): Promise<string> {
    const row = await trx
      .selectFrom('applications')
      .select('country')
      .where('applicant_id', '=', userId)
      .where('country', '<>', '')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.country ?? '';
  }

  /** Marks an overdue request as told, once: false when another instance did it first. */
  async markReminded(trx: Db, id: string, at: string): Promise<boolean> {
    const result = await trx
      .updateTable('orders')
      .set({ reminded_at: at })
      .where('id', '=', id)
      .where('status', '=', 'waiting')
      .where('reminded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The caller's approved order that still stands and holds the record, the latest expiry first. */
  async grantingOrder(userId: string, metadataId: string, now: string) {
    return this.db
      .selectFrom('orders as o')
      .innerJoin('order_lines as l', 'l.order_id', 'o.id')
      .select(['o.id', 'o.expires_at'])
      .where('o.applicant_id', '=', userId)
      .where('l.metadata_id', '=', metadataId)
      .where('o.status', '=', 'approved')
      .where('o.expires_at', '>', now)
      .orderBy('o.expires_at', 'desc')
      .executeTakeFirst();
  }

  /** For each of these records, the caller's standing approved order that lasts longest. */
  async grantingOrders(userId: string, metadataIds: readonly string[], now: string): Promise<Map<string, string>> {
    if (!metadataIds.length) return new Map();
    const rows = await this.db
      .selectFrom('orders as o')
      .innerJoin('order_lines as l', 'l.order_id', 'o.id')
      .select(['o.id', 'l.metadata_id'])
      .where('o.applicant_id', '=', userId)
      .where('l.metadata_id', 'in', [...metadataIds])
      .where('o.status', '=', 'approved')
      .where('o.expires_at', '>', now)
      .orderBy('o.expires_at', 'asc')
      .execute();
    // Ascending: the longest-lasting order is written last and stays.
    return new Map(rows.map((row) => [row.metadata_id, row.id]));
  }

  /** Whether the caller has a request for the record still waiting for an answer. */
  async pendingOrder(userId: string, metadataId: string) {
    return this.db
      .selectFrom('orders as o')
      .innerJoin('order_lines as l', 'l.order_id', 'o.id')
      .select('o.id')
      .where('o.applicant_id', '=', userId)
      .where('l.metadata_id', '=', metadataId)
      .where('o.status', 'in', ['waiting', 'returned'])
      .executeTakeFirst();
  }

  /** Datasets of the caller's standing approved orders that are published: one row each, the latest expiry. */
  async downloadable(userId: string, now: string, slice: Slice) {
    const granted = this.db
      .selectFrom('orders as o')
      .innerJoin('order_lines as l', 'l.order_id', 'o.id')
      .innerJoin('metadata as m', 'm.id', 'l.metadata_id')
      .where('o.applicant_id', '=', userId)
      .where('o.status', '=', 'approved')
      .where('o.expires_at', '>', now)
      .where('m.status', '=', 'published');
    const { count } = await granted.select(sql<number>`count(distinct l.metadata_id)`.as('count')).executeTakeFirstOrThrow();
    const rows = await granted
      .select(['l.metadata_id', sql<string>`max(o.expires_at)`.as('expires_at'), sql<string>`max(o.decided_at)`.as('decided_at')])
      .groupBy('l.metadata_id')
      .orderBy(sql`max(o.decided_at)`, 'desc')
      .orderBy('l.metadata_id')
      .offset(slice.offset)
      .limit(slice.limit)
      .execute();
    return { count: Number(count), rows };
  }

  async fileTotals(ids: readonly string[]): Promise<Map<string, { count: number; size: number }>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('meta_file')
      .select(['metadata_id', (eb) => eb.fn.countAll().as('count'), (eb) => eb.fn.sum('size').as('size')])
      .where('metadata_id', 'in', [...ids])
      .groupBy('metadata_id')
      .execute();
    return new Map(rows.map((row) => [row.metadata_id, { count: Number(row.count), size: Number(row.size ?? 0) }]));
  }

  /** Data files by id, with what a download needs (the blob's key and the file's folder in its record's tree included). */
  async dataFiles(ids: readonly string[]) {
    if (!ids.length) return [];
    return this.db
      .selectFrom('meta_file')
      .select(['id', 'metadata_id', 'path', 'name', 'size', 'sha256', 'storage_key', 'created_at'])
      .where('id', 'in', [...ids])
      .execute();
  }

  /** The data files of these records, by record and name. */
  async dataFilesOf(metadataIds: readonly string[]) {
    if (!metadataIds.length) return [];
    return this.db
      .selectFrom('meta_file')
      .select(['id', 'metadata_id', 'name', 'size', 'sha256', 'storage_key', 'created_at'])
      .where('metadata_id', 'in', [...metadataIds])
      .orderBy('metadata_id')
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /** The order holding this voucher code. */
  async orderByVoucher(code: string) {
    return this.db.selectFrom('orders').selectAll().where('voucher_code', '=', code).executeTakeFirst();
  }

  /** Offline requests waiting longer than `before` whose applicant was not told yet. */
  async overdue(before: string) {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', 'waiting')
      .where('handler', '<>', 'online')
      .where('created_at', '<', before)
      .where('reminded_at', 'is', null)
      .limit(500)
      .execute();
  }

  /** The active staff (db/index.ts's one query of them: the account module owns `users`). */
  async staffUsers(trx: Db) {
    return staffUsers(trx);
  }
}
