import { z } from 'zod';
import { isCountryCode } from '../domain/countries.js';
import { ORDER_DECISIONS, ORDER_HANDLERS, ORDER_LIMITS, ORDER_STATUSES } from '../rules/orders.js';
import { addressSchema, affiliationSchema, emailSchema, LIMITS, realnameSchema } from './account.js';
import { pageOf } from './page.js';

/**
 * Orders and downloads (issue 10; spec sections 3, 5, 7, 8): the basket, the application form, orders
 * and their handling, download permission, vouchers and statistics. The server validates requests and
 * serializes replies through these schemas; the web infers its types from them. Messages are catalogue keys.
 */

const id = z.string({ error: 'orders.validation.id' }).min(1, 'orders.validation.id').max(100, 'orders.validation.id');
const ids = (key: string) =>
  z.preprocess(
    // A form post sends one value as a string, several as an array.
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z.array(id, { error: key }).min(1, key).max(ORDER_LIMITS.basketMax, 'orders.validation.tooMany'),
  );
const required = (key: string, max: number) => z.string({ error: key }).trim().min(1, key).max(max, key);

/** `POST /api/account/line_item/`: a dataset into the basket. */
export const addLineSchema = z.object({ metadata_id: id });

/**
 * A dataset's titles, here and in orders: `title` is the Chinese title, `title_en` the English one
 * (each falls back to the record's own title when the record has no version in that language).
 */
