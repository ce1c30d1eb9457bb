import type { MetadataStatus } from '../domain/metadata.js';

/**
 * The review workflow (issue "Review and publication"): one table of (state, action, role, next
 * state). The server enforces it, the web offers only the actions it allows for the caller, and the
 * table-driven API test walks it. Spec section 4 names the states; the transitions are ours.
 *
 * Roles are the caller's relation to one record:
 * - `creator`: the record's owner;
 * - `leader`: a manager of the topic (special) the record's project data is linked to, with
 *   is_project 1 or 2;
 * - `expert`: a user invited to review the record whose invitation stands;
 * - `staff`: the data centre.
 * A user may hold several roles (a staff member reviewing their own record): any one that the
 * table allows is enough.
 */
export const REVIEW_ROLES = ['creator', 'leader', 'expert', 'staff'] as const;
export type ReviewRole = (typeof REVIEW_ROLES)[number];

/** The data centre's decisions sent as `review_status` to set_review_status (spec section 7). */
export const STAFF_DECISIONS = ['receive', 'approve', 'return', 'refuse', 'publish', 'publish_without_review', 'unpublish', 'cancel'] as const;
export type StaffDecision = (typeof STAFF_DECISIONS)[number];

/** Every action of the workflow; a staff decision is an action of its own name. */
export const REVIEW_ACTIONS = ['submit', 'return_to_draft', 'topic_pass', 'topic_no_pass', 'pre_review', 'invite', 'open', 'answer', 'decline', ...STAFF_DECISIONS] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** An invited expert's answers (spec section 4: reviewer outcomes offered). */
export const EXPERT_OUTCOMES = ['pass', 'no_pass', 'pass_after_modification', 'review_after_modification'] as const;
export type ExpertOutcome = (typeof EXPERT_OUTCOMES)[number];

/** A project leader's answers. */
export const LEADER_OUTCOMES = ['pass', 'no_pass'] as const;
export type LeaderOutcome = (typeof LEADER_OUTCOMES)[number];

/** States of one expert's review row. */
export const EXPERT_REVIEW_STATES = ['invited', 'opened', 'declined', ...EXPERT_OUTCOMES] as const;
export type ExpertReviewState = (typeof EXPERT_REVIEW_STATES)[number];

/** The project leaders' step of a project-data record: '' when the record has none. */
export const TOPIC_REVIEW_STATES = ['', 'waiting', 'pass', 'no_pass'] as const;
export type TopicReviewState = (typeof TOPIC_REVIEW_STATES)[number];

/** Decisions that need a written comment or reason. */
export const DECISIONS_NEEDING_COMMENT: readonly ReviewAction[] = ['return', 'refuse', 'unpublish', 'topic_no_pass'];

/** Comments, messages and reasons: at most this many characters. */
export const REVIEW_COMMENT_MAX = 20_000;

export interface ReviewTransition {
  from: readonly MetadataStatus[];
  action: ReviewAction;
  roles: readonly ReviewRole[];
  /** The next state; `null` keeps the record's status (the action changes something else). */
  to: MetadataStatus | null;
}

/** Before the verdict, while a submission may still be sent back, refused or withdrawn. */
const PENDING = ['submitted', 'receive', 'invited', 'underReview', 'approved'] as const;

export const REVIEW_TRANSITIONS: readonly ReviewTransition[] = [
  { from: ['draft'], action: 'submit', roles: ['creator'], to: 'submitted' },
  // The creator takes it back until an expert has opened the review.
  { from: ['submitted', 'receive', 'invited'], action: 'return_to_draft', roles: ['creator'], to: 'draft' },
  { from: ['submitted', 'receive'], action: 'topic_pass', roles: ['leader'], to: null },
  { from: ['submitted', 'receive'], action: 'topic_no_pass', roles: ['leader'], to: 'draft' },
  { from: ['submitted'], action: 'receive', roles: ['staff'], to: 'receive' },
  { from: ['receive', 'invited', 'underReview'], action: 'pre_review', roles: ['staff'], to: null },
  { from: ['receive'], action: 'invite', roles: ['staff'], to: 'invited' },
  { from: ['invited', 'underReview'], action: 'invite', roles: ['staff'], to: null },
  { from: ['invited'], action: 'open', roles: ['expert'], to: 'underReview' },
  { from: ['underReview'], action: 'open', roles: ['expert'], to: null },
  { from: ['invited'], action: 'answer', roles: ['expert'], to: 'underReview' },
  { from: ['underReview'], action: 'answer', roles: ['expert'], to: null },
  { from: ['invited', 'underReview'], action: 'decline', roles: ['expert'], to: null },
  { from: ['underReview'], action: 'approve', roles: ['staff'], to: 'approved' },
  { from: PENDING, action: 'return', roles: ['staff'], to: 'draft' },
  { from: PENDING, action: 'refuse', roles: ['staff'], to: 'refuse' },
  { from: ['approved', 'NotPublished'], action: 'publish', roles: ['staff'], to: 'published' },
  { from: ['submitted', 'receive'], action: 'publish_without_review', roles: ['staff'], to: 'published' },
  { from: ['published'], action: 'unpublish', roles: ['staff'], to: 'NotPublished' },
  { from: PENDING, action: 'cancel', roles: ['creator', 'staff'], to: 'cancelled' },
];

