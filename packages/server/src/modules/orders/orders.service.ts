import { randomBytes } from 'node:crypto';
import {
  APPLICANT_ACTIONS,
  countryName,
  COUNTED_ORDER_STATUSES,
  DECIDABLE_STATUSES,
  effectiveOrderStatus,
  handlerFor,
  ORDER_LIMITS,
  replyOverdue,
  translate,
  type ApplicationForm,
  type CartLine,
  type Language,
  type Order,
  type OrderDecision,
  type OrderHandler,
  type OrderStatus,
  type PlaceOrderReply,
  type SiteVariant,
  type Voucher,
} from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import { isUniqueViolation, lockUserRow, newId } from '../../db/index.js';
import { embargoed } from './download-access.js';
import { OrderOutbox, type OrderMail } from './order-outbox.js';
import { OrdersRepo, type ApplicationRow, type DatasetFacts, type OrderRow } from './orders.repo.js';
import { addUsage, recountOrders } from './usage.js';

export interface OrdersServiceOptions {
  publicUrl: string;
  siteVariant: SiteVariant;
  /** ORDER_VALID_DAYS: how long an approval stands. */
  validDays: number;
  /** Where applicants are sent for the data centre's own requests (ADMIN_EMAIL). */
  adminEmail: string;
  /** ORDER_APPLY_PER_HOUR: applications and reapplications one account may send in any hour (staff are exempt). */
  appliesPerHour?: number;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** A record's citation in the language's style ('' when it has none): the voucher lists them. */
  cite: (metadataId: string, language: Language) => Promise<string>;
}

type Slice = { offset: number; limit: number };
type Recipient = { email: string; name: string; language: string };

const DAY = 86_400_000;
const asLanguage = (value: string): Language => (value === 'en' ? 'en' : 'zh-hans');
/** Crockford's base 32 without look-alikes: a voucher code is read aloud and typed. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 60 random bits as `XXXX-XXXX-XXXX`: unguessable, so the public check reveals nothing to a guesser. */
function voucherCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % 32]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** The form as stored, with the country it resolved to ('' for unknown). */
function applicationColumns(form: ApplicationForm, country: string) {
  return {
    real_name: form.realName,
    email: form.email,
    phone: form.phone,
    zipcode: form.zipcode,
    affiliation: form.affiliation,
    address: form.address,
    country,
    reason: form.reason,
  };
}

