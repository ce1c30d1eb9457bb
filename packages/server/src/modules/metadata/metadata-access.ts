import type { Kysely, Selectable } from 'kysely';
import { IN_REVIEW_STATUSES } from '@portal/shared';
import type { Db } from '../../db/index.js';
import type { MetadataTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/account.service.js';

export type MetadataRow = Selectable<MetadataTable>;

/** While the record is with the experts, an invited one may read it (and its data files). */
export const EXPERT_VISIBLE_STATUSES = ['invited', 'underReview', 'approved'] as const;

/**
 * Who may see and change a record, in one place for every metadata call:
 * - see: its creator, staff, and everyone once it is published;
 * - change (the record and everything attached to it): its creator and staff; the creator only
 *   while it is a draft (a record in review is read-only until it returns to draft).
 */
/** Something kept in step with records, inside the transaction that changed them. */
export interface RecordChangeListener {
  sync(trx: Db, ids: readonly string[]): Promise<void>;
  /** Drops what it holds of these records, before they are deleted (in the deleting transaction). */
  forget(trx: Db, ids: readonly string[]): Promise<void>;
}

export class MetadataAccess {
  private readonly listeners: RecordChangeListener[] = [];

  constructor(private readonly db: Db) {}

  /** Derived views of records (the public catalogue's index) that follow every change. */
  onChange(listener: RecordChangeListener): void {
    this.listeners.push(listener);
  }

  /** Tells the listeners, in the writing transaction, that these records changed. */
  async changed(trx: Db | Kysely<any>, ids: readonly (string | null | undefined)[]): Promise<void> {
    const known = ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
    if (known.length) for (const listener of this.listeners) await listener.sync(trx as Db, known);
  }

  /** Tells the listeners, in the deleting transaction and before the rows go, that these records are deleted. */
  async deleting(trx: Db | Kysely<any>, ids: readonly string[]): Promise<void> {
    for (const listener of this.listeners) await listener.forget(trx as Db, ids);
  }

  async find(id: string): Promise<MetadataRow | undefined> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) return undefined;
    return this.db.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirst();
  }

  canSee(user: AuthenticatedUser | null, record: MetadataRow): boolean {
    return record.status === 'published' || (!!user && (user.is_staff || record.owner_id === user.id));
  }

  /**
   * A reviewer's view of a record nobody else may see: an invited expert whose invitation of the
   * current round stands, while the record is with the experts; a manager (is_project 1 or 2) of the
   * topic a submitted project-data record is linked to.
   */
  async reviewerRoles(user: AuthenticatedUser, record: MetadataRow): Promise<('expert' | 'leader')[]> {
    const roles: ('expert' | 'leader')[] = [];
    const expert = await this.db
      .selectFrom('reviews')
      .select('id')
      .where('metadata_id', '=', record.id)
      .where('expert_id', '=', user.id)
      .where('round', '=', Number(record.review_round))
      .where('status', '<>', 'declined')
      .executeTakeFirst();
    if (expert) roles.push('expert');
    // Only project data is the leaders' to review; a topic's other records are not theirs to read.
    if ((user.is_project === 1 || user.is_project === 2) && record.submitting_type === 'project') {
      const leader = await this.db
        .selectFrom('meta_special')
        .innerJoin('special_managers', 'special_managers.special_id', 'meta_special.special_id')
        .select('meta_special.id')
        .where('meta_special.metadata_id', '=', record.id)
        .where('special_managers.user_id', '=', user.id)
        .executeTakeFirst();
      if (leader) roles.push('leader');
    }
    return roles;
  }

  /** Whether a reviewer may read the record now: experts while it is with them, leaders once submitted. */
  async reviewerMaySee(user: AuthenticatedUser, record: MetadataRow): Promise<boolean> {
    const roles = await this.reviewerRoles(user, record);
    return (
      (roles.includes('expert') && (EXPERT_VISIBLE_STATUSES as readonly string[]).includes(record.status)) ||
      (roles.includes('leader') && record.status !== 'draft')
    );
  }

  /** The record, or NOT_FOUND when it does not exist or the caller may not see it (no existence leak). */
  async readable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    const record = await this.find(id);
    if (!record) throw new AppError('NOT_FOUND', 'metadata.notFound');
    if (this.canSee(user, record) || (user && (await this.reviewerMaySee(user, record)))) return record;
    throw new AppError('NOT_FOUND', 'metadata.notFound');
  }

  /**
   * The data files of a record: its creator and staff, and its reviewers while they may see it (an
   * unpublished record's data, only as its reviewer). Others who may see the record: 'no right'.
   */
  async filesReadable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const record = await this.readable(user, id);
    if (user.is_staff || record.owner_id === user.id || (await this.reviewerMaySee(user, record))) return record;
    throw new AppError('FORBIDDEN', 'metadata.noRight');
  }

  /**
   * The record, when the caller is its creator or staff. Who cannot see it gets NOT_FOUND, the reply
   * to an unknown id (no existence leak); who can see it (a published record of someone else's) the
   * spec's 'no right' message.
   */
  async owned(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    if (!user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const record = await this.readable(user, id);
    if (!user.is_staff && record.owner_id !== user.id) throw new AppError('FORBIDDEN', 'metadata.noRight');
    return record;
  }

  /** The record, when the caller may change it now: as `owned`, and the creator only while it is a draft. */
  async writable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    const record = await this.owned(user, id);
    if (!user!.is_staff && record.status !== 'draft') throw new AppError('CONFLICT', 'metadata.readOnly');
    return record;
  }

  /** Marks the record as changed now (lists sort by it). */
  async touch(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('metadata').set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();
      await this.changed(trx, [id]);
    });
  }

  static isInReview(status: string): boolean {
    return (IN_REVIEW_STATUSES as readonly string[]).includes(status);
  }
}

/**
 * For a lookup by the id of a row attached to a record (a file, a link): a hidden record answers as
 * an unknown row does, with one 'not found'.
 */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', 'errors.notFound');
    throw error;
  }
}
