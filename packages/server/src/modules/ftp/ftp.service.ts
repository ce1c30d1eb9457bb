import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { METADATA_LIMITS, translate } from '@portal/shared';
import { newId, type Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { AccountService, AuthenticatedUser } from '../account/index.js';
import { storageQuotaApplies, type MetadataAccess } from '../metadata/index.js';
import type { OrdersService } from '../orders/index.js';
import type { UploadLimits } from './ftp-fs.js';
import type { IncomingFolders } from './incoming.js';
import type { RecordTree } from './record-tree.js';
import { FtpRepo, type FtpAccountRow, type FtpKind } from './ftp.repo.js';

const DAY = 24 * 3_600_000;
/** Files a sync lists in one transaction. */
const SYNC_BATCH = 500;
/** Files over 50 GB are refused on every upload path (spec sections 5 and 9: compress them first). */
export const LARGEST_FILE_BYTES = METADATA_LIMITS.compressAboveBytes;

/** Where the FTP server is reached; null while it does not run (FTP_ENABLED=false). */
/** Where the FTP server listens (null while it does not), and whether it speaks implicit FTPS. */
export type FtpEndpoint = () => Endpoint | null;
type Endpoint = { host: string; port: number; tls: boolean };

/** What an account's owner is shown of it (the password only once, when it is made). */
export interface FtpAccountView {
  id: string;
  kind: FtpKind;
  metadata: string;
  host: string;
  port: number;
  /** Implicit FTPS (`ftps://`): a certificate is configured. */
  tls: boolean;
  username: string;
  created_at: string;
  expires_at: string | null;
}

/** A signed-in FTP connection: whom it acts for, on which record, until when. */
export interface FtpSession {
  accountId: string;
  kind: FtpKind;
  metadataId: string;
  user: AuthenticatedUser;
  /** Milliseconds since the epoch; null: no end. */
  expiresAt: number | null;
}

export interface SyncResult {
  count: number;
  bytes: number;
  files: { path: string; size: number; sha256: string }[];
  /** Files the tree refused (a name taken, over the quota ...): they stay in the incoming folder. */
  refused: { path: string; error: AppError }[];
}

export class FtpRefused extends Error {}

/**
 * FTP accounts (issue 19): download accounts, read-only in one record's files for a user who may
 * download them (the download rule of the orders module), expiring with the order; and upload
 * accounts for providers, write-only into the record's incoming folder, which `/data/sync/` brings
 * into the record's tree.
 */
export class FtpService {
  private readonly repo: FtpRepo;
  /** Per record, the sync under way: two syncs of one record take turns. */
  private readonly syncing = new Map<string, Promise<unknown>>();

  constructor(
    db: Db,
    private readonly parts: {
      access: MetadataAccess;
      orders: OrdersService;
      accounts: AccountService;
      tree: RecordTree;
      incoming: IncomingFolders;
      endpoint: FtpEndpoint;
      /** Days an account for open data (or the record's own people) lasts: ORDER_VALID_DAYS. */
      validDays: number;
      /** USER_STORAGE_QUOTA_MB in bytes, and the bytes an account holds elsewhere (stored files, uploads under way). */
      storageQuotaBytes: number;
      usedBytesOf(userId: string): Promise<number>;
    },
  ) {
    this.repo = new FtpRepo(db);
  }

  get incoming(): IncomingFolders {
    return this.parts.incoming;
  }

  /** POST /data/download-user/: a new download account (in place of the user's former one on the record) and its password. */
  async createDownload(user: AuthenticatedUser, metadataId: string, now = new Date()) {
    const endpoint = this.endpoint();
    const record = await this.parts.access.readable(user, metadataId);
    const verdict = await this.parts.orders.downloads.assert(user, record, now);
    const expiresAt = verdict.order
      ? (await this.parts.orders.queries.one(user, verdict.order, now)).expires_at
      : new Date(now.getTime() + this.parts.validDays * DAY).toISOString();
    return this.create('download', user, record.id, expiresAt, endpoint, now);
  }

  /** GET /data/ftpinfo/?id=: the caller's download account on the record `id` (or the account `id`), without its password. */
  async info(user: AuthenticatedUser, id: string, now = new Date()): Promise<FtpAccountView> {
    const endpoint = this.endpoint();
    const row = (await this.repo.ofUser('download', user.id, id)) ?? (await this.repo.byId(id));
    if (!row || row.user_id !== user.id || isExpired(row, now)) throw new AppError('NOT_FOUND', 'ftp.noAccount');
    return view(row, endpoint);
  }

  /** GET /api/data/ftp/?metadata__id=: the record's upload accounts, for its creator and staff. */
  async listUpload(user: AuthenticatedUser, metadataId: string): Promise<FtpAccountView[]> {
    const endpoint = this.endpoint();
    const record = await this.parts.access.owned(user, metadataId);
    return (await this.repo.ofRecord('upload', record.id)).map((row) => view(row, endpoint));
  }

  /** POST /api/data/ftp/: an upload account on a record the caller may change (a draft of theirs). */
  async createUpload(user: AuthenticatedUser, metadataId: string, now = new Date()) {
    const endpoint = this.endpoint();
    const record = await this.parts.access.filesWritable(user, metadataId);
    return this.create('upload', user, record.id, null, endpoint, now);
  }

  /** DELETE /api/data/ftp/{id}/: by the record's creator or staff. */
  async removeUpload(user: AuthenticatedUser, id: string): Promise<void> {
    const row = await this.repo.byId(id);
    if (!row || row.kind !== 'upload') throw new AppError('NOT_FOUND', 'ftp.noAccount');
    await this.parts.access.owned(user, row.metadata_id);
    await this.repo.remove(row.id);
  }

  /** POST /data/sync/: what arrived in the record's incoming folder goes into its tree, each file checksummed as it is stored. */
  async sync(user: AuthenticatedUser, metadataId: string): Promise<SyncResult> {
    const record = await this.parts.access.filesWritable(user, metadataId);
    const before = this.syncing.get(record.id) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.syncNow(user, record.id));
    this.syncing.set(record.id, run);
    try {
      return await run;
    } finally {
      if (this.syncing.get(record.id) === run) this.syncing.delete(record.id);
    }
  }

  private async syncNow(user: AuthenticatedUser, metadataId: string): Promise<SyncResult> {
    const result: SyncResult = { count: 0, bytes: 0, files: [], refused: [] };
    const arrived = await this.parts.incoming.arrived(metadataId);
    // A few hundred at a time: one transaction lists each batch (a sync of 30,000 files, bench/ftp-sync.ts).
    for (let at = 0; at < arrived.length; at += SYNC_BATCH) {
      const batch = arrived.slice(at, at + SYNC_BATCH);
      const outcomes = await this.parts.tree.addAll(user, metadataId, batch);
      for (const [index, file] of batch.entries()) {
        const path = file.folder === '/' ? `/${file.name}` : `${file.folder}/${file.name}`;
        const outcome = outcomes[index]!;
        // Refused by the tree's rules: the file stays for the provider to rename or remove; anything else ended the sync.
        if (outcome instanceof AppError) {
          result.refused.push({ path, error: outcome });
          continue;
        }
        // Stored whole: it leaves the incoming folder.
        await fs.rm(file.source, { force: true });
        result.count += 1;
        result.bytes += outcome.size;
        result.files.push({ path, ...outcome });
      }
    }
    await this.parts.incoming.pruneEmpty(metadataId);
    // What left the folder no longer counts against the quota: measured again when next written.
    this.parts.incoming.forget(metadataId);
    return result;
  }

  /**
   * An FTP login: the account by name and password, unexpired, its user still active and still
   * allowed what the account does (downloading the record, or changing it). Refusals all read the same.
   */
  async login(username: string, password: string, now = new Date()): Promise<FtpSession> {
    const row = await this.repo.byUsername(username);
    const valid = await this.parts.accounts.passwords.check(row?.password_hash, password).catch(() => false);
    if (!row || !valid || isExpired(row, now)) throw new FtpRefused('Authentication failed');
    const user = await this.parts.accounts.activeUser(row.user_id);
    if (!user) throw new FtpRefused('Authentication failed');
    try {
      if (row.kind === 'download') {
        const verdict = await this.parts.orders.downloads.check(user, row.metadata_id, now);
        if (!verdict.have_download) throw new FtpRefused('No right to download this data');
      } else {
        await this.parts.access.filesWritable(user, row.metadata_id);
      }
    } catch (error) {
      if (error instanceof FtpRefused) throw error;
      throw new FtpRefused(row.kind === 'download' ? 'No right to download this data' : 'This record can no longer be changed');
    }
    const kind: FtpKind = row.kind === 'upload' ? 'upload' : 'download';
    return { accountId: row.id, kind, metadataId: row.metadata_id, user, expiresAt: row.expires_at ? Date.parse(row.expires_at) : null };
  }

  /**
   * Whether a session's account is still there and unexpired (checked before each transfer); an
   * upload account's record must still take files (record-policy.ts `changeFiles`: not once published).
   */
  async stillValid(session: FtpSession, now = Date.now()): Promise<boolean> {
    if (session.expiresAt !== null && session.expiresAt <= now) return false;
    if (!(await this.repo.byId(session.accountId))) return false;
    if (session.kind === 'download') return true;
    return this.parts.access.filesWritable(session.user, session.metadataId).then(
      () => true,
      () => false,
    );
  }

  /**
   * What an upload session may write (ftp-fs.ts UploadLimits): files up to 50 GB, and the incoming
   * folder within the account's storage quota less what it holds elsewhere: its stored files, its
   * uploads under way and the incoming folders of its other upload accounts. Staff have no quota.
   */
  uploadLimits(session: FtpSession): UploadLimits {
    const { incoming } = this.parts;
    const quota = this.parts.storageQuotaBytes;
    return {
      fileMax: LARGEST_FILE_BYTES,
      usage: () => incoming.usage(session.metadataId),
      ceiling: async () => {
        if (!storageQuotaApplies(session.user)) return null;
        let elsewhere = await this.parts.usedBytesOf(session.user.id);
        for (const metadataId of await this.repo.uploadRecordsOf(session.user.id)) {
          if (metadataId !== session.metadataId) elsewhere += (await incoming.usage(metadataId)).bytes;
        }
        return quota - elsewhere;
      },
      tooBig: translate('en', 'uploads.compress'),
      overQuota: translate('en', 'metadata.files.quotaExceeded', { limit: `${Math.round(quota / (1024 * 1024))} MB` }),
    };
  }

  /** The job: accounts past their expiry are deleted. */
  removeExpired(now = new Date()): Promise<number> {
    return this.repo.removeExpired(now.toISOString());
  }

  private endpoint(): Endpoint {
    const endpoint = this.parts.endpoint();
    if (!endpoint) throw new AppError('CONFLICT', 'ftp.disabled');
    return endpoint;
  }

  private async create(kind: FtpKind, user: AuthenticatedUser, metadataId: string, expiresAt: string | null, endpoint: Endpoint, now: Date) {
    const password = randomBytes(18).toString('base64url');
    const row: FtpAccountRow = {
      id: newId(),
      kind,
      metadata_id: metadataId,
      user_id: user.id,
      username: `${kind === 'download' ? 'd' : 'u'}${randomBytes(6).toString('hex')}`,
      password_hash: await this.parts.accounts.passwords.hash(password),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    };
    await this.repo.replace(row);
    return { ...view(row, endpoint), password };
  }
}

function isExpired(row: FtpAccountRow, now: Date): boolean {
  return row.expires_at !== null && row.expires_at <= now.toISOString();
}

function view(row: FtpAccountRow, endpoint: Endpoint): FtpAccountView {
  return {
    id: row.id,
    kind: row.kind === 'upload' ? 'upload' : 'download',
    metadata: row.metadata_id,
    host: endpoint.host,
    port: endpoint.port,
    tls: endpoint.tls,
    username: row.username,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}
