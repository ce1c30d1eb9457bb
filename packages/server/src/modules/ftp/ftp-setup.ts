import path from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import type { AccountService } from '../account/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { OrdersService } from '../orders/index.js';
import { PortalFtpServer } from './ftp-server.js';
import { FtpService, LARGEST_FILE_BYTES } from './ftp.service.js';
import { IncomingFolders } from './incoming.js';
import type { BlobStore } from '../../storage/index.js';
import type { FilesService } from '../files/index.js';
import { filesRecordTree } from './record-tree.js';

/** The FTP module as app.ts builds it: the accounts' service and the server (started when FTP_ENABLED). */
export function createFtp(
  config: Pick<Config, 'ftp' | 'dataDir' | 'orderValidDays' | 'accountLimits'>,
  parts: {
    db: Db;
    access: MetadataAccess;
    orders: OrdersService;
    accounts: AccountService;
    files: FilesService;
    storage: BlobStore;
    /** The bytes an account holds outside the incoming folders (stored files, uploads under way). */
    usedBytesOf(userId: string): Promise<number>;
    log: ConstructorParameters<typeof PortalFtpServer>[3];
  },
): { service: FtpService; server: PortalFtpServer } {
  // The service tells accounts where the server listens; the server logs accounts in through the service.
  const running: { server?: PortalFtpServer } = {};
  // A file that arrives by FTP may be as large as any upload (50 GB: above it, the spec asks for compression).
  const tree = filesRecordTree(parts.files, parts.storage, LARGEST_FILE_BYTES);
  const service = new FtpService(parts.db, {
    access: parts.access,
    orders: parts.orders,
    accounts: parts.accounts,
    tree,
    incoming: new IncomingFolders(path.join(config.dataDir, 'ftp-incoming')),
    endpoint: () => running.server?.endpoint() ?? null,
    validDays: config.orderValidDays,
    storageQuotaBytes: config.accountLimits.storageBytes,
    usedBytesOf: parts.usedBytesOf,
  });
  const server = new PortalFtpServer(config.ftp, service, tree, parts.log);
  running.server = server;
  return { service, server };
}
