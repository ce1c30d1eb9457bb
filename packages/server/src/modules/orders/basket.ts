import { isEmbargoed, ORDER_LIMITS, type CartLine } from '@portal/shared';
import { isUniqueViolation, newId } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { assertOrderable } from '../metadata/index.js';
import type { Slice } from './order-queries.js';
import type { OrdersContext } from './orders-context.js';

/** The basket (data cart): the datasets a user means to apply for. */
export class Basket {
  constructor(private readonly context: OrdersContext) {}

  async list(user: AuthenticatedUser, slice: Slice): Promise<{ count: number; results: CartLine[] }> {
    const { repo, db } = this.context;
    const { count, rows } = await repo.cartLines(user.id, slice);
    const facts = await repo.datasets(
      db,
      rows.map((row) => row.metadata_id),
    );
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
            embargo_until: isEmbargoed(dataset) ? dataset.embargo_until : null,
          },
        ];
      }),
    };
  }

  async add(user: AuthenticatedUser, metadataId: string, now = new Date()): Promise<CartLine> {
    const { repo, db, access } = this.context;
    const record = await access.readable(user, metadataId);
    assertOrderable(user, record, now);
    const id = newId();
    try {
      await db.transaction().execute(async (trx) => {
        if ((await repo.cartLineCount(trx, user.id)) >= ORDER_LIMITS.basketMax) throw new AppError('CONFLICT', 'orders.basketFull');
        await repo.addCartLine(trx, { id, user_id: user.id, metadata_id: metadataId, created_at: now.toISOString() });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'orders.alreadyInBasket');
      throw error;
    }
    const line = (await this.list(user, { offset: 0, limit: ORDER_LIMITS.basketMax })).results.find((l) => l.id === id);
    if (!line) throw new AppError('NOT_FOUND', 'metadata.notFound');
    return line;
  }

  /** Removes the caller's lines, all or none (a line that is not theirs: nothing is removed). */
  async remove(user: AuthenticatedUser, lineIds: string[]): Promise<void> {
    await this.context.db.transaction().execute(async (trx) => {
      const removed = await this.context.repo.deleteCartLines(trx, user.id, lineIds);
      if (removed !== new Set(lineIds).size) throw new AppError('NOT_FOUND', 'orders.linesGone');
    });
  }
}
