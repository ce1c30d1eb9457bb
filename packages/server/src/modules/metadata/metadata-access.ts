import type { Selectable } from 'kysely';
import { IN_REVIEW_STATUSES } from '@portal/shared';
import type { Db } from '../../db/index.js';
import type { MetadataTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/account.service.js';

export type MetadataRow = Selectable<MetadataTable>;

/**
 * Who may see and change a record, in one place for every metadata call:
 * - see: its creator, staff, and everyone once it is published;
 * - change (the record and everything attached to it): its creator and staff; the creator only
 *   while it is a draft (a record in review is read-only until it returns to draft).
 */
export class MetadataAccess {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<MetadataRow | undefined> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) return undefined;
    return this.db.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirst();
  }

  canSee(user: AuthenticatedUser | null, record: MetadataRow): boolean {
    return record.status === 'published' || (!!user && (user.is_staff || record.owner_id === user.id));
  }

  /** The record, or NOT_FOUND when it does not exist or the caller may not see it (no existence leak). */
  async readable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    const record = await this.find(id);
    if (!record || !this.canSee(user, record)) throw new AppError('NOT_FOUND', 'metadata.notFound');
    return record;
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
    await this.db.updateTable('metadata').set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();
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
