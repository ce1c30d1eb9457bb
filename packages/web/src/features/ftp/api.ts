import type { FtpAccount, FtpAccountList, FtpSyncReply, NewFtpAccount } from '@portal/shared/contracts/ftp';
import { api, ok } from '../../api/client';
import { path } from '../../api/routes';

/**
 * The FTP accounts' calls (issue 19; packages/server/src/modules/ftp/ftp.routes.ts): a record's
 * upload accounts and their sync for its provider, a downloader's account on a record. The shapes
 * are the shared contracts' (contracts/ftp.ts); a refusal throws an ApiError carrying the server's words.
 */

export type { FtpAccount, FtpSyncReply, NewFtpAccount };

export const ftpApi = {
  uploadAccounts: async (metadataId: string) => ok<FtpAccountList>(await api.get(path('ftpAccounts'), { metadata__id: metadataId })).results,
  /** Spec section 7: a form post. */
  createUpload: async (metadataId: string) => ok<NewFtpAccount>(await api.postForm(path('ftpAccounts'), { metadata_id: metadataId })),
  removeUpload: async (id: string) => void ok<unknown>(await api.delete(path('ftpAccount', { id }))),
  sync: async (metadataId: string) => ok<FtpSyncReply>(await api.postJson(path('ftpSync'), { metadata_id: metadataId })),
  /** The caller's download account on the record; a 404 with the server's message when they have none. */
  info: async (metadataId: string) => ok<FtpAccount>(await api.get(path('ftpInfo'), { id: metadataId })),
  /** A new download account in place of the caller's former one on the record. */
  createDownload: async (metadataId: string) => ok<NewFtpAccount>(await api.postJson(path('ftpDownloadUser'), { metadata_id: metadataId })),
};

export const ftpKeys = {
  uploads: (metadataId: string) => ['ftp', 'uploads', metadataId] as const,
  info: (metadataId: string) => ['ftp', 'info', metadataId] as const,
};
