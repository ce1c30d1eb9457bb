import { describe, expect, it } from 'vitest';
import { METADATA_STATUSES } from '@portal/shared';
import type { AuthenticatedUser } from '../account/index.js';
import {
  assertOrderable,
  authorize,
  expertMayRead,
  factsNeeded,
  invitationStands,
  reviewRoles,
  type Decision,
  type PolicyRecord,
  type RecordAction,
  type RecordFacts,
} from './record-policy.js';

/**
 * The record policy for every caller the spec knows, on a record in every status: what each action
 * answers, written out per role (not recomputed from the rule), and that the facts `factsNeeded`
 * leaves out never change a decision (so callers may skip those queries).
 */

function person(id: string, roles: { staff?: boolean; project?: number } = {}): AuthenticatedUser {
  return {
    id,
    username: id,
    email: `${id}@example.org`,
    realname: id,
    name: id,
    phone: '',
    address: '',
    affiliation: '',
    zipcode: '',
    specialty: '',
    is_staff: roles.staff ?? false,
    is_project: roles.project ?? 0,
    date_joined: '2026-01-01T00:00:00.000Z',
    last_login: null,
    profile: { real_name: id },
    mail_language: 'en',
  };
}

const NOW = new Date('2026-06-01T00:00:00.000Z');
const ROUND = 2;

function recordIn(status: string, changes: Partial<PolicyRecord> = {}): PolicyRecord {
  return { owner_id: 'owner', status, review_round: ROUND, submitting_type: 'project', embargo_until: null, sharing_policy: 'center', ...changes };
}

interface Caller {
  user: AuthenticatedUser | null;
  facts: RecordFacts;
}

/** Every caller, with the facts about them the caller of the policy would fetch. */
const CALLERS: Record<string, Caller> = {
  anonymous: { user: null, facts: {} },
  owner: { user: person('owner'), facts: {} },
  other: { user: person('other'), facts: { invitations: [], managesTopic: false } },
  staff: { user: person('staff', { staff: true }), facts: {} },
  expertInvited: { user: person('expert'), facts: { invitations: [{ status: 'invited', round: ROUND }] } },
  expertReviewing: { user: person('expert'), facts: { invitations: [{ status: 'opened', round: ROUND }] } },
  expertAnswered: {
    user: person('expert'),
    facts: {
      invitations: [
        { status: 'review_after_modification', round: ROUND - 1 },
        { status: 'pass', round: ROUND },
      ],
    },
  },
  expertDeclined: { user: person('expert'), facts: { invitations: [{ status: 'declined', round: ROUND }] } },
  expertOfEarlierRound: { user: person('expert'), facts: { invitations: [{ status: 'pass', round: ROUND - 1 }] } },
  leader: { user: person('leader', { project: 1 }), facts: { invitations: [], managesTopic: true } },
  // A topic's manager whose account is no project leader's (is_project 0) leads no review.
  managerNotLeader: { user: person('manager'), facts: { invitations: [], managesTopic: true } },
};

type Outcome = 'ok' | '401' | '404' | '403 noRight' | '403 wrongRole' | '409 readOnly' | '409 filesPublished';

function outcome(decision: Decision): string {
  if (decision.allowed) return 'ok';
  const { status, messageKey } = decision.error;
  return status === 401 ? '401' : status === 404 ? '404' : `${status} ${messageKey.split('.').pop()}`;
}

/** An outcome for each status: `otherwise`, except where named. */
function byStatus(otherwise: Outcome, except: Partial<Record<string, Outcome>> = {}): Record<string, Outcome> {
  return Object.fromEntries(METADATA_STATUSES.map((status) => [status, except[status] ?? otherwise]));
}

const WITH_EXPERTS = ['invited', 'underReview', 'approved'] as const;
const each = (statuses: readonly string[], value: Outcome) => Object.fromEntries(statuses.map((status) => [status, value]));

/** What a reader who is nobody special may do: read and be refused once it is published, else not know it. */
const stranger = {
  read: byStatus('404', { published: 'ok' }),
  readFiles: byStatus('404', { published: '403 noRight' }),
  manage: byStatus('404', { published: '403 noRight' }),
  readReviews: byStatus('404', { published: '403 wrongRole' }),
  update: byStatus('404', { published: '403 noRight' }),
  delete: byStatus('404', { published: '403 noRight' }),
  changeFiles: byStatus('404', { published: '403 noRight' }),
};
const standingExpert = {
  read: byStatus('404', { ...each(WITH_EXPERTS, 'ok'), published: 'ok' }),
  readFiles: byStatus('404', { ...each(WITH_EXPERTS, 'ok'), published: '403 noRight' }),
  manage: byStatus('404', { ...each(WITH_EXPERTS, '403 noRight'), published: '403 noRight' }),
  readReviews: byStatus('404', { ...each(WITH_EXPERTS, '403 wrongRole'), published: '403 wrongRole' }),
  update: byStatus('404', { ...each(WITH_EXPERTS, '403 noRight'), published: '403 noRight' }),
  delete: byStatus('404', { ...each(WITH_EXPERTS, '403 noRight'), published: '403 noRight' }),
  changeFiles: byStatus('404', { ...each(WITH_EXPERTS, '403 noRight'), published: '403 noRight' }),
};

