import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embargoUntil } from '@portal/shared';
import { buildUser } from './factories.js';
import { EN, mailsTo, type TestPortal } from './helpers.js';
import { buildCompleteRecord, call, expectStatus, patchRecord, postResource, recordUrl, storedStatus, submit } from './metadata-builders.js';
import {
  answerReview,
  decide,
  declineReview,
  eventCount,
  eventsOf,
  inDays,
  insertRecord,
  insertReview,
  invite,
  linkTopic,
  ok,
  openReview,
  recordRow,
  reviewsOf,
  reviewState,
  setUserLanguage,
  startReviewPortal,
  topicReview,
  type Cast,
  type Person,
} from './review-builders.js';

/**
 * The review workflow's paths through its real calls: the project leaders' step, two experts over
 * two rounds, publishing and what follows it, decisions at the same moment, the audit trail and the
 * blind view.
 */

let portal: TestPortal;
let cast: Cast;
let staff2: Person;

beforeAll(async () => {
  ({ portal, cast } = await startReviewPortal());
  staff2 = await buildUser(portal, { staff: true, realname: 'Staff Qian' });
  // The second expert reads English.
  await setUserLanguage(portal, cast.expert2.id, 'en');
}, 120_000);

afterAll(() => portal?.close());

/** A complete draft of the creator's, submitted through the API; `project` links it to the leader's topic. */
async function submittedRecord(options: { project?: boolean; protection?: string } = {}): Promise<string> {
  const { id } = await buildCompleteRecord(portal, cast.creator);
  await patchRecord(portal, cast.creator.token, id, {
    submitting_type: options.project ? 'project' : 'general',
    ...(options.protection ? { protection_period: options.protection } : {}),
  });
  if (options.project) await postResource(portal, cast.creator.token, 'meta-special', { metadata: id, special: cast.specialId });
  expectStatus(await submit(portal, cast.creator.token, id), 200);
  return id;
}

/** The id of an expert's pending review of a record, from their invited-review list. */
async function pendingReviewOf(expert: Person, metadataId: string) {
  const page = expectStatus(await call(portal, 'GET', '/api/metadata/invited-review/', expert.token), 200);
  const review = page.results.find((r: { metadata: string }) => r.metadata === metadataId);
  if (!review) throw new Error(`no pending review of ${metadataId} for ${expert.username}`);
  return review;
}

