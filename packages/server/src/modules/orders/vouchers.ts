import { randomBytes } from 'node:crypto';
import { translate, type Language, type Voucher } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { maySee } from './order-queries.js';
import type { OrdersContext } from './orders-context.js';
import type { OrderRow } from './orders.repo.js';

/** Crockford's base 32 without look-alikes: a voucher code is read aloud and typed. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 60 random bits as `XXXX-XXXX-XXXX`: unguessable, so the public check reveals nothing to a guesser. */
export function voucherCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % 32]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** A voucher's code as typed: any case, with or without dashes or spaces, Crockford's look-alikes read as digits. */
export function normaliseVoucherCode(typed: string): string {
  const chars = typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return /^[0-9A-Z]{12}$/.test(chars) ? `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}` : chars;
}

/** The vouchers of approved orders: what an order lists and grants, checkable by anyone with its code. */
export class Vouchers {
  constructor(private readonly context: OrdersContext) {}

  /** The voucher of an order that was approved, for its applicant, its handler and staff. */
  async voucher(user: AuthenticatedUser, orderId: string, language: Language, now = new Date()): Promise<Voucher> {
    const [row] = await this.context.repo.findOrders(this.context.db, [orderId]);
    if (!row || !maySee(user, row) || !row.voucher_code) throw new AppError('NOT_FOUND', 'errors.notFound');
    return this.voucherOf(row, language, now);
  }

  /** Anyone may check a voucher by its code: what it lists and whether its order still stands. */
  async verify(code: string, language: Language, now = new Date()): Promise<Voucher> {
    const row = await this.context.repo.orderByVoucher(normaliseVoucherCode(code));
    if (!row) throw new AppError('NOT_FOUND', 'orders.voucherNotFound');
    return this.voucherOf(row, language, now);
  }

  private async voucherOf(row: OrderRow, language: Language, now: Date): Promise<Voucher> {
    const { db, repo, queries, options } = this.context;
    const [order] = await queries.present([row], now);
    const facts = await repo.datasets(
      db,
      order!.lines.map((l) => l.metadata_id),
    );
    const decider = row.decided_by ? (await repo.userNames(db, [row.decided_by])).get(row.decided_by)?.name : undefined;
    const datasets = [];
    for (const line of order!.lines) {
      const dataset = facts.get(line.metadata_id);
      datasets.push({
        metadata_id: line.metadata_id,
        title: line.title,
        title_en: line.title_en,
        doi: line.doi,
        citation: await options.cite(line.metadata_id, language),
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
}
