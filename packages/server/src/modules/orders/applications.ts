import { APPLICANT_ACTIONS, effectiveOrderStatus, handlerFor, type ApplicationForm, type Language, type Order, type OrderHandler, type PlaceOrderReply } from '@portal/shared';
import { lockUserRow, newId, type Db } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { assertOrderable } from '../metadata/index.js';
import type { OrderMail } from './order-outbox.js';
import { applicationView, maySee } from './order-queries.js';
import { expiryOf, type OrdersContext } from './orders-context.js';
import type { ApplicationRow, DatasetFacts, OrderRow } from './orders.repo.js';
import { voucherCode } from './vouchers.js';

type Context = { ip: string; language: Language };

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

/**
 * Applying: an application becomes one order per handler (the open datasets, granted at once; the
 * data centre's; one per owner of requestable datasets), each decided on its own; reapplying; the
 * applicant's changes to their form.
 */
export class Applications {
  constructor(private readonly context: OrdersContext) {}

  /** `POST /api/account/order/`: the selected basket lines, applied for with one form. */
  async apply(user: AuthenticatedUser, form: ApplicationForm, lineIds: string[], context: Context, now = new Date()): Promise<PlaceOrderReply> {
    const { db, repo, outbox } = this.context;
    const wanted = [...new Set(lineIds)];
    const placed = await db.transaction().execute(async (trx) => {
      await lockUserRow(trx, user.id);
      await this.checkApplyLimit(trx, user, now);
      const lines = await repo.cartLinesById(trx, user.id, wanted);
      if (lines.length !== wanted.length) throw new AppError('CONFLICT', 'orders.linesGone');
      const result = await this.place(
        trx,
        user,
        form,
        lines.map((l) => l.metadata_id),
        context,
        now,
      );
      // Two submissions of the same lines at once: the second finds them gone and rolls back.
      if ((await repo.deleteCartLines(trx, user.id, wanted)) !== wanted.length) throw new AppError('CONFLICT', 'orders.linesGone');
      return result;
    });
    await outbox.deliver(placed.mails);
    return placed.reply;
  }

  /** `POST /account/reapply/`: a deleted, rejected or expired order's datasets, applied for again with its form. */
  async reapply(user: AuthenticatedUser, orderId: string, context: Context, now = new Date()): Promise<PlaceOrderReply> {
    const { db, repo, outbox } = this.context;
    const placed = await db.transaction().execute(async (trx) => {
      // First: a second reapplication at the same moment waits here, then finds this one's order standing.
      await lockUserRow(trx, user.id);
      const [order] = await repo.findOrders(trx, [orderId]);
      if (!order || order.applicant_id !== user.id) throw new AppError('NOT_FOUND', 'errors.notFound');
      if (!['deleted', 'rejected', 'expired'].includes(effectiveOrderStatus(order, now))) throw new AppError('CONFLICT', 'orders.notReapplicable');
      const application = (await repo.applications(trx, [order.application_id])).get(order.application_id)!;
      const datasets = (await repo.linesOf(trx, [order.id])).get(order.id) ?? [];
      // Withdrawing and reapplying again and again filled the owner's queue and mailbox: one standing order a dataset.
      if ((await repo.standingFor(trx, user.id, datasets, now.toISOString())).length) throw new AppError('CONFLICT', 'orders.alreadyStanding');
      await this.checkApplyLimit(trx, user, now);
      const { id: _id, created_at: _created, ...form } = applicationView(application);
      return this.place(trx, user, form, datasets, context, now);
    });
    await outbox.deliver(placed.mails);
    return placed.reply;
  }

  /**
   * At most `appliesPerHour` applications and reapplications per account in any hour; staff are
   * exempt. Checked in the transaction that writes the application, after the caller locked the
   * user's row (`lockUserRow`, as records created per hour are), so that requests at once take turns
   * and count each other's.
   */
  private async checkApplyLimit(trx: Db, user: AuthenticatedUser, now: Date): Promise<void> {
    const max = this.context.options.appliesPerHour ?? Number.MAX_SAFE_INTEGER;
    if (user.is_staff) return;
    if ((await this.context.repo.applicationsSince(trx, user.id, new Date(now.getTime() - 3_600_000).toISOString())) >= max) {
      throw new AppError('RATE_LIMITED', 'orders.applyLimit', { params: { max } });
    }
  }

