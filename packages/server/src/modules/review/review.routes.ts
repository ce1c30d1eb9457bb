import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  feedbackListSchema,
  feedbackMailReplySchema,
  feedbackMailSchema,
  inviteExpertsSchema,
  preReviewSchema,
  recordReviewsSchema,
  reviewAnswerSchema,
  reviewDeclineSchema,
  reviewDeskPageSchema,
  reviewHistorySchema,
  reviewListFilters,
  reviewPageSchema,
  reviewSchema,
  reviewSnapshotReplySchema,
  reviewStateSchema,
  setReviewStatusSchema,
  topicReviewSchema,
} from '@portal/shared/contracts/review';
import { METADATA_STATUSES } from '@portal/shared';
import { pagingQuery, toPage } from '../../http/paging.js';
import type { ReviewService } from './review.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const metadataParams = z.object({ metadata: z.string().min(1).max(100) });
const statusValue = z.enum(METADATA_STATUSES, { error: 'metadata.validation.option' });
const statusList = z.union([statusValue, z.array(statusValue).max(METADATA_STATUSES.length)], { error: 'metadata.validation.option' }).optional();
const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const yesNo = z.enum(['true', 'false', '1', '0']).optional();
const isYes = (value: string | undefined) => value === 'true' || value === '1';

/** Review calls of spec section 7, each with its reply's schema. Thin: schema, access, one service call. */
export async function reviewRoutes(parent: FastifyInstance, { review }: { review: ReviewService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // -- Experts --
  app.get(
    '/api/metadata/invited-review/',
    { schema: { querystring: pagingQuery.extend(reviewListFilters), response: { 200: reviewPageSchema } }, config: { access: 'user' } },
    async (request) => {
      const { page, pageSize, search } = request.query;
      const { count, results } = await review.myReviews(request.user!, { pending: true, search }, { offset: (page - 1) * pageSize, limit: pageSize });
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  // History: the caller's answered (or declined) reviews.
  app.get(
    '/api/metadata/review/',
    { schema: { querystring: pagingQuery.extend(reviewListFilters), response: { 200: reviewPageSchema } }, config: { access: 'user' } },
    async (request) => {
      const { page, pageSize, search } = request.query;
      const { count, results } = await review.myReviews(request.user!, { answered: true, search }, { offset: (page - 1) * pageSize, limit: pageSize });
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  // Every review of the caller's, pending or not, searchable by title.
  app.get(
    '/api/metadata/my-review/',
    { schema: { querystring: pagingQuery.extend(reviewListFilters), response: { 200: reviewPageSchema } }, config: { access: 'user' } },
    async (request) => {
      const { page, pageSize, search } = request.query;
      const { count, results } = await review.myReviews(request.user!, { search }, { offset: (page - 1) * pageSize, limit: pageSize });
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  app.get('/api/metadata/review/:id/', { schema: { params: idParams, response: { 200: reviewSchema } }, config: { access: 'user' } }, async (request) =>
    review.open(request.user!, request.params.id),
  );

  // Ours (issue 16): the record as submitted for the review's round and the round before, for its diff.
  app.get('/api/metadata/review/:id/snapshot/', { schema: { params: idParams, response: { 200: reviewSnapshotReplySchema } }, config: { access: 'user' } }, async (request) =>
    review.snapshot(request.user!, request.params.id),
  );

  // The answer, as JSON (PUT) or as the spec's form post (POST).
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/api/metadata/review/:id/',
      schema: { params: idParams, body: reviewAnswerSchema, response: { 200: reviewSchema } },
      config: { access: 'user' },
      handler: async (request) => review.answer(request.user!, request.params.id, request.body),
    });
  }

  app.post(
    '/api/metadata/review/:id/decline/',
    // The reason is optional, and so is the body: a bare POST declines.
    { schema: { params: idParams, body: z.preprocess((body) => body ?? {}, reviewDeclineSchema), response: { 200: reviewSchema } }, config: { access: 'user' } },
    async (request) => review.decline(request.user!, request.params.id, request.body.content),
  );

  // -- Project leaders --
  app.get(
    '/api/metadata/topic-review/',
    {
      schema: { querystring: pagingQuery.extend({ ...reviewListFilters, reviewed: yesNo }), response: { 200: reviewDeskPageSchema } },
      config: { access: 'user' },
    },
    async (request) => {
      const { page, pageSize, search, reviewed } = request.query;
      const user = request.user!;
      const topicStates = isYes(reviewed) ? ['pass', 'no_pass'] : ['waiting'];
      const statuses = isYes(reviewed) ? undefined : ['submitted', 'receive'];
      const leaderId = user.is_project === 1 || user.is_project === 2 ? user.id : '__none__';
      const { count, results } = await review.desk(user, { leaderId, topicStates, statuses, search }, { offset: (page - 1) * pageSize, limit: pageSize });
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  app.put(
    '/api/metadata/topic-review/:metadata/',
    { schema: { params: metadataParams, body: topicReviewSchema, response: { 200: reviewStateSchema } }, config: { access: 'user' } },
    async (request) => review.topicReview(request.user!, request.params.metadata, request.body),
  );

  // -- The data centre --
  app.post('/metadata/invite-experts/', { schema: { body: inviteExpertsSchema, response: { 200: reviewStateSchema } }, config: { access: 'staff' } }, async (request) =>
    review.invite(request.user!, request.body),
  );

  app.patch(
    '/api/metadata/review-status/:id/set_review_status/',
    { schema: { params: idParams, body: setReviewStatusSchema, response: { 200: reviewStateSchema } }, config: { access: 'user' } },
    async (request) => review.decide(request.user!, request.params.id, request.body),
  );

  // The review state of one record for the caller (ours): label, allowed actions, reviews, trail.
  app.get('/api/metadata/review-status/:id/', { schema: { params: idParams, response: { 200: reviewStateSchema } }, config: { access: 'user' } }, async (request) =>
    review.state(request.user!, request.params.id),
  );

  app.get('/api/metadata/review-status/:id/history/', { schema: { params: idParams, response: { 200: reviewHistorySchema } }, config: { access: 'user' } }, async (request) => {
    const { events } = await review.state(request.user!, request.params.id);
    return { count: events.length, results: events };
  });

  // The data centre's desk (ours): submissions by status, age (oldest first) and programme fund.
  app.get(
    '/api/metadata/review-status/',
    {
      schema: {
        querystring: pagingQuery.extend({ ...reviewListFilters, status: statusList, fund: z.string().max(100).optional(), is_pre_review: yesNo }),
        response: { 200: reviewDeskPageSchema },
      },
      config: { access: 'staff' },
    },
    async (request) => {
      const { page, pageSize, search, status, fund, is_pre_review: preReview } = request.query;
      const filter = { statuses: asList(status), search, fund: fund || undefined, preReview: preReview === undefined ? undefined : isYes(preReview) };
      const { count, results } = await review.desk(request.user!, filter, {
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  app.get(
    '/api/metadata/metadata/:id/get_reviews',
    {
      schema: { params: idParams, querystring: z.object({ review_status: z.enum(['1']).optional() }), response: { 200: z.union([preReviewSchema, recordReviewsSchema]) } },
      config: { access: 'user' },
    },
    async (request) => (request.query.review_status === '1' ? review.preReview(request.user!, request.params.id) : review.recordReviews(request.user!, request.params.id)),
  );

  app.get(
    '/api/metadata/reviews-feedback/',
    {
      schema: { querystring: z.object({ metadata__id: z.string({ error: 'review.validation.id' }).min(1).max(100) }), response: { 200: feedbackListSchema } },
      config: { access: 'user' },
    },
    async (request) => review.feedback(request.user!, request.query.metadata__id),
  );

  app.post(
    '/metadata/reviews-feedbackemail',
    { schema: { body: feedbackMailSchema, response: { 200: feedbackMailReplySchema } }, config: { access: 'staff' } },
    async (request) => {
      await review.mailFeedback(request.user!, request.body.metadata);
      return { status: 'true' as const, msg: request.t('review.feedbackSent') };
    },
  );
}