const EXPECTED: Record<string, Record<Exclude<RecordAction, 'download'>, Record<string, Outcome>>> = {
  anonymous: {
    read: byStatus('404', { published: 'ok' }),
    readFiles: byStatus('401'),
    manage: byStatus('401'),
    readReviews: byStatus('401'),
    update: byStatus('401'),
    delete: byStatus('401'),
    changeFiles: byStatus('401'),
  },
  owner: {
    read: byStatus('ok'),
    readFiles: byStatus('ok'),
    manage: byStatus('ok'),
    readReviews: byStatus('ok'),
    update: byStatus('409 readOnly', { draft: 'ok' }),
    delete: byStatus('409 readOnly', { draft: 'ok' }),
    // A published record's files are no creator's to change: the spec's 'no right'.
    changeFiles: byStatus('409 readOnly', { draft: 'ok', published: '403 noRight' }),
  },
  staff: {
    read: byStatus('ok'),
    readFiles: byStatus('ok'),
    manage: byStatus('ok'),
    readReviews: byStatus('ok'),
    update: byStatus('ok'),
    delete: byStatus('ok'),
    // Staff change a published record's files only once the review workflow has reopened it (unpublished).
    changeFiles: byStatus('ok', { published: '409 filesPublished' }),
  },
  other: stranger,
  expertInvited: standingExpert,
  expertReviewing: standingExpert,
  expertAnswered: standingExpert,
  expertDeclined: stranger,
  expertOfEarlierRound: stranger,
  leader: {
    read: byStatus('ok', { draft: '404' }),
    readFiles: byStatus('ok', { draft: '404' }),
    manage: byStatus('403 noRight', { draft: '404' }),
    readReviews: byStatus('403 wrongRole', { draft: '404' }),
    update: byStatus('403 noRight', { draft: '404' }),
    delete: byStatus('403 noRight', { draft: '404' }),
    changeFiles: byStatus('403 noRight', { draft: '404' }),
  },
  managerNotLeader: stranger,
};

describe('the record policy: read, files, manage, reviews, update, delete', () => {
  for (const [name, caller] of Object.entries(CALLERS)) {
    it(`answers ${name} as the spec says, in every status`, () => {
      for (const action of Object.keys(EXPECTED[name]!) as Exclude<RecordAction, 'download'>[]) {
        const got = Object.fromEntries(METADATA_STATUSES.map((status) => [status, outcome(authorize(caller.user, action, recordIn(status), caller.facts))]));
        expect({ action, outcomes: got }).toEqual({ action, outcomes: EXPECTED[name]![action] });
      }
    });
  }

  it('hides a leader-only record that is no project data (the leaders review project data only)', () => {
    const leader = CALLERS.leader!;
    expect(outcome(authorize(leader.user, 'read', recordIn('submitted', { submitting_type: 'personal' }), leader.facts))).toBe('404');
    expect(outcome(authorize(leader.user, 'read', recordIn('submitted'), leader.facts))).toBe('ok');
  });

  it('answers an unknown record as a hidden one, and the signed-out 401 before that', () => {
    for (const action of ['read', 'manage', 'update', 'download'] as const) expect(outcome(authorize(person('staff', { staff: true }), action, undefined))).toBe('404');
    expect(outcome(authorize(null, 'read', undefined))).toBe('404');
    expect(outcome(authorize(null, 'readFiles', undefined))).toBe('401');
    expect(outcome(authorize(null, 'update', undefined))).toBe('401');
  });

  it('refuses a reviewer whose facts were not fetched (an absent fact is no invitation)', () => {
    expect(outcome(authorize(person('expert'), 'read', recordIn('underReview')))).toBe('404');
    expect(outcome(authorize(person('leader', { project: 2 }), 'read', recordIn('submitted')))).toBe('404');
    expect(outcome(authorize(person('leader', { project: 2 }), 'read', recordIn('submitted'), { managesTopic: true }))).toBe('ok');
  });
});

type DownloadOutcome = 'ok' | 'notPublished' | 'embargo' | 'login' | 'order' | 'waiting';

