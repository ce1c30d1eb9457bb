/**
 * Every server path the web calls, by name (spec section 7): the one place that spells them. Calls
 * name a route (`path('order', { id })`) instead of writing its path; `:name` parts are filled in,
 * encoded. In development builds api/replyContracts.ts checks the replies of these routes against
 * their shared contracts.
 */
export const ROUTES = {
  // account
  captcha: '/account/jpgcode',
  register: '/account/register/',
  login: '/account/profile-login/',
  validate: '/account/validate/',
  logout: '/account/logout/',
  forgot: '/account/forgot/',
  sendActivation: '/account/send/',
  reset: '/account/reset/',
  change: '/account/change/',
  users: '/api/account/account/',
  // metadata: the records and their attached resources (/api/metadata/<name>/ and <name>/<id>/)
  records: '/api/metadata/metadata/',
  record: '/api/metadata/metadata/:id/',
  recordExport: '/api/metadata/metadata/:id/export/',
  tombstone: '/api/metadata/metadata/:id/tombstone/',
  resources: '/api/metadata/:name/',
  resourceItem: '/api/metadata/:name/:id/',
  submit: '/metadata/metadata-submit/',
  returnToDraft: '/metadata/return-draft/',
  dropEmptyDraft: '/metadata/drop-empty-draft/',
  projections: '/metadata/projections/',
  likeAuthor: '/api/metadata/like_author/',
  unlinkKeyword: '/api/metadata/keyword/',
  uploadDataFile: '/metadata/upload-file/',
  uploadAttachment: '/metadata/upload-attachment',
  attachmentDownload: '/api/metadata/meta-attach/:id/download/',
  resourceDownload: '/api/metadata/:name/:id/download/',
  // a record's file tree and its resumable uploads (issue 19)
  fileTree: '/api/data/file/',
  createFolder: '/data/createFolder/',
  newFile: '/data/newfile/',
  deleteFile: '/data/deleteFile/',
  moveFile: '/data/moveFile/',
  tusUploads: '/api/data/tus/',
  // FTP accounts (issue 19): a record's upload accounts and their sync, a downloader's account
  ftpAccounts: '/api/data/ftp/',
  ftpAccount: '/api/data/ftp/:id/',
  ftpSync: '/data/sync/',
  ftpDownloadUser: '/data/download-user/',
  ftpInfo: '/data/ftpinfo/',
  // Excel to table (issue 20): a workbook's sheets and header, the import, a table's rows, the tables listed
  tableInfo: '/metadata/get-table-info/',
  tableColumns: '/metadata/get-table-column/',
  tableImport: '/metadata/trans/',
  tableData: '/metadata/get-table-data/',
  tables: '/api/tables/',
  table: '/api/tables/:code/',
  recordTables: '/api/metadata/metadata/:id/tables/',
  // orders
  basket: '/api/account/line_item/',
  basketLine: '/api/account/line_item/:id/',
  orders: '/api/account/order/',
  order: '/api/account/order/:id/',
  orderLinks: '/api/account/order/:id/links/',
  // whole datasets (issue 19): an order's HTTP index, a record's archive
  orderIndexLink: '/api/account/order/:id/index-link/',
  archive: '/api/archive/archives/:id/',
  deleteOrders: '/account/delete_order/',
  reapply: '/account/reapply/',
  handleOrders: '/account/order-handle/',
  haveDownload: '/metadata/have-download/',
  downloadable: '/api/data/downloadable/',
  recordFiles: '/api/metadata/meta-file/',
  fileDownload: '/api/metadata/meta-file/:id/download/',
  zip: '/api/data/zip/',
  voucher: '/api/account/voucher/:id/',
  verifyVoucher: '/api/voucher/verify/:code/',
  statistics: '/api/metadata/statistics/:id/',
  applyStatistics: '/api/metadata/apply-statistics/',
  // review
  invitedReviews: '/api/metadata/invited-review/',
  reviews: '/api/metadata/review/',
  review: '/api/metadata/review/:id/',
  reviewSnapshot: '/api/metadata/review/:id/snapshot/',
  declineReview: '/api/metadata/review/:id/decline/',
  topicReviews: '/api/metadata/topic-review/',
  topicReview: '/api/metadata/topic-review/:id/',
  reviewStates: '/api/metadata/review-status/',
  reviewState: '/api/metadata/review-status/:id/',
  reviewTrail: '/api/metadata/review-status/:id/history/',
  setReviewStatus: '/api/metadata/review-status/:id/set_review_status/',
  reviewFeedback: '/api/metadata/reviews-feedback/',
  inviteExperts: '/metadata/invite-experts/',
  mailFeedback: '/metadata/reviews-feedbackemail',
  fund: '/api/metadata/fund/:id/',
  // DOI
  doiRegistrations: '/api/metadata/doi-registrations/',
  recordDoi: '/api/metadata/metadata/:id/doi-registration/',
  retryDoi: '/api/metadata/metadata/:id/doi-registration/retry/',
  // search and home
  search: '/api/metadata/search/',
  suggest: '/api/metadata/search/suggest/',
  hot: '/api/metadata/hot/',
  catalogueStats: '/api/metadata/catalogue-stats/',
  // analysis methods and their runs (issue 20)
  analysisMethods: '/api/analysis/methods/',
  analysisMethod: '/api/analysis/methods/:id/',
  analysisVersions: '/api/analysis/methods/:id/versions/',
  analysisFork: '/api/analysis/methods/:id/fork/',
  analysisStart: '/api/analysis/methods/:id/runs/',
  analysisRuns: '/api/analysis/runs/',
  analysisRun: '/api/analysis/runs/:id/',
  analysisRerun: '/api/analysis/runs/:id/rerun/',
  analysisRunCsv: '/api/analysis/runs/:id/csv/',
} as const;

export type RouteName = keyof typeof ROUTES;

/** The `:name` parts of a path. */
type ParamsOf<P extends string> = P extends `${string}:${infer Key}/${infer Rest}` ? Key | ParamsOf<Rest> : P extends `${string}:${infer Key}` ? Key : never;
type ArgsOf<N extends RouteName> = [ParamsOf<(typeof ROUTES)[N]>] extends [never] ? [] : [params: Record<ParamsOf<(typeof ROUTES)[N]>, string>];

/** A route's path with its `:name` parts filled in (each encoded). */
export function path<N extends RouteName>(name: N, ...[params]: ArgsOf<N>): string {
  const values = (params ?? {}) as Record<string, string>;
  return ROUTES[name].replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(values[key] ?? ''));
}
