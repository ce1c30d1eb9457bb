import {
  checkTransition,
  DECISIONS_NEEDING_COMMENT,
  EXPERT_OUTCOMES,
  allowedActions,
  embargoUntil,
  expertReviewLabel,
  recordReviewLabel,
  translate,
  type Feedback,
  type InviteExperts,
  type Language,
  type Review,
  type ReviewAction,
  type ReviewDeskItem,
  type ReviewEvent,
  type ReviewRole,
  type ReviewState,
  type SetReviewStatus,
  type SiteVariant,
  type SubmissionReason,
} from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthenticatedUser } from '../account/account.service.js';
import { canonicalUrl, landingPath } from '../../plugins/site-pages.js';
import { EXPERT_VISIBLE_STATUSES, type MetadataAccess, type MetadataRow } from '../metadata/metadata-access.js';
import type { MetadataService, PresentedRecord } from '../metadata/metadata.service.js';
import { ReviewRepo, type DeskFilter, type ReviewListRow, type ReviewRow } from './review.repo.js';
import { ReviewSnapshots } from './review-snapshots.js';

export interface ReviewServiceOptions {
  publicUrl: string;
  siteVariant: SiteVariant;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

type Recipient = { email: string; realname: string; username: string; language: string };
type Slice = { offset: number; limit: number };

/** Decisions that publish the record: their mail links to its public landing page, not to the editor. */
const PUBLISHING: readonly ReviewAction[] = ['publish', 'publish_without_review'];

/** Trail comments only staff read: the invitation's message (or reason) and an expert's reason to decline. */
const BLIND_COMMENTS: readonly string[] = ['invite', 'decline'];

const asLanguage = (value: string): Language => (value === 'en' ? 'en' : 'zh-hans');
const DAY = 86_400_000;

/**
 * The review workflow: every step goes through `checkTransition` (the shared table), moves the
 * record's status only from the status it was read in (two decisions at once: one wins, the other
 * gets 409), and is written to the audit trail in the same transaction. Mails go out after commit.
 */
export class ReviewService {
  readonly repo: ReviewRepo;
  readonly snapshots: ReviewSnapshots;

  constructor(
    private readonly db: Db,
    private readonly access: MetadataAccess,
    private readonly metadata: MetadataService,
    private readonly mailer: Mailer,
    private readonly options: ReviewServiceOptions,
  ) {
    this.repo = new ReviewRepo(db);
    this.snapshots = new ReviewSnapshots(db, access, metadata);
  }

  // ---- Roles and the table ----

  async rolesOf(user: AuthenticatedUser, record: MetadataRow): Promise<ReviewRole[]> {
    const roles: ReviewRole[] = [];
    if (record.owner_id === user.id) roles.push('creator');
    if (user.is_staff) roles.push('staff');
    roles.push(...(await this.access.reviewerRoles(user, record)));
    return roles;
  }

  /**
   * The record for a workflow step: unknown or hidden is 404 (no existence leak). Hidden as for every
   * other call: a relation alone does not show it (an expert once the record left the experts, a
   * leader while it is a draft), or a refusal would tell its status.
   */
  private async recordFor(user: AuthenticatedUser, id: string): Promise<{ record: MetadataRow; roles: ReviewRole[] }> {
    const record = await this.access.readable(user, id);
    return { record, roles: await this.rolesOf(user, record) };
  }

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
  private async move(trx: Db, record: MetadataRow, to: string, values: Record<string, unknown> = {}): Promise<void> {
    const result = await trx
      .updateTable('metadata')
      .set({ ...values, status: to, updated_at: new Date().toISOString() })
      .where('id', '=', record.id)
      .where('status', '=', record.status)
      .where('review_round', '=', record.review_round)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new AppError('CONFLICT', 'review.changedMeanwhile');
    // Published, unpublished or republished: the public catalogue follows in this transaction.
    if (record.status === 'published' || to === 'published') await this.access.changed(trx, [record.id]);
  }

