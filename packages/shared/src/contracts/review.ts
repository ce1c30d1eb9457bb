import { z } from 'zod';
import {
  EXPERT_OUTCOMES,
  EXPERT_REVIEW_STATES,
  LEADER_OUTCOMES,
  REVIEW_ACTIONS,
  REVIEW_COMMENT_MAX,
  REVIEW_LABELS,
  REVIEW_ROLES,
  STAFF_DECISIONS,
} from '../rules/review-workflow.js';
import { METADATA_STATUSES } from '../domain/metadata.js';
import { citationSchema, mediaSchema, metadataRecordSchema, metaAuthorSchema, metaFundSchema, metaKeywordSchema, storedFileSchema } from './metadata-replies.js';
import { pageOf } from './page.js';

/**
 * Review calls of spec section 7: what they take and what they answer. The server validates
 * requests and serializes replies through these schemas (no internal field leaks); the web infers
 * its types from them. Messages are catalogue keys.
 */

const id = z.string({ error: 'review.validation.id' }).min(1, 'review.validation.id').max(100, 'review.validation.id');
const comment = z.string({ error: 'review.validation.comment' }).trim().max(REVIEW_COMMENT_MAX, 'review.validation.commentTooLong');
/** A form post sends 'true' / 'on' / '1'; JSON sends a boolean. */
const flag = z.preprocess(
  (v) => (v === 'true' || v === 'on' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === '' || v === 0 ? false : v),
  z.boolean({ error: 'review.validation.flag' }),
);

/** PATCH /api/metadata/review-status/{id}/set_review_status/ in its three shapes (spec section 4). */
export const setReviewStatusSchema = z.union(
  [
    z.object({ is_pre_review: z.literal(true, { error: 'review.validation.preReview' }) }).strict(),
    z
      .object({
        review_status: z.enum(STAFF_DECISIONS, { error: 'review.validation.decision' }),
        content: comment.optional(),
        /**
         * Ours, optional: the status the decider saw. Two staff deciding at once, each from the
         * status they saw: one wins, the other gets 409, even when the second decision would be
         * allowed from the status the first one left (approve, then return).
         */
        from_status: z.enum(METADATA_STATUSES, { error: 'review.validation.fromStatus' }).optional(),
      })
      .strict(),
  ],
  { error: 'review.validation.decision' },
);
export type SetReviewStatus = z.infer<typeof setReviewStatusSchema>;

/** PUT /api/metadata/topic-review/{metadata}/: a project leader's answer. */
export const topicReviewSchema = z.object({
  review_status: z.enum(LEADER_OUTCOMES, { error: 'review.validation.outcome' }),
  content: comment.default(''),
});

const isoDay = z
  .string({ error: 'review.validation.deadline' })
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, 'review.validation.deadline');

/** POST /metadata/invite-experts/. `reason`: staff inviting before the project leaders passed it. */
export const inviteExpertsSchema = z.object({
  metadata: id,
  experts: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z.array(id, { error: 'review.validation.experts' }).min(1, 'review.validation.experts').max(20, 'review.validation.tooManyExperts'),
  ),
  deadline: isoDay,
  message: comment.default(''),
  reason: comment.default(''),
});
export type InviteExperts = z.infer<typeof inviteExpertsSchema>;

/** PUT (or a form POST to) /api/metadata/review/{review}/: an expert's answer. */
export const reviewAnswerSchema = z.object({
  review_status: z.enum(EXPERT_OUTCOMES, { error: 'review.validation.outcome' }),
  content: comment.refine((v) => v.length > 0, 'review.validation.commentRequired'),
  /** Single-blind by default: the creator sees the expert's name only when the expert signs. */
  signed: flag.default(false),
});

/** POST /api/metadata/review/{review}/decline/ (ours): the expert declines the invitation. */
export const reviewDeclineSchema = z.object({ content: comment.default('') });

/** POST /metadata/reviews-feedbackemail: the comments the creator may see, sent to them. */
export const feedbackMailSchema = z.object({ metadata: id });

/** Lists of reviews: paging plus a search in the record's titles. */
export const reviewListFilters = { search: z.string().trim().max(200).optional() };

// ---- Replies ----

const nullableText = z.string().nullable();

export const reviewLabelSchema = z.enum(REVIEW_LABELS);

/** The record's facts a reviewer's list shows. */
export const reviewRecordSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The title of the record's version in its other language. */
  translation_title: z.string(),
  language: z.string(),
  status: z.string(),
  submitted_at: nullableText,
  owner_name: z.string(),
});

