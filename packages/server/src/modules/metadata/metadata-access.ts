import type { Selectable } from 'kysely';
import { IN_REVIEW_STATUSES } from '@portal/shared';
import type { Db, Tx } from '../../db/index.js';
import type { MetadataTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { MetadataWritesRepo, type RecordValues, type Refusal } from './metadata-writes.repo.js';
import { MetadataRepo } from './metadata.repo.js';
import { RecordEvents, type RecordChangeListener } from './record-events.js';

export type MetadataRow = Selectable<MetadataTable>;
export type { RecordChangeListener } from './record-events.js';

/** While the record is with the experts, an invited one may read it (and its data files). */
export const EXPERT_VISIBLE_STATUSES = ['invited', 'underReview', 'approved'] as const;

/**
 * Who may see and change a record, in one place for every metadata call:
 * - see: its creator, staff, and everyone once it is published;
 * - change (the record and everything attached to it): its creator and staff; the creator only
 *   while it is a draft (a record in review is read-only until it returns to draft).
 * It also carries the record events (record-events.ts) every module listens to.
 */
export class MetadataAccess {
  /** The typed events of records; app.ts registers the listeners. */
  readonly events = new RecordEvents();
  private readonly repo: MetadataRepo;
  private readonly writes: MetadataWritesRepo;

  constructor(db: Db) {
    this.repo = new MetadataRepo(db);
    this.writes = new MetadataWritesRepo(db);
  }

  /** Derived views of records (the public catalogue's index) that follow every change. */
  onChange(listener: RecordChangeListener): void {
    this.events.on('changed', ({ trx, ids }) => listener.sync(trx, ids));
    this.events.on('deleting', ({ trx, ids }) => listener.forget(trx, ids));
  }

  /** Tells the listeners, in the writing transaction, that these records changed. */
  async changed(trx: Tx, ids: readonly (string | null | undefined)[]): Promise<void> {
    const known = ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
    if (known.length) await this.events.emit('changed', { trx, ids: known });
  }

  /** Tells the listeners, in the deleting transaction and before the rows go, that these records are deleted. */
  async deleting(trx: Tx, ids: readonly string[]): Promise<void> {
    await this.events.emit('deleting', { trx, ids });
  }

  async find(id: string): Promise<MetadataRow | undefined> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) return undefined;
    return this.repo.find(id);
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
    if (await this.repo.isInvitedExpert(record.id, user.id, Number(record.review_round))) roles.push('expert');
    // Only project data is the leaders' to review; a topic's other records are not theirs to read.
    if ((user.is_project === 1 || user.is_project === 2) && record.submitting_type === 'project') {
      if (await this.repo.managesTopicOf(record.id, user.id)) roles.push('leader');
    }
    return roles;
  }

  /** Whether a reviewer may read the record now: experts while it is with them, leaders once submitted. */
  async reviewerMaySee(user: AuthenticatedUser, record: MetadataRow): Promise<boolean> {
    const roles = await this.reviewerRoles(user, record);
    return (roles.includes('expert') && (EXPERT_VISIBLE_STATUSES as readonly string[]).includes(record.status)) || (roles.includes('leader') && record.status !== 'draft');
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
    await this.writes.transaction(async (trx) => {
      await this.writes.touch(trx, [id], new Date().toISOString());
      await this.changed(trx, [id]);
    });
  }

  // ---- The record writes other modules make, in their own transactions (the metadata module owns the table) ----

  /**
   * The review's step: moves the record from the status and round it was read in, with `values`;
   * false when another request moved it first. Run first in its transaction, it holds the record's
   * row until the transaction ends. (The caller tells `changed` when the public view follows.)
   */
  moveStatus(trx: Tx, record: Pick<MetadataRow, 'id' | 'status' | 'review_round'>, to: string, values: RecordValues = {}): Promise<boolean> {
    return this.writes.moveStatus(trx, record, to, values);
  }

  /** The publication's facts modules/doi derives (the DOI it minted, the version, the access right), in the publishing transaction. */
  async setPublicationFacts(
    trx: Tx,
    id: string,
    values: Pick<RecordValues, 'doi' | 'version_number' | 'version_fingerprint' | 'version_published_at' | 'access_right'>,
  ): Promise<void> {
    if (Object.keys(values).length) await this.writes.update(trx, id, values);
  }

  /**
   * For a write attached to the record (a stored file): touches the record in `trx`, which locks it,
   * when it may still be written to (`draftOnly`: only as a draft); else why not ('gone', 'readOnly').
   */
  lockForWrite(trx: Tx, metadataId: string, now: string, draftOnly: boolean): Promise<Refusal | undefined> {
    return this.writes.lockForWrite(trx, metadataId, now, draftOnly);
  }

  /** Adds to the records' view or download counts (modules/usage, in its batch's transaction), the rows in the order of `ids`. */
  addCounts(trx: Db, column: 'hit_count' | 'download_count', added: ReadonlyMap<string, number>, ids: readonly string[]): Promise<void> {
    return this.writes.addCounts(trx, column, added, ids);
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
