import type { z } from 'zod';
import type { expertCandidatePageSchema, reviewDeskPageSchema, ReviewState } from '@portal/shared/contracts/review';
import { api, isRequestError, type Reply } from '../../../api/client';
import { path } from '../../../api/routes';
import { pageLanguage } from '../../../app/i18n';

/** Calls of the data centre's review desk (issue 7); reply types are inferred from the shared contracts. */

export type ReviewDeskPage = z.infer<typeof reviewDeskPageSchema>;
export type ExpertCandidatePage = z.infer<typeof expertCandidatePageSchema>;
export type ExpertCandidate = ExpertCandidatePage['results'][number];
export type { ReviewDeskItem, ReviewState, Review, ReviewEvent } from '@portal/shared/contracts/review';

export interface DeskQuery {
  status?: string;
  fund?: string;
  search: string;
  page: number;
  pageSize: number;
}

export interface Fund {
  id: string;
  name: string;
  name_en: string;
}

/** The reply, or a thrown error with the server's text (already in the page's language). */
async function ok<T>(reply: Promise<Reply<T>>, fallback: string): Promise<T> {
  const value = await reply;
  if (!value || isRequestError(value)) throw new Error(typeof value?.detail === 'string' ? value.detail : fallback);
  return value;
}

export const reviewDeskApi = {
  list: (query: DeskQuery, fallback: string) =>
    ok(
      api.get<ReviewDeskPage>(path('reviewStates'), {
        status: query.status ? [query.status] : undefined,
        fund: query.fund,
        search: query.search || undefined,
        page: query.page,
        pageSize: query.pageSize,
      }),
      fallback,
    ),
  state: (id: string, fallback: string) => ok(api.get<ReviewState>(path('reviewState', { id })), fallback),
  fund: (id: string, fallback: string) => ok(api.get<Fund>(path('fund', { id })), fallback),
  experts: (search: string, fallback: string) => ok(api.get<ExpertCandidatePage>(path('users'), { role: 'expert', search, pageSize: 20 }), fallback),
  // The calls that change something answer the raw reply: the caller shows refusals by field label.
  decide: (id: string, body: Record<string, unknown>) => api.patch<ReviewState>(path('setReviewStatus', { id }), body),
  invite: (body: { metadata: string; experts: string[]; deadline: string; message: string; reason: string }) => api.postJson<ReviewState>(path('inviteExperts'), body),
  mailFeedback: (metadata: string) => api.postJson<{ status: 'true'; msg: string }>(path('mailFeedback'), { metadata }),
};

/** A record's title in the page's language: its other version's when the page is in that language. */
export const titleOf = (item: { title: string; translation_title: string; language: string }) => (item.language !== pageLanguage && item.translation_title) || item.title;
