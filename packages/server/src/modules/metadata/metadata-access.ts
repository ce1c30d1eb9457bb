import type { Selectable } from 'kysely';
import { IN_REVIEW_STATUSES } from '@portal/shared';
import type { Db, Tx } from '../../db/index.js';
import type { MetadataTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { MetadataWritesRepo, type RecordValues } from './metadata-writes.repo.js';
import { MetadataRepo } from './metadata.repo.js';
import { RecordEvents, type RecordChangeListener } from './record-events.js';
import { assertAuthorized, authorize, factsNeeded, mayLead, reviewerRoles, type NeededFacts, type RecordAction, type RecordFacts } from './record-policy.js';

export type MetadataRow = Selectable<MetadataTable>;
export type { RecordChangeListener } from './record-events.js';
export { EXPERT_VISIBLE_STATUSES } from './record-policy.js';

/**
 * The record calls of every module: who may see and change a record is record-policy.ts's rule;
 * these methods load the record and the facts the rule reads for the caller, and throw its refusal.
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

  /**
   * The caller's reviewer facts about the record (their expert invitations, whether they manage its
   * topic), those `needed` only; by default all that could make them a reviewer.
   */
  async reviewerFacts(
    user: AuthenticatedUser,
    record: MetadataRow,
    needed: Pick<NeededFacts, 'invitations' | 'managesTopic'> = { invitations: true, managesTopic: mayLead(user, record) },
  ): Promise<RecordFacts> {
    const facts: RecordFacts = {};
    if (needed.invitations) facts.invitations = await this.repo.invitations(record.id, user.id);
    if (needed.managesTopic) facts.managesTopic = await this.repo.managesTopicOf(record.id, user.id);
    return facts;
  }

  /** The caller's reviewer roles on the record (record-policy.ts). */
  async reviewerRoles(user: AuthenticatedUser, record: MetadataRow): Promise<('expert' | 'leader')[]> {
    return reviewerRoles(user, record, await this.reviewerFacts(user, record));
  }

  /**
   * The record `id` when the caller may do `action` with it (record-policy.ts), else the policy's
   * refusal: NOT_FOUND for an unknown id and for a record the caller may not see (no existence leak).
   */
  async authorized(user: AuthenticatedUser | null, action: Exclude<RecordAction, 'download'>, id: string): Promise<MetadataRow> {
    const record = await this.find(id);
    const facts = record && user ? await this.reviewerFacts(user, record, factsNeeded(user, action, record)) : {};
    assertAuthorized(user, action, record, facts);
    return record;
  }

  /** The record, or NOT_FOUND when it does not exist or the caller may not see it. */
  readable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    return this.authorized(user, 'read', id);
  }

  /** The record for its data files as such: its creator, staff and its reviewers; other readers 'no right'. */
  filesReadable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    return this.authorized(user, 'readFiles', id);
  }

  /** The record, when the caller is its creator or staff; other readers get the spec's 'no right'. */
  owned(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    return this.authorized(user, 'manage', id);
  }

  /** The record, when the caller may change it now: as `owned`, and the creator only while it is a draft. */
  writable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    return this.authorized(user, 'update', id);
  }

  /**
   * The record, when the caller may change its data files now (record-policy.ts `changeFiles`: as
   * `writable`, and nobody while it is published). Every write path of the files checks this.
   */
  filesWritable(user: AuthenticatedUser | null, id: string): Promise<MetadataRow> {
    return this.authorized(user, 'changeFiles', id);
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
   * For a write attached to the record (a stored file, a folder): locks the record in `trx` and judges
   * `action` on it as it is now (`update` for its documents and thumbnail, `changeFiles` for its data
   * files: the check made before the bytes streamed, repeated); the refusal's error, or undefined. A
   * caller refused rolls `trx` back.
   */
  async lockFor(trx: Tx, user: AuthenticatedUser, action: 'update' | 'changeFiles', metadataId: string, now: string): Promise<AppError | undefined> {
    const record = await this.writes.lockRecord(trx, metadataId, now);
    if (!record) return new AppError('NOT_FOUND', 'metadata.notFound');
    const decision = authorize(user, action, record);
    return decision.allowed ? undefined : decision.error;
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