describe('the project leaders’ step', () => {
  it('lists project data for its leaders, blocks invitations until they pass it, and keeps their pass', async () => {
    const id = await submittedRecord({ project: true });
    const row = await recordRow(portal, id);
    expect(row).toMatchObject({ status: 'submitted', topic_review_status: 'waiting' });
    expect((await reviewState(portal, cast.creator.token, id)).label).toBe('waitingLeader');

    // "My projects": the leader's queue names it as not reviewed by them.
    const queue = await ok(call(portal, 'GET', '/api/metadata/topic-review/', cast.leader.token));
    expect(queue.results.find((r: { id: string }) => r.id === id)).toMatchObject({ status: 'submitted', label: 'leaderNotReviewed', topic_review_status: 'waiting' });
    // Somebody who manages no topic has an empty queue.
    expect((await ok(call(portal, 'GET', '/api/metadata/topic-review/', cast.stranger.token))).count).toBe(0);
    // The leader reads the submitted record.
    expect((await ok(call(portal, 'GET', recordUrl(id), cast.leader.token))).id).toBe(id);

    // Staff take it in, but may not invite before the leaders passed it.
    await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    const events = await eventCount(portal, id);
    const blocked = await invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id] });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().detail).toBe('The project leaders have not reviewed this project data yet. To invite experts now, give a reason.');
    expect(await storedStatus(portal, id)).toBe('receive');
    expect(await eventCount(portal, id)).toBe(events);
    expect(await reviewsOf(portal, id)).toEqual([]);

    // The leader passes it: the status stays, the leaders' step is done.
    const passed = await ok(topicReview(portal, cast.leader.token, id, { review_status: 'pass', content: 'Belongs to the topic.' }));
    expect(passed).toMatchObject({ status: 'receive', topic_review_status: 'pass', roles: ['leader'] });
    expect((await ok(call(portal, 'GET', '/api/metadata/topic-review/?reviewed=true', cast.leader.token))).results.map((r: { id: string }) => r.id)).toContain(id);
    expect((await ok(call(portal, 'GET', '/api/metadata/topic-review/', cast.leader.token))).results.map((r: { id: string }) => r.id)).not.toContain(id);
    // Once is enough.
    const again = await topicReview(portal, cast.leader.token, id, { review_status: 'pass', content: '' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('This record is not waiting for the project leaders’ review.');

    const invited = await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id] }));
    expect(invited.status).toBe('invited');
  });

  it('sends project data back to draft on "no pass", which needs a comment the creator reads', async () => {
    const id = await submittedRecord({ project: true });
    const silent = await topicReview(portal, cast.leader.token, id, { review_status: 'no_pass', content: '  ' });
    expect(silent.statusCode).toBe(400);
    expect(silent.json()).toMatchObject({ content: ['Write a comment: the data provider reads it.'] });
    expect(await storedStatus(portal, id)).toBe('submitted');

    const refused = await ok(topicReview(portal, cast.leader.token, id, { review_status: 'no_pass', content: 'Not data of this topic.' }));
    expect(refused).toMatchObject({ status: 'draft', topic_review_status: 'no_pass' });
    expect(await storedStatus(portal, id)).toBe('draft');
    // The draft is the creator's again: the leader no longer reads it.
    expect((await call(portal, 'GET', recordUrl(id), cast.leader.token)).statusCode).toBe(404);

    const feedback = await ok(call(portal, 'GET', `/api/metadata/reviews-feedback/?metadata__id=${id}`, cast.creator.token));
    expect(feedback.results).toEqual([expect.objectContaining({ source: 'leader', action: 'topic_no_pass', content: 'Not data of this topic.', author_name: 'Leader Li' })]);
    const mail = (await mailsTo(portal, cast.creator.email)).at(-1)!;
    expect(mail.text).toContain('Not data of this topic.');

    // A resubmission asks the leaders again.
    expectStatus(await submit(portal, cast.creator.token, id), 200);
    expect(await recordRow(portal, id)).toMatchObject({ status: 'submitted', topic_review_status: 'waiting' });
  });

  it('lets staff invite before the leaders with a written reason, kept in the trail', async () => {
    const id = await submittedRecord({ project: true });
    await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    const state = await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id], reason: 'The leader is on fieldwork until June.' }));
    expect(state).toMatchObject({ status: 'invited', topic_review_status: 'waiting' });
    expect(state.events.at(-1)).toMatchObject({
      action: 'invite',
      from_status: 'receive',
      to_status: 'invited',
      comment: 'The leader is on fieldwork until June.',
      actor_name: 'Staff Zhou',
    });
  });

  it('does not make a topic’s manager a leader of records that are not project data', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'submitted', submitting_type: 'general' });
    await linkTopic(portal, id, cast.specialId);
    expect((await call(portal, 'GET', recordUrl(id), cast.leader.token)).statusCode).toBe(404);
    expect((await topicReview(portal, cast.leader.token, id, { review_status: 'pass', content: '' })).statusCode).toBe(404);
  });
});

