import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_COMMENT_MAX, translate, type Language } from '@portal/shared';
import { buildUser } from './factories.js';
import { EN, mailsTo, readOutbox, type TestPortal } from './helpers.js';
import { buildCompleteRecord, call, expectStatus, recordUrl, setStatus, storedStatus, submit } from './metadata-builders.js';
import {
  answerReview,
  decide,
  declineReview,
  eventCount,
  inDays,
  insertRecord,
  insertReview,
  invite,
  linkTopic,
  ok,
  openReview,
  reviewsOf,
  reviewStateUrl,
  setUserLanguage,
  startReviewPortal,
  topicReview,
  type Cast,
  type Person,
} from './review-builders.js';
import { upload } from './upload-builders.js';

/**
 * The review workflow's safety: bad input refused with a clear message in both languages and
 * nothing changed; who may read an unpublished record and its files; the mails of the workflow.
 */

let portal: TestPortal;
let cast: Cast;

beforeAll(async () => ({ portal, cast } = await startReviewPortal()), 120_000);
afterAll(() => portal?.close());

const ZH = { 'accept-language': 'zh-hans' };

/**
 * Takes a call twice, in English and in Chinese: both refused with `code` and the catalogue's
 * message for `key` (as the field's message when `field` is given), and nothing about the record changed.
 */
async function refusedInBoth(metadataId: string, send: (headers: Record<string, string>) => Promise<LightMyRequestResponse>, code: number, key: string, field?: string) {
  const before = { status: await storedStatus(portal, metadataId), events: await eventCount(portal, metadataId), reviews: await reviewsOf(portal, metadataId) };
  for (const [language, headers] of [
    ['en', EN],
    ['zh-hans', ZH],
  ] as [Language, Record<string, string>][]) {
    const response = await send(headers);
    const message = translate(language, key);
    expect(message).not.toBe(key);
    expect(response.statusCode, response.body).toBe(code);
    const body = response.json();
    if (field) expect(body[field]).toEqual([message]);
    expect(body.detail).toBe(message);
  }
  expect(await storedStatus(portal, metadataId)).toBe(before.status);
  expect(await eventCount(portal, metadataId)).toBe(before.events);
  expect(await reviewsOf(portal, metadataId)).toEqual(before.reviews);
}