  private log(trx: Db, record: MetadataRow, user: AuthenticatedUser, role: ReviewRole, action: ReviewAction, to: string, comment = '', reviewId: string | null = null) {
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
    const roles = await this.rolesOf(user, record);
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
    await this.mailStaff('submitted', record);
    const moved = await this.access.find(id);
    return { problems, record: (await this.metadata.present([moved!]))[0] };
  }

  /** Return to Draft by the creator, until an expert has opened the review. */
  async returnToDraft(user: AuthenticatedUser, id: string): Promise<void> {
    const record = await this.access.owned(user, id);
    const roles = await this.rolesOf(user, record);
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
    const { record, roles } = await this.recordFor(user, id);
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
    const values: Record<string, unknown> = {};
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
    for (const review of invited) await this.mailInvitation(review, record);
    if (action !== 'receive' && action !== 'pre_review') await this.mailDecision(record, action, content);
    return this.state(user, id);
  }

  /** POST invite-experts: one review row per expert, each mailed in their language. */
  async invite(user: AuthenticatedUser, input: InviteExperts): Promise<ReviewState> {
    const { record, roles } = await this.recordFor(user, input.metadata);
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
    for (const review of rows) await this.mailInvitation(review, record);
    return this.state(user, record.id);
  }

  // ---- Project leaders ----

