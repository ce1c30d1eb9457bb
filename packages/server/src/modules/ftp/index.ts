/**
 * The FTP module's one face (issue 19). It owns `ftp_accounts` and the incoming folders under
 * DATA_DIR/ftp-incoming; it reads and adds a record's files only through the files module's face
 * (RecordTree), and decides downloads by the orders module's rule.
 */
export { FtpService, type FtpAccountView, type FtpSession, type SyncResult } from './ftp.service.js';
export { PortalFtpServer } from './ftp-server.js';
export { IncomingFolders } from './incoming.js';
export { filesRecordTree, type RecordTree, type TreeEntry } from './record-tree.js';
export { ftpRoutes } from './ftp.routes.js';
export { createFtp } from './ftp-setup.js';
