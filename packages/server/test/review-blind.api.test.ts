import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailsTo, type TestPortal } from './helpers.js';
import { call, expectStatus, recordUrl, setStatus } from './metadata-builders.js';
import { answerReview, decide, declineReview, insertRecord, invite, ok, openReview, reviewsOf, reviewStateUrl, startReviewPortal, type Cast } from './review-builders.js';

/**
 * Single-blind review, as the creator and the experts see it: the creator reads the answers, never
 * the staff's invitation message (it names the experts) nor an expert's reason to decline; an expert
 * sees the record through their review only while they may read it.
 */

let portal: TestPortal;
let cast: Cast;

beforeAll(async () => ({ portal, cast } = await startReviewPortal()), 120_000);
afterAll(() => portal?.close());

const INVITATION = 'Dear Expert Wang and Expert Zhao: please check the 1990 scenes.';
const DECLINE_REASON = 'I am Wang, and I co-authored this dataset.';
const ANSWER = 'Sound data; add the units.';

const get = async (url: string, token: string) => expectStatus(await call(portal, 'GET', url, token), 200);

describe("the creator's view of the review", () => {
  let id: string;
  beforeAll(async () => {
    id = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id, cast.expert2.id], message: INVITATION }));
    const reviews = await reviewsOf(portal, id);
    const byExpert = (expertId: string) => reviews.find((r) => r.expert_id === expertId)!.id;
    await ok(declineReview(portal, cast.expert.token, byExpert(cast.expert.id), DECLINE_REASON));
    await ok(answerReview(portal, cast.expert2.token, byExpert(cast.expert2.id), { review_status: 'pass_after_modification', content: ANSWER, signed: false }));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Please add the units.' }));
  });

  /** Every call that shows the creator the review, as they get it. */
  const creatorViews = async () => ({
    state: await get(reviewStateUrl(id), cast.creator.token),
    history: await get(`${reviewStateUrl(id)}history/`, cast.creator.token),
    reviews: await get(`/api/metadata/metadata/${id}/get_reviews`, cast.creator.token),
    preReview: await get(`/api/metadata/metadata/${id}/get_reviews?review_status=1`, cast.creator.token),
    feedback: await get(`/api/metadata/reviews-feedback/?metadata__id=${id}`, cast.creator.token),
  });

  it('shows the trail without the invitation message and the reason to decline, in review-status and its history', async () => {
    const { state, history } = await creatorViews();
    for (const events of [state.events, history.results] as { action: string; comment: string; actor_name: string }[][]) {
      const invited = events.find((event) => event.action === 'invite')!;
      const declined = events.find((event) => event.action === 'decline')!;
      expect(invited).toMatchObject({ comment: '' });
      expect(declined).toMatchObject({ comment: '', actor_name: '' });
      // The blind view still carries the answers: the test reads the trail the creator reads.
      expect(events.find((event) => event.action === 'answer')).toMatchObject({ comment: ANSWER, actor_name: '' });
    }
  });

  it('lets neither text reach the creator by any review call or mail', async () => {
    const everything = JSON.stringify(await creatorViews());
    expect(everything).toContain(ANSWER);
    expect(everything).not.toContain(INVITATION);
    expect(everything).not.toContain(DECLINE_REASON);
    const mails = await mailsTo(portal, cast.creator.email);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(mail.text).not.toContain(INVITATION);
    for (const mail of mails) expect(mail.text).not.toContain(DECLINE_REASON);
  });

  it('shows staff both', async () => {
    const { events } = await get(reviewStateUrl(id), cast.staff.token);
    expect(events.find((event: { action: string }) => event.action === 'invite')).toMatchObject({ comment: INVITATION, actor_name: 'Staff Zhou' });
    expect(events.find((event: { action: string }) => event.action === 'decline')).toMatchObject({ comment: DECLINE_REASON, actor_name: 'Expert Wang' });
  });
});

describe("an expert's view of the record through their review", () => {
  const TITLE = '冰川面积变化 1990-2020 (round 1)';
  const RENAMED = '冰川面积变化：第二轮改名';
  let id: string;
  let declined: string;
  let answered: string;
  const titlesIn = (body: unknown) => [TITLE, RENAMED].filter((title) => JSON.stringify(body).includes(title));

  beforeAll(async () => {
    id = await insertRecord(portal, cast.creator.id, { status: 'receive', title: TITLE });
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id, cast.expert2.id] }));
    const reviews = await reviewsOf(portal, id);
    declined = reviews.find((r) => r.expert_id === cast.expert.id)!.id;
    answered = reviews.find((r) => r.expert_id === cast.expert2.id)!.id;
  });

  it('shows the record while the invitation stands', async () => {
    const review = await ok(openReview(portal, cast.expert2.token, answered));
    expect(review.record).toMatchObject({ id, title: TITLE, status: 'underReview' });
  });

  it('shows a declined expert their review, not the record', async () => {
    await ok(declineReview(portal, cast.expert.token, declined));
    const review = await ok(openReview(portal, cast.expert.token, declined));
    expect(review).toMatchObject({ id: declined, review_status: 'declined', record: { id, title: '', translation_title: '' } });
    expect(titlesIn(review)).toEqual([]);
    expect(titlesIn(await get('/api/metadata/my-review/', cast.expert.token))).toEqual([]);
  });

  it('once the round is over (back to draft), keeps their answer but not the live title, in review/{id}/ and the lists', async () => {
    await ok(answerReview(portal, cast.expert2.token, answered, { review_status: 'pass_after_modification', content: ANSWER, signed: true }));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Please add the units.' }));
    expectStatus(await call(portal, 'PATCH', recordUrl(id), cast.creator.token, { body: { title: RENAMED } }), 200);
    const review = await ok(openReview(portal, cast.expert2.token, answered));
    expect(review).toMatchObject({ id: answered, review_status: 'pass_after_modification', content: ANSWER, record: { id, title: '', status: 'draft' } });
    expect(titlesIn(review)).toEqual([]);
    for (const list of ['/api/metadata/review/', '/api/metadata/my-review/']) {
      const page = await get(list, cast.expert2.token);
      expect(page.results.map((row: { id: string }) => row.id)).toContain(answered);
      expect(titlesIn(page), list).toEqual([]);
    }
    // Staff still see the record as it is.
    expect((await ok(openReview(portal, cast.staff.token, answered))).record).toMatchObject({ title: RENAMED, status: 'draft' });
  });

  it('shows the record again once it is published (everybody may read it)', async () => {
    await setStatus(portal, id, 'published');
    expect((await ok(openReview(portal, cast.expert2.token, answered))).record).toMatchObject({ title: RENAMED, status: 'published' });
  });
});
