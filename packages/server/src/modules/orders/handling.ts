import {
  APPLICANT_ACTIONS,
  COUNTED_ORDER_STATUSES,
  DECIDABLE_STATUSES,
  effectiveOrderStatus,
  ORDER_LIMITS,
  type Order,
  type OrderDecision,
  type OrderStatus,
} from '@portal/shared';
import type { Db } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { OrderMail } from './order-outbox.js';
import { mayDecide, maySee } from './order-queries.js';
import { DAY, expiryOf, type OrdersContext } from './orders-context.js';
import type { OrderRow } from './orders.repo.js';
import { voucherCode } from './vouchers.js';

/**
 * Deciding and changing orders: the handler approves, rejects or returns them, the applicant
 * withdraws them, the hourly job tells applicants of overdue offline requests. Every decision moves an
 * order only from the status it was read in, so two at once (or a decision and a deletion): one wins,
 * the other gets 409.
 */
export class Handling {
  constructor(private readonly context: OrdersContext) {}

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
    const { db, repo, outbox } = this.context;
    const { changed, mails } = await db.transaction().execute(async (trx) => {
      const found = await repo.findOrders(trx, [...new Set(ids)]);
      if (found.length !== new Set(ids).size) throw new AppError('NOT_FOUND', 'errors.notFound');
      const changed: OrderRow[] = [];
      const uncounted: OrderRow[] = [];
      for (const order of found) {
        if (!maySee(user, order)) throw new AppError('NOT_FOUND', 'errors.notFound');
        const changes = step(order, effectiveOrderStatus(order, now));
        if (!(await repo.moveOrder(trx, order.id, order.status, changes))) throw new AppError('CONFLICT', 'orders.changedMeanwhile');
        changed.push({ ...order, ...changes });
        if (COUNTED_ORDER_STATUSES.includes(order.status) && changes.status && !COUNTED_ORDER_STATUSES.includes(changes.status)) uncounted.push(order);
      }
      await this.uncount(trx, uncounted);
      return { changed, mails: await outbox.enqueue(trx, await mailsOf(trx, changed), now) };
    });
    await outbox.deliver(mails);
    return changed;
  }

  /**
   * Takes orders that were withdrawn or rejected out of the daily order counts, in the transaction
   * that moved them: statistics count only orders that stand or were granted.
   */
  private async uncount(trx: Db, orders: OrderRow[]): Promise<void> {
    if (!orders.length) return;
    const lines = await this.context.repo.linesOf(
      trx,
      orders.map((o) => o.id),
    );
    await this.context.usage.recountOrders(
      trx,
      [...lines.values()].flat(),
      orders.map((o) => o.created_at.slice(0, 10)),
    );
  }

  /** `POST /account/order-handle/`: approve, reject or return a set of orders, all or none. */
  async handle(user: AuthenticatedUser, ids: string[], decision: OrderDecision, reason: string, now = new Date()): Promise<Order[]> {
    const { queries, mails: orderMails } = this.context;
    if (decision !== 'approved' && !reason) throw fieldError('reason', 'orders.reasonRequired');
    const at = now.toISOString();
    const rows = await this.moveAll(
      user,
      ids,
      now,
      (order, status) => {
        if (!mayDecide(user, order)) throw new AppError('FORBIDDEN', 'orders.notHandler');
        if (!DECIDABLE_STATUSES.includes(status)) throw new AppError('CONFLICT', 'orders.notDecidable');
        return {
          status: decision,
          decision_reason: reason,
          decided_by: user.id,
          decided_at: at,
          updated_at: at,
          ...(decision === 'approved' ? { expires_at: expiryOf(this.context, now), voucher_code: voucherCode() } : {}),
        };
      },
      async (trx, changed) => {
        const presented = await queries.present(changed, now, trx);
        const mails: OrderMail[] = [];
        for (const order of presented)
          mails.push(
            ...(await orderMails.decisionMails(
              trx,
              changed.find((r) => r.id === order.id)!,
              order,
            )),
          );
        return mails;
      },
    );
    return queries.present(rows, now);
  }

  /** `POST /account/delete_order/`: the applicant withdraws their orders (staff may remove any). */
  async remove(user: AuthenticatedUser, ids: string[], now = new Date()): Promise<Order[]> {
    const rows = await this.moveAll(user, ids, now, (order, status) => {
      if (order.applicant_id !== user.id && !user.is_staff) throw new AppError('FORBIDDEN', 'orders.notYours');
      if (!APPLICANT_ACTIONS[status].includes('delete')) throw new AppError('CONFLICT', 'orders.notEditable');
      return { status: 'deleted', updated_at: now.toISOString() };
    });
    return this.context.queries.present(rows, now);
  }

  /** Tells applicants whose offline requests waited three days to contact the provider directly (once). */
  async remindOverdue(now = new Date()): Promise<number> {
    const { db, repo, queries, mails, outbox } = this.context;
    const rows = await repo.overdue(new Date(now.getTime() - ORDER_LIMITS.offlineReplyDays * DAY).toISOString());
    let told = 0;
    for (const row of rows) {
      const written = await db.transaction().execute(async (trx) => {
        // Marked with its mail written: another instance running the same job skips it.
        if (!(await repo.markReminded(trx, row.id, now.toISOString()))) return [];
        const [order] = await queries.present([row], now, trx);
        const application = (await repo.applications(trx, [row.application_id])).get(row.application_id);
        if (!order || !application) return [];
        return outbox.enqueue(trx, [await mails.overdueMail(trx, row, order, application)], now);
      });
      if (!written.length) continue;
      await outbox.deliver(written, now);
      told += 1;
    }
    return told;
  }
}
