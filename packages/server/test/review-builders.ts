import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { ReviewAction } from '@portal/shared';
import { buildRecord, buildReview, buildUsers, inDays, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus, postResource, returnToDraft, submit } from './metadata-builders.js';

/**
 * Builders of the review workflow's API tests: the people of a review, records put straight into a
 * status with the fixtures a role needs, and each workflow action as the HTTP call that takes it.
 */

export type { Person } from './factories.js';
export { inDays } from './factories.js';

/** The people around a record: its creator, a project leader, two experts, staff, and a stranger. */
export interface Cast {
  creator: Person;
  /** is_project 1, a manager of `specialId`. */
  leader: Person;
  expert: Person;
  expert2: Person;
  /** Somebody staff may invite, never invited by the fixtures. */
  invitee: Person;
  staff: Person;
  /** Signed in, no relation to any record. */
  stranger: Person;
  specialId: string;
}

export async function createCast(portal: TestPortal): Promise<Cast> {
  const { creator, leader, expert, expert2, invitee, staff, stranger } = await buildUsers(portal, {
    creator: { realname: 'Creator Chen' },
    leader: { project: 1, realname: 'Leader Li' },
    expert: { realname: 'Expert Wang' },
    expert2: { realname: 'Expert Zhao' },
    invitee: { realname: 'Invitee Sun' },
    staff: { staff: true, realname: 'Staff Zhou' },
    stranger: { realname: 'Stranger Wu' },
  });
  // The topic and its manager, through the generic resources (staff only).
  const special = await postResource(portal, staff.token, 'special', { name: `第三极专题 ${randomUUID().slice(0, 6)}` });
  await postResource(portal, staff.token, 'special-manage', { special: special.id, user: leader.id });
  return { creator, leader, expert, expert2, invitee, staff, stranger, specialId: special.id };
}

/** A portal of its own for a test file, with its cast. */
export async function startReviewPortal(): Promise<{ portal: TestPortal; cast: Cast }> {
  const portal = await createTestPortal();
  return { portal, cast: await createCast(portal) };
}

/** The JSON of a reply that must be 200. */
export const ok = async (response: Promise<LightMyRequestResponse>) => expectStatus(await response, 200);

/** A record of the owner's in a status (review_round, topic_review_status ... as given), written by the factories. */
export async function insertRecord(
  portal: TestPortal,
  ownerId: string,
  values: { status?: string; review_round?: number; topic_review_status?: string; submitting_type?: string; protection_period?: string; title?: string } = {},
): Promise<string> {
  const { status, title, ...columns } = values;
  return buildRecord(portal, { owner: ownerId, status, title, columns: { submitting_type: 'project', ...columns } });
}

/** Links a record to a topic (meta_special), as its creator would. */
export async function linkTopic(portal: TestPortal, metadataId: string, specialId: string): Promise<void> {
  await portal.database.db.insertInto('meta_special').values({ id: randomUUID(), metadata_id: metadataId, special_id: specialId }).execute();
}

/** An expert's review row of a round (the factories' buildReview): `status` 'invited', 'opened', 'declined' or an outcome. */
export function insertReview(
  portal: TestPortal,
  metadataId: string,
  expertId: string,
  values: { round?: number; status?: string; signed?: number; deadline?: string; content?: string } = {},
): Promise<string> {
  return buildReview(portal, { record: metadataId, expert: expertId, ...values });
}

export async function eventCount(portal: TestPortal, metadataId: string): Promise<number> {
  const rows = await portal.database.db.selectFrom('review_events').select('id').where('metadata_id', '=', metadataId).execute();
  return rows.length;
}

export async function eventsOf(portal: TestPortal, metadataId: string) {
  return portal.database.db.selectFrom('review_events').selectAll().where('metadata_id', '=', metadataId).orderBy('created_at').orderBy('id').execute();
}

export async function recordRow(portal: TestPortal, metadataId: string) {
  return portal.database.db.selectFrom('metadata').selectAll().where('id', '=', metadataId).executeTakeFirstOrThrow();
}

