import { isEmbargoed, type HaveDownload } from '@portal/shared';
import type { AuthenticatedUser } from '../account/index.js';
import { authorize, factsNeeded, type MetadataAccess, type Decision, type MetadataRow, type RecordFacts } from '../metadata/index.js';
import type { OrdersRepo } from './orders.repo.js';

/**
 * Who may download a record's data files, on every download path (a file, a zip, a signed link,
 * `have-download`): the record policy's `download` (metadata/record-policy.ts), with the facts it
 * reads fetched here: the caller's reviewer standing (MetadataAccess) and their orders.
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
    return (await this.verdict(user, record, now)).answer;
  }

  /**
   * The record's files for this caller, or the policy's refusal: 401 signed out, 403 with the reason
   * in words (protection period with its date, no order, an order still waiting). Answers the granting order.
   */
  async assert(user: AuthenticatedUser | null, record: MetadataRow, now = new Date()): Promise<HaveDownload> {
    const { decision, answer } = await this.verdict(user, record, now);
    if (!decision.allowed) throw decision.error;
    return answer;
  }

  private async verdict(user: AuthenticatedUser | null, record: MetadataRow, now: Date): Promise<{ decision: Decision; answer: HaveDownload }> {
    const decision = authorize(user, 'download', record, await this.facts(user, record, now));
    const answer: HaveDownload = {
      have_download: decision.allowed,
      reason: decision.allowed ? 'ok' : asReason(decision.reason),
      available_from: isEmbargoed(record, now) ? record.embargo_until : null,
      order: (decision.allowed && decision.order) || null,
    };
    return { decision, answer };
  }

  /** The facts the policy reads for this download, and only those. */
  private async facts(user: AuthenticatedUser | null, record: MetadataRow, now: Date): Promise<RecordFacts> {
    const needed = factsNeeded(user, 'download', record, now);
    if (!user) return { now };
    const facts: RecordFacts = { now, ...(await this.access.reviewerFacts(user, record, needed)) };
    if (needed.orders) {
      const granting = await this.repo.grantingOrder(user.id, record.id, now.toISOString());
      facts.orders = { granting: granting?.id ?? null, pending: !granting && !!(await this.repo.pendingOrder(user.id, record.id)) };
    }
    return facts;
  }
}

/** The policy's refusal as have-download names it (a record the caller may not read: not published). */
function asReason(reason: Exclude<Decision, { allowed: true }>['reason']): HaveDownload['reason'] {
  return reason === 'embargo' || reason === 'login' || reason === 'order' || reason === 'waiting' ? reason : 'notPublished';
}
