import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { MetadataAccess } from './metadata-access.js';
import { AUTHOR_TRANSLATED_CONTACTS, blank, withoutAuthorContacts, type ResourceReplies } from './resource-replies.js';
import { RESOURCES } from './resources.js';
import type { ResourceTable, ResourcesRepo, Row } from './resources.repo.js';

/**
 * Shared entries records link to. A signed-in user sees their own, those of records they can see
 * (published or theirs) and, for funds, the programme funds; entries only others' drafts use stay
 * private. They change in place only where every record using them may change with them; anyone
 * else's write goes to their own copy (see `planEntryWrite`).
 */
export const SHARED_ENTRIES: readonly ResourceTable[] = ['authors', 'literature', 'keywords', 'funds'];

/** How a write to a shared entry goes: in place, or to the caller's copy linked from these drafts of theirs. */
export interface EntryWrite {
  copyFor?: string[];
}

export const invalid = (field: string, key: string) => new AppError('VALIDATION_FAILED', key, { fields: { [field]: key } });
export const notFound = () => new AppError('NOT_FOUND', 'errors.notFound');

/** Who sees a shared entry, and where a write to one goes. */
export class SharedEntries {
  constructor(
    private readonly repo: ResourcesRepo,
    private readonly access: MetadataAccess,
    private readonly replies: ResourceReplies,
  ) {}

  async isVisible(table: ResourceTable, id: string, user: AuthenticatedUser): Promise<boolean> {
    if (user.is_staff || !SHARED_ENTRIES.includes(table)) return true;
    return this.repo.isVisibleTo(table, id, user.id);
  }

  /**
   * How a write to a shared entry (or to its translations) goes. In place for staff, and for its
   * creator while every record using it is a draft of theirs. Anyone else who uses it in drafts of
   * theirs gets their own copy, linked from those drafts instead (`metadataId`: from that one only);
   * the records of others, and the caller's records in review or published, keep the original.
   * Who cannot see the entry gets 'not found'; who uses it in no draft of theirs 'no right' (its
   * creator: `sharedLocked`).
   */
  async planEntryWrite(table: ResourceTable, id: string, user: AuthenticatedUser, metadataId: string | undefined): Promise<EntryWrite> {
    const entry = await this.repo.find(table, id);
    if (!entry || !(await this.isVisible(table, id, user))) throw notFound();
    if (metadataId !== undefined) await this.access.writable(user, metadataId);
    if (user.is_staff) return {};
    const own = entry.created_by === user.id;
    // An entry with a staff-only flag set (a programme fund) is the data centre's: it is not copied either.
    const plain = RESOURCES.find((def) => def.table === table && !def.parent)?.staffOnly ?? {};
    if (Object.entries(plain).some(([field, value]) => Number(entry[field]) !== Number(value))) throw new AppError('FORBIDDEN', 'metadata.noRight');
    if (!SHARED_ENTRIES.includes(table) || (own && !(await this.usedByOthers(table, id, user)))) {
      if (!own) throw new AppError('FORBIDDEN', 'metadata.noRight');
      return {};
    }
    const drafts = [...new Set(await this.repo.recordsLinking(table, id, { ownerId: user.id, status: 'draft', recordId: metadataId }))].sort();
    if (drafts.length) return { copyFor: drafts };
    if (metadataId !== undefined) throw invalid('metadata', 'metadata.notLinked');
    throw own ? new AppError('CONFLICT', 'metadata.sharedLocked') : new AppError('FORBIDDEN', 'metadata.noRight');
  }

  /**
   * The caller's own copy of a shared entry, with its translations (created by the caller), linked
   * instead of the original from `drafts`: each link row keeps its own columns (sort, role ...).
   * `repo`: the writing transaction's. Returns the copy's id.
   */
  async copyEntry(repo: ResourcesRepo, table: ResourceTable, id: string, user: AuthenticatedUser, drafts: string[]): Promise<string> {
    const original = await repo.find(table, id);
    if (!original) throw notFound();
    const now = new Date().toISOString();
    // The copy is the caller's, and its creator reads its contacts: an author's personal data goes
    // into it only when the caller may read them on the original (else a write would reveal them).
    const privateAuthor = table === 'authors' && !(await this.replies.contactableAuthors(user, [id], repo)).has(id);
    const copy = { ...original, created_by: user.id, created_at: now };
    return repo.copyEntry(table, original, privateAuthor ? withoutAuthorContacts(copy) : copy, drafts, (translation) =>
      privateAuthor ? blank(translation, AUTHOR_TRANSLATED_CONTACTS) : translation,
    );
  }

  /** Records linking to the entry that this caller may not change now: someone else's, or not a draft. */
  private async usedByOthers(table: ResourceTable, id: string, user: AuthenticatedUser): Promise<boolean> {
    if (user.is_staff) return false;
    return (await this.repo.recordsLinking(table, id, { notDraftOf: user.id })).length > 0;
  }
}

export type { Row };
