import { lookup } from 'node:dns/promises';
import fs from 'node:fs/promises';
import type { Server, Socket } from 'node:net';
import { FtpSrv } from 'ftp-srv';
import type { FtpConfig } from '../../config.js';
import { DownloadFs, UploadFs } from './ftp-fs.js';
import type { FtpService, FtpSession } from './ftp.service.js';
import { FtpRefused } from './ftp.service.js';
import type { RecordTree } from './record-tree.js';

interface Log {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

/** Commands a download account may not give (its file system refuses them too). */
const DOWNLOAD_REFUSED = ['STOR', 'STOU', 'APPE', 'DELE', 'RMD', 'XRMD', 'MKD', 'XMKD', 'RNFR', 'RNTO', 'SITE', 'ALLO'];
/** An upload account writes only. */
const UPLOAD_REFUSED = ['RETR', 'RNFR', 'RNTO'];
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;

/** ftp-srv logs every refused command as an error: its lines go to the portal's log at debug level. */
function quietLog(log: Log): object {
  const line = (details: unknown, message?: unknown) =>
    log.debug(typeof details === 'object' && details !== null ? details : { ftp: String(details) }, typeof message === 'string' ? message : undefined);
  const logger = { trace: line, debug: line, info: line, warn: line, error: line, fatal: line, child: () => logger };
  return logger;
}

/**
 * The portal's FTP server (ftp-srv) inside the portal process: accounts are the FtpService's, a
 * download account sees its record's tree (DownloadFs), an upload account its record's incoming
 * folder (UploadFs). Passive mode on FTP_PASV_PORTS; implicit FTPS (`ftps://`) when a certificate is configured.
 */
export class PortalFtpServer {
  private server: FtpSrv | undefined;
  private boundPort: number | undefined;

  constructor(
    private readonly config: FtpConfig,
    private readonly ftp: FtpService,
    private readonly tree: RecordTree,
    private readonly log: Log,
  ) {}

  /** Host and port accounts are told; null until the server listens. */
  /** Where clients connect, and whether the connection is TLS from its first byte (implicit FTPS, `ftps://`). */
  endpoint(): { host: string; port: number; tls: boolean } | null {
    return this.boundPort === undefined ? null : { host: this.config.host, port: this.boundPort, tls: Boolean(this.config.tls) };
  }

  async start(): Promise<void> {
    const tls = this.config.tls ? { cert: await fs.readFile(this.config.tls.certFile), key: await fs.readFile(this.config.tls.keyFile) } : false;
    const pasvAddress = /^\d+\.\d+\.\d+\.\d+$/.test(this.config.host) ? this.config.host : (await lookup(this.config.host, { family: 4 })).address;
    // ftp-srv's constructor ends the process on these signals by itself: main.ts closes the portal (and this server) instead.
    const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
    const server = new FtpSrv({
      // With a certificate the whole connection is TLS from its first byte (implicit FTPS, `ftps://`): ftp-srv's
      // explicit AUTH TLS answers its handshake in plain text on Node 20 (curl: 'wrong version number').
      url: `${tls ? 'ftps' : 'ftp'}://${this.config.listenHost}:${this.config.port}`,
      // A client on this machine is sent its own address instead (ftp-srv does so for local addresses).
      pasv_url: pasvAddress,
      pasv_min: this.config.pasvMin,
      pasv_max: this.config.pasvMax,
      anonymous: false,
      greeting: ['Three Poles Data Portal'],
      tls,
      timeout: 10 * 60_000,
      log: quietLog(this.log),
    });
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
    server.on('login', ({ connection, username, password }, resolve, reject) => {
      // Replies go out at once: ftp-srv writes '150' and then '226' as two small writes, and Nagle's
      // algorithm held the second until the client's delayed ACK (~40 ms), for every file of a mirror
      // of thousands (bench/ftp-sync.ts).
      // (ftp-srv's typings do not name the connection's socket.)
      (Reflect.get(connection, 'commandSocket') as Socket).setNoDelay(true);
      this.ftp.login(username, password).then(
        (session) => {
          this.log.info({ ftpAccount: session.accountId, kind: session.kind, metadata: session.metadataId }, 'FTP login');
          const guard = () => this.guard(session);
          if (session.kind === 'download') resolve({ fs: new DownloadFs(connection, this.tree, session, guard), blacklist: DOWNLOAD_REFUSED });
          else
            this.ftp.incoming.folderOf(session.metadataId).then(
              (folder) => resolve({ fs: new UploadFs(connection, folder, guard, this.ftp.uploadLimits(session)), blacklist: UPLOAD_REFUSED }),
              (error: Error) => reject(error),
            );
        },
        (error: Error) => {
          if (!(error instanceof FtpRefused)) this.log.error({ err: error }, 'FTP login failed');
          reject(error instanceof FtpRefused ? error : new Error('Authentication failed'));
        },
      );
    });
    server.on('client-error', ({ error }) => this.log.debug({ err: error }, 'FTP client error'));
    await server.listen();
    this.server = server;
    // ftp-srv's typings do not name its net.Server; the bound port (FTP_PORT=0 asks for any) is read from it.
    const address = (Reflect.get(server, 'server') as Server).address();
    this.boundPort = typeof address === 'object' && address ? address.port : this.config.port;
    this.log.info({ port: this.boundPort, host: this.config.host, tls: !!tls }, 'FTP server listening');
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.boundPort = undefined;
    if (server) await server.close();
  }

  /** A session whose account was deleted or expired is refused from then on. */
  private async guard(session: FtpSession): Promise<void> {
    if (!(await this.ftp.stillValid(session))) throw new FtpRefused('This FTP account has expired or was deleted');
  }
}
