import {
  DECISIONS_NEEDING_COMMENT,
  EXPERT_OUTCOMES,
  checkTransition,
  embargoUntil,
  type InviteExperts,
  type Review,
  type ReviewAction,
  type ReviewRole,
  type ReviewState,
  type SetReviewStatus,
  type SubmissionReason,
} from '@portal/shared';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { AppError, fieldError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { MetadataAccess, MetadataRow } from '../metadata/index.js';
import type { MetadataService, PresentedRecord } from '../metadata/index.js';
import type { ReviewSnapshots } from './review-snapshots.js';
import type { ReviewMail } from './review.mail.js';
import type { ReviewQueries } from './review.queries.js';
import type { RecordChange, ReviewRepo, ReviewRow } from './review.repo.js';

const DAY = 86_400_000;
/** The transaction of one step. */
type Tx = Transaction<Database>;

/**
 * The review workflow's steps: every step goes through `checkTransition` (the shared table), moves
 * the record's status only from the status it was read in (two decisions at once: one wins, the
 * other gets 409), and is written to the audit trail in the same transaction. Mails go out after commit.
 */
export class ReviewActions {
  constructor(
    private readonly db: Db,
    private readonly repo: ReviewRepo,
    private readonly access: MetadataAccess,
    private readonly metadata: MetadataService,
    private readonly snapshots: ReviewSnapshots,
    private readonly queries: ReviewQueries,
    private readonly mail: ReviewMail,
  ) {}

  /** The table's verdict: 403 for a role that may never take the action, 409 for a wrong state. */
  private guard(record: MetadataRow, action: ReviewAction, roles: ReviewRole[]): { to: string; role: ReviewRole } {
    const check = checkTransition(record.status, action, roles);
    if (!check.ok) {
      if (check.refusal === 'role') throw new AppError('FORBIDDEN', 'review.wrongRole');
      throw new AppError('CONFLICT', 'review.wrongState');
    }
    const role = roles.find((r) => checkTransition(record.status, action, [r]).ok)!;
    return { to: check.to ?? record.status, role };
  }

  /**
   * Moves the record from the status it was read in; 409 when another request moved it first. Runs
   * first in its transaction, so that it holds the record's row until the transaction ends.
   */
  private async move(trx: Tx, record: MetadataRow, to: string, values: RecordChange = {}): Promise<void> {
    if (!(await this.access.moveStatus(trx, record, to, values))) throw new AppError('CONFLICT', 'review.changedMeanwhile');
    // Published, unpublished or republished: the public catalogue follows in this transaction.
    if (record.status === 'published' || to === 'published') await this.access.changed(trx, [record.id]);
  }

  private log(trx: Tx, record: MetadataRow, user: AuthenticatedUser, role: ReviewRole, action: ReviewAction, to: string, comment = '', reviewId: string | null = null) {
    return this.repo.withDb(trx).logEvent({
      metadata_id: record.id,
      actor_id: user.id,
      role,
      action,
      from_status: record.status,
      to_status: to,
      comment,
      review_id: reviewId,
    });
  }

  // ---- The creator ----

  /** Draft to submitted when the checklist passes; project data of a managed topic waits for its leaders. */
  async submit(user: AuthenticatedUser, id: string): Promise<{ problems: SubmissionReason[]; record?: PresentedRecord }> {
    const record = await this.access.owned(user, id);
    // The table first: staff may check a record (GET) but never submit it, whatever its state or checklist.
    const roles = await this.queries.rolesOf(user, record);
    const check = checkTransition(record.status, 'submit', roles);
    if (!check.ok && check.refusal === 'role') throw new AppError('FORBIDDEN', 'review.wrongRole');
    if (!check.ok) throw new AppError('CONFLICT', 'metadata.submit.notDraft');
    const problems = await this.metadata.problems(record);
    if (problems.length) return { problems };
    const { to, role } = this.guard(record, 'submit', roles);
    const leaders = record.submitting_type === 'project' && (await this.repo.hasTopicLeaders(id));
    // A leader's pass stands for a resubmission the data centre sent back; a "no pass" asks again.
    const topic = leaders ? (record.topic_review_status === 'pass' ? 'pass' : 'waiting') : '';
    const now = new Date().toISOString();
    // The record as submitted, for the round this submission starts (its experts read it; issue 16).
    const snapshot = await this.snapshots.capture(user, id);
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to, { submitted_at: now, topic_review_status: topic });
      await this.log(trx, record, user, role, 'submit', to);
      await this.snapshots.store(trx, id, Number(record.review_round) + 1, snapshot);
    });
    await this.mail.mailStaff('submitted', record);
    const moved = await this.access.find(id);
    return { problems, record: (await this.metadata.present([moved!]))[0] };
  }

  /** Return to Draft by the creator, until an expert has opened the review. */
  async returnToDraft(user: AuthenticatedUser, id: string): Promise<void> {
    const record = await this.access.owned(user, id);
    const roles = await this.queries.rolesOf(user, record);
    const check = checkTransition(record.status, 'return_to_draft', roles);
    if (!check.ok) throw new AppError(check.refusal === 'role' ? 'FORBIDDEN' : 'CONFLICT', check.refusal === 'role' ? 'review.wrongRole' : 'metadata.submit.notReturnable');
    const { to, role } = this.guard(record, 'return_to_draft', roles);
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to);
      await this.log(trx, record, user, role, 'return_to_draft', to);
    });
  }

  // ---- The data centre ----

  /** PATCH set_review_status: the pre-review flag, or a decision with or without a comment. */
  async decide(user: AuthenticatedUser, id: string, body: SetReviewStatus): Promise<ReviewState> {
    const { record, roles } = await this.queries.recordFor(user, id);
    const action: ReviewAction = 'is_pre_review' in body ? 'pre_review' : body.review_status;
    const content = 'content' in body ? (body.content ?? '') : '';
    const { to, role } = this.guard(record, action, roles);
    // Decided from a status the record has left since: someone else decided first.
    if ('from_status' in body && body.from_status && body.from_status !== record.status) throw new AppError('CONFLICT', 'review.changedMeanwhile');
    if (DECISIONS_NEEDING_COMMENT.includes(action) && !content) throw fieldError('content', 'review.validation.commentRequired');
    if (action === 'approve' && (await this.repo.countAnswered(id, Number(record.review_round))) === 0) {
      throw new AppError('CONFLICT', 'review.noAnswers');
    }
    const now = new Date().toISOString();
    const values: RecordChange = {};
    if (action === 'pre_review') values.is_pre_review = 1;
    if (action === 'publish' || action === 'publish_without_review') {
      Object.assign(values, {
        published_at: now,
        embargo_until: embargoUntil(now, record.protection_period),
        published_without_review: action === 'publish_without_review' ? 1 : 0,
        unpublish_reason: '',
      });
    }
    if (action === 'unpublish') values.unpublish_reason = content;
    // A resubmission taken in goes back to the experts of the last round, labelled as such.
    const previous = action === 'receive' && Number(record.review_round) > 0 ? await this.repo.expertsOfRound(id, Number(record.review_round)) : [];
    let invited: ReviewRow[] = [];
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to, values);
      await this.log(trx, record, user, role, action, to, content);
      if (previous.length) {
        const received = { ...record, status: to };
        const round = Number(record.review_round) + 1;
        invited = await this.repo.withDb(trx).insertReviews(
          previous.map((review) => ({
            metadata_id: id,
            expert_id: review.expert_id,
            round,
            status: 'invited',
            content: '',
            signed: 0,
            after_modification: 1,
            deadline: new Date(Date.now() + 14 * DAY).toISOString().slice(0, 10),
            message: review.message,
            invited_by: user.id,
            created_at: now,
            opened_at: null,
            answered_at: null,
            reminded_at: null,
          })),
        );
        await this.move(trx, received, 'invited', { review_round: round });
        await this.log(trx, received, user, role, 'invite', 'invited', '');
      }
    });
    for (const review of invited) await this.mail.mailInvitation(review, record);
    if (action !== 'receive' && action !== 'pre_review') await this.mail.mailDecision(record, action, content);
    return this.queries.state(user, id);
  }

  /** POST invite-experts: one review row per expert, each mailed in their language. */
  async invite(user: AuthenticatedUser, input: InviteExperts): Promise<ReviewState> {
    const { record, roles } = await this.queries.recordFor(user, input.metadata);
    const { to, role } = this.guard(record, 'invite', roles);
    if (record.topic_review_status === 'waiting' && !input.reason) throw new AppError('CONFLICT', 'review.leaderFirst');
    if (input.deadline < new Date().toISOString().slice(0, 10)) throw fieldError('deadline', 'review.validation.deadlinePast');
    const ids = [...new Set(input.experts)];
    const users = await this.repo.activeUsers(ids);
    if (users.length !== ids.length) throw fieldError('experts', 'review.validation.unknownExpert');
    if (ids.includes(record.owner_id)) throw fieldError('experts', 'review.validation.expertIsCreator');
    // A record taken in again after it went back (round N, nobody to go back to): a new round.
    const round = record.status === 'receive' ? Number(record.review_round) + 1 : Math.max(1, Number(record.review_round));
    const already = await this.repo.reviewsOfRound(record.id, round);
    const asked = (expert: string) => already.find((r) => r.expert_id === expert);
    if (ids.some((expert) => asked(expert)?.status === 'declined')) throw fieldError('experts', 'review.validation.declinedThisRound');
    if (ids.some((expert) => asked(expert))) throw fieldError('experts', 'review.validation.alreadyInvited');
    const now = new Date().toISOString();
    let rows: ReviewRow[] = [];
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to, { review_round: round });
      rows = await this.repo.withDb(trx).insertReviews(
        ids.map((expert) => ({
          metadata_id: record.id,
          expert_id: expert,
          round,
          status: 'invited',
          content: '',
          signed: 0,
          after_modification: round > 1 ? 1 : 0,
          deadline: input.deadline,
          message: input.message,
          invited_by: user.id,
          created_at: now,
          opened_at: null,
          answered_at: null,
          reminded_at: null,
        })),
      );
      const comment = record.topic_review_status === 'waiting' ? input.reason : input.message;
      await this.log(trx, record, user, role, 'invite', to, comment);
    });
    for (const review of rows) await this.mail.mailInvitation(review, record);
    return this.queries.state(user, record.id);
  }

  // ---- Project leaders ----

  async topicReview(user: AuthenticatedUser, metadataId: string, body: { review_status: 'pass' | 'no_pass'; content: string }): Promise<ReviewState> {
    const { record, roles } = await this.queries.recordFor(user, metadataId);
    const action: ReviewAction = body.review_status === 'pass' ? 'topic_pass' : 'topic_no_pass';
    const { to, role } = this.guard(record, action, roles);
    if (record.topic_review_status !== 'waiting') throw new AppError('CONFLICT', 'review.topicNotWaiting');
    if (action === 'topic_no_pass' && !body.content) throw fieldError('content', 'review.validation.commentRequired');
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to, { topic_review_status: body.review_status });
      await this.log(trx, record, user, role, action, to, body.content);
    });
    await this.mail.mailDecision(record, action, body.content);
    return this.queries.stateAfter(user, metadataId);
  }

  // ---- Experts ----

  /** GET review/{id}: the expert opening it moves the record to under review (the first time). */
  async open(user: AuthenticatedUser, reviewId: string): Promise<Review> {
    const { review, record, mine } = await this.queries.ownReview(user, reviewId);
    const current = Number(review.round) === Number(record.review_round) && review.status !== 'declined';
    if (mine && current && checkTransition(record.status, 'open', ['expert']).ok && review.status === 'invited') {
      const { to } = this.guard(record, 'open', ['expert']);
      await this.db.transaction().execute(async (trx) => {
        if (to !== record.status) await this.move(trx, record, to);
        const opened = await this.repo.withDb(trx).updateReview(review.id, { status: 'opened', opened_at: new Date().toISOString() }, ['invited']);
        if (opened) await this.log(trx, record, user, 'expert', 'open', to, '', review.id);
      });
    }
    return this.queries.reviewView(user, reviewId);
  }

  async answer(user: AuthenticatedUser, reviewId: string, body: { review_status: (typeof EXPERT_OUTCOMES)[number]; content: string; signed: boolean }): Promise<Review> {
    const { review, record, mine } = await this.queries.ownReview(user, reviewId);
    if (!mine) throw new AppError('FORBIDDEN', 'review.notYours');
    if (review.status === 'declined') throw new AppError('CONFLICT', 'review.declined');
    if (Number(review.round) !== Number(record.review_round)) throw new AppError('CONFLICT', 'review.oldRound');
    const { to } = this.guard(record, 'answer', ['expert']);
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to);
      await this.repo.withDb(trx).updateReview(review.id, {
        status: body.review_status,
        content: body.content,
        signed: body.signed ? 1 : 0,
        answered_at: now,
        opened_at: review.opened_at ?? now,
      });
      await this.log(trx, record, user, 'expert', 'answer', to, body.content, review.id);
    });
    return this.queries.reviewView(user, reviewId);
  }

  async decline(user: AuthenticatedUser, reviewId: string, content: string): Promise<Review> {
    const { review, record, mine } = await this.queries.ownReview(user, reviewId);
    if (!mine) throw new AppError('FORBIDDEN', 'review.notYours');
    if (Number(review.round) !== Number(record.review_round)) throw new AppError('CONFLICT', 'review.oldRound');
    if (review.status !== 'invited' && review.status !== 'opened') throw new AppError('CONFLICT', 'review.alreadyAnswered');
    const { to } = this.guard(record, 'decline', ['expert']);
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to);
      await this.repo.withDb(trx).updateReview(review.id, { status: 'declined', content });
      await this.log(trx, record, user, 'expert', 'decline', to, content, review.id);
    });
    return this.queries.reviewView(user, reviewId);
  }
}
