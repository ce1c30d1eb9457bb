import type { FastifyBaseLogger } from 'fastify';
import { newId, type Db } from '../../db/index.js';
import type { Mailer } from '../../mail/mailer.js';
import { retryDelayMs } from '../../retry.js';

/** A rendered mail about an order, as the outbox keeps it. */
export interface OrderMail {
  order_id: string;
  kind: 'request' | 'decision' | 'overdue';
  recipient: string;
  subject: string;
  body: string;
}

const MINUTE = 60_000;
/** How long a claimed mail is left to its sender before another run may try it (a sender that died). */
export const SEND_LEASE_MS = 10 * MINUTE;
/** Tries before a mail is given up (about two days of backoff), then it is logged as an error. */
export const MAX_SEND_ATTEMPTS = 15;

const at = (now: Date, plusMs = 0) => new Date(now.getTime() + plusMs).toISOString();

/**
 * The outbox of orders' mails (issue 16). A mail is written in the transaction that places or changes
 * its order, so it is committed with it or not at all; it is sent right after the commit and, if that
 * fails or the process dies first, by the job (`deliverDue`). Each try first claims the mail (moves its
 * next try past a lease, from the value it read), so two senders never send the same mail at once;
 * a sender that dies after sending but before marking it sent causes the one duplicate it can.
 */
export class OrderOutbox {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {}

  /** Writes mails in the caller's transaction; answers their ids, for `deliver` after the commit. */
  async enqueue(trx: Db, mails: OrderMail[], now = new Date()): Promise<string[]> {
    if (!mails.length) return [];
    const rows = mails.map((mail) => ({ id: newId(), ...mail, status: 'pending', attempts: 0, next_attempt_at: at(now), last_error: '', created_at: at(now), sent_at: null }));
    await trx.insertInto('order_mails').values(rows).execute();
    return rows.map((row) => row.id);
  }

  /** Sends these mails now, those still due (right after their transaction committed); answers how many went. */
  async deliver(ids: readonly string[], now = new Date()): Promise<number> {
    if (!ids.length) return 0;
    const rows = await this.db
      .selectFrom('order_mails')
      .selectAll()
      .where('id', 'in', [...ids])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at(now))
      .orderBy('created_at')
      .execute();
    return this.sendAll(rows, now);
  }

  /** The job: every mail whose time has come, oldest first; answers how many went. */
  async deliverDue(now = new Date()): Promise<number> {
    const rows = await this.db
      .selectFrom('order_mails')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at(now))
      .orderBy('next_attempt_at')
      .limit(200)
      .execute();
    return this.sendAll(rows, now);
  }

  /** Forgets mails sent before `before` (kept a while for an operator asking whether one went). */
  async forgetSent(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('order_mails').where('status', '=', 'sent').where('sent_at', '<', before.toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async sendAll(
    rows: { id: string; next_attempt_at: string; attempts: number; recipient: string; subject: string; body: string; kind: string }[],
    now: Date,
  ): Promise<number> {
    let sent = 0;
    for (const row of rows) if (await this.attempt(row, now)) sent += 1;
    return sent;
  }

  private async attempt(
    row: { id: string; next_attempt_at: string; attempts: number; recipient: string; subject: string; body: string; kind: string },
    now: Date,
  ): Promise<boolean> {
    const attempts = row.attempts + 1;
    const claimed = await this.db
      .updateTable('order_mails')
      .set({ next_attempt_at: at(now, SEND_LEASE_MS), attempts })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    // Another sender has it.
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    try {
      await this.mailer.send({ to: row.recipient, subject: row.subject, text: row.body });
    } catch (error) {
      const givenUp = attempts >= MAX_SEND_ATTEMPTS;
      await this.db
        .updateTable('order_mails')
        .set({ status: givenUp ? 'failed' : 'pending', next_attempt_at: at(now, retryDelayMs(attempts)), last_error: String((error as Error)?.message ?? error).slice(0, 500) })
        .where('id', '=', row.id)
        .execute();
      // The order stands either way; a mail given up is the operator's to see.
      if (givenUp) this.log.error({ err: error, mail: row.id, kind: row.kind, to: row.recipient, attempts }, 'order mail given up');
      else this.log.warn({ err: error, mail: row.id, kind: row.kind, to: row.recipient, attempts }, 'order mail not sent, will retry');
      return false;
    }
    await this.db.updateTable('order_mails').set({ status: 'sent', sent_at: new Date().toISOString(), last_error: '' }).where('id', '=', row.id).execute();
    return true;
  }
}
