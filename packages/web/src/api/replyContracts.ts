import { z } from 'zod';
import { archiveSchema, orderIndexLinkSchema } from '@portal/shared/contracts/archive';
import { loginReplySchema, registerReplySchema, statusReplySchema, userPageSchema, userSchema } from '@portal/shared/contracts/account';
import { doiRegistrationPageSchema, recordDoiSchema } from '@portal/shared/contracts/doi';
import { ftpAccountListSchema, ftpAccountSchema, ftpSyncReplySchema, newFtpAccountSchema } from '@portal/shared/contracts/ftp';
import { tombstoneSchema } from '@portal/shared/contracts/landing';
import {
  droppedSchema,
  metadataRecordPageSchema,
  metadataRecordSchema,
  projectionsSchema,
  returnToDraftSchema,
  storedFilePageSchema,
  submitCheckSchema,
  submitDoneSchema,
} from '@portal/shared/contracts/metadata-replies';
import {
  cartLinePageSchema,
  cartLineSchema,
  downloadablePageSchema,
  haveDownloadSchema,
  orderPageSchema,
  orderSchema,
  ordersChangedSchema,
  placeOrderReplySchema,
  statisticsSchema,
  voucherSchema,
} from '@portal/shared/contracts/orders';
import {
  expertCandidatePageSchema,
  feedbackListSchema,
  feedbackMailReplySchema,
  reviewDeskPageSchema,
  reviewHistorySchema,
  reviewPageSchema,
  reviewSchema,
  reviewSnapshotReplySchema,
  reviewStateSchema,
} from '@portal/shared/contracts/review';
import { catalogueStatsSchema, hotReplySchema, searchReplySchema, suggestReplySchema } from '@portal/shared/contracts/search';
import { methodPageSchema, methodSchema, methodVersionListSchema, runPageSchema, runSchema, runStartedSchema } from '@portal/shared/contracts/analysis';
import {
  recordTablesSchema,
  tableColumnsSchema,
  tableDataSchema,
  tableDescriptionSchema,
  tableImportSchema,
  tableInfoSchema,
  tableListSchema,
} from '@portal/shared/contracts/tables';
import { ROUTES, type RouteName } from './routes';

/**
 * Development builds only (api/client.ts loads this module behind `import.meta.env.DEV`, so a
 * production bundle holds neither it nor its schemas): each successful JSON reply of a route named
 * here is parsed with the contract the server serializes it through, and a reply that does not fit
 * is an error that names the call and the fields.
 */
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const CONTRACTS: Partial<Record<RouteName, Partial<Record<Method, z.ZodType>>>> = {
  register: { POST: registerReplySchema },
  login: { POST: loginReplySchema },
  validate: { GET: userSchema },
  forgot: { POST: statusReplySchema },
  sendActivation: { POST: statusReplySchema },
  reset: { POST: statusReplySchema },
  change: { POST: statusReplySchema },
  users: { GET: z.union([userPageSchema, expertCandidatePageSchema]) },
  records: { GET: metadataRecordPageSchema, POST: metadataRecordSchema },
  record: { GET: metadataRecordSchema, PUT: metadataRecordSchema },
  tombstone: { GET: tombstoneSchema },
  submit: { GET: submitCheckSchema, POST: submitDoneSchema },
  returnToDraft: { POST: returnToDraftSchema },
  dropEmptyDraft: { POST: droppedSchema },
  projections: { GET: projectionsSchema },
  recordFiles: { GET: storedFilePageSchema },
  ftpAccounts: { GET: ftpAccountListSchema, POST: newFtpAccountSchema },
  ftpSync: { POST: ftpSyncReplySchema },
  ftpDownloadUser: { POST: newFtpAccountSchema },
  ftpInfo: { GET: ftpAccountSchema },
  tableInfo: { GET: tableInfoSchema },
  tableColumns: { GET: tableColumnsSchema },
  tableImport: { POST: tableImportSchema },
  tableData: { GET: tableDataSchema },
  tables: { GET: tableListSchema },
  table: { GET: tableDescriptionSchema },
  recordTables: { GET: recordTablesSchema },
  basket: { GET: cartLinePageSchema, POST: cartLineSchema },
  orders: { GET: orderPageSchema, POST: placeOrderReplySchema },
  order: { GET: orderSchema, PUT: orderSchema },
  deleteOrders: { POST: ordersChangedSchema },
  handleOrders: { POST: ordersChangedSchema },
  reapply: { POST: placeOrderReplySchema },
  haveDownload: { GET: haveDownloadSchema },
  downloadable: { GET: downloadablePageSchema },
  orderIndexLink: { GET: orderIndexLinkSchema },
  archive: { GET: archiveSchema },
  voucher: { GET: voucherSchema },
  verifyVoucher: { GET: voucherSchema },
  statistics: { GET: statisticsSchema },
  invitedReviews: { GET: reviewPageSchema },
  reviews: { GET: reviewPageSchema },
  review: { GET: reviewSchema, PUT: reviewSchema },
  reviewSnapshot: { GET: reviewSnapshotReplySchema },
  declineReview: { POST: reviewSchema },
  topicReviews: { GET: reviewDeskPageSchema },
  topicReview: { PUT: reviewStateSchema },
  reviewStates: { GET: reviewDeskPageSchema },
  reviewState: { GET: reviewStateSchema },
  reviewTrail: { GET: reviewHistorySchema },
  setReviewStatus: { PATCH: reviewStateSchema },
  reviewFeedback: { GET: feedbackListSchema },
  inviteExperts: { POST: reviewStateSchema },
  mailFeedback: { POST: feedbackMailReplySchema },
  doiRegistrations: { GET: doiRegistrationPageSchema },
  recordDoi: { GET: recordDoiSchema },
  retryDoi: { POST: recordDoiSchema },
  search: { GET: searchReplySchema },
  suggest: { GET: suggestReplySchema },
  hot: { GET: hotReplySchema },
  catalogueStats: { GET: catalogueStatsSchema },
  analysisMethods: { GET: methodPageSchema, POST: methodSchema },
  analysisMethod: { GET: methodSchema, PATCH: methodSchema },
  analysisVersions: { GET: methodVersionListSchema },
  analysisFork: { POST: methodSchema },
  analysisStart: { POST: runStartedSchema },
  analysisRuns: { GET: runPageSchema },
  analysisRun: { GET: runSchema },
  analysisRerun: { POST: runStartedSchema },
};

const MATCHERS = (Object.entries(ROUTES) as [RouteName, string][])
  .filter(([name]) => CONTRACTS[name])
  .map(([name, pattern]) => ({ name, matcher: new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}$`) }));

/** A reply that does not fit its route's contract. */
export class ContractError extends Error {
  constructor(
    readonly call: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`The reply of ${call} does not fit its contract: ${issues.map((issue) => `${issue.path.join('.') || '(reply)'}: ${issue.message}`).join('; ')}`);
    this.name = 'ContractError';
  }
}

/** Throws a ContractError (and logs it) when `data`, the JSON reply of `method url`, does not fit its route's contract. */
export function checkReply(method: string, url: string, data: unknown): void {
  const pathname = new URL(url, 'http://portal.invalid').pathname;
  const route = MATCHERS.find(({ matcher }) => matcher.test(pathname));
  const schema = route && CONTRACTS[route.name]?.[method as Method];
  if (!schema) return;
  const result = schema.safeParse(data);
  if (result.success) return;
  const error = new ContractError(`${method} ${pathname} (${route.name})`, result.error.issues);
  console.error(error.message, data);
  throw error;
}