describe('bad input', () => {
  let receiveId: string;
  let underReviewId: string;
  let reviewId: string;

  beforeAll(async () => {
    receiveId = await insertRecord(portal, cast.creator.id, { status: 'receive' });
    underReviewId = await insertRecord(portal, cast.creator.id, { status: 'underReview', review_round: 1 });
    reviewId = await insertReview(portal, underReviewId, cast.expert.id, { status: 'opened' });
  });

  /** A staff decision on the received record, an answer of the expert's review: refused with 400. */
  const badDecision = (body: Record<string, unknown>, key: string, field?: string) =>
    refusedInBoth(receiveId, (h) => decide(portal, cast.staff.token, receiveId, body, h), 400, key, field);
  const badAnswer = (body: Record<string, unknown>, key: string, field?: string) =>
    refusedInBoth(underReviewId, (h) => answerReview(portal, cast.expert.token, reviewId, body, h), 400, key, field);

  it('refuses decisions and outcomes outside the lists', async () => {
    await badDecision({ review_status: 'destroy', content: 'x' }, 'review.validation.decision');
    await badDecision({ review_status: 'underReview' }, 'review.validation.decision');
    await badDecision({ is_pre_review: false }, 'review.validation.decision');
    await badDecision({}, 'review.validation.decision');
    await badAnswer({ review_status: 'maybe', content: 'Hmm.' }, 'review.validation.outcome', 'review_status');
    const topicId = await insertRecord(portal, cast.creator.id, { status: 'submitted', topic_review_status: 'waiting' });
    await linkTopic(portal, topicId, cast.specialId);
    const badTopic = (h: Record<string, string>) => topicReview(portal, cast.leader.token, topicId, { review_status: 'pass_after_modification', content: 'x' }, h);
    await refusedInBoth(topicId, badTopic, 400, 'review.validation.outcome', 'review_status');
    expect((await ok(topicReview(portal, cast.leader.token, topicId, { review_status: 'pass', content: '' }))).topic_review_status).toBe('pass');
  });

  it('refuses comments over 20,000 characters, and takes one of exactly 20,000', async () => {
    const long = 'x'.repeat(REVIEW_COMMENT_MAX + 1);
    await badDecision({ review_status: 'return', content: long }, 'review.validation.commentTooLong', 'content');
    await badDecision({ review_status: 'refuse' }, 'review.validation.commentRequired', 'content');
    await badAnswer({ review_status: 'pass', content: long }, 'review.validation.commentTooLong', 'content');
    await badAnswer({ review_status: 'pass', content: '   ' }, 'review.validation.commentRequired', 'content');
    const longMessage = (h: Record<string, string>) => invite(portal, cast.staff.token, { metadata: receiveId, experts: [cast.expert.id], message: long }, h);
    await refusedInBoth(receiveId, longMessage, 400, 'review.validation.commentTooLong', 'message');
    const exact = await ok(answerReview(portal, cast.expert.token, reviewId, { review_status: 'pass', content: 'y'.repeat(REVIEW_COMMENT_MAX) }));
    expect(exact.content).toHaveLength(REVIEW_COMMENT_MAX);
  });

  it('refuses a review of someone else: 404 for another user, 403 for staff', async () => {
    const otherExpert = await insertReview(portal, underReviewId, cast.expert2.id);
    for (const person of [cast.stranger, cast.creator, cast.expert]) {
      await refusedInBoth(underReviewId, (h) => answerReview(portal, person.token, otherExpert, { review_status: 'no_pass', content: 'Forged.' }, h), 404, 'errors.notFound');
      await refusedInBoth(underReviewId, (h) => declineReview(portal, person.token, otherExpert, '', h), 404, 'errors.notFound');
      expect((await openReview(portal, person.token, otherExpert)).statusCode).toBe(404);
    }
    await refusedInBoth(underReviewId, (h) => answerReview(portal, cast.staff.token, otherExpert, { review_status: 'no_pass', content: 'Forged.' }, h), 403, 'review.notYours');
    await refusedInBoth(underReviewId, (h) => declineReview(portal, cast.staff.token, otherExpert, '', h), 403, 'review.notYours');
    await refusedInBoth(underReviewId, (h) => answerReview(portal, cast.expert.token, crypto.randomUUID(), { review_status: 'pass', content: 'x' }, h), 404, 'errors.notFound');
  });

  it('refuses a decision on a missing record with 404', async () => {
    const missing = crypto.randomUUID();
    for (const [language, headers] of [
      ['en', EN],
      ['zh-hans', ZH],
    ] as [Language, Record<string, string>][]) {
      for (const response of [
        await decide(portal, cast.staff.token, missing, { review_status: 'receive' }, headers),
        await invite(portal, cast.staff.token, { metadata: missing, experts: [cast.expert.id] }, headers),
        await topicReview(portal, cast.leader.token, missing, { review_status: 'pass', content: '' }, headers),
        await call(portal, 'GET', reviewStateUrl(missing), cast.staff.token, { headers }),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().detail).toBe(translate(language, 'metadata.notFound'));
      }
    }
  });

  it('refuses invitations with a deadline in the past or not a date, of the creator, of unknown or already invited experts', async () => {
    const invitation = (body: Record<string, unknown>) => (h: Record<string, string>) =>
      invite(portal, cast.staff.token, { metadata: receiveId, experts: [cast.expert.id], ...body }, h);
    await refusedInBoth(receiveId, invitation({ deadline: inDays(-1) }), 400, 'review.validation.deadlinePast', 'deadline');
    await refusedInBoth(receiveId, invitation({ deadline: '2030-02-30' }), 400, 'review.validation.deadline', 'deadline');
    await refusedInBoth(receiveId, invitation({ deadline: 'next week' }), 400, 'review.validation.deadline', 'deadline');
    await refusedInBoth(receiveId, invitation({ experts: [cast.creator.id] }), 400, 'review.validation.expertIsCreator', 'experts');
    await refusedInBoth(receiveId, invitation({ experts: [cast.expert.id, cast.creator.id] }), 400, 'review.validation.expertIsCreator', 'experts');
    await refusedInBoth(receiveId, invitation({ experts: [crypto.randomUUID()] }), 400, 'review.validation.unknownExpert', 'experts');
    await refusedInBoth(receiveId, invitation({ experts: [] }), 400, 'review.validation.experts', 'experts');
    await refusedInBoth(receiveId, invitation({ experts: Array.from({ length: 21 }, () => cast.expert.id) }), 400, 'review.validation.tooManyExperts', 'experts');
    // Today is not in the past.
    expect((await ok(invite(portal, cast.staff.token, { metadata: receiveId, experts: [cast.expert.id], deadline: inDays(0) }))).status).toBe('invited');
    await refusedInBoth(receiveId, invitation({ experts: [cast.expert.id] }), 400, 'review.validation.alreadyInvited', 'experts');
  });

  it('refuses the review calls to a visitor who is not signed in', async () => {
    for (const response of [
      await decide(portal, null, receiveId, { review_status: 'receive' }),
      await answerReview(portal, null, reviewId, { review_status: 'pass', content: 'x' }),
      await call(portal, 'GET', '/api/metadata/invited-review/', null),
      await invite(portal, null, { metadata: receiveId, experts: [cast.expert2.id] }),
    ]) {
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('what an invited expert may read', () => {
  let id: string;
  let fileId: string;
  let documentId: string;
  const download = (token: string | null) => call(portal, 'GET', `/api/metadata/meta-file/${fileId}/download/`, token);
  const document = (token: string | null) => call(portal, 'GET', `/api/metadata/meta-attach/${documentId}/download/`, token);
  const record = (token: string | null) => call(portal, 'GET', recordUrl(id), token);

  async function expectReads(person: Person, reads: boolean) {
    expect((await record(person.token)).statusCode).toBe(reads ? 200 : 404);
    const file = await download(person.token);
    expect(file.statusCode).toBe(reads ? 200 : 404);
    if (reads) expect(file.body).toBe('glacier,area\n1990,100\n');
    expect((await document(person.token)).statusCode).toBe(reads ? 200 : 404);
  }

  beforeAll(async () => {
    id = await insertRecord(portal, cast.creator.id);
    fileId = expectStatus(
      await upload(portal, cast.creator.token, '/metadata/upload-file/', id, { filename: 'glacier.csv', content: 'glacier,area\n1990,100\n', type: 'text/csv' }),
      201,
    ).id;
    documentId = expectStatus(
      await upload(portal, cast.creator.token, '/metadata/upload-attachment', id, { filename: 'method.txt', content: 'How it was made.', type: 'text/plain' }),
      201,
    ).id;
    await setStatus(portal, id, 'receive');
  });

  it('reads nothing before the invitation, the record and its files once invited, while the review goes on', async () => {
    await expectReads(cast.expert, false);
    await expectReads(cast.stranger, false);
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id, cast.expert2.id] }));
    await expectReads(cast.expert, true);
    await expectReads(cast.expert2, true);
    await expectReads(cast.stranger, false);
    const review = (await reviewsOf(portal, id)).find((r) => r.expert_id === cast.expert.id)!;
    await ok(openReview(portal, cast.expert.token, review.id));
    expect(await storedStatus(portal, id)).toBe('underReview');
    await expectReads(cast.expert, true);
  });

  it('reads nothing once declined; the other expert reads on', async () => {
    const review = (await reviewsOf(portal, id)).find((r) => r.expert_id === cast.expert.id)!;
    // A bare POST declines, without a reason.
    expect((await ok(call(portal, 'POST', `/api/metadata/review/${review.id}/decline/`, cast.expert.token))).review_status).toBe('declined');
    await expectReads(cast.expert, false);
    expect((await call(portal, 'GET', reviewStateUrl(id), cast.expert.token)).statusCode).toBe(404);
    // Declined is final for this round.
    const late = await answerReview(portal, cast.expert.token, review.id, { review_status: 'pass', content: 'After all.' }, EN);
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe('You declined this invitation.');
    await expectReads(cast.expert2, true);
  });

  it('reads nothing once the record returned to draft, and again when it comes back to the expert who did not decline', async () => {
    const review = (await reviewsOf(portal, id)).find((r) => r.expert_id === cast.expert2.id)!;
    await ok(answerReview(portal, cast.expert2.token, review.id, { review_status: 'pass_after_modification', content: 'Add units.' }));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Add units.' }));
    await expectReads(cast.expert2, false);
    await expectReads(cast.expert, false);
    // Resubmitted (the checklist is not this test's) and taken in: round 2 goes to the expert who did not decline.
    await setStatus(portal, id, 'submitted');
    expect((await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }))).status).toBe('invited');
    expect((await reviewsOf(portal, id)).filter((r) => Number(r.round) === 2).map((r) => r.expert_id)).toEqual([cast.expert2.id]);
    await expectReads(cast.expert2, true);
    await expectReads(cast.expert, false);
    await expectReads(cast.stranger, false);
  });
});

