import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { insertRecord, insertReview, startReviewPortal, type Cast } from './review-builders.js';

/**
 * The personal centre's lists of one's own records carry each record's review label, so that the
 * "in review" list shows it in words without a call per row.
 */

let portal: TestPortal;
let cast: Cast;

beforeAll(async () => {
  ({ portal, cast } = await startReviewPortal());
}, 120_000);

afterAll(() => portal?.close());

const PERSONAL = { personal: 'true', 'accept-language': 'en' };
const list = (token: string, headers: Record<string, string>) =>
  call(portal, 'GET', '/api/metadata/metadata/?status[]=submitted&status[]=underReview&status[]=draft&pageSize=50', token, { headers });

describe('review labels in the personal list', () => {
  it('gives each own record its label, computed from its status and the answered reviews', async () => {
    const waiting = await insertRecord(portal, cast.creator.id, { status: 'submitted', submitting_type: 'general' });
    const leader = await insertRecord(portal, cast.creator.id, { status: 'submitted', topic_review_status: 'waiting' });
    const reviewed = await insertRecord(portal, cast.creator.id, { status: 'underReview', review_round: 1, submitting_type: 'general' });
    await insertReview(portal, reviewed, cast.expert.id, { status: 'pass' });
    await insertReview(portal, reviewed, cast.expert2.id, { status: 'pass_after_modification' });
    const draft = await insertRecord(portal, cast.creator.id, { status: 'draft' });

    const page = expectStatus<{ results: { id: string; review_label: string | null }[] }>(await list(cast.creator.token, PERSONAL), 200);
    const labelOf = (id: string) => page.results.find((row) => row.id === id)?.review_label;
    expect(labelOf(waiting)).toBe('notReviewed');
    expect(labelOf(leader)).toBe('waitingLeader');
    expect(labelOf(reviewed)).toBe('pass_after_modification');
    expect(labelOf(draft)).toBeNull();
  });

  it('lists only the caller’s records with labels, and leaves the other lists as they were', async () => {
    const mine = await insertRecord(portal, cast.stranger.id, { status: 'submitted', submitting_type: 'general' });
    const own = expectStatus<{ results: { id: string; review_label?: string | null }[] }>(await list(cast.stranger.token, PERSONAL), 200);
    expect(own.results.map((row) => row.id)).toEqual([mine]);
    expect(own.results[0]!.review_label).toBe('notReviewed');
    // Staff's list outside the personal centre: every record, no labels computed.
    const all = expectStatus<{ results: { id: string; review_label?: string | null }[] }>(await list(cast.staff.token, { personal: 'false', 'accept-language': 'en' }), 200);
    expect(all.results.some((row) => row.id === mine)).toBe(true);
    expect(all.results.every((row) => row.review_label === undefined)).toBe(true);
  });
});

describe('the desk filtered by the formal pre-review', () => {
  it('lists the received records whose pre-review is not done, or done, as asked', async () => {
    const waiting = await insertRecord(portal, cast.creator.id, { status: 'receive', submitting_type: 'general' });
    const done = await insertRecord(portal, cast.creator.id, { status: 'receive', submitting_type: 'general' });
    expectStatus(await call(portal, 'PATCH', `/api/metadata/review-status/${done}/set_review_status/`, cast.staff.token, { body: { is_pre_review: true } }), 200);
    const desk = async (query: string) =>
      expectStatus<{ count: number; results: { id: string; is_pre_review: boolean }[] }>(
        await call(portal, 'GET', `/api/metadata/review-status/?status=receive&pageSize=100${query}`, cast.staff.token),
        200,
      );
    const notDone = await desk('&is_pre_review=false');
    expect(notDone.results.map((row) => row.id)).toContain(waiting);
    expect(notDone.results.map((row) => row.id)).not.toContain(done);
    expect(notDone.results.every((row) => !row.is_pre_review)).toBe(true);
    expect(notDone.count).toBe(notDone.results.length);
    const isDone = await desk('&is_pre_review=true');
    expect(isDone.results.map((row) => row.id)).toEqual([done]);
    expect((await desk('')).results.map((row) => row.id)).toEqual(expect.arrayContaining([waiting, done]));
    // Anything but yes or no is refused, and the desk stays staff's.
    expectStatus(await call(portal, 'GET', '/api/metadata/review-status/?is_pre_review=maybe', cast.staff.token), 400);
    expectStatus(await call(portal, 'GET', '/api/metadata/review-status/?is_pre_review=false', cast.creator.token), 403);
  });
});