/** One expert's review as the expert and the data centre see it. */
export const reviewSchema = z.object({
  id: z.string(),
  metadata: z.string(),
  expert: z.string(),
  expert_name: z.string(),
  round: z.number(),
  review_status: z.enum(EXPERT_REVIEW_STATES),
  label: reviewLabelSchema,
  content: z.string(),
  signed: z.boolean(),
  after_modification: z.boolean(),
  deadline: z.string(),
  message: z.string(),
  created_at: z.string(),
  opened_at: nullableText,
  answered_at: nullableText,
  record: reviewRecordSummarySchema,
  /** Whether the expert may answer (or change the answer) now. */
  can_answer: z.boolean(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewPageSchema = pageOf(reviewSchema);

/** A comment the creator may read: experts are named only when they signed. */
export const feedbackSchema = z.object({
  id: z.string(),
  source: z.enum(['expert', 'leader', 'staff']),
  round: z.number(),
  action: z.string(),
  review_status: z.string(),
  content: z.string(),
  /** '' for an expert who did not sign (single-blind). */
  author_name: z.string(),
  created_at: z.string(),
});
export type Feedback = z.infer<typeof feedbackSchema>;
export const feedbackListSchema = z.object({ count: z.number(), results: z.array(feedbackSchema) });

/** One step of the audit trail. `actor_name` is '' where the caller may not know who (blind view). */
export const reviewEventSchema = z.object({
  id: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  role: z.enum(REVIEW_ROLES),
  from_status: z.string(),
  to_status: z.string(),
  comment: z.string(),
  actor_name: z.string(),
  created_at: z.string(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

/** GET /api/metadata/metadata/{id}/get_reviews: the record's reviews (blind for its creator). */
export const recordReviewsSchema = z.object({ count: z.number(), results: z.array(reviewSchema) });
/** The same with `?review_status=1`: the pre-review, and its steps of the trail. */
export const preReviewSchema = z.object({ is_pre_review: z.boolean(), events: z.array(reviewEventSchema) });
/** The review history of a record (`/api/metadata/review-status/{id}/history/`). */
export const reviewHistorySchema = z.object({ count: z.number(), results: z.array(reviewEventSchema) });
/** POST /metadata/reviews-feedbackemail. */
export const feedbackMailReplySchema = z.object({ status: z.literal('true'), msg: z.string() });

/** A record's review state for the caller: label, allowed actions, reviews, trail. */
export const reviewStateSchema = z.object({
  id: z.string(),
  status: z.string(),
  label: reviewLabelSchema.nullable(),
  topic_review_status: z.string(),
  is_pre_review: z.boolean(),
  review_round: z.number(),
  published_at: nullableText,
  embargo_until: nullableText,
  published_without_review: z.boolean(),
  unpublish_reason: z.string(),
  /** The caller's roles on this record and the actions the workflow allows them now. */
  roles: z.array(z.enum(REVIEW_ROLES)),
  actions: z.array(z.enum(REVIEW_ACTIONS)),
  reviews: z.array(reviewSchema),
  events: z.array(reviewEventSchema),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;

/** The data centre's desk and the leaders' list: records with their review facts. */
export const reviewDeskItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  translation_title: z.string(),
  language: z.string(),
  status: z.string(),
  label: reviewLabelSchema.nullable(),
  topic_review_status: z.string(),
  is_pre_review: z.boolean(),
  review_round: z.number(),
  submitting_type: z.string(),
  fund: z.array(z.string()),
  owner_name: z.string(),
  submitted_at: nullableText,
  updated_at: z.string(),
  experts_invited: z.number(),
  experts_answered: z.number(),
});
export type ReviewDeskItem = z.infer<typeof reviewDeskItemSchema>;
export const reviewDeskPageSchema = pageOf(reviewDeskItemSchema);

/** An expert candidate in the invitation search: no e-mail. */
export const expertCandidateSchema = z.object({
  id: z.string(),
  username: z.string(),
  realname: z.string(),
  affiliation: z.string(),
  specialty: z.string(),
});
export const expertCandidatePageSchema = pageOf(expertCandidateSchema);

/**
 * The record as its creator submitted it for a round of review, kept so that the round's experts
 * read what they were asked to judge and, from round 2, what changed since the last round. The
 * shapes are those of the record's own calls (a landing page draws them alike); nobody's e-mail,
 * phone or address is kept (authors' and funds' contacts are blank).
 */
export const recordSnapshotSchema = z.object({
  record: metadataRecordSchema,
  authors: z.array(metaAuthorSchema),
  keywords: z.array(metaKeywordSchema),
  literature: z.array(citationSchema),
  funds: z.array(metaFundSchema),
  thumbnail: mediaSchema.nullable(),
  files: z.array(storedFileSchema),
  documents: z.array(storedFileSchema),
});
export type RecordSnapshot = z.infer<typeof recordSnapshotSchema>;

const roundSnapshotSchema = z.object({ round: z.number(), taken_at: z.string(), snapshot: recordSnapshotSchema });
export type RoundSnapshot = z.infer<typeof roundSnapshotSchema>;

/**
 * GET /api/metadata/review/{review}/snapshot/ (ours): the record as submitted for the review's round
 * and for the round before (null where none was kept: the first round, or a round from before
 * snapshots were kept). For the review's expert while their invitation stands, and staff.
 */
export const reviewSnapshotReplySchema = z.object({
  round: z.number(),
  current: roundSnapshotSchema.nullable(),
  previous: roundSnapshotSchema.nullable(),
});
export type ReviewSnapshotReply = z.infer<typeof reviewSnapshotReplySchema>;