describe('mails', () => {
  let staffEn: Person;
  const site = (language: Language) => translate(language, 'site.portal.title');

  beforeAll(async () => {
    staffEn = await buildUser(portal, { staff: true, realname: 'Staff Evans' });
    await setUserLanguage(portal, staffEn.id, 'en');
    await setUserLanguage(portal, cast.expert2.id, 'en');
  });

  it('tells staff of a new submission, experts of their invitation, the creator of each decision, each in their language', async () => {
    const record = await buildCompleteRecord(portal, cast.creator);
    const title = '青藏高原冰川面积变化数据集（1990-2020）';
    expectStatus(await submit(portal, cast.creator.token, record.id), 200);
    for (const [person, language] of [
      [cast.staff, 'zh-hans'],
      [staffEn, 'en'],
    ] as [Person, Language][]) {
      const mail = (await mailsTo(portal, person.email)).at(-1)!;
      expect(mail.subject).toBe(translate(language, 'review.mail.submittedSubject', { site: site(language), title }));
      expect(mail.text).toContain(`http://portal.test${language === 'en' ? '/en' : ''}/admin/review`);
    }

    await ok(decide(portal, cast.staff.token, record.id, { review_status: 'receive' }));
    const earlier = { [cast.expert.id]: (await mailsTo(portal, cast.expert.email)).length, [cast.expert2.id]: (await mailsTo(portal, cast.expert2.email)).length };
    await ok(invite(portal, cast.staff.token, { metadata: record.id, experts: [cast.expert.id, cast.expert2.id], deadline: inDays(7), message: 'Mind the 1990 scenes.' }));
    const reviews = await reviewsOf(portal, record.id);
    for (const [person, language] of [
      [cast.expert, 'zh-hans'],
      [cast.expert2, 'en'],
    ] as [Person, Language][]) {
      const mails = (await mailsTo(portal, person.email)).slice(earlier[person.id]);
      expect(mails).toHaveLength(1);
      const review = reviews.find((r) => r.expert_id === person.id)!;
      expect(mails[0]!.subject).toBe(translate(language, 'review.mail.invitationSubject', { site: site(language), title }));
      expect(mails[0]!.text).toContain(`http://portal.test${language === 'en' ? '/en' : ''}/personal/#/review/advice/${review.id}`);
      expect(mails[0]!.text).toContain(inDays(7));
      expect(mails[0]!.text).toContain('Mind the 1990 scenes.');
    }

    // The experts answer; the creator hears of the decision with every comment, the unsigned expert unnamed.
    for (const [person, outcome, content, signed] of [
      [cast.expert, 'review_after_modification', 'Redo the 1990 outlines.', false],
      [cast.expert2, 'pass', 'Fine work.', true],
    ] as [Person, string, string, boolean][]) {
      const review = reviews.find((r) => r.expert_id === person.id)!;
      await ok(answerReview(portal, person.token, review.id, { review_status: outcome, content, signed }));
    }
    const before = (await mailsTo(portal, cast.creator.email)).length;
    await ok(decide(portal, cast.staff.token, record.id, { review_status: 'return', content: 'Please follow the first review.' }));
    const mails = await mailsTo(portal, cast.creator.email);
    expect(mails).toHaveLength(before + 1);
    const decision = mails.at(-1)!;
    expect(decision.subject).toBe(translate('zh-hans', 'review.mail.decisionSubject', { site: site('zh-hans'), title, decision: translate('zh-hans', 'review.actions.return') }));
    expect(decision.text).toContain('Please follow the first review.');
    expect(decision.text).toContain('Redo the 1990 outlines.');
    expect(decision.text).toContain('Fine work.');
    expect(decision.text).toContain(translate('zh-hans', 'review.labels.review_after_modification'));
    expect(decision.text).not.toContain('Expert Wang');

    // A creator who reads English is told in English.
    const english = await buildUser(portal, { realname: 'Creator Evans' });
    await setUserLanguage(portal, english.id, 'en');
    const refused = await insertRecord(portal, english.id, { status: 'receive', title: 'Permafrost temperatures' });
    await ok(decide(portal, cast.staff.token, refused, { review_status: 'refuse', content: 'Out of the portal’s scope.' }));
    const refusal = (await mailsTo(portal, english.email)).at(-1)!;
    expect(refusal.subject).toBe(`${site('en')}: “Permafrost temperatures”: Refused`);
    expect(refusal.text).toContain('Out of the portal’s scope.');
  });

  it('reminds an expert past the deadline once, and nobody who answered or declined', async () => {
    const id = await insertRecord(portal, cast.creator.id, { status: 'underReview', review_round: 1, title: 'Lake ice phenology' });
    const late = await insertReview(portal, id, cast.expert2.id, { status: 'opened', deadline: inDays(3) });
    await insertReview(portal, id, cast.expert.id, { status: 'pass', deadline: inDays(-3) });
    await insertReview(portal, id, cast.invitee.id, { status: 'declined', deadline: inDays(-3) });
    expect(await portal.review.remindOverdue()).toBe(0);

    // The deadline passes.
    await portal.database.db
      .updateTable('reviews')
      .set({ deadline: inDays(-1) })
      .where('id', '=', late)
      .execute();
    const before = (await readOutbox(portal.outbox)).length;
    expect(await portal.review.remindOverdue()).toBe(1);
    const outbox = await readOutbox(portal.outbox);
    expect(outbox).toHaveLength(before + 1);
    const reminder = outbox.at(-1)!;
    expect(reminder.to).toContain(cast.expert2.email);
    expect(reminder.subject).toBe(translate('en', 'review.mail.reminderSubject', { site: site('en'), title: 'Lake ice phenology', deadline: inDays(-1) }));
    expect(reminder.text).toContain(`/en/personal/#/review/advice/${late}`);

    expect(await portal.review.remindOverdue()).toBe(0);
    expect(await readOutbox(portal.outbox)).toHaveLength(before + 1);
  });
});