describe('two experts over two rounds, then publication', () => {
  let id: string;

  it('goes from submission to the experts, the first asking for a review after modification', async () => {
    id = await submittedRecord({ protection: 'oneYear' });
    expect((await reviewState(portal, cast.creator.token, id)).label).toBe('notReviewed');
    // The staff desk lists it by status.
    const desk = await ok(call(portal, 'GET', '/api/metadata/review-status/?status=submitted', cast.staff.token));
    expect(desk.results.find((r: { id: string }) => r.id === id)).toMatchObject({ status: 'submitted', owner_name: 'Creator Chen', experts_invited: 0 });
    expect((await call(portal, 'GET', '/api/metadata/review-status/', cast.creator.token)).statusCode).toBe(403);

    await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    const preReviewed = await ok(decide(portal, cast.staff.token, id, { is_pre_review: true }));
    expect(preReviewed).toMatchObject({ status: 'receive', is_pre_review: true });
    expect(await ok(call(portal, 'GET', `/api/metadata/metadata/${id}/get_reviews?review_status=1`, cast.creator.token))).toMatchObject({
      is_pre_review: true,
      events: [expect.objectContaining({ action: 'pre_review', actor_name: 'Staff Zhou' })],
    });

    const invited = await ok(
      invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id, cast.expert2.id], deadline: inDays(10), message: 'Focus on the outlines.' }),
    );
    expect(invited).toMatchObject({ status: 'invited', review_round: 1, label: 'waitingExperts' });
    expect(invited.reviews).toHaveLength(2);

    const first = await pendingReviewOf(cast.expert, id);
    expect(first).toMatchObject({ round: 1, review_status: 'invited', after_modification: false, message: 'Focus on the outlines.', deadline: inDays(10), can_answer: true });
    const opened = await ok(openReview(portal, cast.expert.token, first.id));
    expect(opened.review_status).toBe('opened');
    expect(await storedStatus(portal, id)).toBe('underReview');
    // Opened by an expert: the creator can no longer take it back.
    expect((await call(portal, 'POST', '/metadata/return-draft/', cast.creator.token, { body: { id }, headers: EN })).statusCode).toBe(409);

    const answered = await ok(
      answerReview(portal, cast.expert.token, first.id, { review_status: 'review_after_modification', content: 'The 1990 outlines are shifted; fix and send again.' }),
    );
    expect(answered).toMatchObject({ review_status: 'review_after_modification', label: 'review_after_modification', signed: false });
    expect((await reviewState(portal, cast.creator.token, id)).label).toBe('review_after_modification');

    // The second expert answers with the spec's form post, and signs.
    const second = await pendingReviewOf(cast.expert2, id);
    const form = await call(portal, 'POST', `/api/metadata/review/${second.id}/`, cast.expert2.token, {
      body: { review_status: 'pass_after_modification', content: 'Good; add the DEM source.', signed: 'on' },
      asForm: true,
    });
    expect(expectStatus(form, 200)).toMatchObject({ review_status: 'pass_after_modification', signed: true });
    expect(await storedStatus(portal, id)).toBe('underReview');
    expect((await ok(call(portal, 'GET', '/api/metadata/review/', cast.expert2.token))).results.map((r: { id: string }) => r.id)).toContain(second.id);
    expect((await ok(call(portal, 'GET', '/api/metadata/invited-review/', cast.expert2.token))).results.map((r: { id: string }) => r.id)).not.toContain(second.id);
  });

  it('is returned with a comment; the creator reads every comment, experts named only when they signed', async () => {
    const missing = await decide(portal, cast.staff.token, id, { review_status: 'return' });
    expect(missing.statusCode).toBe(400);
    expect(await storedStatus(portal, id)).toBe('underReview');

    const returned = await ok(decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Please follow both reviews.' }));
    expect(returned.status).toBe('draft');

    const feedback = await ok(call(portal, 'GET', `/api/metadata/reviews-feedback/?metadata__id=${id}`, cast.creator.token));
    const bySource = feedback.results.map((f: any) => [f.source, f.review_status, f.content, f.author_name]);
    expect(bySource).toEqual(
      expect.arrayContaining([
        ['expert', 'review_after_modification', 'The 1990 outlines are shifted; fix and send again.', ''],
        ['expert', 'pass_after_modification', 'Good; add the DEM source.', 'Expert Zhao'],
        ['staff', '', 'Please follow both reviews.', ''],
      ]),
    );
    expect(JSON.stringify(feedback)).not.toContain('Expert Wang');
    // Staff see who wrote what.
    const staffView = await ok(call(portal, 'GET', `/api/metadata/reviews-feedback/?metadata__id=${id}`, cast.staff.token));
    expect(staffView.results.map((f: any) => f.author_name)).toEqual(expect.arrayContaining(['Expert Wang', 'Expert Zhao', 'Staff Zhou']));
    // Nobody else reads them.
    expect((await call(portal, 'GET', `/api/metadata/reviews-feedback/?metadata__id=${id}`, cast.stranger.token)).statusCode).toBe(404);
    expect((await call(portal, 'GET', `/api/metadata/reviews-feedback/?metadata__id=${id}`, cast.expert.token)).statusCode).toBe(404);

    // The reviews as the creator sees them (get_reviews): blind, without the invitation message.
    const reviews = await ok(call(portal, 'GET', `/api/metadata/metadata/${id}/get_reviews`, cast.creator.token));
    expect(reviews.count).toBe(2);
    const unsigned = reviews.results.find((r: any) => r.review_status === 'review_after_modification');
    expect(unsigned).toMatchObject({ expert: '', expert_name: '', message: '' });
    expect(reviews.results.find((r: any) => r.signed)).toMatchObject({ expert: cast.expert2.id, expert_name: 'Expert Zhao' });
    const staffReviews = await ok(call(portal, 'GET', `/api/metadata/metadata/${id}/get_reviews`, cast.staff.token));
    expect(staffReviews.results.map((r: any) => r.expert_name).sort()).toEqual(['Expert Wang', 'Expert Zhao']);

    // Staff may send them to the creator.
    const before = (await mailsTo(portal, cast.creator.email)).length;
    expect(await ok(call(portal, 'POST', '/metadata/reviews-feedbackemail', cast.staff.token, { body: { metadata: id }, headers: EN }))).toEqual({
      status: 'true',
      msg: 'The comments were sent to the data provider.',
    });
    const mails = await mailsTo(portal, cast.creator.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.text).toContain('The 1990 outlines are shifted');
    expect(mails.at(-1)!.text).not.toContain('Expert Wang');
    expect((await call(portal, 'POST', '/metadata/reviews-feedbackemail', cast.creator.token, { body: { metadata: id } })).statusCode).toBe(403);
  });

  it('goes back to the same experts after resubmission, labelled after modification; both pass; approved and published', async () => {
    expectStatus(await submit(portal, cast.creator.token, id), 200);
    const received = await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    // Taken in, it goes straight back to the experts of the last round.
    expect(received).toMatchObject({ status: 'invited', review_round: 2 });
    const round2 = (await reviewsOf(portal, id)).filter((r) => Number(r.round) === 2);
    expect(round2.map((r) => r.expert_id).sort()).toEqual([cast.expert.id, cast.expert2.id].sort());
    expect(round2.every((r) => r.after_modification === 1 && r.status === 'invited')).toBe(true);
    expect(received.events.slice(-2).map((e: any) => [e.action, e.from_status, e.to_status])).toEqual([
      ['receive', 'submitted', 'receive'],
      ['invite', 'receive', 'invited'],
    ]);

    for (const expert of [cast.expert, cast.expert2]) {
      const review = await pendingReviewOf(expert, id);
      expect(review).toMatchObject({ round: 2, after_modification: true, can_answer: true });
      await ok(openReview(portal, expert.token, review.id));
      await ok(answerReview(portal, expert.token, review.id, { review_status: 'pass', content: 'Fixed, fine now.' }));
    }
    expect((await reviewState(portal, cast.staff.token, id)).label).toBe('pass');
    // The reviews of round 1 can no longer be changed.
    const old = (await reviewsOf(portal, id)).find((r) => Number(r.round) === 1 && r.expert_id === cast.expert.id)!;
    const late = await answerReview(portal, cast.expert.token, old.id, { review_status: 'no_pass', content: 'Changed my mind.' });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe('This review belongs to an earlier round; the record has been resubmitted since.');

    expect((await ok(decide(portal, cast.staff.token, id, { review_status: 'approve', content: '' }))).status).toBe('approved');
    const published = await ok(decide(portal, cast.staff.token, id, { review_status: 'publish' }));
    expect(published).toMatchObject({ status: 'published', published_without_review: false });
    expect(published.published_at).toEqual(expect.any(String));
    expect(published.embargo_until).toBe(embargoUntil(published.published_at, 'oneYear'));

    // Readable by anyone, with the dates set from the protection period.
    const record = await ok(call(portal, 'GET', recordUrl(id), null));
    expect(record).toMatchObject({ id, status: 'published', published_at: published.published_at, embargo_until: published.embargo_until });
    const from = new Date(record.published_at);
    const until = new Date(record.embargo_until);
    expect(until.getUTCFullYear() * 12 + until.getUTCMonth() - (from.getUTCFullYear() * 12 + from.getUTCMonth())).toBe(12);
  });

  it('is unpublished only with a reason, hidden again, and may be published again', async () => {
    const events = await eventCount(portal, id);
    const silent = await decide(portal, cast.staff.token, id, { review_status: 'unpublish', content: '' });
    expect(silent.statusCode).toBe(400);
    expect(silent.json()).toMatchObject({ content: ['Write a comment: the data provider reads it.'] });
    expect(await storedStatus(portal, id)).toBe('published');
    expect(await eventCount(portal, id)).toBe(events);

    const unpublished = await ok(decide(portal, cast.staff.token, id, { review_status: 'unpublish', content: 'Licence dispute with the data owner.' }));
    expect(unpublished).toMatchObject({ status: 'NotPublished', unpublish_reason: 'Licence dispute with the data owner.' });
    expect((await call(portal, 'GET', recordUrl(id), null)).statusCode).toBe(404);
    expect((await call(portal, 'GET', recordUrl(id), cast.stranger.token)).statusCode).toBe(404);
    expect((await ok(call(portal, 'GET', recordUrl(id), cast.creator.token))).status).toBe('NotPublished');

    const republished = await ok(decide(portal, cast.staff.token, id, { review_status: 'publish' }));
    expect(republished).toMatchObject({ status: 'published', unpublish_reason: '' });
  });
});

