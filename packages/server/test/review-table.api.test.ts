import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTransition, METADATA_STATUSES, REVIEW_ACTIONS, type ReviewAction, type ReviewRole } from '@portal/shared';
import { EXPERT_VISIBLE_STATUSES } from '../src/modules/metadata/metadata-access.js';
import type { TestPortal } from './helpers.js';
import { buildCompleteRecord, storedStatus } from './metadata-builders.js';
import { eventsOf, insertRecord, insertReview, linkTopic, takeAction, startReviewPortal, type Cast } from './review-builders.js';

/**
 * The table-driven walk of the review workflow: every (status, action, role) triple, taken through
 * its real HTTP call on a record put straight into the status, asserting the transition that
 * REVIEW_TRANSITIONS allows or the refusal.
 *
 * How the expected reply is decided (the table alone does not say who learns that a record exists):
 * - Who cannot see the record gets 404, as for an unknown id. Seeing (MetadataAccess.readable): the
 *   creator and staff always; everyone once published; a project leader of the record's topic once
 *   submitted (any status but draft); an invited expert while the record is with the experts
 *   (EXPERT_VISIBLE_STATUSES) and once published.
 * - Invite is a staff-only call: everyone else gets 403 on any id (nothing to learn from it).
 * - Submit and return to draft are the creator's calls on their own record: others who see it get
 *   the 'no right' 403, the creator and staff then the table's verdict.
 * - Open, answer and decline name an expert's review, not the record: a review of someone else is
 *   404; staff may read any review (GET, no transition) but not answer or decline it (403). The GET
 *   that opens a review is a read too: outside the states the table allows 'open' in, the expert
 *   still reads their review (200) and nothing moves.
 * - Otherwise checkTransition decides: 'role' is 403, 'state' is 409, ok is 200 with the stored
 *   status the table names (its own status when the table says null) and one event of the trail.
 * A refusal changes nothing: same status, no event.
 */

type Role = ReviewRole | 'stranger';
const ROLES: Role[] = ['creator', 'leader', 'expert', 'staff', 'stranger'];
const REVIEW_CALLS: ReviewAction[] = ['open', 'answer', 'decline'];
const OWNER_CALLS: ReviewAction[] = ['submit', 'return_to_draft'];

type Expected = { code: 200; to: string } | { code: 200; read: true } | { code: 403 | 404 | 409 };

function sees(role: Role, status: string): boolean {
  if (role === 'creator' || role === 'staff' || status === 'published') return true;
  if (role === 'leader') return status !== 'draft';
  if (role === 'expert') return (EXPERT_VISIBLE_STATUSES as readonly string[]).includes(status);
  return false;
}

function fromTable(status: string, action: ReviewAction, role: Role): Expected {
  const check = checkTransition(status, action, role === 'stranger' ? [] : [role]);
  if (check.ok) return { code: 200, to: check.to ?? status };
  return { code: check.refusal === 'role' ? 403 : 409 };
}

function expected(status: string, action: ReviewAction, role: Role): Expected {
  if (REVIEW_CALLS.includes(action)) {
    if (role === 'staff') return action === 'open' ? { code: 200, read: true } : { code: 403 };
    if (role !== 'expert') return { code: 404 };
    const verdict = fromTable(status, action, role);
    return action === 'open' && verdict.code !== 200 ? { code: 200, read: true } : verdict;
  }
  if (action === 'invite' && role !== 'staff') return { code: 403 };
  if (!sees(role, status)) return { code: 404 };
  if (OWNER_CALLS.includes(action) && role !== 'creator' && role !== 'staff') return { code: 403 };
  return fromTable(status, action, role);
}

let portal: TestPortal;
let cast: Cast;

beforeAll(async () => ({ portal, cast } = await startReviewPortal()), 120_000);
afterAll(() => portal?.close());

/** A fresh record in `status` with what `role` and `action` need, and the context of the call. */
async function fixture(status: string, action: ReviewAction, role: Role) {
  const topicStep = action === 'topic_pass' || action === 'topic_no_pass';
  let recordId: string;
  if (status === 'draft' && action === 'submit' && role === 'creator') {
    // The one allowed submit needs a record that passes the checklist.
    recordId = (await buildCompleteRecord(portal, cast.creator)).id;
    await portal.database.db.updateTable('metadata').set({ submitting_type: 'project', review_round: 1 }).where('id', '=', recordId).execute();
  } else {
    recordId = await insertRecord(portal, cast.creator.id, { status, review_round: 1, topic_review_status: topicStep ? 'waiting' : '' });
  }
  if (role === 'leader') await linkTopic(portal, recordId, cast.specialId);
  let reviewId: string | undefined;
  if (role === 'expert' || REVIEW_CALLS.includes(action)) reviewId = await insertReview(portal, recordId, cast.expert.id);
  // Approve needs an answer of the current round.
  if (action === 'approve') await insertReview(portal, recordId, cast.expert2.id, { status: 'pass' });
  return { recordId, reviewId, inviteeId: cast.invitee.id };
}

const tokenOf = (role: Role) => cast[role].token;

describe('every (status, action, role) of the review workflow', () => {
  for (const status of METADATA_STATUSES) {
    describe(`a record in ${status}`, () => {
      for (const action of REVIEW_ACTIONS) {
        it(`${action}: ${ROLES.map((role) => `${role} ${describeExpected(expected(status, action, role))}`).join(', ')}`, async () => {
          const failures: string[] = [];
          for (const role of ROLES) {
            const want = expected(status, action, role);
            const ctx = await fixture(status, action, role);
            const response = await takeAction(portal, action, tokenOf(role), ctx);
            const stored = await storedStatus(portal, ctx.recordId);
            const events = await eventsOf(portal, ctx.recordId);
            const seen = `${role}: ${response.statusCode} ${stored} (${events.map((e) => `${e.action} ${e.from_status}->${e.to_status}`).join('; ')}) ${response.statusCode >= 400 ? response.body : ''}`;
            if (response.statusCode !== want.code) {
              failures.push(`expected ${want.code}, ${seen}`);
              continue;
            }
            if ('to' in want) {
              const event = events.find((e) => e.action === action);
              const ok = stored === want.to && event?.from_status === status && event.to_status === want.to && event.actor_id === cast[role as ReviewRole].id;
              if (!ok) failures.push(`expected ${status} -> ${want.to} logged, ${seen}`);
            } else {
              // A refusal, or a read: nothing changed.
              if (stored !== status || events.length) failures.push(`expected nothing to change, ${seen}`);
              if (want.code !== 200 && !response.json().detail) failures.push(`expected a message, ${seen}`);
            }
          }
          expect(failures, failures.join('\n')).toEqual([]);
        });
      }
    });
  }
});

function describeExpected(want: Expected): string {
  if ('to' in want) return `-> ${want.to}`;
  if ('read' in want) return 'reads';
  return String(want.code);
}
