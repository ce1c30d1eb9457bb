import type { SHARING_POLICIES } from '../domain/metadata.js';

/**
 * Orders and downloads (issue 10; spec sections 3 to 6, 9): the order's states, who decides it, and
 * the limits of a download. The server enforces these; the web reads them to offer only what is allowed.
 */

/**
 * Stored states. `expired` is never stored: an approved order past `expires_at` reads as expired
 * (`effectiveOrderStatus`), so no job has to run for access to end on time.
 */
export const ORDER_STATUSES = ['waiting', 'approved', 'rejected', 'returned', 'deleted', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Who decides an order: granted at once (open access), the data centre's staff, the record's owner. */
export const ORDER_HANDLERS = ['online', 'center', 'owner'] as const;
export type OrderHandler = (typeof ORDER_HANDLERS)[number];

/** What a handler may set with `POST /account/order-handle/`. */
export const ORDER_DECISIONS = ['approved', 'rejected', 'returned'] as const;
export type OrderDecision = (typeof ORDER_DECISIONS)[number];

export const ORDER_LIMITS = {
  /** Files in one browser download (spec section 9). */
  downloadFilesMax: 50,
  /** Bytes of one browser download, one file or a zip; larger volumes go by FTP (spec section 9). */
  browserDownloadMaxBytes: 100 * 1024 * 1024,
  /** Days an owner has to answer an offline request before the applicant is told to contact them (spec section 6). */
  offlineReplyDays: 3,
  /** Default of ORDER_VALID_DAYS: days an approved order stays valid. */
  validDays: 30,
  /** Lines in one basket, and datasets in one application. */
  basketMax: 200,
  reasonMax: 2000,
  decisionReasonMax: 2000,
  /** Default of ORDER_APPLY_PER_HOUR: applications and reapplications one account may send in any hour. */
  appliesPerHour: 20,
} as const;

/**
 * Who decides a request for a dataset of this sharing policy. Only a record that says it is open
 * access is granted at once; one without a policy (records from before the field was required, or
 * imported ones) is the data centre's to decide.
 */
export function handlerFor(policy: (typeof SHARING_POLICIES)[number] | string): OrderHandler {
  if (policy === 'online') return 'online';
  if (policy === 'offlineEmail') return 'owner';
  return 'center';
}

/** The state a reader sees: an approved order past its expiry is expired. */
export function effectiveOrderStatus(order: { status: string; expires_at: string | null }, now = new Date()): OrderStatus {
  if (order.status === 'approved' && order.expires_at && order.expires_at <= now.toISOString()) return 'expired';
  return order.status as OrderStatus;
}

/**
 * Whether an order stands: it waits for an answer (waiting, returned) or grants access now (approved
 * and unexpired). While one stands for a dataset, its applicant cannot apply for that dataset again by
 * reapplying another order (a withdrawn, rejected or expired one).
 */
export function isStandingOrder(order: { status: string; expires_at: string | null }, now = new Date()): boolean {
  const status = effectiveOrderStatus(order, now);
  return status === 'waiting' || status === 'returned' || status === 'approved';
}

/**
 * Stored statuses the statistics count (a dataset's orders, Apply Statistics, the daily order rows):
 * an order withdrawn ('deleted') or rejected is not counted. An approval past its expiry still is: it
 * was granted, and a day's count must not shrink as time passes.
 */
export const COUNTED_ORDER_STATUSES: readonly string[] = ['waiting', 'returned', 'approved'];

/** What the applicant may do with their order in this state. */
export const APPLICANT_ACTIONS: Record<OrderStatus, readonly ('edit' | 'delete' | 'reapply' | 'download')[]> = {
  waiting: ['edit', 'delete'],
  returned: ['edit', 'delete'],
  approved: ['download', 'delete'],
  rejected: ['reapply', 'delete'],
  expired: ['reapply', 'delete'],
  deleted: ['reapply'],
};

/** States a handler may decide from: a waiting request, or one returned for more information (a later answer wins). */
export const DECIDABLE_STATUSES: readonly OrderStatus[] = ['waiting', 'returned'];

/** Whether an offline request has waited longer than the owner's time to answer (the applicant is told to contact them). */
export function replyOverdue(order: { status: string; handler: string; created_at: string }, now = new Date()): boolean {
  if (order.status !== 'waiting' || order.handler === 'online') return false;
  return now.getTime() - new Date(order.created_at).getTime() > ORDER_LIMITS.offlineReplyDays * 86_400_000;
}