  /**
   * Writes the application and its orders: the records are checked as they are now (published, out
   * of their protection period, someone else's), grouped by who decides, open ones approved at once.
   */
  private async place(trx: Db, user: AuthenticatedUser, form: ApplicationForm, metadataIds: string[], context: Context, now: Date) {
    const { repo, usage, queries, mails: orderMails, outbox } = this.context;
    if (!metadataIds.length) throw fieldError('line', 'orders.validation.selectData');
    const facts = await repo.datasets(trx, metadataIds);
    const groups = new Map<string, { handler: OrderHandler; ownerId: string | null; datasets: DatasetFacts[] }>();
    for (const id of metadataIds) {
      const dataset = facts.get(id);
      assertOrderable(user, dataset, now);
      const handler = handlerFor(dataset.sharing_policy);
      const key = handler === 'owner' ? `owner:${dataset.owner_id}` : handler;
      const group = groups.get(key) ?? { handler, ownerId: handler === 'owner' ? dataset.owner_id : null, datasets: [] };
      group.datasets.push(dataset);
      groups.set(key, group);
    }
    const at = now.toISOString();
    // The country is ours, not the spec's, and optional: the one the applicant gave last, else unknown ('').
    const country = form.country ?? (await repo.lastCountry(trx, user.id));
    const application: ApplicationRow = {
      id: newId(),
      applicant_id: user.id,
      ...applicationColumns(form, country),
      ip: context.ip,
      language: context.language,
      created_at: at,
    };
    await repo.insertApplication(trx, application);
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
        expires_at: granted ? expiryOf(this.context, now) : null,
        reminded_at: null,
        voucher_code: granted ? voucherCode() : null,
        created_at: at,
        updated_at: at,
      };
      const datasets = group.datasets.map((dataset) => dataset.metadata_id);
      await repo.insertOrder(trx, order, datasets);
      await usage.countOrders(trx, datasets, country, now);
      orders.push(order);
    }
    // The handlers' mails are written with the orders, and sent once they are committed.
    const presented = await queries.present(orders, now, trx);
    const mails: OrderMail[] = [];
    for (const order of orders)
      if (order.status === 'waiting')
        mails.push(
          ...(await orderMails.requestMails(
            trx,
            application,
            order,
            presented.find((p) => p.id === order.id)!,
          )),
        );
    const reply: PlaceOrderReply = {
      status: orders.every((order) => order.status === 'approved') ? 'Success' : 'Waiting',
      order: { ...applicationView(application), orders: presented },
    };
    return { reply, mails: await outbox.enqueue(trx, mails, now) };
  }

  /** `PUT /api/account/order/{id}/`: the applicant's form, changed while the order waits or was returned; it waits again. */
  async update(user: AuthenticatedUser, id: string, form: ApplicationForm, now = new Date()): Promise<Order> {
    const { db, repo, usage, queries, mails, outbox } = this.context;
    const at = now.toISOString();
    const row = await db.transaction().execute(async (trx) => {
      const [order] = await repo.findOrders(trx, [id]);
      if (!order || !maySee(user, order)) throw new AppError('NOT_FOUND', 'errors.notFound');
      if (order.applicant_id !== user.id) throw new AppError('FORBIDDEN', 'orders.notYours');
      const status = effectiveOrderStatus(order, now);
      if (!APPLICANT_ACTIONS[status].includes('edit')) throw new AppError('CONFLICT', 'orders.notEditable');
      const changes = { status: 'waiting', updated_at: at };
      if (!(await repo.moveOrder(trx, order.id, order.status, changes))) throw new AppError('CONFLICT', 'orders.changedMeanwhile');
      const stored = (await repo.applications(trx, [order.application_id])).get(order.application_id)!;
      // Left out, the country stays as it was.
      const country = form.country ?? stored.country;
      await repo.updateApplication(trx, order.application_id, applicationColumns(form, country));
      // The application's orders were counted under its country: every one of them moves with it.
      if (country !== stored.country) await usage.recountOrders(trx, await repo.datasetsOfApplication(trx, order.application_id), [stored.created_at.slice(0, 10)]);
      const moved = { ...order, ...changes };
      // A returned request answered: its handler hears of it as of a new one.
      const application = (await repo.applications(trx, [order.application_id])).get(order.application_id)!;
      const [presented] = await queries.present([moved], now, trx);
      return { moved, mails: await outbox.enqueue(trx, await mails.requestMails(trx, application, moved, presented!), now) };
    });
    await outbox.deliver(row.mails);
    return (await queries.present([row.moved], now))[0]!;
  }
}
