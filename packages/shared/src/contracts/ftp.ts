import { z } from 'zod';

/**
 * The FTP accounts' replies (issue 19; server modules/ftp, web features/ftp): an account as its
 * owner is shown it, the password only in the reply that made it.
 */
export const ftpAccountSchema = z.object({
  id: z.string(),
  kind: z.enum(['download', 'upload']),
  /** The record's id. */
  metadata: z.string(),
  host: z.string(),
  port: z.number(),
  /** True when the server speaks implicit FTPS only (a certificate is configured): clients connect to `ftps://`. */
  tls: z.boolean(),
  username: z.string(),
  created_at: z.string(),
  /** Null for an upload account: it works while its record takes files. */
  expires_at: z.string().nullable(),
});
export type FtpAccount = z.infer<typeof ftpAccountSchema>;

/** `POST /data/download-user/`, `POST /api/data/ftp/`: the new account with its password, shown once. */
export const newFtpAccountSchema = ftpAccountSchema.extend({ password: z.string() });
export type NewFtpAccount = z.infer<typeof newFtpAccountSchema>;

/** `GET /api/data/ftp/?metadata__id=`: a record's upload accounts. */
export const ftpAccountListSchema = z.object({ count: z.number(), results: z.array(ftpAccountSchema) });
export type FtpAccountList = z.infer<typeof ftpAccountListSchema>;

/** `POST /data/sync/`: what came from the incoming folder into the tree, and what the tree refused (why, in the caller's language). */
export const ftpSyncReplySchema = z.object({
  count: z.number(),
  bytes: z.number(),
  files: z.array(z.object({ path: z.string(), size: z.number(), sha256: z.string() })),
  refused: z.array(z.object({ path: z.string(), detail: z.string() })),
});
export type FtpSyncReply = z.infer<typeof ftpSyncReplySchema>;