/** A basket line (spec section 3: dataset title, share type, add time). */
export const cartLineSchema = z.object({
  id: z.string(),
  metadata_id: z.string(),
  title: z.string(),
  title_en: z.string(),
  language: z.string(),
  sharing_policy: z.string(),
  created_at: z.string(),
  /** The day the record's files become available to others, while its protection period runs. */
  embargo_until: z.string().nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;
export const cartLinePageSchema = pageOf(cartLineSchema);

/**
 * The application form (spec sections 3 and 5): the spec's seven fields, each required, and the
 * applicant's country or region, ours and optional (absent or empty: the server takes the country of
 * the applicant's last application, or stores '' for unknown).
 */
export const applicationFormSchema = z.object({
  realName: realnameSchema,
  email: emailSchema,
  phone: required('orders.validation.phone', LIMITS.phone).pipe(z.string().regex(/^[0-9+\-() ]+$/, 'validation.phone.invalid')),
  zipcode: required('orders.validation.zipcode', LIMITS.zipcode).pipe(z.string().regex(/^[A-Za-z0-9 -]+$/, 'validation.zipcode.invalid')),
  affiliation: affiliationSchema,
  address: addressSchema,
  country: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string({ error: 'orders.validation.country' }).refine(isCountryCode, 'orders.validation.country').optional(),
  ),
  reason: required('orders.validation.reason', ORDER_LIMITS.reasonMax).pipe(z.string().min(10, 'orders.validation.reasonShort')),
});
export type ApplicationForm = z.infer<typeof applicationFormSchema>;

/** `POST /api/account/order/`: the form and the basket lines applied for. */
export const placeOrderSchema = applicationFormSchema.extend({ line: ids('orders.validation.selectData') });
export type PlaceOrder = z.input<typeof placeOrderSchema>;

/** `PUT /api/account/order/{id}/`: the applicant answers a request for more information (the order waits again). */
export const updateOrderSchema = applicationFormSchema;

/** `POST /account/order-handle/`: a handler's decision on a set of orders. */
export const orderHandleSchema = z.object({
  orders: ids('orders.validation.selectOrders'),
  status: z.enum(ORDER_DECISIONS, { error: 'orders.validation.decision' }),
  /** Required for a rejection or a return: the applicant reads it. */
  reason: z.string({ error: 'orders.validation.reason' }).trim().max(ORDER_LIMITS.decisionReasonMax, 'orders.validation.reasonLong').default(''),
});

/** `POST /account/delete_order/`: the applicant's (or staff's) deletion. */
export const deleteOrderSchema = z.object({ orders: ids('orders.validation.selectOrders') });

/** `POST /account/reapply/` (ours): a deleted, rejected or expired order applied for again with its form. */
export const reapplySchema = z.object({ order: id });

const applicationSchema = z.object({
  id: z.string(),
  realName: z.string(),
  email: z.string(),
  phone: z.string(),
  zipcode: z.string(),
  affiliation: z.string(),
  address: z.string(),
  country: z.string(),
  reason: z.string(),
  created_at: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;

export const orderLineSchema = z.object({
  metadata_id: z.string(),
  title: z.string(),
  title_en: z.string(),
  language: z.string(),
  doi: z.string(),
  sharing_policy: z.string(),
  /** The record's owner (their real name): who decides an owner's request. */
  owner_name: z.string(),
  embargo_until: z.string().nullable(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/** An order: one handler's share of an application. */
export const orderSchema = z.object({
  id: z.string(),
  application_id: z.string(),
  status: z.enum(ORDER_STATUSES),
  handler: z.enum(ORDER_HANDLERS),
  /** The owner who decides it (real name), for an owner's request. */
  owner_name: z.string(),
  applicant: z.string(),
  application: applicationSchema,
  lines: z.array(orderLineSchema),
  decision_reason: z.string(),
  decided_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  /** An offline request unanswered for three days: the applicant is told to contact the owner directly (spec section 6). */
  reply_overdue: z.boolean(),
  /** The owner's contact for that case: the distribution e-mail of the first dataset, else the owner's. */
  contact_email: z.string(),
  /** The voucher's verification code, once approved. */
  voucher_code: z.string().nullable(),
});
export type Order = z.infer<typeof orderSchema>;
export const orderPageSchema = pageOf(orderSchema);

/** The reply to an application: 'Success' when every dataset was granted at once, else 'Waiting'. */
export const placeOrderReplySchema = z.object({
  status: z.enum(['Success', 'Waiting']),
  order: applicationSchema.extend({ orders: z.array(orderSchema) }),
});
export type PlaceOrderReply = z.infer<typeof placeOrderReplySchema>;

/** `POST /account/order-handle/` and `/account/delete_order/`: the orders as they now stand. */
export const ordersChangedSchema = z.object({ results: z.array(orderSchema) });

/** `GET /metadata/have-download/?id=`: whether the caller may download the record's files, and if not, why. */
export const haveDownloadSchema = z.object({
  have_download: z.boolean(),
  reason: z.enum(['ok', 'login', 'embargo', 'order', 'waiting', 'notPublished']),
  /** While the protection period runs: the day the files become available. */
  available_from: z.string().nullable(),
  /** The caller's approved order that grants it, if any. */
  order: z.string().nullable(),
});
export type HaveDownload = z.infer<typeof haveDownloadSchema>;

/** `GET /api/data/downloadable/`: the datasets the caller may download now, with how. */
export const downloadableSchema = z.object({
  metadata_id: z.string(),
  title: z.string(),
  title_en: z.string(),
  language: z.string(),
  sharing_policy: z.string(),
  file_count: z.number(),
  total_size: z.number(),
  order: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export const downloadablePageSchema = pageOf(downloadableSchema);

/** The voucher of an approved order: what a scientist shows a funder or a journal. */
export const voucherSchema = z.object({
  code: z.string(),
  order: z.string(),
  applicant: z.string(),
  affiliation: z.string(),
  approved_at: z.string(),
  approved_by: z.string(),
  expires_at: z.string().nullable(),
  datasets: z.array(
    z.object({
      metadata_id: z.string(),
      title: z.string(),
      title_en: z.string(),
      doi: z.string(),
      citation: z.string(),
      use_term: z.string(),
      license: z.string(),
    }),
  ),
  /** Whether the order still stands: approved and unexpired (a deleted or expired order's voucher no longer verifies). */
  valid: z.boolean(),
  /** The order's state as read now: `approved` while valid, `expired` past its expiry, `deleted` once withdrawn. */
  status: z.enum(ORDER_STATUSES),
});
export type Voucher = z.infer<typeof voucherSchema>;

/** `GET /api/metadata/statistics/{id}/?by=day|month`: views, downloads and orders over time and by country. */
export const statisticsSchema = z.object({
  metadata_id: z.string(),
  /** The record's title in Chinese and in English (each falls back to the other), so the page needs no second call. */
  title: z.string(),
  title_en: z.string(),
  by: z.enum(['day', 'month']),
  totals: z.object({ views: z.number(), downloads: z.number(), orders: z.number() }),
  series: z.array(z.object({ period: z.string(), views: z.number(), downloads: z.number(), orders: z.number() })),
  countries: z.array(z.object({ country: z.string(), downloads: z.number(), orders: z.number() })),
});
export type Statistics = z.infer<typeof statisticsSchema>;

/** The roles a user's datasets are counted under on the Apply Statistics page (spec section 2). */
export const APPLY_ROLES = ['provider', 'author', 'assessor'] as const;
export type ApplyRole = (typeof APPLY_ROLES)[number];

const usageCounts = { views: z.number(), downloads: z.number(), orders: z.number(), waiting: z.number() };

/**
 * `GET /api/metadata/apply-statistics/?role=&page=&pageSize=`: the caller's published datasets as
 * their data provider (creator), as one of their authors (by e-mail) and as their assessor (an expert
 * who answered), each role's totals, and one role's datasets with their counts.
 */
export const applyStatisticsSchema = pageOf(z.object({ metadata_id: z.string(), title: z.string(), title_en: z.string(), language: z.string(), ...usageCounts })).extend({
  roles: z.array(z.object({ role: z.enum(APPLY_ROLES), datasets: z.number(), ...usageCounts })),
});
export type ApplyStatistics = z.infer<typeof applyStatisticsSchema>;