describe('refuse, cancel, publish without review', () => {
  it('refuses a record for good: every later decision is 409', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'underReview', review_round: 1 });
    await insertReview(portal, id, cast.expert.id, { status: 'no_pass' });
    expect((await ok(decide(portal, cast.staff.token, id, { review_status: 'refuse', content: 'Out of scope.' }))).status).toBe('refuse');
    for (const decision of ['receive', 'approve', 'return', 'publish', 'cancel']) {
      const response = await decide(portal, cast.staff.token, id, { review_status: decision, content: 'x' });
      expect(response.statusCode).toBe(409);
      expect(response.json().detail).toBe('This step is not possible in the record’s current state. Reload the page to see where it stands.');
    }
    expect(await storedStatus(portal, id)).toBe('refuse');
    expect(await eventCount(portal, id)).toBe(1);
    expect((await mailsTo(portal, cast.creator.email)).at(-1)!.text).toContain('Out of scope.');
  });

  it('lets the creator withdraw a submission and staff cancel one, but the creator not after the verdict', async () => {
    const byCreator = await submittedRecord();
    expect((await ok(decide(portal, cast.creator.token, byCreator, { review_status: 'cancel' }))).status).toBe('cancelled');
    const byStaff = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    expect((await ok(decide(portal, cast.staff.token, byStaff, { review_status: 'cancel', content: 'Duplicate of another record.' }))).status).toBe('cancelled');
    const published = await insertRecord(portal, cast.creator.id, { status: 'published' });
    expect((await decide(portal, cast.creator.token, published, { review_status: 'cancel' })).statusCode).toBe(409);
    // The creator takes no staff decision.
    const submitted = await insertRecord(portal, cast.creator.id, { status: 'submitted' });
    const response = await decide(portal, cast.creator.token, submitted, { review_status: 'publish_without_review' });
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toBe('You have no right to take this step on this record.');
  });

  for (const from of ['submitted', 'receive'] as const) {
    it(`publishes without review from ${from}, labelled so`, async () => {
      const id = from === 'submitted' ? await submittedRecord({ protection: 'halfYear' }) : await insertRecord(portal, cast.creator.id, { status: 'receive' });
      const state = await ok(decide(portal, cast.staff.token, id, { review_status: 'publish_without_review' }));
      expect(state).toMatchObject({ status: 'published', published_without_review: true, label: 'publishedWithoutReview' });
      expect(state.embargo_until).toBe(from === 'submitted' ? embargoUntil(state.published_at, 'halfYear') : null);
      const desk = await ok(call(portal, 'GET', '/api/metadata/review-status/?status=published', cast.staff.token));
      expect(desk.results.find((r: { id: string }) => r.id === id).label).toBe('publishedWithoutReview');
      expect((await ok(call(portal, 'GET', recordUrl(id), null))).status).toBe('published');
    });
  }
});

