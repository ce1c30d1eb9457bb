import type { ApplyRole, Statistics } from '@portal/shared';
import type { Db } from '../../db/index.js';
import type { BlobStore } from '../../storage/index.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { Notify } from '../notify/index.js';
import type { UsageService } from '../usage/index.js';
import { Applications } from './applications.js';
import { DownloadAccess } from './download-access.js';
import { Basket } from './basket.js';
import { Handling } from './handling.js';
import { OrderMails } from './order-mails.js';
import { OrderOutbox } from './order-outbox.js';
import { OrderQueries } from './order-queries.js';
import { DAY, type OrdersContext, type OrdersServiceOptions } from './orders-context.js';
import { OrdersRepo, type DatasetFacts } from './orders.repo.js';
import { Vouchers } from './vouchers.js';
import { ZipDownloads } from './zip-downloads.js';

/**
 * The basket, applications and orders (issue 10), one use case a part: the basket, applying
 * (`applications.ts`), deciding and withdrawing (`handling.ts`), reading (`order-queries.ts`), vouchers.
 * An application becomes one order per handler: the open datasets (granted at once), the data
 * centre's, and one per owner of requestable datasets; each is decided on its own.
 */
export class OrdersService {
  readonly basket: Basket;
  readonly applications: Applications;
  readonly handling: Handling;
  readonly queries: OrderQueries;
  readonly vouchers: Vouchers;
  /** The one rule of who downloads a record's files, on every download path. */
  readonly downloads: DownloadAccess;
  private readonly repo: OrdersRepo;
  /** Every mail about an order goes out through it (written with the order, sent after the commit, retried by a job). */
  private readonly outbox: OrderOutbox;

  constructor(
    db: Db,
    private readonly access: MetadataAccess,
    private readonly usage: UsageService,
    mailer: Mailer,
    notify: Notify,
    options: OrdersServiceOptions,
  ) {
    this.repo = new OrdersRepo(db);
    this.outbox = new OrderOutbox(db, mailer, options.log);
    this.queries = new OrderQueries(db, this.repo, options.adminEmail);
    const context: OrdersContext = { db, repo: this.repo, access, usage, outbox: this.outbox, mails: new OrderMails(this.repo, notify), queries: this.queries, options };
    this.basket = new Basket(context);
    this.applications = new Applications(context);
    this.handling = new Handling(context);
    this.vouchers = new Vouchers(context);
    this.downloads = new DownloadAccess(access, this.repo);
  }

  /** The records' titles (both languages, the catalogue's when published) and facts, as orders show them. */
  datasets(ids: readonly string[]): Promise<Map<string, DatasetFacts>> {
    return this.repo.datasets(this.repo.db, ids);
  }

  /** A record's views, downloads and orders by day or month, with its titles: for its creator and staff only. */
  async statistics(user: AuthenticatedUser | null, id: string, by: 'day' | 'month'): Promise<Statistics> {
    const record = await this.access.owned(user, id);
    const facts = (await this.datasets([record.id])).get(record.id)!;
    return { ...(await this.usage.statistics(record.id, by)), title: facts.title, title_en: facts.title_en };
  }

  /** The Apply Statistics page of the caller's datasets: each role's totals, and one role's datasets with their titles. */
  applyStatistics(user: AuthenticatedUser, role: ApplyRole, slice: { offset: number; limit: number }) {
    return this.usage.applyStatistics(user, role, slice, (ids) => this.datasets(ids));
  }

  /** The zips of selected files, their bytes from `storage`. */
  zips(access: MetadataAccess, storage: BlobStore): ZipDownloads {
    return new ZipDownloads(this.repo, this.downloads, access, storage);
  }

  /** The job: offline requests unanswered for three days are told to their applicants (once). */
  remindOverdue(now = new Date()): Promise<number> {
    return this.handling.remindOverdue(now);
  }

  /** The job: order mails not sent yet (the process died, or the mailer failed and their retry is due). */
  async sendPendingMails(now = new Date()): Promise<number> {
    return this.outbox.deliverDue(now);
  }

  /** The job's clean-up: mails sent more than 30 days ago. */
  async forgetSentMails(now = new Date()): Promise<number> {
    return this.outbox.forgetSent(new Date(now.getTime() - 30 * DAY));
  }
}