describe('an expert’s lists', () => {
  it('pages and searches the reviews of the caller only', async () => {
    const expert = await buildUser(portal, { realname: 'Expert Lin' });
    const titles = ['Snow cover of the Pamirs', 'Glacier lakes of Bhutan', 'Snow depth of the Altai'];
    for (const title of titles) {
      const id = await insertRecord(portal, cast.creator.id, { status: 'invited', review_round: 1, title });
      await insertReview(portal, id, expert.id);
    }
    const all = await ok(call(portal, 'GET', '/api/metadata/my-review/?page=1&pageSize=2', expert.token));
    expect(all.count).toBe(3);
    expect(all.results).toHaveLength(2);
    expect(all.next).toEqual(expect.any(String));
    const snow = await ok(call(portal, 'GET', '/api/metadata/my-review/?search=snow', expert.token));
    expect(snow.results.map((r: any) => r.record.title).sort()).toEqual(['Snow cover of the Pamirs', 'Snow depth of the Altai']);
    expect((await ok(call(portal, 'GET', '/api/metadata/invited-review/', expert.token))).count).toBe(3);
    expect((await ok(call(portal, 'GET', '/api/metadata/review/', expert.token))).count).toBe(0);
    expect((await ok(call(portal, 'GET', '/api/metadata/my-review/', cast.stranger.token))).count).toBe(0);
  });
});
