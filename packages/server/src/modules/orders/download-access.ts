import { isEmbargoed, type HaveDownload } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { MetadataAccess, MetadataRow } from '../metadata/index.js';
import type { OrdersRepo } from './orders.repo.js';

/**
 * Who may download a record's data files: the one rule every download path checks (a file, a zip,
 * a signed link, `have-download`).
 * - its creator and staff, always; its invited experts while it is with them (MetadataAccess);
 * - others only once it is published and its protection period is over, and then: open access
 *   (sharing policy `online`) for anyone signed in, otherwise with an approved order that has not expired.
 */
export class DownloadAccess {
  constructor(
    private readonly access: MetadataAccess,
    private readonly repo: OrdersRepo,
  ) {}

  /** The answer of `GET /metadata/have-download/`. A record the caller may not see is NOT_FOUND. */
  async check(user: AuthenticatedUser | null, id: string, now = new Date()): Promise<HaveDownload> {
    const record = await this.access.readable(user, id);
    return this.judge(user, record, now);
  }

  async judge(user: AuthenticatedUser | null, record: MetadataRow, now = new Date()): Promise<HaveDownload> {
    const answer = (have: boolean, reason: HaveDownload['reason'], order: string | null = null): HaveDownload => ({
      have_download: have,
      reason,
      available_from: isEmbargoed(record, now) ? record.embargo_until : null,
      order,
    });
    if (user && (user.is_staff || record.owner_id === user.id)) return answer(true, 'ok');
    if (record.status !== 'published') {
      // An unpublished record's data: only as its reviewer, while they may read it.
      return user && (await this.access.reviewerMaySee(user, record)) ? answer(true, 'ok') : answer(false, 'notPublished');
    }
    if (isEmbargoed(record, now)) return answer(false, 'embargo');
    if (!user) return answer(false, 'login');
    if (record.sharing_policy === 'online') return answer(true, 'ok');
    const granting = await this.repo.grantingOrder(user.id, record.id, now.toISOString());
    if (granting) return answer(true, 'ok', granting.id);
    if (await this.repo.pendingOrder(user.id, record.id)) return answer(false, 'waiting');
    return answer(false, 'order');
  }

  /**
   * The record's files for this caller, or the refusal: 401 signed out, 403 with the reason in words
   * (protection period with its date, no order, an order still waiting). Answers the granting order.
   */
  async assert(user: AuthenticatedUser | null, record: MetadataRow, now = new Date()): Promise<HaveDownload> {
    const verdict = await this.judge(user, record, now);
    if (verdict.have_download) return verdict;
    if (verdict.reason === 'login') throw new AppError('UNAUTHENTICATED', 'orders.loginToDownload');
    if (verdict.reason === 'embargo') throw new AppError('FORBIDDEN', 'orders.embargoed', { params: { date: record.embargo_until!.slice(0, 10) } });
    if (verdict.reason === 'waiting') throw new AppError('FORBIDDEN', 'orders.waitingToDownload');
    if (verdict.reason === 'order') throw new AppError('FORBIDDEN', 'orders.orderToDownload');
    throw new AppError('FORBIDDEN', 'orders.noRight');
  }
}
