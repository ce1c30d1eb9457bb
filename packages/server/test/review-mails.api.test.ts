import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { createTestPortal, EN, linkIn, login, mailsTo, type TestPortal } from './helpers.js';
import { answerReview, decide, insertRecord, invite, ok, reviewsOf, type Person } from './review-builders.js';

/**
 * The decision mails the creator gets (issue 16): an expert who signed is named in the approval and
 * publication mails as in the creator's own view (an expert who did not sign stays anonymous), and the
 * publication mail links to the dataset's public page, in the language of the creator's mails.
 */

let portal: TestPortal;
let creator: Person;
let signer: Person;
let blind: Person;
let staff: Person;

beforeAll(async () => {
  portal = await createTestPortal();
  [creator, signer, blind, staff] = await Promise.all([
    buildUser(portal, { realname: 'Creator Chen' }),
    buildUser(portal, { realname: '赵敏' }),
    buildUser(portal, { realname: '王磊' }),
    buildUser(portal, { staff: true, realname: 'Staff Zhou' }),
  ]);
}, 120_000);
afterAll(() => portal?.close());

const SIGNED_ANSWER = 'The outlines match the scenes.';
const BLIND_ANSWER = 'Add the units of the thickness.';

/** A record taken in by staff, reviewed by both experts (one signs), then approved: answers the creator's approval mail. */
async function approvedRecord(): Promise<{ id: string; approval: { subject: string; text: string } }> {
  const id = await insertRecord(portal, creator.id, { status: 'receive' });
  await ok(invite(portal, staff.token, { metadata: id, experts: [signer.id, blind.id] }));
  const reviews = await reviewsOf(portal, id);
  const reviewOf = (expert: Person) => reviews.find((r) => r.expert_id === expert.id)!.id;
  await ok(answerReview(portal, signer.token, reviewOf(signer), { review_status: 'pass', content: SIGNED_ANSWER, signed: true }));
  await ok(answerReview(portal, blind.token, reviewOf(blind), { review_status: 'pass', content: BLIND_ANSWER, signed: false }));
  const before = (await mailsTo(portal, creator.email)).length;
  await ok(decide(portal, staff.token, id, { review_status: 'approve', content: '' }));
  const mails = (await mailsTo(portal, creator.email)).slice(before);
  expect(mails).toHaveLength(1);
  return { id, approval: mails[0]! };
}

async function publish(id: string, action: 'publish' | 'publish_without_review' = 'publish') {
  const before = (await mailsTo(portal, creator.email)).length;
  await ok(decide(portal, staff.token, id, { review_status: action }));
  const mails = (await mailsTo(portal, creator.email)).slice(before);
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

/** The line of a mail that carries an answer. */
const lineOf = (text: string, answer: string) => text.split('\n').find((line) => line.includes(answer)) ?? '';

describe('the approval and publication mails, in Chinese', () => {
  it('name the expert who signed, not the one who did not, and link the published record to its public page', async () => {
    const { id, approval } = await approvedRecord();
    expect(approval.subject).toContain('审核通过');
    expect(lineOf(approval.text, SIGNED_ANSWER)).toContain('审稿专家 赵敏');
    expect(lineOf(approval.text, BLIND_ANSWER)).toContain('审稿专家');
    expect(approval.text).not.toContain('王磊');
    // Approved, not published yet: the link is the creator's editor.
    expect(linkIn(approval.text)).toBe(`http://portal.test/personal/#/metadata/edit/${id}`);

    const published = await publish(id);
    expect(lineOf(published.text, SIGNED_ANSWER)).toContain('审稿专家 赵敏');
    expect(published.text).not.toContain('王磊');
    expect(published.text).toContain(`公开页面：http://portal.test/data/${id}/`);
    expect(published.text).not.toContain('/personal/');
  });
});

describe('the approval and publication mails, in English', () => {
  beforeAll(async () => {
    // The creator signs in on an English page: their mails are in English from then on.
    creator.token = await login(portal.app, creator.username, creator.password, EN);
  });

  it('name the expert who signed and link to the English public page', async () => {
    const { id, approval } = await approvedRecord();
    expect(approval.subject).toContain('Approved');
    expect(lineOf(approval.text, SIGNED_ANSWER)).toContain('Expert 赵敏');
    expect(approval.text).not.toContain('王磊');
    expect(linkIn(approval.text)).toBe(`http://portal.test/en/personal/#/metadata/edit/${id}`);

    const published = await publish(id);
    expect(published.subject).toContain('Published');
    expect(lineOf(published.text, SIGNED_ANSWER)).toContain('Expert 赵敏');
    expect(published.text).toContain(`Its public page: http://portal.test/en/data/${id}/`);
  });

  it('link a record published without review to its public page too', async () => {
    const id = await insertRecord(portal, creator.id, { status: 'submitted' });
    const published = await publish(id, 'publish_without_review');
    expect(linkIn(published.text)).toBe(`http://portal.test/en/data/${id}/`);
  });
});