describe('two staff deciding at once', () => {
  // Each decision names the status its decider saw (from_status, as the review desk sends it): the
  // second is refused even where it would be allowed from the status the first one left.
  const pairs: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
    ['submitted', 'receive twice', { review_status: 'receive' }, { review_status: 'receive' }],
    ['submitted', 'receive and publish without review', { review_status: 'receive' }, { review_status: 'publish_without_review' }],
    ['underReview', 'approve and return', { review_status: 'approve' }, { review_status: 'return', content: 'Needs more work.' }],
    ['approved', 'publish and refuse', { review_status: 'publish' }, { review_status: 'refuse', content: 'No.' }],
  ];
  async function race(status: string, first: Record<string, unknown>, second: Record<string, unknown>) {
    const id = await insertRecord(portal, cast.creator.id, { status, review_round: 1 });
    if (status === 'underReview') await insertReview(portal, id, cast.expert.id, { status: 'pass' });
    const responses = await Promise.all([decide(portal, cast.staff.token, id, first), decide(portal, staff2.token, id, second)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = responses.find((r) => r.statusCode === 409)!;
    expect(loser.json().detail).toMatch(/^(Someone else changed this record’s review at the same moment|This step is not possible in the record’s current state)/);
    const events = await eventsOf(portal, id);
    expect(events).toHaveLength(1);
    const winner = responses.findIndex((r) => r.statusCode === 200);
    expect(events[0]!.actor_id).toBe(winner === 0 ? cast.staff.id : staff2.id);
    expect(await storedStatus(portal, id)).toBe(events[0]!.to_status);
  }
  for (const [status, name, first, second] of pairs) {
    it(`${name}: one wins, the other gets 409, one event`, async () => {
      for (let i = 0; i < 3; i += 1) await race(status, { ...first, from_status: status }, { ...second, from_status: status });
    });
  }

  it('without from_status: one wins where the second decision is not allowed after the first', async () => {
    for (let i = 0; i < 3; i += 1) {
      await race('submitted', { review_status: 'receive' }, { review_status: 'receive' });
      await race('approved', { review_status: 'publish' }, { review_status: 'refuse', content: 'No.' });
    }
  });

  it('refuses a decision taken from a status the record has left, changing nothing', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    const stale = await decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Incomplete.', from_status: 'submitted' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe('Someone else changed this record’s review at the same moment. Reload the page and decide again.');
    expect(await storedStatus(portal, id)).toBe('receive');
    expect(await eventCount(portal, id)).toBe(0);
    const wrong = await decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Incomplete.', from_status: 'lost' });
    expect(wrong.statusCode).toBe(400);
    expect(await storedStatus(portal, id)).toBe('receive');
  });

  it('two experts answering at once both count, and the record moves once', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'invited', review_round: 1 });
    const a = await insertReview(portal, id, cast.expert.id);
    const b = await insertReview(portal, id, cast.expert2.id);
    const responses = await Promise.all([
      answerReview(portal, cast.expert.token, a, { review_status: 'pass', content: 'Fine.' }),
      answerReview(portal, cast.expert2.token, b, { review_status: 'pass', content: 'Fine too.' }),
    ]);
    // One of them may find the record moved under it: it is told so, and may answer again.
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    if (codes[1] === 409) {
      const retry =
        responses[0]!.statusCode === 409
          ? answerReview(portal, cast.expert.token, a, { review_status: 'pass', content: 'Fine.' })
          : answerReview(portal, cast.expert2.token, b, { review_status: 'pass', content: 'Fine too.' });
      expect((await retry).statusCode).toBe(200);
    }
    expect(await storedStatus(portal, id)).toBe('underReview');
    expect((await reviewsOf(portal, id)).map((r) => r.status)).toEqual(['pass', 'pass']);
    expect((await eventsOf(portal, id)).filter((e) => e.action === 'answer')).toHaveLength(2);
  });
});