export async function reviewsOf(portal: TestPortal, metadataId: string) {
  return portal.database.db.selectFrom('reviews').selectAll().where('metadata_id', '=', metadataId).orderBy('round').orderBy('expert_id').execute();
}

export async function setUserLanguage(portal: TestPortal, userId: string, language: 'en' | 'zh-hans'): Promise<void> {
  await portal.database.db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}

// ---- The calls ----

export const reviewStateUrl = (id: string) => `/api/metadata/review-status/${id}/`;
export const decisionUrl = (id: string) => `/api/metadata/review-status/${id}/set_review_status/`;
export const reviewUrl = (id: string) => `/api/metadata/review/${id}/`;
export const topicReviewUrl = (id: string) => `/api/metadata/topic-review/${id}/`;

type Headers = Record<string, string>;

export const decide = (portal: TestPortal, token: string | null, id: string, body: Record<string, unknown>, headers: Headers = EN) =>
  call(portal, 'PATCH', decisionUrl(id), token, { body, headers });

export const topicReview = (portal: TestPortal, token: string | null, id: string, body: Record<string, unknown>, headers: Headers = EN) =>
  call(portal, 'PUT', topicReviewUrl(id), token, { body, headers });

export const invite = (portal: TestPortal, token: string | null, body: Record<string, unknown>, headers: Headers = EN) =>
  call(portal, 'POST', '/metadata/invite-experts/', token, { body: { deadline: inDays(14), message: 'Please review this dataset.', ...body }, headers });

export const openReview = (portal: TestPortal, token: string | null, reviewId: string, headers: Headers = EN) => call(portal, 'GET', reviewUrl(reviewId), token, { headers });

export const answerReview = (portal: TestPortal, token: string | null, reviewId: string, body: Record<string, unknown>, headers: Headers = EN) =>
  call(portal, 'PUT', reviewUrl(reviewId), token, { body, headers });

export const declineReview = (portal: TestPortal, token: string | null, reviewId: string, content = '', headers: Headers = EN) =>
  call(portal, 'POST', `${reviewUrl(reviewId)}decline/`, token, { body: { content }, headers });

export async function reviewState(portal: TestPortal, token: string | null, id: string) {
  return expectStatus(await call(portal, 'GET', reviewStateUrl(id), token, { headers: EN }), 200);
}

/** What one action needs besides the record: the review it concerns and whom staff invite. */
export interface ActionContext {
  recordId: string;
  reviewId?: string;
  inviteeId?: string;
}

/** Takes a workflow action through the HTTP call of spec section 7 that takes it (replies in English). */
export function takeAction(portal: TestPortal, action: ReviewAction, token: string, ctx: ActionContext): Promise<LightMyRequestResponse> {
  const { recordId } = ctx;
  switch (action) {
    case 'submit':
      return submit(portal, token, recordId, EN);
    case 'return_to_draft':
      return returnToDraft(portal, token, recordId, EN);
    case 'topic_pass':
      return topicReview(portal, token, recordId, { review_status: 'pass', content: '' });
    case 'topic_no_pass':
      return topicReview(portal, token, recordId, { review_status: 'no_pass', content: 'The topic link is wrong.' });
    case 'pre_review':
      return decide(portal, token, recordId, { is_pre_review: true });
    case 'invite':
      return invite(portal, token, { metadata: recordId, experts: [ctx.inviteeId!] });
    case 'open':
      return openReview(portal, token, ctx.reviewId!);
    case 'answer':
      return answerReview(portal, token, ctx.reviewId!, { review_status: 'pass', content: 'Sound data.' });
    case 'decline':
      return declineReview(portal, token, ctx.reviewId!, 'No time.');
    default:
      // A staff decision (and the creator's cancel); a comment satisfies the ones that need one.
      return decide(portal, token, recordId, { review_status: action, content: 'A reason for the decision.' });
  }
}