  async topicReview(user: AuthenticatedUser, metadataId: string, body: { review_status: 'pass' | 'no_pass'; content: string }): Promise<ReviewState> {
    const { record, roles } = await this.recordFor(user, metadataId);
    const action: ReviewAction = body.review_status === 'pass' ? 'topic_pass' : 'topic_no_pass';
    const { to, role } = this.guard(record, action, roles);
    if (record.topic_review_status !== 'waiting') throw new AppError('CONFLICT', 'review.topicNotWaiting');
    if (action === 'topic_no_pass' && !body.content) throw fieldError('content', 'review.validation.commentRequired');
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to, { topic_review_status: body.review_status });
      await this.log(trx, record, user, role, action, to, body.content);
    });
    await this.mailDecision(record, action, body.content);
    return this.stateAfter(user, metadataId);
  }

  // ---- Experts ----

  /** An expert's review row, checked to be theirs; staff read any; others learn nothing. */
  private async ownReview(user: AuthenticatedUser, reviewId: string): Promise<{ review: ReviewRow; record: MetadataRow; mine: boolean }> {
    const review = await this.repo.find(reviewId);
    if (!review) throw new AppError('NOT_FOUND', 'errors.notFound');
    const mine = review.expert_id === user.id;
    if (!mine && !user.is_staff) throw new AppError('NOT_FOUND', 'errors.notFound');
    const record = (await this.access.find(review.metadata_id))!;
    return { review, record, mine };
  }

  /** GET review/{id}: the expert opening it moves the record to under review (the first time). */
  async open(user: AuthenticatedUser, reviewId: string): Promise<Review> {
    const { review, record, mine } = await this.ownReview(user, reviewId);
    const current = Number(review.round) === Number(record.review_round) && review.status !== 'declined';
    if (mine && current && checkTransition(record.status, 'open', ['expert']).ok && review.status === 'invited') {
      const { to } = this.guard(record, 'open', ['expert']);
      await this.db.transaction().execute(async (trx) => {
        if (to !== record.status) await this.move(trx, record, to);
        const opened = await this.repo.withDb(trx).updateReview(review.id, { status: 'opened', opened_at: new Date().toISOString() }, ['invited']);
        if (opened) await this.log(trx, record, user, 'expert', 'open', to, '', review.id);
      });
    }
    return this.reviewView(user, reviewId);
  }

  async answer(user: AuthenticatedUser, reviewId: string, body: { review_status: (typeof EXPERT_OUTCOMES)[number]; content: string; signed: boolean }): Promise<Review> {
    const { review, record, mine } = await this.ownReview(user, reviewId);
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
    return this.reviewView(user, reviewId);
  }

  /**
   * GET review/{id}/snapshot/: the record as submitted for the review's round, and for the round
   * before. For staff, and for the review's expert while their invitation stands (as they read the
   * record itself: not declined, the current round, the record with the experts or published).
   */
  async snapshot(user: AuthenticatedUser, reviewId: string) {
    const { review, record } = await this.ownReview(user, reviewId);
    const stands = this.expertStillSees({ status: review.status, round: review.round, record_round: record.review_round, record_status: record.status });
    if (!user.is_staff && !stands) throw new AppError('NOT_FOUND', 'errors.notFound');
    const round = Number(review.round);
    return { round, ...(await this.snapshots.ofRound(record.id, round)) };
  }

  async decline(user: AuthenticatedUser, reviewId: string, content: string): Promise<Review> {
    const { review, record, mine } = await this.ownReview(user, reviewId);
    if (!mine) throw new AppError('FORBIDDEN', 'review.notYours');
    if (Number(review.round) !== Number(record.review_round)) throw new AppError('CONFLICT', 'review.oldRound');
    if (review.status !== 'invited' && review.status !== 'opened') throw new AppError('CONFLICT', 'review.alreadyAnswered');
    const { to } = this.guard(record, 'decline', ['expert']);
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, record, to);
      await this.repo.withDb(trx).updateReview(review.id, { status: 'declined', content });
      await this.log(trx, record, user, 'expert', 'decline', to, content, review.id);
    });
    return this.reviewView(user, reviewId);
  }

  // ---- Views ----

  /**
   * Whether the expert of a review may still read the record it is about: while their invitation of
   * the current round stands and the record is with the experts (as MetadataAccess.reviewerMaySee),
   * or once it is published (everybody may).
   */
  private expertStillSees(row: Pick<ReviewListRow, 'status' | 'round' | 'record_round' | 'record_status'>): boolean {
    if (row.record_status === 'published') return true;
    return (
      row.status !== 'declined' &&
      Number(row.round) === Number(row.record_round) &&
      (EXPERT_VISIBLE_STATUSES as readonly string[]).includes(row.record_status)
    );
  }

  private present(row: ReviewListRow, user: AuthenticatedUser, blind = false): Review {
    const hidden = blind && !row.signed;
    // An ex-expert (declined, an older round, the record back in draft or refused) keeps their own
    // review and where the record stands (why they cannot answer), not what its creator writes now.
    const recordHidden = !user.is_staff && row.expert_id === user.id && !this.expertStillSees(row);
    const canAnswer =
      row.expert_id === user.id &&
      row.status !== 'declined' &&
      Number(row.round) === Number(row.record_round) &&
      checkTransition(row.record_status, 'answer', ['expert']).ok;
    return {
      id: row.id,
      metadata: row.metadata_id,
      expert: hidden ? '' : row.expert_id,
      expert_name: hidden ? '' : row.expert_name,
      round: Number(row.round),
      review_status: row.status as Review['review_status'],
      label: expertReviewLabel(row.status),
      content: row.content,
      signed: row.signed === 1,
      after_modification: row.after_modification === 1,
      deadline: row.deadline,
      message: blind ? '' : row.message,
      created_at: row.created_at,
      opened_at: row.opened_at,
      answered_at: row.answered_at,
      record: {
        id: row.metadata_id,
        title: recordHidden ? '' : row.record_title,
        translation_title: recordHidden ? '' : (row.record_translation_title ?? ''),
        language: row.record_language,
        status: row.record_status,
        submitted_at: row.record_submitted_at,
        owner_name: row.owner_name,
      },
      can_answer: canAnswer,
    };
  }

  async reviewView(user: AuthenticatedUser, reviewId: string): Promise<Review> {
    const { rows } = await this.repo.page({ reviewId }, 0, 1);
    if (!rows[0]) throw new AppError('NOT_FOUND', 'errors.notFound');
    return this.present(rows[0], user);
  }

  /** Reviews of the caller as an expert: `pending` the invitations that wait, else every one (history). */
  async myReviews(user: AuthenticatedUser, filter: { pending?: boolean; answered?: boolean; search?: string }, slice: Slice) {
    const states = filter.pending ? ['invited', 'opened'] : filter.answered ? [...EXPERT_OUTCOMES, 'declined'] : undefined;
    const { count, rows } = await this.repo.page(
      // Pending: invitations that stand, of records with the experts now (not one sent back to draft meanwhile).
      { expertId: user.id, states, search: filter.search, currentRoundOnly: filter.pending, recordStatuses: filter.pending ? ['invited', 'underReview'] : undefined },
      slice.offset,
      slice.limit,
    );
    return { count, results: rows.map((row) => this.present(row, user)) };
  }

  /** The reviews of a record: staff see every one with names; its creator sees them blind. */
  async recordReviews(user: AuthenticatedUser, metadataId: string): Promise<{ count: number; results: Review[] }> {
    const { record, roles } = await this.recordFor(user, metadataId);
    if (!roles.includes('staff') && !roles.includes('creator')) throw new AppError('FORBIDDEN', 'review.wrongRole');
    const { rows } = await this.repo.page({ metadataId: record.id }, 0, 1000);
    const blind = !roles.includes('staff');
    const results = rows.filter((row) => !blind || row.answered_at).map((row) => this.present(row, user, blind));
    return { count: results.length, results };
  }

  /** The pre-review (`?review_status=1`): whether the formal check is done, and its trail. */
  async preReview(user: AuthenticatedUser, metadataId: string) {
    const { record, roles } = await this.recordFor(user, metadataId);
    if (!roles.includes('staff') && !roles.includes('creator')) throw new AppError('FORBIDDEN', 'review.wrongRole');
    const events = await this.events(record, roles, ['pre_review']);
    return { is_pre_review: record.is_pre_review === 1, events };
  }

  private async events(record: MetadataRow, roles: ReviewRole[], actions?: string[]): Promise<ReviewEvent[]> {
    const staff = roles.includes('staff');
    const rows = await this.repo.events(record.id, actions);
    return rows.map((row) => ({
      id: row.id,
      action: row.action as ReviewEvent['action'],
      role: row.role as ReviewEvent['role'],
      from_status: row.from_status,
      to_status: row.to_status,
      // Single-blind: the invitation's message usually names the experts, a decline's reason is the
      // expert's own words: neither reaches the creator (the answers do, through reviews-feedback too).
      comment: staff || !BLIND_COMMENTS.includes(row.action) ? row.comment : '',
      // Single-blind: the creator does not learn an expert's name unless the expert signed.
      actor_name: staff || row.role !== 'expert' || row.signed === 1 ? row.actor_name : '',
      created_at: row.created_at,
    }));
  }

  /** The review state of a record for the caller: label, allowed actions, reviews and trail as they may see them. */
  async state(user: AuthenticatedUser, metadataId: string): Promise<ReviewState> {
    const { record, roles } = await this.recordFor(user, metadataId);
    return this.stateOf(user, record, roles);
  }

  /** The state after the caller's own step, which may have taken the record out of their sight (a leader's "no pass"). */
  private async stateAfter(user: AuthenticatedUser, metadataId: string): Promise<ReviewState> {
    const record = (await this.access.find(metadataId))!;
    return this.stateOf(user, record, await this.rolesOf(user, record));
  }

  private async stateOf(user: AuthenticatedUser, record: MetadataRow, roles: ReviewRole[]): Promise<ReviewState> {
    const staff = roles.includes('staff');
    const creator = roles.includes('creator');
    const outcomes = (await this.repo.currentOutcomes([record.id])).get(record.id) ?? [];
    let reviews: Review[] = [];
    if (staff) reviews = (await this.repo.page({ metadataId: record.id }, 0, 1000)).rows.map((row) => this.present(row, user));
    else if (roles.includes('expert')) reviews = (await this.repo.page({ metadataId: record.id, expertId: user.id }, 0, 100)).rows.map((row) => this.present(row, user));
    else if (creator) reviews = (await this.repo.page({ metadataId: record.id }, 0, 1000)).rows.filter((row) => row.answered_at).map((row) => this.present(row, user, true));
    return {
      id: record.id,
      status: record.status,
      label: recordReviewLabel({ ...record, outcomes }),
      topic_review_status: record.topic_review_status,
      is_pre_review: record.is_pre_review === 1,
      review_round: Number(record.review_round),
      published_at: record.published_at,
      embargo_until: record.embargo_until,
      published_without_review: record.published_without_review === 1,
      unpublish_reason: record.unpublish_reason,
      roles,
      actions: allowedActions(record.status, roles).filter((action) => roles.includes('expert') || !['open', 'answer', 'decline'].includes(action)),
      reviews,
      events: staff || creator ? await this.events(record, roles) : [],
    };
  }

  /** The comments the creator may read (reviews-feedback): expert answers blind, leaders' and staff comments. */
  async feedback(user: AuthenticatedUser, metadataId: string): Promise<{ count: number; results: Feedback[] }> {
    const { record, roles } = await this.recordFor(user, metadataId);
    if (!roles.includes('staff') && !roles.includes('creator')) throw new AppError('FORBIDDEN', 'review.wrongRole');
    return this.feedbackOf(record, roles.includes('staff'));
  }

  private async feedbackOf(record: MetadataRow, staff: boolean): Promise<{ count: number; results: Feedback[] }> {
    const events = await this.repo.events(record.id, ['answer', 'topic_pass', 'topic_no_pass', 'return', 'refuse', 'unpublish', 'cancel', 'approve', 'publish']);
    // An expert's latest answer of each round counts; earlier edits of it are not comments.
    const reviews = new Map((await this.repo.page({ metadataId: record.id }, 0, 1000)).rows.map((row) => [row.id, row]));
    const latest = new Map<string, string>();
    for (const event of events) if (event.action === 'answer' && event.review_id) latest.set(event.review_id, event.id);
    const results: Feedback[] = events
      .filter((event) => event.comment && (event.action !== 'answer' || latest.get(event.review_id ?? '') === event.id))
      .map((event) => {
        const review = event.review_id ? reviews.get(event.review_id) : undefined;
        const source = event.role === 'expert' ? 'expert' : event.role === 'leader' ? 'leader' : 'staff';
        return {
          id: event.id,
          source,
          round: review ? Number(review.round) : Number(record.review_round),
          action: event.action,
          review_status: review?.status ?? '',
          content: event.comment,
          author_name: source === 'expert' && !staff && review?.signed !== 1 ? '' : source === 'staff' && !staff ? '' : event.actor_name,
          created_at: event.created_at,
        };
      });
    return { count: results.length, results };
  }

  /** Sends the creator the comments they may read, in their language. */
  async mailFeedback(user: AuthenticatedUser, metadataId: string): Promise<void> {
    const { record, roles } = await this.recordFor(user, metadataId);
    if (!roles.includes('staff')) throw new AppError('FORBIDDEN', 'review.wrongRole');
    const owner = await this.repo.user(record.owner_id);
    if (!owner) return;
    const language = asLanguage(owner.language);
    const { results } = await this.feedbackOf(record, false);
    await this.send(owner, 'feedback', { title: record.title, comments: this.commentLines(language, results), link: this.recordLink(language, record.id) });
  }

  /** The data centre's desk (staff) and the leaders' list: records with their review facts. */
  async desk(user: AuthenticatedUser, filter: DeskFilter, slice: Slice): Promise<{ count: number; results: ReviewDeskItem[] }> {
    const { count, rows } = await this.repo.desk(filter, slice.offset, slice.limit);
    const ids = rows.map((row) => row.id);
    const outcomes = await this.repo.currentOutcomes(ids);
    const funds = await this.metadata.repo.fundIds(ids);
    return {
      count,
      results: rows.map((row) => {
        const label = recordReviewLabel({ ...row, outcomes: outcomes.get(row.id) ?? [] });
        return {
          id: row.id,
          title: row.title,
          translation_title: row.translation_title ?? '',
          language: row.language,
          status: row.status,
          // A leader's own queue reads "project leader not reviewed" where the creator reads "waiting for the leader".
          label: filter.leaderId && label === 'waitingLeader' ? 'leaderNotReviewed' : label,
          topic_review_status: row.topic_review_status,
          is_pre_review: row.is_pre_review === 1,
          review_round: Number(row.review_round),
          submitting_type: row.submitting_type,
          fund: funds.get(row.id) ?? [],
          owner_name: row.owner_name,
          submitted_at: row.submitted_at,
          updated_at: row.updated_at,
          experts_invited: Number(row.experts_invited ?? 0),
          experts_answered: Number(row.experts_answered ?? 0),
        };
      }),
    };
  }

  /** Labels of the caller's own records for the "in review" list. */
  async labels(ids: string[]): Promise<Map<string, string | null>> {
    const outcomes = await this.repo.currentOutcomes(ids);
    const rows = ids.length
      ? await this.db.selectFrom('metadata').select(['id', 'status', 'topic_review_status', 'published_without_review']).where('id', 'in', ids).execute()
      : [];
    return new Map(rows.map((row) => [row.id, recordReviewLabel({ ...row, outcomes: outcomes.get(row.id) ?? [] })]));
  }

  // ---- Mail ----

  private recordLink(language: Language, id: string) {
    return `${this.options.publicUrl}${language === 'en' ? '/en' : ''}/personal/#/metadata/edit/${id}`;
  }

  private commentLines(language: Language, feedback: Feedback[]): string {
    if (!feedback.length) return translate(language, 'review.mail.noComments');
    return feedback
      .map((item) => {
        const source = translate(language, `review.source.${item.source}`);
        // An expert who signed (or a project leader) is named, as the creator's own view names them.
        const who = item.author_name ? translate(language, 'review.mail.namedSource', { source, name: item.author_name }) : source;
        const outcome = item.review_status ? ` (${translate(language, `review.labels.${expertReviewLabel(item.review_status)}`)})` : '';
        return `- ${who}${outcome}: ${item.content}`;
      })
      .join('\n');
  }

  private async send(to: Recipient, kind: string, params: Record<string, string | number>) {
    const language = asLanguage(to.language);
    const site = translate(language, `site.${this.options.siteVariant}.title`);
    const all = { ...params, site, name: to.realname || to.username };
    try {
      await this.mailer.send({
        to: to.email,
        subject: translate(language, `review.mail.${kind}Subject`, all),
        text: translate(language, `review.mail.${kind}Body`, all),
      });
    } catch (error) {
      // The step is taken and logged; a mail that could not go out is the operator's to see.
      this.options.log.error({ err: error, kind, to: to.email }, 'review mail not sent');
    }
  }

  private async mailStaff(kind: 'submitted', record: MetadataRow) {
    for (const staff of await this.repo.staffUsers()) {
      const language = asLanguage(staff.language);
      await this.send(staff, kind, { title: record.title, link: `${this.options.publicUrl}${language === 'en' ? '/en' : ''}/admin/review` });
    }
  }

  private async mailInvitation(review: ReviewRow, record: MetadataRow, kind: 'invitation' | 'reminder' = 'invitation') {
    const expert = await this.repo.user(review.expert_id);
    if (!expert) return;
    const language = asLanguage(expert.language);
    const link = `${this.options.publicUrl}${language === 'en' ? '/en' : ''}/personal/#/review/advice/${review.id}`;
    await this.send(expert, kind, { title: record.title, deadline: review.deadline, message: review.message, link });
  }

  private async mailDecision(record: MetadataRow, action: ReviewAction, comment: string) {
    const owner = await this.repo.user(record.owner_id);
    if (!owner) return;
    const language = asLanguage(owner.language);
    const fresh = (await this.access.find(record.id)) ?? record;
    const { results } = await this.feedbackOf(fresh, false);
    const published = PUBLISHING.includes(action);
    await this.send(owner, published ? 'published' : 'decision', {
      title: record.title,
      decision: translate(language, `review.actions.${action}`),
      comment: comment || translate(language, 'review.mail.noComment'),
      comments: this.commentLines(language, results),
      link: published ? canonicalUrl(this.options.publicUrl, language, landingPath(record.id)) : this.recordLink(language, record.id),
    });
  }

  /** The periodic reminder: experts past their deadline who have not answered get one reminder. */
  async remindOverdue(): Promise<number> {
    const today = new Date().toISOString().slice(0, 10);
    let sent = 0;
    for (const review of await this.repo.overdue(today, 200)) {
      const claimed = await this.repo.claimReminder(review.id);
      if (!claimed) continue;
      const record = await this.access.find(review.metadata_id);
      if (record) await this.mailInvitation(review, record, 'reminder');
      sent += 1;
    }
    return sent;
  }
}
