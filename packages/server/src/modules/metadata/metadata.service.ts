import { APPLICATION_USER_TYPES, submissionProblems, type Language, type MetadataTranslation, type MetadataUpdate, type SubmissionReason } from '@portal/shared';
import { lockUserRow, newId, type Db, type Tx } from '../../db/index.js';
import { AppError, fieldError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { MetadataAccess, type MetadataRow } from './metadata-access.js';
import { MetadataWritesRepo, type RecordValues } from './metadata-writes.repo.js';
import { MetadataRepo, type MetadataListFilter } from './metadata.repo.js';
import { isCreatorOrStaff } from './record-policy.js';

/** What the metadata module asks the account module (its face): the names records show for their owners. */
export interface OwnerNames {
  namesOf(ids: readonly string[]): Promise<Map<string, string>>;
}

export type ApplicationUserType = (typeof APPLICATION_USER_TYPES)[number];

/**
 * A record as the API shows it: its own fields, its fund ids and its owner's name. The routes
 * serialize it through `metadataRecordSchema`, which keeps only the fields a reply carries.
 */
export function presentRecord(row: MetadataRow, fund: string[], ownerName: string) {
  // Downloads are the catalogue's to tell, for published records only (metadata.routes.ts).
  const { download_count: _downloads, ...own } = row;
  return {
    ...own,
    // Written only through languageSchema.
    language: row.language as Language,
    scale: row.scale === null ? null : Number(row.scale),
    hit_count: Number(row.hit_count),
    owner: row.owner_id,
    owner_name: ownerName,
    fund,
  };
}
export type PresentedRecord = ReturnType<typeof presentRecord>;

const otherLanguage = (language: Language): Language => (language === 'en' ? 'zh-hans' : 'en');

type ShownRecord = PresentedRecord & { translations: MetadataTranslation[] };

/**
 * A published record as shown is the same for every reader, and it is the catalogue's most read
 * call: it is kept in memory for PUBLISHED_KEPT_MS, dropped at once when this process changes or
 * deletes the record (MetadataAccess tells, in the writing transaction), so that another instance's
 * change (or a change to the owner's name) reaches it at most that late. Its creator and staff read it
 * as stored. Its views and downloads are
 * not taken from it (metadata.routes.ts reads them each time).
 */
const PUBLISHED_KEPT_MS = 5_000;
const PUBLISHED_KEPT = 2_000;

export class MetadataService {
  private readonly repo: MetadataRepo;
  private readonly writes: MetadataWritesRepo;

  constructor(
    db: Db,
    readonly access: MetadataAccess,
    private readonly owners: OwnerNames,
    private readonly limits: { recordsPerHour: number } = { recordsPerHour: Number.MAX_SAFE_INTEGER },
  ) {
    this.repo = new MetadataRepo(db);
    this.writes = new MetadataWritesRepo(db);
    access.onChange({
      sync: async (_trx, ids) => this.forgetShown(ids),
      forget: async (_trx, ids) => this.forgetShown(ids),
    });
  }

  private readonly shown = new Map<string, { at: number; record: ShownRecord }>();
  /** Changes told so far: a record read while one was told may predate it, and is not kept. */
  private changesTold = 0;

  private forgetShown(ids: readonly string[]): void {
    this.changesTold += 1;
    for (const id of ids) this.shown.delete(id);
  }

  /**
   * At most `recordsPerHour` records (new or duplicated) per account in any hour; staff are exempt.
   * Checked in the transaction that inserts, after locking the user's row, so that requests at
   * once cannot all pass on the same count.
   */
  private async checkCreationLimit(trx: Tx, user: AuthenticatedUser): Promise<void> {
    if (user.is_staff) return;
    await lockUserRow(trx, user.id);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    if ((await new MetadataRepo(trx).countCreatedSince(user.id, since)) >= this.limits.recordsPerHour) {
      throw new AppError('RATE_LIMITED', 'metadata.createLimit', { params: { max: this.limits.recordsPerHour } });
    }
  }

  /** Each record's fund ids (in id order). */
  fundIds(metadataIds: string[]): Promise<Map<string, string[]>> {
    return this.repo.fundIds(metadataIds);
  }

  async present(rows: MetadataRow[]): Promise<PresentedRecord[]> {
    const funds = await this.repo.fundIds(rows.map((r) => r.id));
    const owners = await this.owners.namesOf(rows.map((r) => r.owner_id));
    return rows.map((row) => presentRecord(row, funds.get(row.id) ?? [], owners.get(row.owner_id) ?? ''));
  }

  /**
   * Lists: the personal centre (`personal`) shows the caller's own records; otherwise staff see all,
   * a signed-in user their own and the published ones, a visitor the published ones.
   */
  async list(user: AuthenticatedUser | null, options: { personal: boolean; statuses?: string[]; search?: string }, offset: number, limit: number) {
    const filter: MetadataListFilter = { statuses: options.statuses, search: options.search };
    if (!user) filter.statuses = ['published'];
    else if (options.personal) filter.ownerId = user.id;
    else if (!user.is_staff) filter.ownerOrPublished = user.id;
    if (!user && options.statuses?.length && !options.statuses.includes('published')) filter.statuses = ['__none__'];
    const { count, rows } = await this.repo.list(filter, offset, limit);
    return { count, results: await this.present(rows) };
  }

  async get(user: AuthenticatedUser | null, id: string): Promise<ShownRecord> {
    const kept = this.shown.get(id);
    // Its creator and staff, who change it, always read it as stored.
    if (kept && !isCreatorOrStaff(user, kept.record) && Date.now() - kept.at < PUBLISHED_KEPT_MS) return kept.record;
    const changes = this.changesTold;
    const record = await this.access.readable(user, id);
    const [presented] = await this.present([record]);
    const shown = { ...presented!, translations: (await this.repo.translations(id)) as MetadataTranslation[] };
    if (record.status === 'published' && changes === this.changesTold) {
      if (this.shown.size >= PUBLISHED_KEPT) this.shown.delete(this.shown.keys().next().value!);
      this.shown.set(id, { at: Date.now(), record: shown });
    }
    return shown;
  }

  /** Creates the record in its language and its version in the other language (English for a Chinese record). */
  async create(user: AuthenticatedUser, input: { language: Language; title?: string }) {
    const id = newId();
    const now = new Date().toISOString();
    await this.writes.transaction(async (trx) => {
      await this.checkCreationLimit(trx, user);
      await this.writes.insertDraft(trx, { id, owner_id: user.id, language: input.language, title: input.title ?? '', now }, otherLanguage(input.language));
    });
    return this.get(user, id);
  }

  async update(user: AuthenticatedUser, id: string, changes: MetadataUpdate) {
    const record = await this.access.writable(user, id);
    // The update schema's fields are the record's own columns.
    const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as RecordValues;
    // The schema's order rules again, with the stored values a PATCH leaves out.
    const merged = { ...record, ...values } as MetadataRow;
    if (merged.time_start && merged.time_end && merged.time_start > merged.time_end) {
      throw fieldError('time_end' in values ? 'time_end' : 'time_start', 'metadata.validation.timeOrder');
    }
    if (merged.south !== null && merged.north !== null && Number(merged.south) > Number(merged.north)) {
      throw fieldError('north' in values ? 'north' : 'south', 'metadata.validation.latitudeOrder');
    }
    await this.writes.transaction(async (trx) => {
      await this.writes.update(trx, id, { ...values, updated_at: new Date().toISOString() });
      await this.access.changed(trx, [id]);
    });
    return this.get(user, id);
  }

  async remove(user: AuthenticatedUser, id: string) {
    await this.access.authorized(user, 'delete', id);
    // Stored files remove their blobs (the rows go by cascade).
    await this.access.events.emit('removing', { id });
    await this.writes.transaction(async (trx) => {
      // The catalogue's index first: on SQLite its tokens are reached only through the entry the deletion removes.
      await this.access.deleting(trx, [id]);
      await this.writes.delete(trx, id);
    });
  }

  /** The checklist's facts from the record and everything attached to it. */
  async problems(record: MetadataRow): Promise<SubmissionReason[]> {
    const counts = await this.repo.submissionCounts(record.id);
    const translations = await this.repo.translations(record.id);
    const english = record.language === 'en' ? record : translations.find((t) => t.language === 'en');
    const funds = await this.repo.fundIds([record.id]);
    return submissionProblems({
      title: record.title,
      titleEn: english?.title ?? '',
      description: record.description,
      descriptionEn: english?.description ?? '',
      fileSize: record.file_size === null ? null : Number(record.file_size),
      timeStart: record.time_start,
      timeEnd: record.time_end,
      timeDescription: record.time_description,
      usageMethod: record.usage_method,
      east: record.east === null ? null : Number(record.east),
      west: record.west === null ? null : Number(record.west),
      south: record.south === null ? null : Number(record.south),
      north: record.north === null ? null : Number(record.north),
      fundIds: funds.get(record.id) ?? [],
      subtopicThreePole: record.subtopic_three_pole,
      subtopicThirdPole: record.subtopic_third_pole,
      keywordCounts: counts.keywordCounts,
      thumbnailCount: counts.thumbnails,
      dataFileCount: counts.dataFiles,
      platform: record.platform,
      authorsWithoutEnglish: counts.authorsWithoutEnglish,
      providerCount: counts.providers,
    });
  }

  /** The record's owner or staff may ask; the check itself changes nothing. */
  async ownRecord(user: AuthenticatedUser, id: string): Promise<MetadataRow> {
    return this.access.owned(user, id);
  }

  async checkSubmission(user: AuthenticatedUser, id: string): Promise<SubmissionReason[]> {
    return this.problems(await this.ownRecord(user, id));
  }

  /** A new draft of the caller's with the record's fields, translations and links (not its stored files). */
  async duplicate(user: AuthenticatedUser, id: string) {
    const source = await this.ownRecord(user, id);
    const copyId = newId();
    const now = new Date().toISOString();
    await this.writes.transaction(async (trx) => {
      await this.checkCreationLimit(trx, user);
      await this.writes.copy(trx, source, {
        id: copyId,
        owner_id: user.id,
        language: source.language,
        status: 'draft',
        hit_count: 0,
        download_count: 0,
        doi: '',
        created_at: now,
        updated_at: now,
        submitted_at: null,
        published_at: null,
        // The copy starts its own review.
        topic_review_status: '',
        is_pre_review: 0,
        review_round: 0,
        published_without_review: 0,
        unpublish_reason: '',
        embargo_until: null,
      });
    });
    return this.get(user, copyId);
  }

  async isEmpty(user: AuthenticatedUser, id: string): Promise<boolean> {
    return this.repo.isEmpty(await this.ownRecord(user, id));
  }

  /**
   * The editor leaving a draft: deleted only when the server finds it empty and never changed since
   * it was created (any stored change, file or link touches `updated_at`), and only the caller's
   * own. A draft that was typed into and emptied again, or that another tab is saving into, stays;
   * the abandoned-draft clean-up takes it once it has been left alone for a day.
   */
  async dropIfEmpty(user: AuthenticatedUser, id: string): Promise<boolean> {
    await this.ownRecord(user, id);
    return this.repo.deleteDraftIfEmpty(id, { ownerId: user.id, neverChanged: true });
  }

  /**
   * The periodic clean-up: drafts that are empty (as `isEmpty` judges) and were left untouched since
   * `before` (a day ago) are deleted, whoever owns them. Returns how many.
   */
  async removeAbandonedDrafts(before: Date, batch = 500): Promise<number> {
    let removed = 0;
    for (const id of await this.repo.untitledDraftsUntouchedSince(before.toISOString(), batch)) {
      if (await this.repo.deleteDraftIfEmpty(id, { untouchedBefore: before.toISOString() })) removed += 1;
    }
    return removed;
  }

  /**
   * Records the caller takes part in: as their `owner`, or as an `author` / `provider` linked through
   * an author entry with the caller's e-mail. `author` narrows to one author entry.
   */
  async applications(user: AuthenticatedUser, userType: ApplicationUserType, authorId: string | undefined, offset: number, limit: number) {
    let ids: string[] | undefined;
    if (userType !== 'owner' || authorId) {
      ids = await this.repo.idsLinkedByEmail(user.email, userType, authorId);
    }
    const filter: MetadataListFilter = userType === 'owner' ? { ownerId: user.id, ids } : { ids, ownerOrPublished: user.is_staff ? undefined : user.id };
    if (userType !== 'owner' && !user.is_staff) {
      // Linked as an author, the caller still sees only records they own or that are published.
      filter.ownerOrPublished = user.id;
    }
    const { count, rows } = await this.repo.list(filter, offset, limit);
    return { count, results: await this.present(rows) };
  }
}