describe('the audit trail', () => {
  it('keeps every step with who, when, from, to and comment; the creator sees experts named only when they signed', async () => {
    const id = await submittedRecord();
    await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id, cast.expert2.id], message: 'Thanks.' }));
    const a = await pendingReviewOf(cast.expert, id);
    const b = await pendingReviewOf(cast.expert2, id);
    await ok(openReview(portal, cast.expert.token, a.id));
    await ok(answerReview(portal, cast.expert.token, a.id, { review_status: 'pass', content: 'Anonymous praise.' }));
    await ok(answerReview(portal, cast.expert2.token, b.id, { review_status: 'pass', content: 'Signed praise.', signed: true }));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'approve' }));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'publish' }));

    const steps = [
      ['submit', 'creator', 'draft', 'submitted', '', 'Creator Chen'],
      ['receive', 'staff', 'submitted', 'receive', '', 'Staff Zhou'],
      ['invite', 'staff', 'receive', 'invited', 'Thanks.', 'Staff Zhou'],
      ['open', 'expert', 'invited', 'underReview', '', 'Expert Wang'],
      ['answer', 'expert', 'underReview', 'underReview', 'Anonymous praise.', 'Expert Wang'],
      ['answer', 'expert', 'underReview', 'underReview', 'Signed praise.', 'Expert Zhao'],
      ['approve', 'staff', 'underReview', 'approved', '', 'Staff Zhou'],
      ['publish', 'staff', 'approved', 'published', '', 'Staff Zhou'],
    ];
    const staffTrail = await ok(call(portal, 'GET', `/api/metadata/review-status/${id}/history/`, cast.staff.token));
    expect(staffTrail.count).toBe(steps.length);
    expect(staffTrail.results.map((e: any) => [e.action, e.role, e.from_status, e.to_status, e.comment, e.actor_name])).toEqual(steps);
    for (const event of staffTrail.results) expect(Number.isNaN(Date.parse(event.created_at))).toBe(false);
    // Stored with the actor's id, not only a name.
    expect((await eventsOf(portal, id)).map((e) => e.actor_id)).toEqual([
      cast.creator.id,
      cast.staff.id,
      cast.staff.id,
      cast.expert.id,
      cast.expert.id,
      cast.expert2.id,
      cast.staff.id,
      cast.staff.id,
    ]);

    // The creator: the same steps, the unsigned expert not named.
    const creatorTrail = await ok(call(portal, 'GET', `/api/metadata/review-status/${id}/history/`, cast.creator.token));
    expect(creatorTrail.results.map((e: any) => e.actor_name)).toEqual(['Creator Chen', 'Staff Zhou', 'Staff Zhou', '', '', 'Expert Zhao', 'Staff Zhou', 'Staff Zhou']);
    expect(JSON.stringify(creatorTrail)).not.toContain('Expert Wang');
    expect(JSON.stringify(await reviewState(portal, cast.creator.token, id))).not.toContain('Expert Wang');
    expect(JSON.stringify(await reviewState(portal, cast.creator.token, id))).not.toContain(cast.expert.id);
    // Others: no trail (an expert reads their own review only; a stranger does not learn the record exists until published).
    const expertState = await reviewState(portal, cast.expert.token, id);
    expect(expertState.events).toEqual([]);
    expect(expertState.reviews.map((r: any) => r.id)).toEqual([a.id]);
    expect((await ok(call(portal, 'GET', `/api/metadata/review-status/${id}/history/`, cast.stranger.token))).count).toBe(0);
  });

  it('shows each caller the actions the table allows them now', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'submitted' });
    expect((await reviewState(portal, cast.staff.token, id)).actions).toEqual(['receive', 'return', 'refuse', 'publish_without_review', 'cancel']);
    expect((await reviewState(portal, cast.creator.token, id)).actions).toEqual(['return_to_draft', 'cancel']);
    expect((await call(portal, 'GET', `/api/metadata/review-status/${id}/`, cast.stranger.token)).statusCode).toBe(404);
  });
});