function downloadOutcome(user: AuthenticatedUser | null, record: PolicyRecord, facts: RecordFacts): string {
  const decision = authorize(user, 'download', record, { now: NOW, ...facts });
  if (decision.allowed) return decision.order ? `ok by ${decision.order}` : 'ok';
  return `${decision.reason} ${decision.error.status} ${decision.error.messageKey}`;
}

const REFUSALS: Record<Exclude<DownloadOutcome, 'ok'>, string> = {
  notPublished: 'notPublished 403 orders.noRight',
  embargo: 'embargo 403 orders.embargoed',
  login: 'login 401 orders.loginToDownload',
  order: 'order 403 orders.orderToDownload',
  waiting: 'waiting 403 orders.waitingToDownload',
};
const asText = (value: DownloadOutcome) => (value === 'ok' ? 'ok' : REFUSALS[value]);

describe('the record policy: download', () => {
  const unpublished = METADATA_STATUSES.filter((status) => status !== 'published');
  const cases: { caller: string; facts?: RecordFacts; unpublished: (status: string) => DownloadOutcome; published: DownloadOutcome }[] = [
    { caller: 'anonymous', unpublished: () => 'notPublished', published: 'login' },
    { caller: 'owner', unpublished: () => 'ok', published: 'ok' },
    { caller: 'staff', unpublished: () => 'ok', published: 'ok' },
    { caller: 'other', unpublished: () => 'notPublished', published: 'order' },
    { caller: 'other', facts: { orders: { granting: null, pending: true } }, unpublished: () => 'notPublished', published: 'waiting' },
    { caller: 'expertReviewing', unpublished: (s) => ((WITH_EXPERTS as readonly string[]).includes(s) ? 'ok' : 'notPublished'), published: 'order' },
    { caller: 'expertDeclined', unpublished: () => 'notPublished', published: 'order' },
    { caller: 'leader', unpublished: (s) => (s === 'draft' ? 'notPublished' : 'ok'), published: 'order' },
  ];
  for (const entry of cases) {
    it(`answers ${entry.caller}${entry.facts ? ' with an order waiting' : ''} on a record in every status`, () => {
      const caller = CALLERS[entry.caller]!;
      const facts = { ...caller.facts, ...entry.facts };
      for (const status of unpublished) expect([status, downloadOutcome(caller.user, recordIn(status), facts)]).toEqual([status, asText(entry.unpublished(status))]);
      expect(downloadOutcome(caller.user, recordIn('published'), facts)).toBe(asText(entry.published));
    });
  }

  it('grants by an approved order, open access to anyone signed in, and nobody but the creator and staff in the protection period', () => {
    const other = person('other');
    expect(downloadOutcome(other, recordIn('published'), { orders: { granting: 'order-1', pending: false } })).toBe('ok by order-1');
    expect(downloadOutcome(other, recordIn('published', { sharing_policy: 'online' }), {})).toBe('ok');
    expect(downloadOutcome(null, recordIn('published', { sharing_policy: 'online' }), {})).toBe(REFUSALS.login);
    const embargoed = recordIn('published', { sharing_policy: 'online', embargo_until: '2026-07-01T00:00:00.000Z' });
    // The protection period before signing in: a visitor learns the date, not that they should sign in.
    expect(downloadOutcome(null, embargoed, {})).toBe(REFUSALS.embargo);
    expect(downloadOutcome(other, embargoed, { orders: { granting: 'order-1', pending: false } })).toBe(REFUSALS.embargo);
    expect(downloadOutcome(person('owner'), embargoed, {})).toBe('ok');
    const decision = authorize(other, 'download', embargoed, { now: NOW });
    expect(!decision.allowed && decision.error.params).toEqual({ date: '2026-07-01' });
    expect(downloadOutcome(other, recordIn('published', { sharing_policy: 'online', embargo_until: '2026-05-01T00:00:00.000Z' }), {})).toBe('ok');
  });
});