export type TransitionCheck =
  | { ok: true; to: MetadataStatus | null }
  /** `role`: none of the caller's roles may ever take this action (403); `state`: not from this status (409). */
  | { ok: false; refusal: 'role' | 'state' };

/** Whether callers holding `roles` may take `action` on a record in `status`, and where it goes. */
export function checkTransition(status: string, action: ReviewAction, roles: readonly ReviewRole[]): TransitionCheck {
  const rows = REVIEW_TRANSITIONS.filter((t) => t.action === action && t.roles.some((r) => roles.includes(r)));
  if (!rows.length) return { ok: false, refusal: 'role' };
  const row = rows.find((t) => (t.from as readonly string[]).includes(status));
  if (!row) return { ok: false, refusal: 'state' };
  return { ok: true, to: row.to };
}

/** The actions callers holding `roles` may take on a record in `status` (what the UI offers). */
export function allowedActions(status: string, roles: readonly ReviewRole[]): ReviewAction[] {
  return REVIEW_ACTIONS.filter((action) => checkTransition(status, action, roles).ok);
}

/** Months of the protection period (spec: half a year, one year, two years) before data files open. */
export const PROTECTION_MONTHS: Record<string, number> = { halfYear: 6, oneYear: 12, twoYears: 24 };

/** The day the data files become available: `published_at` plus the protection period, or null (at once). */
export function embargoUntil(publishedAt: string, protectionPeriod: string): string | null {
  const months = PROTECTION_MONTHS[protectionPeriod];
  if (!months) return null;
  const date = new Date(publishedAt);
  const day = date.getUTCDate();
  date.setUTCMonth(date.getUTCMonth() + months, 1);
  // The same day of the month, or the month's last day (31 August + 6 months is 28/29 February).
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.toISOString();
}

/**
 * The reviewer-side status labels of spec section 4, as stable keys
 * (`review.labels.<key>` in the catalogues).
 */
export const REVIEW_LABELS = [
  'notReviewed',
  'leaderNotReviewed',
  'waitingLeader',
  'waitingExperts',
  'pass',
  'pass_after_modification',
  'review_after_modification',
  'no_pass',
  'publishedWithoutReview',
] as const;
export type ReviewLabel = (typeof REVIEW_LABELS)[number];

/** One expert review row as a label: not reviewed yet, or its outcome. */
export function expertReviewLabel(state: string): ReviewLabel {
  return (EXPERT_OUTCOMES as readonly string[]).includes(state) ? (state as ReviewLabel) : 'notReviewed';
}

/** A record's review label, for its creator's and the data centre's lists. */
export function recordReviewLabel(record: {
  status: string;
  topic_review_status: string;
  published_without_review: number | boolean;
  /** Outcomes of the current round's expert reviews that were answered. */
  outcomes: readonly string[];
}): ReviewLabel | null {
  if (record.status === 'published' && record.published_without_review) return 'publishedWithoutReview';
  if (!(PENDING as readonly string[]).includes(record.status)) return null;
  const outcomes = record.outcomes;
  if (outcomes.includes('no_pass')) return 'no_pass';
  if (outcomes.includes('review_after_modification')) return 'review_after_modification';
  if (outcomes.includes('pass_after_modification')) return 'pass_after_modification';
  if (outcomes.length && outcomes.every((o) => o === 'pass')) return 'pass';
  if (record.status === 'invited' || record.status === 'underReview') return 'waitingExperts';
  if (record.topic_review_status === 'waiting') return 'waitingLeader';
  if (record.topic_review_status === 'pass') return 'waitingExperts';
  return 'notReviewed';
}
