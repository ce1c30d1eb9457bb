import {
  EXPERT_OUTCOMES,
  allowedActions,
  checkTransition,
  expertReviewLabel,
  recordReviewLabel,
  type Feedback,
  type Review,
  type ReviewDeskItem,
  type ReviewEvent,
  type ReviewRole,
  type ReviewState,
} from '@portal/shared';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { expertMayRead, invitationStands, reviewRoles, type MetadataAccess, type MetadataRow, type RecordAction } from '../metadata/index.js';
import type { MetadataService } from '../metadata/index.js';
import type { ReviewSnapshots } from './review-snapshots.js';
import type { DeskFilter, ReviewListRow, ReviewRepo, ReviewRow } from './review.repo.js';

export type Slice = { offset: number; limit: number };

/** Trail comments only staff read: the invitation's message (or reason) and an expert's reason to decline. */
const BLIND_COMMENTS: readonly string[] = ['invite', 'decline'];

/**
 * What the review workflow shows, to whom: a record's review state, its reviews and trail, the
 * creator's feedback, the experts' lists and the desks. Single-blind: the creator reads the experts'
 * answers without the names of those who did not sign.
 */
export class ReviewQueries {
  constructor(
    private readonly repo: ReviewRepo,
    private readonly access: MetadataAccess,
    private readonly metadata: MetadataService,
    private readonly snapshots: ReviewSnapshots,
  ) {}

  // ---- Roles ----

  async rolesOf(user: AuthenticatedUser, record: MetadataRow): Promise<ReviewRole[]> {
    return reviewRoles(user, record, await this.access.reviewerFacts(user, record));
  }

  /**
   * The record for a workflow step, when the record policy lets the caller do `action` (read: unknown
   * or hidden is 404, no existence leak). Hidden as for every other call: a relation alone does not
   * show it (an expert once the record left the experts, a leader while it is a draft), or a refusal
   * would tell its status.
   */
  async recordFor(user: AuthenticatedUser, id: string, action: Extract<RecordAction, 'read' | 'readReviews'> = 'read'): Promise<{ record: MetadataRow; roles: ReviewRole[] }> {
    const record = await this.access.authorized(user, action, id);
    return { record, roles: await this.rolesOf(user, record) };
  }

  /** An expert's review row, checked to be theirs; staff read any; others learn nothing. */
  async ownReview(user: AuthenticatedUser, reviewId: string): Promise<{ review: ReviewRow; record: MetadataRow; mine: boolean }> {
    const review = await this.repo.find(reviewId);
    if (!review) throw new AppError('NOT_FOUND', 'errors.notFound');
    const mine = review.expert_id === user.id;
    if (!mine && !user.is_staff) throw new AppError('NOT_FOUND', 'errors.notFound');
    const record = (await this.access.find(review.metadata_id))!;
    return { review, record, mine };
  }

  // ---- Reviews ----

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

  /** Whether the expert of a review may still read the record it is about (the record policy's rule for experts). */
  private expertStillSees(row: Pick<ReviewListRow, 'status' | 'round' | 'record_round' | 'record_status'>): boolean {
    return expertMayRead(row, { status: row.record_status, review_round: row.record_round });
  }

  private present(row: ReviewListRow, user: AuthenticatedUser, blind = false): Review {
    const hidden = blind && !row.signed;
    // An ex-expert (declined, an older round, the record back in draft or refused) keeps their own
    // review and where the record stands (why they cannot answer), not what its creator writes now.
    const recordHidden = !user.is_staff && row.expert_id === user.id && !this.expertStillSees(row);
    const canAnswer = row.expert_id === user.id && invitationStands(row, { review_round: row.record_round }) && checkTransition(row.record_status, 'answer', ['expert']).ok;
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
    const { record, roles } = await this.recordFor(user, metadataId, 'readReviews');
    const { rows } = await this.repo.page({ metadataId: record.id }, 0, 1000);
    const blind = !roles.includes('staff');
    const results = rows.filter((row) => !blind || row.answered_at).map((row) => this.present(row, user, blind));
    return { count: results.length, results };
  }

  /** The pre-review (`?review_status=1`): whether the formal check is done, and its trail. */
  async preReview(user: AuthenticatedUser, metadataId: string) {
    const { record, roles } = await this.recordFor(user, metadataId, 'readReviews');
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
  async stateAfter(user: AuthenticatedUser, metadataId: string): Promise<ReviewState> {
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
    const { record, roles } = await this.recordFor(user, metadataId, 'readReviews');
    return this.feedbackOf(record, roles.includes('staff'));
  }

  async feedbackOf(record: MetadataRow, staff: boolean): Promise<{ count: number; results: Feedback[] }> {
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

  // ---- Desks ----

  /** The data centre's desk (staff) and the leaders' list: records with their review facts. */
  async desk(user: AuthenticatedUser, filter: DeskFilter, slice: Slice): Promise<{ count: number; results: ReviewDeskItem[] }> {
    const { count, rows } = await this.repo.desk(filter, slice.offset, slice.limit);
    const ids = rows.map((row) => row.id);
    const outcomes = await this.repo.currentOutcomes(ids);
    const funds = await this.metadata.fundIds(ids);
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
    const rows = await this.repo.labelFacts(ids);
    return new Map(rows.map((row) => [row.id, recordReviewLabel({ ...row, outcomes: outcomes.get(row.id) ?? [] })]));
  }
}