describe('the facts a decision needs', () => {
  const ACTIONS: RecordAction[] = ['read', 'readFiles', 'manage', 'readReviews', 'update', 'delete', 'download'];
  const ALL_FACTS: RecordFacts[] = [
    { invitations: [{ status: 'opened', round: ROUND }], managesTopic: true, orders: { granting: 'order-1', pending: false } },
    { invitations: [], managesTopic: false, orders: { granting: null, pending: true } },
  ];
  const RECORDS = [
    ...METADATA_STATUSES.map((status) => recordIn(status)),
    recordIn('published', { sharing_policy: 'online' }),
    recordIn('published', { embargo_until: '2026-07-01T00:00:00.000Z' }),
  ];
  const USERS = [null, person('owner'), person('staff', { staff: true }), person('other'), person('leader', { project: 1 })];

  it('leaves out only facts that change no decision', () => {
    for (const user of USERS)
      for (const action of ACTIONS)
        for (const record of RECORDS)
          for (const facts of ALL_FACTS) {
            const needed = factsNeeded(user, action, record, NOW);
            const fetched: RecordFacts = {
              now: NOW,
              ...(needed.invitations ? { invitations: facts.invitations } : {}),
              ...(needed.managesTopic ? { managesTopic: facts.managesTopic } : {}),
              ...(needed.orders ? { orders: facts.orders } : {}),
            };
            const full = authorize(user, action, record, { ...facts, now: NOW });
            expect([user?.id, action, record.status, outcome(authorize(user, action, record, fetched))]).toEqual([user?.id, action, record.status, outcome(full)]);
          }
  });

  it('asks nothing about the creator, staff, the signed out, or anyone reading a published record', () => {
    const none = { invitations: false, managesTopic: false, orders: false };
    for (const user of [null, person('owner'), person('staff', { staff: true })])
      for (const action of ACTIONS) expect(factsNeeded(user, action, recordIn('underReview'), NOW)).toEqual(none);
    expect(factsNeeded(person('other'), 'read', recordIn('published'), NOW)).toEqual(none);
    expect(factsNeeded(person('other'), 'update', recordIn('published'), NOW)).toEqual(none);
    // A topic is asked about only for a project leader and project data.
    expect(factsNeeded(person('other'), 'read', recordIn('submitted'), NOW)).toEqual({ invitations: true, managesTopic: false, orders: false });
    expect(factsNeeded(person('leader', { project: 2 }), 'read', recordIn('submitted'), NOW)).toEqual({ invitations: true, managesTopic: true, orders: false });
    expect(factsNeeded(person('other'), 'download', recordIn('published'), NOW)).toEqual({ invitations: false, managesTopic: false, orders: true });
  });
});

describe('the review roles and the experts', () => {
  it('names every role the caller holds on the record', () => {
    const leaderFacts = { invitations: [{ status: 'invited', round: ROUND }], managesTopic: true };
    expect(reviewRoles(person('owner'), recordIn('submitted'), {})).toEqual(['creator']);
    expect(reviewRoles(person('staff', { staff: true }), recordIn('submitted'), {})).toEqual(['staff']);
    expect(reviewRoles(person('leader', { project: 1 }), recordIn('invited'), leaderFacts)).toEqual(['expert', 'leader']);
    expect(reviewRoles(person('leader', { project: 1 }), recordIn('invited', { submitting_type: 'personal' }), leaderFacts)).toEqual(['expert']);
    expect(reviewRoles(person('other'), recordIn('invited'), { invitations: [{ status: 'declined', round: ROUND }] })).toEqual([]);
  });

  it('lets an expert read while their invitation of the current round stands and the record is with the experts, and once it is published', () => {
    const current = { status: 'opened', round: ROUND };
    expect(invitationStands(current, { review_round: ROUND })).toBe(true);
    expect(invitationStands({ status: 'declined', round: ROUND }, { review_round: ROUND })).toBe(false);
    expect(invitationStands(current, { review_round: ROUND + 1 })).toBe(false);
    const reads = METADATA_STATUSES.filter((status) => expertMayRead(current, { status, review_round: ROUND }));
    expect(reads).toEqual(['invited', 'underReview', 'approved', 'published']);
    expect(METADATA_STATUSES.filter((status) => expertMayRead({ status: 'declined', round: ROUND }, { status, review_round: ROUND }))).toEqual(['published']);
  });
});

describe('ordering a record', () => {
  const caught = (work: () => void) => {
    try {
      work();
      return 'ok';
    } catch (error) {
      return (error as { messageKey: string }).messageKey;
    }
  };
  it('takes published records of someone else out of their protection period', () => {
    const other = person('other');
    expect(caught(() => assertOrderable(other, recordIn('published'), NOW))).toBe('ok');
    expect(caught(() => assertOrderable(other, undefined, NOW))).toBe('orders.notOrderable');
    for (const status of METADATA_STATUSES.filter((s) => s !== 'published')) expect(caught(() => assertOrderable(other, recordIn(status), NOW))).toBe('orders.notOrderable');
    expect(caught(() => assertOrderable(person('owner'), recordIn('published'), NOW))).toBe('orders.ownData');
    expect(caught(() => assertOrderable(other, recordIn('published', { embargo_until: '2026-07-01T00:00:00.000Z' }), NOW))).toBe('orders.embargoed');
    expect(caught(() => assertOrderable(other, recordIn('published', { embargo_until: '2026-05-01T00:00:00.000Z' }), NOW))).toBe('ok');
  });
});
