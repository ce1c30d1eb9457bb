import type { z } from 'zod';
import type {
  feedbackListSchema,
  reviewAnswerSchema,
  reviewDeskPageSchema,
  reviewHistorySchema,
  reviewPageSchema,
  reviewSchema,
  reviewSnapshotReplySchema,
  reviewStateSchema,
  setReviewStatusSchema,
  topicReviewSchema,
} from '@portal/shared/contracts/review';
import { api, request } from '../../api/client';
import { path } from '../../api/routes';
import { ok } from '../metadata/api';

/** The review calls of spec section 7 the personal centre makes; every shape inferred from the shared contracts. */

export type Review = z.infer<typeof reviewSchema>;
export type ReviewSnapshotReply = z.infer<typeof reviewSnapshotReplySchema>;
export type ReviewPage = z.infer<typeof reviewPageSchema>;
export type ReviewState = z.infer<typeof reviewStateSchema>;
export type DeskPage = z.infer<typeof reviewDeskPageSchema>;
export type DeskItem = DeskPage['results'][number];
export type FeedbackList = z.infer<typeof feedbackListSchema>;
export type History = z.infer<typeof reviewHistorySchema>;
export type ReviewAnswer = z.input<typeof reviewAnswerSchema>;
export type TopicAnswer = z.input<typeof topicReviewSchema>;
export type SetReviewStatus = z.input<typeof setReviewStatusSchema>;

export interface ListQuery {
  page: number;
  pageSize: number;
  search?: string;
}

const query = ({ search, ...paging }: ListQuery) => ({ ...paging, ...(search ? { search } : {}) });

export const reviewApi = {
  /** The expert's invitations waiting for an answer. */
  invited: async (q: ListQuery) => ok<ReviewPage>(await api.get(path('invitedReviews'), query(q))),
  /** The expert's answered or declined reviews. */
  history: async (q: ListQuery) => ok<ReviewPage>(await api.get(path('reviews'), query(q))),
  /** Opening a review: the first opening moves the record to "under review". */
  open: async (id: string) => ok<Review>(await api.get(path('review', { id }))),
  /** The record as submitted for the review's round and the round before (issue 16). */
  snapshot: async (id: string) => ok<ReviewSnapshotReply>(await api.get(path('reviewSnapshot', { id }))),
  answer: async (id: string, body: ReviewAnswer) => ok<Review>(await api.put(path('review', { id }), body)),
  decline: async (id: string, content: string) => ok<Review>(await api.postJson(path('declineReview', { id }), { content })),
  /** A project leader's queue (`reviewed`: the records they have reviewed). */
  topicQueue: async (q: ListQuery & { reviewed?: boolean }) => ok<DeskPage>(await api.get(path('topicReviews'), { ...query(q), ...(q.reviewed ? { reviewed: 'true' } : {}) })),
  topicReview: async (metadata: string, body: TopicAnswer) => ok<ReviewState>(await api.put(path('topicReview', { id: metadata }), body)),
  /** The data centre's desk, by status. */
  desk: async ({ status, preReview, ...q }: ListQuery & { status?: string; preReview?: boolean }) =>
    ok<DeskPage>(await api.get(path('reviewStates'), { ...query(q), ...(status ? { status } : {}), ...(preReview === undefined ? {} : { is_pre_review: String(preReview) }) })),
  /** A record's review state for the caller: label, roles, allowed actions. */
  state: async (metadata: string) => ok<ReviewState>(await api.get(path('reviewState', { id: metadata }))),
  trail: async (metadata: string) => ok<History>(await api.get(path('reviewTrail', { id: metadata }))),
  setStatus: async (metadata: string, body: SetReviewStatus) => ok<ReviewState>(await request('PATCH', path('setReviewStatus', { id: metadata }), { json: body })),
  /** The comments the record's creator may read (experts unnamed unless they signed). */
  feedback: async (metadata: string) => ok<FeedbackList>(await api.get(path('reviewFeedback'), { metadata__id: metadata })),
};

export const reviewKeys = {
  all: ['review'] as const,
  invited: (q: ListQuery) => ['review', 'invited', q] as const,
  history: (q: ListQuery) => ['review', 'history', q] as const,
  review: (id: string) => ['review', 'one', id] as const,
  snapshot: (id: string) => ['review', 'snapshot', id] as const,
  topic: (q: ListQuery & { reviewed?: boolean }) => ['review', 'topic', q] as const,
  desk: (q: ListQuery & { status?: string; preReview?: boolean }) => ['review', 'desk', q] as const,
  state: (metadata: string) => ['review', 'state', metadata] as const,
  trail: (metadata: string) => ['review', 'trail', metadata] as const,
  feedback: (metadata: string) => ['review', 'feedback', metadata] as const,
};
