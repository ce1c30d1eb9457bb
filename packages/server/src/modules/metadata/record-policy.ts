import type { Selectable } from 'kysely';
import { isEmbargoed } from '@portal/shared';
import type { MetadataTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';

/**
 * Who may do what with a record: the one rule every module asks (Outline's `authorize(user, action,
 * record)`). Pure: the facts beyond the record and the caller (the caller's expert invitations, the
 * topics they manage, their orders) are fetched by the caller, only those `factsNeeded` names, and a
 * fact left out counts as absent (no invitation, no order), so a forgotten fact refuses.
 *
 * - read: everyone once the record is published; its creator and staff always; an invited expert
 *   whose invitation of the current round stands while the record is with the experts; a manager
 *   (is_project 1 or 2) of a topic a project-data record is linked to, once it is submitted.
 *   Who may not read it is told it does not exist (NOT_FOUND), as for an unknown id.
 * - readFiles: the data files as such: its creator, staff and its reviewers while they may read it;
 *   another reader gets 'no right' (the order flow is `download`).
 * - manage (check, submit, return to draft, statistics) and readReviews (its reviews, trail and
 *   feedback): its creator and staff.
 * - update and delete (the record and everything attached to it): its creator while it is a draft,
 *   and staff; the creator of a record in review or published gets 'read-only'.
 * - changeFiles (its data files: the file tree, uploads of either protocol, FTP upload accounts and
 *   their sync): as update, but nobody changes the files of a published record, whose DOI names
 *   them: its creator gets the spec's 'no right', staff are told to reopen it first. Reopening is the
 *   review workflow's own step (staff unpublish it: NotPublished, where staff may change it; publishing
 *   it again counts a new version when its files differ, modules/doi/record-versions.ts).
 * - download (its data files, on every download path): its creator and staff always; an unpublished
 *   record's only for its reviewers while they may read it; a published one's once its protection
 *   period is over, for anyone signed in when it is open access (sharing policy `online`), else with
 *   an approved order in force. Callers read the record first (a hidden one is NOT_FOUND).
 * Every call but read and download is for a signed-in caller: signed out, 401 before anything else.
 */
export type RecordAction = 'read' | 'readFiles' | 'manage' | 'readReviews' | 'update' | 'delete' | 'changeFiles' | 'download';

/** The record's columns the rules read. */
export type PolicyRecord = Pick<Selectable<MetadataTable>, 'owner_id' | 'status' | 'review_round' | 'submitting_type' | 'embargo_until' | 'sharing_policy'>;

/** An expert's review row of the record, as the rules read it. */
export interface Invitation {
  status: string;
  round: number | string;
}

/** What the caller fetched for the decision (see `factsNeeded`). */
export interface RecordFacts {
  /** The caller's review rows of the record (every round). */
  invitations?: readonly Invitation[];
  /** Whether the caller manages a topic the record is linked to. */
  managesTopic?: boolean;
  /** For `download`: the caller's approved order in force for the record (its id), else whether one waits. */
  orders?: { granting: string | null; pending: boolean };
  /** For `download`: the time the protection period is measured at (now when left out). */
  now?: Date;
}

/** Which facts a decision reads, for this caller, action and record. */
export interface NeededFacts {
  invitations: boolean;
  managesTopic: boolean;
  orders: boolean;
}

export type Refusal = 'hidden' | 'login' | 'noRight' | 'readOnly' | 'published' | 'wrongRole' | 'notPublished' | 'embargo' | 'order' | 'waiting';

/** Allowed (`order`: the approved order a download goes by), or refused with why and the error to throw. */
export type Decision = { allowed: true; order?: string } | { allowed: false; reason: Refusal; error: AppError };

/** While the record is with the experts, an invited one may read it (and its data files). */
export const EXPERT_VISIBLE_STATUSES = ['invited', 'underReview', 'approved'] as const;

const SIGNED_IN_ONLY: readonly RecordAction[] = ['readFiles', 'manage', 'readReviews', 'update', 'delete', 'changeFiles'];

const allowed: Decision = { allowed: true };
const refuse = (reason: Refusal, error: AppError): Decision => ({ allowed: false, reason, error });

/** Its creator or staff: who manage a record whatever its status. */
export function isCreatorOrStaff(user: AuthenticatedUser | null, record: Pick<PolicyRecord, 'owner_id'>): boolean {
  return !!user && (user.is_staff || record.owner_id === user.id);
}

/** Whether an expert's invitation is of the record's current round and not declined. */
export function invitationStands(invitation: Invitation, record: Pick<PolicyRecord, 'review_round'>): boolean {
  return invitation.status !== 'declined' && Number(invitation.round) === Number(record.review_round);
}

/** Whether the expert of this invitation may read the record now: while it stands and the record is with the experts, or once it is published. */
export function expertMayRead(invitation: Invitation, record: Pick<PolicyRecord, 'status' | 'review_round'>): boolean {
  if (record.status === 'published') return true;
  return invitationStands(invitation, record) && (EXPERT_VISIBLE_STATUSES as readonly string[]).includes(record.status);
}

/** Whether the caller could lead the record's review: a project manager (is_project 1 or 2), and the record is project data. */
export function mayLead(user: AuthenticatedUser, record: Pick<PolicyRecord, 'submitting_type'>): boolean {
  return (user.is_project === 1 || user.is_project === 2) && record.submitting_type === 'project';
}

/** The caller's reviewer roles on the record: an expert whose invitation stands, a leader of its topic (only project data is the leaders'). */
export function reviewerRoles(user: AuthenticatedUser, record: Pick<PolicyRecord, 'review_round' | 'submitting_type'>, facts: RecordFacts): ('expert' | 'leader')[] {
  const roles: ('expert' | 'leader')[] = [];
  if ((facts.invitations ?? []).some((invitation) => invitationStands(invitation, record))) roles.push('expert');
  if (mayLead(user, record) && facts.managesTopic) roles.push('leader');
  return roles;
}

/** The caller's roles in the review workflow: creator, staff, expert, leader (as shared's transition table names them). */
export function reviewRoles(user: AuthenticatedUser, record: PolicyRecord, facts: RecordFacts): ('creator' | 'staff' | 'expert' | 'leader')[] {
  const roles: ('creator' | 'staff' | 'expert' | 'leader')[] = [];
  if (record.owner_id === user.id) roles.push('creator');
  if (user.is_staff) roles.push('staff');
  return [...roles, ...reviewerRoles(user, record, facts)];
}

/** Whether a reviewer may read the record now: experts while it is with them, leaders once it is submitted. */
function reviewerMayRead(user: AuthenticatedUser, record: PolicyRecord, facts: RecordFacts): boolean {
  const roles = reviewerRoles(user, record, facts);
  return (roles.includes('expert') && (EXPERT_VISIBLE_STATUSES as readonly string[]).includes(record.status)) || (roles.includes('leader') && record.status !== 'draft');
}

/** The facts `authorize` reads for this call: the caller fetches these and no others. */
export function factsNeeded(user: AuthenticatedUser | null, action: RecordAction, record: PolicyRecord, now = new Date()): NeededFacts {
  const other = !!user && !isCreatorOrStaff(user, record);
  // A reviewer's standing matters where the public does not read (an unpublished record), and for the data files as such.
  const reviewer = other && (record.status !== 'published' || action === 'readFiles');
  const orders = other && action === 'download' && record.status === 'published' && !isEmbargoed(record, now) && record.sharing_policy !== 'online';
  return { invitations: reviewer, managesTopic: reviewer && mayLead(user!, record), orders };
}

/** The decision for `user` doing `action` with `record` (undefined: the id names no record). */
export function authorize(user: AuthenticatedUser | null, action: RecordAction, record: PolicyRecord | undefined, facts: RecordFacts = {}): Decision {
  if (!user && SIGNED_IN_ONLY.includes(action)) return refuse('login', new AppError('UNAUTHENTICATED', 'account.loginRequired'));
  if (action === 'download') return record ? downloadDecision(user, record, facts) : refuse('hidden', new AppError('NOT_FOUND', 'metadata.notFound'));
  if (!record || !(record.status === 'published' || isCreatorOrStaff(user, record) || (user && reviewerMayRead(user, record, facts)))) {
    return refuse('hidden', new AppError('NOT_FOUND', 'metadata.notFound'));
  }
  if (action === 'read') return allowed;
  const own = isCreatorOrStaff(user, record);
  if (action === 'readFiles') return own || reviewerMayRead(user!, record, facts) ? allowed : refuse('noRight', new AppError('FORBIDDEN', 'metadata.noRight'));
  if (action === 'readReviews') return own ? allowed : refuse('wrongRole', new AppError('FORBIDDEN', 'review.wrongRole'));
  if (!own) return refuse('noRight', new AppError('FORBIDDEN', 'metadata.noRight'));
  if (action === 'changeFiles' && record.status === 'published') {
    return user!.is_staff ? refuse('published', new AppError('CONFLICT', 'metadata.filesPublished')) : refuse('noRight', new AppError('FORBIDDEN', 'metadata.noRight'));
  }
  if (action === 'manage' || user!.is_staff || record.status === 'draft') return allowed;
  return refuse('readOnly', new AppError('CONFLICT', 'metadata.readOnly'));
}

function downloadDecision(user: AuthenticatedUser | null, record: PolicyRecord, facts: RecordFacts): Decision {
  const now = facts.now ?? new Date();
  if (isCreatorOrStaff(user, record)) return allowed;
  if (record.status !== 'published') {
    // An unpublished record's data: only as its reviewer, while they may read it.
    return user && reviewerMayRead(user, record, facts) ? allowed : refuse('notPublished', new AppError('FORBIDDEN', 'orders.noRight'));
  }
  if (isEmbargoed(record, now)) return refuse('embargo', new AppError('FORBIDDEN', 'orders.embargoed', { params: { date: record.embargo_until!.slice(0, 10) } }));
  if (!user) return refuse('login', new AppError('UNAUTHENTICATED', 'orders.loginToDownload'));
  if (record.sharing_policy === 'online') return allowed;
  if (facts.orders?.granting) return { allowed: true, order: facts.orders.granting };
  if (facts.orders?.pending) return refuse('waiting', new AppError('FORBIDDEN', 'orders.waitingToDownload'));
  return refuse('order', new AppError('FORBIDDEN', 'orders.orderToDownload'));
}

/**
 * Whether the account's stored files count against the storage quota (USER_STORAGE_QUOTA_MB) on
 * every way in (uploads of either protocol, FTP, the tree): everyone's but staff's.
 */
export function storageQuotaApplies(user: AuthenticatedUser): boolean {
  return !user.is_staff;
}

/** As `authorize`, throwing the refusal's error; the record is then known to exist. */
export function assertAuthorized<R extends PolicyRecord>(
  user: AuthenticatedUser | null,
  action: RecordAction,
  record: R | undefined,
  facts: RecordFacts = {},
): asserts record is R {
  const decision = authorize(user, action, record, facts);
  if (!decision.allowed) throw decision.error;
}

/**
 * The caller may order the record's data (put it in the basket, apply for it): published,
 * someone else's, and out of its protection period. Checked as the record is now, whoever may read
 * it (the basket reads it first: a hidden one is NOT_FOUND there).
 */
export function assertOrderable<R extends Pick<PolicyRecord, 'owner_id' | 'status' | 'embargo_until'>>(
  user: AuthenticatedUser,
  record: R | undefined,
  now = new Date(),
): asserts record is R {
  if (!record || record.status !== 'published') throw new AppError('CONFLICT', 'orders.notOrderable');
  if (record.owner_id === user.id) throw new AppError('CONFLICT', 'orders.ownData');
  if (isEmbargoed(record, now)) throw new AppError('CONFLICT', 'orders.embargoed', { params: { date: record.embargo_until!.slice(0, 10) } });
}
