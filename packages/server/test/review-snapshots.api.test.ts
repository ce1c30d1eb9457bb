import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPortal } from './helpers.js';
import { addKeyword, buildCompleteRecord, call, expectStatus, patchRecord, submit } from './metadata-builders.js';
import { answerReview, decide, invite, ok, reviewUrl, reviewsOf, startReviewPortal, type Cast } from './review-builders.js';

/**
 * GET /api/metadata/review/{id}/snapshot/ (issue 16): the record as its creator submitted it for the
 * review's round, and for the round before, kept at each submission (review_snapshots, migration
 * 0010). Only the round's experts and staff read it; no author's contacts are in it.
 */

let portal: TestPortal;
let cast: Cast;

beforeAll(async () => ({ portal, cast } = await startReviewPortal()), 120_000);
afterAll(() => portal?.close());

const snapshotUrl = (reviewId: string) => `${reviewUrl(reviewId)}snapshot/`;
const snapshotOf = (reviewId: string, token: string | null) => call(portal, 'GET', snapshotUrl(reviewId), token);

/** The expert's review of a round. */
async function reviewOf(metadataId: string, expertId: string, round: number): Promise<string> {
  const row = (await reviewsOf(portal, metadataId)).find((review) => review.expert_id === expertId && Number(review.round) === round);
  if (!row) throw new Error(`no review of round ${round}`);
  return row.id;
}

describe('GET /api/metadata/review/{id}/snapshot/', () => {
  let id: string;
  let firstRound: string;
  const keywordCount = 12;

  beforeAll(async () => {
    const record = await buildCompleteRecord(portal, cast.creator);
    id = record.id;
    expectStatus(await submit(portal, cast.creator.token, id), 200);
    await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    await ok(invite(portal, cast.staff.token, { metadata: id, experts: [cast.expert.id] }));
    firstRound = await reviewOf(id, cast.expert.id, 1);
  }, 60_000);

  it("answers only the round's expert and staff: 401 signed out, 404 for anybody else", async () => {
    expect((await snapshotOf(firstRound, null)).statusCode).toBe(401);
    for (const [name, person] of Object.entries({ stranger: cast.stranger, otherExpert: cast.expert2, creator: cast.creator, leader: cast.leader })) {
      expect((await snapshotOf(firstRound, person.token)).statusCode, name).toBe(404);
    }
    expect((await snapshotOf(firstRound, cast.staff.token)).statusCode).toBe(200);
  });

  it('gives the expert the whole record as submitted: authors, keywords, funds, thumbnail, files, no contacts', async () => {
    const reply = expectStatus(await snapshotOf(firstRound, cast.expert.token), 200);
    expect(reply.round).toBe(1);
    expect(reply.previous).toBeNull();
    const { snapshot } = reply.current;
    expect(snapshot.record.id).toBe(id);
    expect(snapshot.record.title).toBe('青藏高原冰川面积变化数据集（1990-2020）');
    expect(snapshot.record.translations.find((version: { language: string }) => version.language === 'en').title).toBe('Glacier area changes of the Tibetan Plateau (1990-2020)');
    expect(snapshot.authors.map((link: { role: string }) => link.role).sort()).toEqual(['principalInvestigator', 'resourceProvider']);
    const author = snapshot.authors[0].author_detail;
    expect(author.name).toMatch(/^张冰川/);
    expect(author.affiliation).toBe('中国科学院青藏高原研究所');
    // The expert never learns how to reach the authors.
    expect([author.email, author.phone, author.address, author.zipcode]).toEqual(['', '', '', '']);
    expect(JSON.stringify(reply)).not.toMatch(/@example\.org/);
    expect(snapshot.keywords).toHaveLength(keywordCount);
    expect(snapshot.funds.map((link: { fund_id: string }) => link.fund_id)).toEqual(['5']);
    expect(snapshot.thumbnail?.image).toMatch(/^\/api\/metadata\/meta-media\/.+\/image\/$/);
    expect(snapshot.files).toHaveLength(1);
    expect(snapshot.documents).toEqual([]);
  });

  it("keeps each round: the resubmission of round 2 and round 1 beside it, for the round's expert alone", async () => {
    await ok(answerReview(portal, cast.expert.token, firstRound, { review_status: 'review_after_modification', content: 'Give the area per basin.' }));
    await ok(decide(portal, cast.staff.token, id, { review_status: 'return', content: 'Please answer the expert.' }));
    // The creator changes the record, then submits it again.
    await patchRecord(portal, cast.creator.token, id, { title: '青藏高原冰川面积变化数据集（1990-2020，分流域）' });
    await addKeyword(portal, cast.creator.token, id, 'place', '祁连山');
    expectStatus(await submit(portal, cast.creator.token, id), 200);
    // Taken in: the expert of round 1 is invited to round 2.
    await ok(decide(portal, cast.staff.token, id, { review_status: 'receive' }));
    const secondRound = await reviewOf(id, cast.expert.id, 2);

    const reply = expectStatus(await snapshotOf(secondRound, cast.expert.token), 200);
    expect(reply.round).toBe(2);
    expect(reply.current.snapshot.record.title).toBe('青藏高原冰川面积变化数据集（1990-2020，分流域）');
    expect(reply.current.snapshot.keywords).toHaveLength(keywordCount + 1);
    expect(reply.previous.round).toBe(1);
    expect(reply.previous.snapshot.record.title).toBe('青藏高原冰川面积变化数据集（1990-2020）');
    expect(reply.previous.snapshot.keywords).toHaveLength(keywordCount);

    // The round-1 invitation no longer stands: its expert reads the record through round 2 only.
    expect((await snapshotOf(firstRound, cast.expert.token)).statusCode).toBe(404);
    expect((await snapshotOf(firstRound, cast.staff.token)).statusCode).toBe(200);
  });

  it('keeps one snapshot a round: a record taken back and submitted again before its round began replaces it', async () => {
    const record = await buildCompleteRecord(portal, cast.creator);
    expectStatus(await submit(portal, cast.creator.token, record.id), 200);
    expectStatus(await call(portal, 'POST', '/metadata/return-draft/', cast.creator.token, { body: { id: record.id } }), 200);
    await patchRecord(portal, cast.creator.token, record.id, { title: '第二次提交的标题' });
    expectStatus(await submit(portal, cast.creator.token, record.id), 200);
    const rows = await portal.database.db.selectFrom('review_snapshots').selectAll().where('metadata_id', '=', record.id).execute();
    expect(rows.map((row) => Number(row.round))).toEqual([1]);
    expect(JSON.parse(rows[0]!.snapshot).record.title).toBe('第二次提交的标题');
  });
});