describe('invitations over rounds', () => {
  it('refuses to invite again an expert who declined this round, with a message', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id] }));
    const review = await pendingReviewOf(cast.expert, id);
    await ok(declineReview(portal, cast.expert.token, review.id, 'Travelling.'));
    const events = await eventCount(portal, id);
    const again = await invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id] });
    expect(again.statusCode).toBe(400);
    expect(again.json().experts).toEqual(['One of the experts chosen declined this round’s invitation.']);
    expect(await eventCount(portal, id)).toBe(events);
    expect((await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert2.id] }))).reviews).toHaveLength(2);
  });

  it('opens a new round for a resubmission whose experts all declined, where the one who declined may be invited again', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id] }));
    await ok(declineReview(portal, cast.expert.token, (await pendingReviewOf(cast.expert, id)).id, 'Travelling.'));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Add the 2020 data while we look for experts.' }));
    await portal.database.db.updateTable('metadata').set({ status: 'submitted' }).where('id', '=', id).execute();
    // Nobody to go back to: it stays with the data centre.
    expect(await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }))).toMatchObject({ status: 'receive', review_round: 1 });
    const state = await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id, cast.expert2.id] }));
    expect(state).toMatchObject({ status: 'invited', review_round: 2 });
    const round2 = (await reviewsOf(portal, id)).filter((r) => Number(r.round) === 2);
    expect(round2.map((r) => [r.expert_id, r.status, r.after_modification]).sort()).toEqual(
      [
        [cast.expert.id, 'invited', 1],
        [cast.expert2.id, 'invited', 1],
      ].sort(),
    );
    expect((await pendingReviewOf(cast.expert, id)).round).toBe(2);
  });

  it('no longer lists an invitation as pending once the record returned to draft', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert2.id] }));
    expect((await pendingReviewOf(cast.expert2, id)).can_answer).toBe(true);
    await ok(call(portal, 'POST', '/metadata/return-draft/', cast.creator.token, { body: { id } }));
    const pending = await ok(call(portal, 'GET', '/api/metadata/invited-review/', cast.expert2.token));
    expect(pending.results.map((r: { metadata: string }) => r.metadata)).not.toContain(id);
    // Still in the expert's own list of every review, which says where it stands.
    const mine = await ok(call(portal, 'GET', '/api/metadata/my-review/', cast.expert2.token));
    expect(mine.results.find((r: { metadata: string }) => r.metadata === id)).toMatchObject({ can_answer: false, record: expect.objectContaining({ status: 'draft' }) });
  });
});