/** A voucher's code as typed: any case, with or without dashes or spaces, Crockford's look-alikes read as digits. */
export function normaliseVoucherCode(typed: string): string {
  const chars = typed.toUpperCase().replace(/[\s-]+/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return /^[0-9A-Z]{12}$/.test(chars) ? `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}` : chars;
}

/** The stored form as the contract names its fields. */
function applicationView(row: ApplicationRow) {
  return {
    id: row.id,
    realName: row.real_name,
    email: row.email,
    phone: row.phone,
    zipcode: row.zipcode,
    affiliation: row.affiliation,
    address: row.address,
    country: row.country,
    reason: row.reason,
    created_at: row.created_at,
  };
}

/**
 * The basket, applications and orders (issue 10). An application becomes one order per handler:
 * the open datasets (granted at once), the data centre's, and one per owner of requestable
 * datasets; each is decided on its own. Every decision moves an order only from the status it was
 * read in, so two at once (or a decision and a deletion): one wins, the other gets 409.
 */
export class OrdersService {
  readonly repo: OrdersRepo;
  /** Every mail about an order goes out through it (written with the order, sent after the commit, retried by a job). */
  readonly outbox: OrderOutbox;

  constructor(
    private readonly db: Db,
    private readonly access: MetadataAccess,
    mailer: Mailer,
    private readonly options: OrdersServiceOptions,
  ) {
    this.repo = new OrdersRepo(db);
    this.outbox = new OrderOutbox(db, mailer, options.log);
  }

  // ---- Basket ----

  async basket(user: AuthenticatedUser, slice: Slice): Promise<{ count: number; results: CartLine[] }> {
    const { count, rows } = await this.repo.cartLines(user.id, slice);
    const facts = await this.repo.datasets(this.db, rows.map((row) => row.metadata_id));
    return {
      count,
      results: rows.flatMap((row) => {
        const dataset = facts.get(row.metadata_id);
        if (!dataset) return [];
        return [
          {
            id: row.id,
            metadata_id: row.metadata_id,
            title: dataset.title,
            title_en: dataset.title_en,
            language: dataset.language,
            sharing_policy: dataset.sharing_policy,
            created_at: row.created_at,
            embargo_until: embargoed(dataset) ? dataset.embargo_until : null,
          },
        ];
      }),
    };
  }

  async addToBasket(user: AuthenticatedUser, metadataId: string, now = new Date()): Promise<CartLine> {
    const record = await this.access.readable(user, metadataId);
    if (record.status !== 'published') throw new AppError('CONFLICT', 'orders.notOrderable');
    if (record.owner_id === user.id) throw new AppError('CONFLICT', 'orders.ownData');
    if (embargoed(record, now)) throw new AppError('CONFLICT', 'orders.embargoed', { params: { date: record.embargo_until!.slice(0, 10) } });
    const id = newId();
    try {
      await this.db.transaction().execute(async (trx) => {
        if ((await this.repo.cartLineCount(trx, user.id)) >= ORDER_LIMITS.basketMax) throw new AppError('CONFLICT', 'orders.basketFull');
        await trx.insertInto('cart_lines').values({ id, user_id: user.id, metadata_id: metadataId, created_at: now.toISOString() }).execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'orders.alreadyInBasket');
      throw error;
    }
    const line = (await this.basket(user, { offset: 0, limit: ORDER_LIMITS.basketMax })).results.find((l) => l.id === id);
    if (!line) throw new AppError('NOT_FOUND', 'metadata.notFound');
    return line;
  }

  /** Removes the caller's lines, all or none (a line that is not theirs: nothing is removed). */
  async removeFromBasket(user: AuthenticatedUser, lineIds: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const removed = await this.repo.deleteCartLines(trx, user.id, lineIds);
      if (removed !== new Set(lineIds).size) throw new AppError('NOT_FOUND', 'orders.linesGone');
    });
  }

  // ---- Applying ----

  /** `POST /api/account/order/`: the selected basket lines, applied for with one form. */
  async apply(user: AuthenticatedUser, form: ApplicationForm, lineIds: string[], context: { ip: string; language: Language }, now = new Date()): Promise<PlaceOrderReply> {
    const wanted = [...new Set(lineIds)];
    const placed = await this.db.transaction().execute(async (trx) => {
      await lockUserRow(trx, user.id);
      await this.checkApplyLimit(trx, user, now);
      const lines = await this.repo.cartLinesById(trx, user.id, wanted);
      if (lines.length !== wanted.length) throw new AppError('CONFLICT', 'orders.linesGone');
      const result = await this.place(trx, user, form, lines.map((l) => l.metadata_id), context, now);
      // Two submissions of the same lines at once: the second finds them gone and rolls back.
      if ((await this.repo.deleteCartLines(trx, user.id, wanted)) !== wanted.length) throw new AppError('CONFLICT', 'orders.linesGone');
      return result;
    });
    await this.outbox.deliver(placed.mails);
    return placed.reply;
  }

  /** `POST /account/reapply/`: a deleted, rejected or expired order's datasets, applied for again with its form. */
  async reapply(user: AuthenticatedUser, orderId: string, context: { ip: string; language: Language }, now = new Date()): Promise<PlaceOrderReply> {
    const placed = await this.db.transaction().execute(async (trx) => {
      // First: a second reapplication at the same moment waits here, then finds this one's order standing.
      await lockUserRow(trx, user.id);
      const [order] = await this.repo.findOrders(trx, [orderId]);
      if (!order || order.applicant_id !== user.id) throw new AppError('NOT_FOUND', 'errors.notFound');
      if (!['deleted', 'rejected', 'expired'].includes(effectiveOrderStatus(order, now))) throw new AppError('CONFLICT', 'orders.notReapplicable');
      const application = (await this.repo.applications(trx, [order.application_id])).get(order.application_id)!;
      const datasets = (await this.repo.linesOf(trx, [order.id])).get(order.id) ?? [];
      // Withdrawing and reapplying again and again filled the owner's queue and mailbox: one standing order a dataset.
      if ((await this.repo.standingFor(trx, user.id, datasets, now.toISOString())).length) throw new AppError('CONFLICT', 'orders.alreadyStanding');
      await this.checkApplyLimit(trx, user, now);
      const { id: _id, created_at: _created, ...form } = applicationView(application);
      return this.place(trx, user, form, datasets, context, now);
    });
    await this.outbox.deliver(placed.mails);
    return placed.reply;
  }

  /**
   * At most `appliesPerHour` applications and reapplications per account in any hour; staff are
   * exempt. Checked in the transaction that writes the application, after the caller locked the
   * user's row (`lockUserRow`, as records created per hour are), so that requests at once take turns
   * and count each other's.
   */
  private async checkApplyLimit(trx: Db, user: AuthenticatedUser, now: Date): Promise<void> {
    const max = this.options.appliesPerHour ?? Number.MAX_SAFE_INTEGER;
    if (user.is_staff) return;
    if ((await this.repo.applicationsSince(trx, user.id, new Date(now.getTime() - 3_600_000).toISOString())) >= max) {
      throw new AppError('RATE_LIMITED', 'orders.applyLimit', { params: { max } });
    }
  }

  /**
   * Writes the application and its orders: the records are checked as they are now (published, out
   * of their protection period, someone else's), grouped by who decides, open ones approved at once.
   */
  private async place(trx: Db, user: AuthenticatedUser, form: ApplicationForm, metadataIds: string[], context: { ip: string; language: Language }, now: Date) {
    if (!metadataIds.length) throw fieldError('line', 'orders.validation.selectData');
    const facts = await this.repo.datasets(trx, metadataIds);
    const groups = new Map<string, { handler: OrderHandler; ownerId: string | null; datasets: DatasetFacts[] }>();
    for (const id of metadataIds) {
      const dataset = facts.get(id);
      if (!dataset || dataset.status !== 'published') throw new AppError('CONFLICT', 'orders.notOrderable');
      if (dataset.owner_id === user.id) throw new AppError('CONFLICT', 'orders.ownData');
      if (embargoed(dataset, now)) throw new AppError('CONFLICT', 'orders.embargoed', { params: { date: dataset.embargo_until!.slice(0, 10) } });
      const handler = handlerFor(dataset.sharing_policy);
      const key = handler === 'owner' ? `owner:${dataset.owner_id}` : handler;
      const group = groups.get(key) ?? { handler, ownerId: handler === 'owner' ? dataset.owner_id : null, datasets: [] };
      group.datasets.push(dataset);
      groups.set(key, group);
    }
    const at = now.toISOString();
    // The country is ours, not the spec's, and optional: the one the applicant gave last, else unknown ('').
    const country = form.country ?? (await this.repo.lastCountry(trx, user.id));
    const application: ApplicationRow = {
      id: newId(),
      applicant_id: user.id,
      ...applicationColumns(form, country),
      ip: context.ip,
      language: context.language,
      created_at: at,
    };
    await trx.insertInto('applications').values(application).execute();
    const orders: OrderRow[] = [];
    for (const group of groups.values()) {
      const granted = group.handler === 'online';
      const order: OrderRow = {
        id: newId(),
        application_id: application.id,
        applicant_id: user.id,
        handler: group.handler,
        owner_id: group.ownerId,
        status: granted ? 'approved' : 'waiting',
        decision_reason: '',
        decided_by: null,
        decided_at: granted ? at : null,
        expires_at: granted ? this.expiry(now) : null,
        reminded_at: null,
        voucher_code: granted ? voucherCode() : null,
        created_at: at,
        updated_at: at,
      };
      await trx.insertInto('orders').values(order).execute();
      await trx
        .insertInto('order_lines')
        .values(group.datasets.map((dataset) => ({ id: newId(), order_id: order.id, metadata_id: dataset.metadata_id })))
        .execute();
      for (const dataset of group.datasets) await addUsage(trx, dataset.metadata_id, 'order', country, now);
      orders.push(order);
    }
    // The handlers' mails are written with the orders, and sent once they are committed.
    const presented = await this.present(orders, now, trx);
    const mails: OrderMail[] = [];
    for (const order of orders) if (order.status === 'waiting') mails.push(...(await this.requestMails(trx, application, order, presented.find((p) => p.id === order.id)!)));
    const reply: PlaceOrderReply = {
      status: orders.every((order) => order.status === 'approved') ? 'Success' : 'Waiting',
      order: { ...applicationView(application), orders: presented },
    };
    return { reply, mails: await this.outbox.enqueue(trx, mails, now) };
  }

  private expiry(now: Date): string {
    return new Date(now.getTime() + this.options.validDays * DAY).toISOString();
  }

  // ---- Reading ----

  async mine(user: AuthenticatedUser, statuses: string[], slice: Slice, now = new Date()) {
    const { count, rows } = await this.repo.listOrders({ applicantId: user.id, statuses, now: now.toISOString() }, slice);
    return { count, results: await this.present(rows, now) };
  }

  /** Requests the caller decides: owners their records', staff the data centre's and every owner's. */
  async incoming(user: AuthenticatedUser, statuses: string[], slice: Slice, now = new Date()) {
    const { count, rows } = await this.repo.listOrders({ handler: { userId: user.id, isStaff: user.is_staff }, statuses, now: now.toISOString() }, slice);
    return { count, results: await this.present(rows, now) };
  }

  /** One order, for its applicant, its handler and staff; anyone else: not found. */
  async one(user: AuthenticatedUser, id: string, now = new Date()): Promise<Order> {
    const [row] = await this.repo.findOrders(this.db, [id]);
    if (!row || !this.maySee(user, row)) throw new AppError('NOT_FOUND', 'errors.notFound');
    return (await this.present([row], now))[0]!;
  }

  private maySee(user: AuthenticatedUser, order: OrderRow): boolean {
    return user.is_staff || order.applicant_id === user.id || (order.handler === 'owner' && order.owner_id === user.id);
  }

  private mayDecide(user: AuthenticatedUser, order: OrderRow): boolean {
    if (order.handler === 'online') return false;
    return user.is_staff || (order.handler === 'owner' && order.owner_id === user.id);
  }

  /** The orders as the contract shows them, with one query per table whatever their number. */
  async present(rows: OrderRow[], now = new Date(), db: Db = this.db): Promise<Order[]> {
    const lines = await this.repo.linesOf(db, rows.map((r) => r.id));
    const facts = await this.repo.datasets(db, [...lines.values()].flat());
    const applications = await this.repo.applications(db, rows.map((r) => r.application_id));
    const people = await this.repo.userNames(db, rows.flatMap((r) => [r.applicant_id, r.owner_id]));
    return rows.map((row) => {
      const datasets = (lines.get(row.id) ?? []).flatMap((id) => (facts.has(id) ? [facts.get(id)!] : []));
      const status = effectiveOrderStatus(row, now);
      const owner = row.owner_id ? people.get(row.owner_id) : undefined;
      return {
        id: row.id,
        application_id: row.application_id,
        status,
        handler: row.handler as OrderHandler,
        owner_name: owner?.name ?? '',
        applicant: people.get(row.applicant_id)?.name ?? '',
        application: applicationView(applications.get(row.application_id)!),
        lines: datasets.map((d) => ({
          metadata_id: d.metadata_id,
          title: d.title,
          title_en: d.title_en,
          language: d.language,
          doi: d.doi,
          sharing_policy: d.sharing_policy,
          owner_name: d.owner_name,
          embargo_until: embargoed(d, now) ? d.embargo_until : null,
        })),
        decision_reason: row.decision_reason,
        decided_at: row.decided_at,
        expires_at: row.expires_at,
        created_at: row.created_at,
        reply_overdue: replyOverdue(row, now),
        contact_email: this.contactOf(row, datasets, owner?.email),
        voucher_code: status === 'approved' ? row.voucher_code : null,
      };
    });
  }

  /** Whom the applicant may write to about an order: the provider's published e-mail, else the owner's; the data centre's. */
  private contactOf(row: OrderRow, datasets: DatasetFacts[], ownerEmail: string | undefined): string {
    if (row.handler === 'center') return this.options.adminEmail;
    if (row.handler === 'owner') return datasets.find((d) => d.dist_email)?.dist_email || ownerEmail || '';
    return '';
  }

  // ---- Deciding and changing ----

  /**
   * Moves every order of `ids`, or none: `step` refuses an order (by throwing) or gives its changes,
   * and each is written only from the status it was read in (someone else's change meanwhile: 409).
   */
  private async moveAll(
    user: AuthenticatedUser,
    ids: string[],
    now: Date,
    step: (order: OrderRow, status: OrderStatus) => Partial<OrderRow>,
    mailsOf: (trx: Db, changed: OrderRow[]) => Promise<OrderMail[]> = async () => [],
  ): Promise<OrderRow[]> {
    const { changed, mails } = await this.db.transaction().execute(async (trx) => {
      const found = await this.repo.findOrders(trx, [...new Set(ids)]);
      if (found.length !== new Set(ids).size) throw new AppError('NOT_FOUND', 'errors.notFound');
      const changed: OrderRow[] = [];
      const uncounted: OrderRow[] = [];
      for (const order of found) {
        if (!this.maySee(user, order)) throw new AppError('NOT_FOUND', 'errors.notFound');
        const changes = step(order, effectiveOrderStatus(order, now));
        if (!(await this.repo.moveOrder(trx, order.id, order.status, changes))) throw new AppError('CONFLICT', 'orders.changedMeanwhile');
        changed.push({ ...order, ...changes });
        if (COUNTED_ORDER_STATUSES.includes(order.status) && changes.status && !COUNTED_ORDER_STATUSES.includes(changes.status)) uncounted.push(order);
      }
      await this.uncount(trx, uncounted);
      return { changed, mails: await this.outbox.enqueue(trx, await mailsOf(trx, changed), now) };
    });
    await this.outbox.deliver(mails);
    return changed;
  }

  /**
   * Takes orders that were withdrawn or rejected out of the daily order counts, in the transaction
   * that moved them: statistics count only orders that stand or were granted.
   */
  private async uncount(trx: Db, orders: OrderRow[]): Promise<void> {
    if (!orders.length) return;
    const lines = await this.repo.linesOf(trx, orders.map((o) => o.id));
    await recountOrders(trx, [...lines.values()].flat(), orders.map((o) => o.created_at.slice(0, 10)));
  }

  /** `POST /account/order-handle/`: approve, reject or return a set of orders, all or none. */
  async handle(user: AuthenticatedUser, ids: string[], decision: OrderDecision, reason: string, now = new Date()): Promise<Order[]> {
    if (decision !== 'approved' && !reason) throw fieldError('reason', 'orders.reasonRequired');
    const at = now.toISOString();
    const rows = await this.moveAll(
      user,
      ids,
      now,
      (order, status) => {
        if (!this.mayDecide(user, order)) throw new AppError('FORBIDDEN', 'orders.notHandler');
        if (!DECIDABLE_STATUSES.includes(status)) throw new AppError('CONFLICT', 'orders.notDecidable');
        return {
          status: decision,
          decision_reason: reason,
          decided_by: user.id,
          decided_at: at,
          updated_at: at,
          ...(decision === 'approved' ? { expires_at: this.expiry(now), voucher_code: voucherCode() } : {}),
        };
      },
      async (trx, changed) => {
        const presented = await this.present(changed, now, trx);
        const mails: OrderMail[] = [];
        for (const order of presented) mails.push(...(await this.decisionMails(trx, changed.find((r) => r.id === order.id)!, order)));
        return mails;
      },
    );
    return this.present(rows, now);
  }

  /** `POST /account/delete_order/`: the applicant withdraws their orders (staff may remove any). */
  async remove(user: AuthenticatedUser, ids: string[], now = new Date()): Promise<Order[]> {
    const rows = await this.moveAll(user, ids, now, (order, status) => {
      if (order.applicant_id !== user.id && !user.is_staff) throw new AppError('FORBIDDEN', 'orders.notYours');
      if (!APPLICANT_ACTIONS[status].includes('delete')) throw new AppError('CONFLICT', 'orders.notEditable');
      return { status: 'deleted', updated_at: now.toISOString() };
    });
    return this.present(rows, now);
  }

  /** `PUT /api/account/order/{id}/`: the applicant's form, changed while the order waits or was returned; it waits again. */
  async update(user: AuthenticatedUser, id: string, form: ApplicationForm, now = new Date()): Promise<Order> {
    const at = now.toISOString();
    const row = await this.db.transaction().execute(async (trx) => {
      const [order] = await this.repo.findOrders(trx, [id]);
      if (!order || !this.maySee(user, order)) throw new AppError('NOT_FOUND', 'errors.notFound');
      if (order.applicant_id !== user.id) throw new AppError('FORBIDDEN', 'orders.notYours');
      const status = effectiveOrderStatus(order, now);
      if (!APPLICANT_ACTIONS[status].includes('edit')) throw new AppError('CONFLICT', 'orders.notEditable');
      const changes = { status: 'waiting', updated_at: at };
      if (!(await this.repo.moveOrder(trx, order.id, order.status, changes))) throw new AppError('CONFLICT', 'orders.changedMeanwhile');
      const stored = (await this.repo.applications(trx, [order.application_id])).get(order.application_id)!;
      // Left out, the country stays as it was.
      const country = form.country ?? stored.country;
      await trx.updateTable('applications').set(applicationColumns(form, country)).where('id', '=', order.application_id).execute();
      // The application's orders were counted under its country: every one of them moves with it.
      if (country !== stored.country) await recountOrders(trx, await this.repo.datasetsOfApplication(trx, order.application_id), [stored.created_at.slice(0, 10)]);
      const moved = { ...order, ...changes };
      // A returned request answered: its handler hears of it as of a new one.
      const application = (await this.repo.applications(trx, [order.application_id])).get(order.application_id)!;
      const [presented] = await this.present([moved], now, trx);
      return { moved, mails: await this.outbox.enqueue(trx, await this.requestMails(trx, application, moved, presented!), now) };
    });
    await this.outbox.deliver(row.mails);
    return (await this.present([row.moved], now))[0]!;
  }

  // ---- Downloads the caller may make ----

  async downloadable(user: AuthenticatedUser, slice: Slice, now = new Date()) {
    const { count, rows } = await this.repo.downloadable(user.id, now.toISOString(), slice);
    const ids = rows.map((r) => r.metadata_id);
    const facts = await this.repo.datasets(this.db, ids);
    const totals = await this.repo.fileTotals(ids);
    const granting = await this.repo.grantingOrders(user.id, ids, now.toISOString());
    return {
      count,
      results: rows.flatMap((row) => {
        const dataset = facts.get(row.metadata_id);
        if (!dataset || embargoed(dataset, now)) return [];
        const total = totals.get(row.metadata_id) ?? { count: 0, size: 0 };
        return [
          {
            metadata_id: row.metadata_id,
            title: dataset.title,
            title_en: dataset.title_en,
            language: dataset.language,
            sharing_policy: dataset.sharing_policy,
            file_count: total.count,
            total_size: total.size,
            order: granting.get(row.metadata_id) ?? null,
            expires_at: row.expires_at,
          },
        ];
      }),
    };
  }

  /**
   * The data files an approved order of the caller (or any order, for staff) gives right now: its
   * datasets still published and out of their protection period. The command-line links list them.
   */
  async orderFiles(user: AuthenticatedUser, orderId: string, now = new Date()) {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row || (row.applicant_id !== user.id && !user.is_staff)) throw new AppError('NOT_FOUND', 'errors.notFound');
    if (effectiveOrderStatus(row, now) !== 'approved') throw new AppError('CONFLICT', 'orders.linkExpired');
    return { order: row, files: await this.grantedFiles(row, now) };
  }

  private async grantedFiles(row: OrderRow, now: Date) {
    const lines = (await this.repo.linesOf(this.db, [row.id])).get(row.id) ?? [];
    const facts = await this.repo.datasets(this.db, lines);
    const open = lines.filter((id) => facts.get(id)?.status === 'published' && !embargoed(facts.get(id)!, now));
    return this.repo.dataFilesOf(open);
  }

  /**
   * What a signed link gives, checked on every use: the order still approved and unexpired, the file
   * one of its datasets', that dataset published and out of its protection period. Answers the file and
   * the order; a link whose order no longer allows it is 'expired' to its holder.
   */
  async signedFile(orderId: string, fileId: string, now = new Date()) {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row) throw new AppError('FORBIDDEN', 'orders.linkForged');
    if (effectiveOrderStatus(row, now) !== 'approved') throw new AppError('FORBIDDEN', 'orders.linkExpired');
    const file = (await this.grantedFiles(row, now)).find((f) => f.id === fileId);
    if (!file) throw new AppError('FORBIDDEN', 'orders.linkForged');
    return { order: row, file };
  }

  // ---- Vouchers ----

  /** The voucher of an order that was approved, for its applicant, its handler and staff. */
  async voucher(user: AuthenticatedUser, orderId: string, language: Language, now = new Date()): Promise<Voucher> {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row || !this.maySee(user, row) || !row.voucher_code) throw new AppError('NOT_FOUND', 'errors.notFound');
    return this.voucherOf(row, language, now);
  }

  /** Anyone may check a voucher by its code: what it lists and whether its order still stands. */
  async verifyVoucher(code: string, language: Language, now = new Date()): Promise<Voucher> {
    const row = await this.repo.orderByVoucher(normaliseVoucherCode(code));
    if (!row) throw new AppError('NOT_FOUND', 'orders.voucherNotFound');
    return this.voucherOf(row, language, now);
  }

  private async voucherOf(row: OrderRow, language: Language, now: Date): Promise<Voucher> {
    const [order] = await this.present([row], now);
    const facts = await this.repo.datasets(this.db, order!.lines.map((l) => l.metadata_id));
    const decider = row.decided_by ? (await this.repo.userNames(this.db, [row.decided_by])).get(row.decided_by)?.name : undefined;
    const datasets = [];
    for (const line of order!.lines) {
      const dataset = facts.get(line.metadata_id);
      datasets.push({
        metadata_id: line.metadata_id,
        title: line.title,
        title_en: line.title_en,
        doi: line.doi,
        citation: await this.options.cite(line.metadata_id, language),
        // In the reader's language when the provider translated them (the voucher showed the record's own).
        use_term: (dataset && language !== dataset.language && dataset.use_term_translated) || dataset?.use_term || '',
        license: dataset?.license ?? '',
      });
    }
    return {
      code: row.voucher_code!,
      order: row.id,
      applicant: order!.application.realName,
      affiliation: order!.application.affiliation,
      approved_at: row.decided_at ?? row.created_at,
      // Open data is granted by the portal itself; otherwise the name of whoever approved it.
      approved_by: decider ?? translate(language, `orders.handler.${row.handler}`),
      expires_at: row.expires_at,
      datasets,
      // Past ORDER_VALID_DAYS the order reads as expired (nothing stored changes): so does its voucher.
      valid: order!.status === 'approved',
      status: order!.status,
    };
  }

  // ---- Mail ----

  private datasetLines(language: Language, order: Order): string {
    return order.lines.map((line) => `- ${language === 'en' ? line.title_en : line.title}${line.doi ? ` (doi:${line.doi})` : ''}`).join('\n');
  }

  /** A mail about an order, rendered in its recipient's language, for the outbox. */
  private render(order: OrderRow, to: Recipient, kind: OrderMail['kind'], params: Record<string, string>): OrderMail {
    const language = asLanguage(to.language);
    const site = translate(language, `site.${this.options.siteVariant}.title`);
    const all = { ...params, site, name: to.name };
    return { order_id: order.id, kind, recipient: to.email, subject: translate(language, `orders.mail.${kind}Subject`, all), body: translate(language, `orders.mail.${kind}Body`, all) };
  }

  private personalLink(language: Language, path: string): string {
    return `${this.options.publicUrl}${language === 'en' ? '/en' : ''}/personal/#${path}`;
  }

  /**
   * A new request to its handler: the data centre's staff, or the record's owner together with the
   * datasets' published distribution addresses, in one message (one mail per owner and application).
   */
  private async requestMails(trx: Db, application: ApplicationRow, order: OrderRow, presented: Order): Promise<OrderMail[]> {
    const recipients: Recipient[] = [];
    if (order.handler === 'center') {
      for (const staff of await this.repo.staffUsers(trx)) recipients.push({ email: staff.email, name: staff.realname || staff.username, language: staff.language });
    } else if (order.handler === 'owner' && order.owner_id) {
      const owner = (await this.repo.userNames(trx, [order.owner_id])).get(order.owner_id);
      if (owner) {
        const facts = await this.repo.datasets(trx, presented.lines.map((l) => l.metadata_id));
        const addresses = new Set([owner.email, ...[...facts.values()].map((f) => f.dist_email.trim().toLowerCase()).filter(Boolean)]);
        recipients.push({ email: [...addresses].join(', '), name: owner.name, language: owner.language });
      }
    }
    return recipients.map((to) => {
      const language = asLanguage(to.language);
      return this.render(order, to, 'request', {
        applicant: application.real_name,
        affiliation: application.affiliation,
        country: application.country ? countryName(application.country, language) : translate(language, 'orders.countryUnknown'),
        reason: application.reason,
        datasets: this.datasetLines(language, presented),
        link: this.personalLink(language, `/application/${order.id}`),
      });
    });
  }

  /**
   * The language of the applicant's mails: their account's mail language (issue 16) when rendered, at
   * the commit; the language they applied in when the account is gone.
   */
  private async applicantLanguage(trx: Db, application: ApplicationRow): Promise<Language> {
    const applicant = (await this.repo.userNames(trx, [application.applicant_id])).get(application.applicant_id);
    return asLanguage(applicant?.language ?? application.language);
  }

  private async decisionMails(trx: Db, row: OrderRow, order: Order): Promise<OrderMail[]> {
    const application = (await this.repo.applications(trx, [row.application_id])).get(row.application_id);
    if (!application) return [];
    const language = await this.applicantLanguage(trx, application);
    return [
      this.render(row, { email: application.email, name: application.real_name, language }, 'decision', {
        status: translate(language, `orders.status.${order.status}`),
        reason: order.decision_reason,
        datasets: this.datasetLines(language, order),
        link: this.personalLink(language, '/data/order'),
      }),
    ];
  }

  /** Tells applicants whose offline requests waited three days to contact the provider directly (once). */
  async remindOverdue(now = new Date()): Promise<number> {
    const rows = await this.repo.overdue(new Date(now.getTime() - ORDER_LIMITS.offlineReplyDays * DAY).toISOString());
    let told = 0;
    for (const row of rows) {
      const mails = await this.db.transaction().execute(async (trx) => {
        // Marked with its mail written: another instance running the same job skips it.
        if (!(await this.repo.markReminded(trx, row.id, now.toISOString()))) return [];
        const [order] = await this.present([row], now, trx);
        const application = (await this.repo.applications(trx, [row.application_id])).get(row.application_id);
        if (!order || !application) return [];
        const language = await this.applicantLanguage(trx, application);
        const mail = this.render(row, { email: application.email, name: application.real_name, language }, 'overdue', {
          datasets: this.datasetLines(language, order),
          contact: order.contact_email,
          link: this.personalLink(language, '/data/order'),
        });
        return this.outbox.enqueue(trx, [mail], now);
      });
      if (!mails.length) continue;
      await this.outbox.deliver(mails, now);
      told += 1;
    }
    return told;
  }

  /** The job: order mails not sent yet (the process died, or the mailer failed and their retry is due). */
  async sendPendingMails(now = new Date()): Promise<number> {
    return this.outbox.deliverDue(now);
  }

  /** The job's clean-up: mails sent more than 30 days ago. */
  async forgetSentMails(now = new Date()): Promise<number> {
    return this.outbox.forgetSent(new Date(now.getTime() - 30 * DAY));
  }
}
