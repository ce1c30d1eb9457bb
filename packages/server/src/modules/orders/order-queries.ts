import { effectiveOrderStatus, isEmbargoed, replyOverdue, type Order, type OrderHandler } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { ApplicationRow, DatasetFacts, OrderRow, OrdersRepo } from './orders.repo.js';

export type Slice = { offset: number; limit: number };

/** The stored form as the contract names its fields. */
export function applicationView(row: ApplicationRow) {
  return {
    id: row.id,
    realName: row.real_name,
    email: row.email,
    phone: row.phone,
    zipcode: row.zipcode,
    affiliation: row.affiliation,
    address: row.address,
    country: row.country,
    reason: row.reason,
    created_at: row.created_at,
  };
}

/** Whether the user may see the order: its applicant, its handler, staff. */
export function maySee(user: AuthenticatedUser, order: OrderRow): boolean {
  return user.is_staff || order.applicant_id === user.id || (order.handler === 'owner' && order.owner_id === user.id);
}

/** Whether the user decides the order: staff, or the owner of its records (open data is granted, never decided). */
export function mayDecide(user: AuthenticatedUser, order: OrderRow): boolean {
  if (order.handler === 'online') return false;
  return user.is_staff || (order.handler === 'owner' && order.owner_id === user.id);
}

/** Reading orders: the caller's, those they decide, one; and the data files they give. */
export class OrderQueries {
  constructor(
    private readonly db: Db,
    private readonly repo: OrdersRepo,
    /** Where applicants are sent for the data centre's own requests (ADMIN_EMAIL). */
    private readonly adminEmail: string,
  ) {}

  async mine(user: AuthenticatedUser, statuses: string[], slice: Slice, now = new Date()) {
    const { count, rows } = await this.repo.listOrders({ applicantId: user.id, statuses, now: now.toISOString() }, slice);
    return { count, results: await this.present(rows, now) };
  }

  /** Requests the caller decides: owners their records', staff the data centre's and every owner's. */
  async incoming(user: AuthenticatedUser, statuses: string[], slice: Slice, now = new Date()) {
    const { count, rows } = await this.repo.listOrders({ handler: { userId: user.id, isStaff: user.is_staff }, statuses, now: now.toISOString() }, slice);
    return { count, results: await this.present(rows, now) };
  }

  /** One order, for its applicant, its handler and staff; anyone else: not found. */
  async one(user: AuthenticatedUser, id: string, now = new Date()): Promise<Order> {
    const [row] = await this.repo.findOrders(this.db, [id]);
    if (!row || !maySee(user, row)) throw new AppError('NOT_FOUND', 'errors.notFound');
    return (await this.present([row], now))[0]!;
  }

  /** The orders as the contract shows them, with one query per table whatever their number. */
  async present(rows: OrderRow[], now = new Date(), db: Db = this.db): Promise<Order[]> {
    const lines = await this.repo.linesOf(
      db,
      rows.map((r) => r.id),
    );
    const facts = await this.repo.datasets(db, [...lines.values()].flat());
    const applications = await this.repo.applications(
      db,
      rows.map((r) => r.application_id),
    );
    const people = await this.repo.userNames(
      db,
      rows.flatMap((r) => [r.applicant_id, r.owner_id]),
    );
    return rows.map((row) => {
      const datasets = (lines.get(row.id) ?? []).flatMap((id) => (facts.has(id) ? [facts.get(id)!] : []));
      const status = effectiveOrderStatus(row, now);
      const owner = row.owner_id ? people.get(row.owner_id) : undefined;
      return {
        id: row.id,
        application_id: row.application_id,
        status,
        handler: row.handler as OrderHandler,
        owner_name: owner?.name ?? '',
        applicant: people.get(row.applicant_id)?.name ?? '',
        application: applicationView(applications.get(row.application_id)!),
        lines: datasets.map((d) => ({
          metadata_id: d.metadata_id,
          title: d.title,
          title_en: d.title_en,
          language: d.language,
          doi: d.doi,
          sharing_policy: d.sharing_policy,
          owner_name: d.owner_name,
          embargo_until: isEmbargoed(d, now) ? d.embargo_until : null,
        })),
        decision_reason: row.decision_reason,
        decided_at: row.decided_at,
        expires_at: row.expires_at,
        created_at: row.created_at,
        reply_overdue: replyOverdue(row, now),
        contact_email: this.contactOf(row, datasets, owner?.email),
        voucher_code: status === 'approved' ? row.voucher_code : null,
      };
    });
  }

  /** Whom the applicant may write to about an order: the provider's published e-mail, else the owner's; the data centre's. */
  private contactOf(row: OrderRow, datasets: DatasetFacts[], ownerEmail: string | undefined): string {
    if (row.handler === 'center') return this.adminEmail;
    if (row.handler === 'owner') return datasets.find((d) => d.dist_email)?.dist_email || ownerEmail || '';
    return '';
  }

  // ---- Downloads the caller may make ----

  async downloadable(user: AuthenticatedUser, slice: Slice, now = new Date()) {
    const { count, rows } = await this.repo.downloadable(user.id, now.toISOString(), slice);
    const ids = rows.map((r) => r.metadata_id);
    const facts = await this.repo.datasets(this.db, ids);
    const totals = await this.repo.fileTotals(ids);
    const granting = await this.repo.grantingOrders(user.id, ids, now.toISOString());
    return {
      count,
      results: rows.flatMap((row) => {
        const dataset = facts.get(row.metadata_id);
        if (!dataset || isEmbargoed(dataset, now)) return [];
        const total = totals.get(row.metadata_id) ?? { count: 0, size: 0 };
        return [
          {
            metadata_id: row.metadata_id,
            title: dataset.title,
            title_en: dataset.title_en,
            language: dataset.language,
            sharing_policy: dataset.sharing_policy,
            file_count: total.count,
            total_size: total.size,
            order: granting.get(row.metadata_id) ?? null,
            expires_at: row.expires_at,
          },
        ];
      }),
    };
  }

  /**
   * The data files an approved order of the caller (or any order, for staff) gives right now: its
   * datasets still published and out of their protection period. The command-line links list them.
   */
  async orderFiles(user: AuthenticatedUser, orderId: string, now = new Date()) {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row || (row.applicant_id !== user.id && !user.is_staff)) throw new AppError('NOT_FOUND', 'errors.notFound');
    if (effectiveOrderStatus(row, now) !== 'approved') throw new AppError('CONFLICT', 'orders.linkExpired');
    return { order: row, files: await this.grantedFiles(row, now) };
  }

  private async grantedFiles(row: OrderRow, now: Date) {
    return this.repo.dataFilesOf((await this.grantedDatasets(row, now)).map((dataset) => dataset.metadata_id));
  }

  /** The order's datasets it gives right now: published and out of their protection period, in the order's order. */
  private async grantedDatasets(row: OrderRow, now: Date): Promise<DatasetFacts[]> {
    const lines = (await this.repo.linesOf(this.db, [row.id])).get(row.id) ?? [];
    const facts = await this.repo.datasets(this.db, lines);
    return lines.flatMap((id) => {
      const dataset = facts.get(id);
      return dataset && dataset.status === 'published' && !isEmbargoed(dataset, now) ? [dataset] : [];
    });
  }

  /** As `orderFiles`, the datasets an approved order of the caller (any order, for staff) gives right now, without their files. */
  async orderDatasets(user: AuthenticatedUser, orderId: string, now = new Date()) {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row || (row.applicant_id !== user.id && !user.is_staff)) throw new AppError('NOT_FOUND', 'errors.notFound');
    if (effectiveOrderStatus(row, now) !== 'approved') throw new AppError('CONFLICT', 'orders.linkExpired');
    return { order: row, datasets: await this.grantedDatasets(row, now) };
  }

  /**
   * What a signed index link gives, checked on every use (as `signedFile`): the order still approved
   * and unexpired; its datasets published and out of their protection period.
   */
  async signedDatasets(orderId: string, now = new Date()) {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row) throw new AppError('FORBIDDEN', 'orders.linkForged');
    if (effectiveOrderStatus(row, now) !== 'approved') throw new AppError('FORBIDDEN', 'orders.linkExpired');
    return { order: row, datasets: await this.grantedDatasets(row, now) };
  }

  /**
   * What a signed link gives, checked on every use: the order still approved and unexpired, the file
   * one of its datasets', that dataset published and out of its protection period. Answers the file and
   * the order; a link whose order no longer allows it is 'expired' to its holder.
   */
  async signedFile(orderId: string, fileId: string, now = new Date()) {
    const [row] = await this.repo.findOrders(this.db, [orderId]);
    if (!row) throw new AppError('FORBIDDEN', 'orders.linkForged');
    if (effectiveOrderStatus(row, now) !== 'approved') throw new AppError('FORBIDDEN', 'orders.linkExpired');
    const file = (await this.grantedFiles(row, now)).find((f) => f.id === fileId);
    if (!file) throw new AppError('FORBIDDEN', 'orders.linkForged');
    return { order: row, file };
  }
}
