import { isUniqueViolation, newId, type Db, type Tx } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { AccountDirectory, type AuthenticatedUser } from '../account/index.js';
import { orNotFound, type MetadataAccess } from './metadata-access.js';
import { afterCreate, checkRecordLimits, checkRepeatedCreate, recordNamed } from './resource-create.js';
import type { ResourceDef } from './resource-def.js';
import { ResourceReplies } from './resource-replies.js';
import { CREATED_TABLES, RESOURCES } from './resources.js';
import { ResourcesRepo, type ResourceTable, type Row } from './resources.repo.js';
import { invalid, notFound, SHARED_ENTRIES, SharedEntries } from './shared-entries.js';

export { REPEATED_CREATE_WINDOW_MS } from './resource-create.js';

/** A value as a column holds it: booleans are 0 / 1. */
const columnValue = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** A flag from JSON or a form ('true', '1', 'on') as 0 / 1. */
const flag = (value: unknown) => (['true', '1', 'on', true, 1].includes(value as string) ? 1 : 0);

/**
 * The rules of the attached entities (see resources.ts for who may change what): reading and
 * writing them; who sees a shared entry and where a write to one goes is shared-entries.ts, what a
 * create writes beside its row resource-create.ts, how rows are shown resource-replies.ts.
 */
export class ResourceService {
  private readonly repo: ResourcesRepo;
  private readonly replies: ResourceReplies;
  private readonly entries: SharedEntries;

  constructor(
    db: Db,
    private readonly access: MetadataAccess,
    /** The accounts a row may name (a topic's manager): the account module owns `users`. */
    private readonly accounts: Pick<AccountDirectory, 'exists'> = new AccountDirectory(db),
  ) {
    this.repo = new ResourcesRepo(db);
    this.replies = new ResourceReplies(this.repo);
    this.entries = new SharedEntries(this.repo, access, this.replies);
  }

  async list(def: ResourceDef, user: AuthenticatedUser | null, query: Record<string, unknown>, offset: number, limit: number) {
    if (def.read === 'user' && !user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const given = (name: string) => typeof query[name] === 'string' && query[name] !== '';
    if (def.requiredFilter && !def.requiredFilter.some(given) && !user?.is_staff) {
      throw invalid(def.requiredFilter[0]!, 'metadata.validation.filter');
    }
    // Every filter applied that names a record or an entry is checked, and only those: the caller
    // must be able to see what it names (a hidden one answers as an unknown one).
    let namesRecord = false;
    let record: { owner_id: string } | undefined;
    for (const [name, filter] of Object.entries(def.filters ?? {})) {
      if (!filter.names || !given(name)) continue;
      const value = String(query[name]);
      if (filter.names === 'metadata') {
        record = await this.access.readable(user, value);
        namesRecord = true;
      } else if (user && !(await this.entries.isVisible(filter.names as ResourceTable, value, user))) {
        throw notFound();
      }
    }
    let base = this.repo.select(def.table);
    if (!namesRecord && user && !user.is_staff && SHARED_ENTRIES.includes(def.table)) base = this.repo.visibleOnly(base, def.table, user.id);
    for (const [name, apply] of Object.entries(def.filters ?? {})) {
      if (!given(name)) continue;
      const value = String(query[name]);
      if (value.length > 200) throw invalid(name, 'metadata.validation.filter');
      base = apply(base, value);
    }
    const { count, rows } = await this.repo.page(base, def.table, def.orderBy, offset, limit);
    const results = await this.replies.present(def, rows);
    return { count, results: await this.replies.asCallerMaySee(def, user, results, record) };
  }

  async get(def: ResourceDef, user: AuthenticatedUser | null, id: string) {
    if (def.read === 'user' && !user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const row = await this.find(def, id);
    const record = def.owner === 'record' ? await orNotFound(this.access.readable(user, String(row.metadata_id))) : undefined;
    if (user && !(await this.entries.isVisible(def.parent?.table ?? def.table, String(def.parent ? row[def.parent.column] : id), user))) throw notFound();
    return (await this.replies.asCallerMaySee(def, user, await this.replies.present(def, [row]), record))[0]!;
  }

  async create(def: ResourceDef, user: AuthenticatedUser, input: Row) {
    await this.mayCreate(def, user, input);
    // A translation is a change of its entry: made on the caller's copy when the entry may not change in place.
    const parentId = def.parent ? String(input[def.parent.field]) : undefined;
    const plan = def.parent && parentId ? await this.entries.planEntryWrite(def.parent.table, parentId, user, recordNamed(input)) : {};
    const id = newId();
    const values: Row = { id };
    for (const [field, value] of Object.entries(input)) {
      if (value === undefined || def.extraFields?.includes(field)) continue;
      const reference = def.references?.find((r) => r.field === field);
      values[reference ? reference.column : field] = columnValue(value);
    }
    for (const [field, plain] of Object.entries(def.staffOnly ?? {})) values[field] = field in values ? flag(values[field]) : plain;
    if (CREATED_TABLES.has(def.table)) Object.assign(values, { created_by: user.id, created_at: new Date().toISOString() });
    const recordId = typeof (values.metadata_id ?? input.metadata) === 'string' ? String(values.metadata_id ?? input.metadata) : undefined;
    await this.writeOnce(def, async (repo, trx) => {
      if (recordId) {
        // Writing the record's row first locks it (PostgreSQL) until commit: two requests adding to one
        // record take turns, so the per-record limits below count what the other one wrote.
        await repo.touchRecords([recordId]);
        await checkRecordLimits(repo, def, recordId);
      }
      await checkRepeatedCreate(trx, repo, def, user, values, input);
      if (def.parent && parentId && plan.copyFor) values[def.parent.column] = await this.entries.copyEntry(repo, def.parent.table, parentId, user, plan.copyFor);
      await repo.insert(def.table, values);
      await afterCreate(repo, def, id, input);
      await this.access.changed(trx, [recordId, ...(await this.recordsShowing(repo, def, { ...values, id }))]);
    });
    return this.presentOne(def, user, id, plan.copyFor && parentId);
  }

  async update(def: ResourceDef, user: AuthenticatedUser, id: string, input: Row) {
    const row = await this.find(def, id);
    // A shared entry or its translation: in place, or on the caller's copy; anything else by its owner.
    const entry = def.owner === 'creator' ? { table: def.parent?.table ?? def.table, id: String(def.parent ? row[def.parent.column] : id) } : undefined;
    const plan = entry ? await this.entries.planEntryWrite(entry.table, entry.id, user, recordNamed(input)) : (await this.mayChange(def, user, row), {});
    // A row never moves to another record or parent: that would bypass the other one's owner.
    const changes = Object.fromEntries(
      Object.entries(input).filter(([field, value]) => value !== undefined && !def.extraFields?.includes(field) && field !== 'metadata' && field !== def.parent?.field),
    );
    this.checkStaffOnly(def, user, changes);
    await this.checkReferences(def, user, changes);
    const values: Row = {};
    for (const [field, value] of Object.entries(changes)) {
      const reference = def.references?.find((r) => r.field === field);
      values[reference ? reference.column : field] = columnValue(value);
    }
    for (const field of Object.keys(def.staffOnly ?? {})) if (field in values) values[field] = flag(values[field]);
    if (def.table === 'keyword_standards' && typeof values.parent_id === 'string' && (await this.isAncestorOrSelf(id, values.parent_id))) {
      throw invalid('parent', 'metadata.validation.keywordStandard');
    }
    // A linked author's name does not change in place (a copy of the caller's may carry a new one).
    if (def.table === 'authors' && !plan.copyFor && typeof values.name === 'string' && values.name !== row.name && (await this.repo.isLinked('authors', id))) {
      throw invalid('name', 'metadata.author.nameLocked');
    }
    let target = id;
    await this.writeOnce(def, async (repo, trx) => {
      if (entry && plan.copyFor) {
        const copyId = await this.entries.copyEntry(repo, entry.table, entry.id, user, plan.copyFor);
        target = def.parent ? await repo.translationOf(def.table, def.parent.column, copyId, row.language) : copyId;
      }
      await repo.update(def.table, target, values);
      if (target === id) await this.access.changed(trx, await this.recordsShowing(repo, def, row));
    });
    await this.touchRecordOf(def, row);
    return this.presentOne(def, user, target, plan.copyFor && entry!.id);
  }

  async remove(def: ResourceDef, user: AuthenticatedUser, id: string) {
    const row = await this.find(def, id);
    if (def.parent && def.owner === 'creator') {
      // Taking a translation off an entry changes the entry: in place, or on the caller's copy.
      const parent = def.parent;
      const parentId = String(row[parent.column]);
      const plan = await this.entries.planEntryWrite(parent.table, parentId, user, undefined);
      await this.repo.transaction(async (repo, trx) => {
        const target = plan.copyFor
          ? await repo.translationOf(def.table, parent.column, await this.entries.copyEntry(repo, parent.table, parentId, user, plan.copyFor), row.language)
          : id;
        await repo.delete(def.table, { id: target });
        if (target === id) await this.access.changed(trx, await this.recordsShowing(repo, def, row));
      });
      return;
    }
    await this.mayChange(def, user, row);
    if (await this.repo.isLinked(def.table, id)) throw new AppError('CONFLICT', 'metadata.inUse');
    if (def.table === 'keyword_standards' && (await this.subtreeLinked(id))) throw new AppError('CONFLICT', 'metadata.inUse');
    await this.repo.transaction(async (repo, trx) => {
      await repo.delete(def.table, { id });
      await this.access.changed(trx, await this.recordsShowing(repo, def, row));
    });
    await this.touchRecordOf(def, row);
  }

  /**
   * The records whose public view shows this row: its own record, or every published record linking
   * the shared entry (author, keyword, literature, fund, standard) it is or translates.
   */
  private async recordsShowing(repo: ResourcesRepo, def: ResourceDef, row: Row): Promise<string[]> {
    if (typeof row.metadata_id === 'string') return [row.metadata_id];
    return repo.recordsLinking(def.parent?.table ?? def.table, def.parent ? row[def.parent.column] : row.id, { status: 'published' });
  }

  /** author_sort/: numbers the record's author links 0, 1, 2 ... in the given order, in one transaction. */
  async sortAuthors(user: AuthenticatedUser, metadataId: string, ids: string[]) {
    await this.access.writable(user, metadataId);
    const links = await this.repo.rowsWhere('meta_author', 'metadata_id', [metadataId]);
    const own = new Set(links.map((link) => link.id));
    if (new Set(ids).size !== ids.length || ids.some((id) => !own.has(id))) throw invalid('ids', 'metadata.validation.author');
    await this.repo.transaction(async (repo) => {
      for (const [index, id] of ids.entries()) await repo.update('meta_author', id, { sort: index });
    });
    await this.access.touch(metadataId);
    const def = RESOURCES.find((r) => r.name === 'meta-author')!;
    const rows = await this.repo.rowsWhere('meta_author', 'metadata_id', [metadataId], ['sort', 'id']);
    return this.replies.asCallerMaySee(def, user, await this.replies.present(def, rows));
  }

  /** DELETE keyword/?metadata=..&keyword=..: takes the keyword off the record (the keyword stays). */
  async unlinkKeyword(user: AuthenticatedUser, metadataId: string, keywordId: string) {
    await this.access.writable(user, metadataId);
    if ((await this.repo.delete('meta_keyword', { metadata_id: metadataId, keyword_id: keywordId })) === 0) throw new AppError('NOT_FOUND', 'errors.notFound');
    await this.access.touch(metadataId);
  }

  /** Who may read how to reach these authors (resource-replies.ts). */
  contactableAuthors(user: AuthenticatedUser | null, ids: readonly string[]): Promise<Set<string>> {
    return this.replies.contactableAuthors(user, ids);
  }

  /** Rows as the API shows them (resource-replies.ts). */
  present(def: ResourceDef, rows: Row[]): Promise<Row[]> {
    return this.replies.present(def, rows);
  }

  private async find(def: ResourceDef, id: string): Promise<Row> {
    const row = id.length <= 100 ? await this.repo.find(def.table, id) : undefined;
    if (!row) throw new AppError('NOT_FOUND', 'errors.notFound');
    return row;
  }

  /** Whether `candidate` is `id` or lies below it: a parent there would make a cycle. */
  private async isAncestorOrSelf(id: string, candidate: string): Promise<boolean> {
    let current: string | null = candidate;
    for (let depth = 0; current && depth < 50; depth++) {
      if (current === id) return true;
      current = (await this.repo.standardParent(current)) ?? null;
    }
    return false;
  }

  /** Deleting a standard deletes its children (cascade): none of them may be in use either. */
  private async subtreeLinked(id: string): Promise<boolean> {
    let level = [id];
    for (let depth = 0; level.length && depth < 50; depth++) {
      level = await this.repo.standardsBelow(level);
      for (const child of level) if (await this.repo.isLinked('keyword_standards', child)) return true;
    }
    return false;
  }

  private async mayCreate(def: ResourceDef, user: AuthenticatedUser, input: Row) {
    if (def.owner === 'staff' && !user.is_staff) throw new AppError('FORBIDDEN', 'account.forbidden');
    // The record first: who may not change it learns nothing about the other fields.
    const metadataId = input.metadata;
    if (def.owner === 'record' || (typeof metadataId === 'string' && def.extraFields?.includes('metadata'))) {
      const record = await this.access.writable(user, String(metadataId));
      if (def.table === 'metadata_i18n' && input.language === record.language) throw invalid('language', 'metadata.translation.sameLanguage');
    }
    this.checkStaffOnly(def, user, input);
    await this.checkReferences(def, user, input);
  }

  /** Fields only staff write (`staffOnly`), on every write: anyone else is refused, and nothing is written. */
  private checkStaffOnly(def: ResourceDef, user: AuthenticatedUser, input: Row) {
    if (user.is_staff) return;
    const field = Object.keys(def.staffOnly ?? {}).find((name) => input[name] !== undefined && input[name] !== '');
    if (field) throw new AppError('FORBIDDEN', 'metadata.staffOnly', { fields: { [field]: 'metadata.staffOnly' } });
  }

  /**
   * Every reference a write names, on create and update alike: it must exist and be one the caller
   * may see (not one of another's private drafts); a hidden one is refused as an unknown one is.
   */
  private async checkReferences(def: ResourceDef, user: AuthenticatedUser, input: Row) {
    for (const reference of def.references ?? []) {
      const value = input[reference.field];
      if (reference.field === 'metadata' || value === undefined || value === null) continue;
      const known =
        typeof value === 'string' && value.length <= 100 && (reference.table === 'users' ? await this.accounts.exists(value) : await this.repo.exists(reference.table, value));
      if (!known || !(await this.entries.isVisible(reference.table, String(value), user))) {
        throw invalid(reference.field, reference.messageKey);
      }
    }
  }

  /**
   * Who may change or delete a row (shared entries and their translations are written through
   * `planEntryWrite`; this decides deleting an entry). Who cannot see the row gets 'not found'.
   */
  private async mayChange(def: ResourceDef, user: AuthenticatedUser, row: Row) {
    if (def.owner === 'staff') {
      if (!user.is_staff) throw new AppError('FORBIDDEN', 'account.forbidden');
      return;
    }
    if (def.owner === 'record') {
      await orNotFound(this.access.writable(user, String(row.metadata_id)));
      return;
    }
    if (!(await this.entries.isVisible(def.table, String(row.id), user))) throw notFound();
    if (!user.is_staff && row.created_by !== user.id) throw new AppError('FORBIDDEN', 'metadata.noRight');
  }

  /** A row as the API shows it; `copied_from` names the original when the write went to the caller's copy. */
  private async presentOne(def: ResourceDef, user: AuthenticatedUser, id: string, copiedFrom: string | undefined) {
    const [row] = await this.replies.asCallerMaySee(def, user, await this.replies.present(def, [await this.find(def, id)]));
    return copiedFrom ? { ...row!, copied_from: copiedFrom } : row!;
  }

  /** Writes in one transaction; a unique violation becomes the resource's own message and leaves nothing behind. */
  private async writeOnce(def: ResourceDef, work: (repo: ResourcesRepo, trx: Tx) => Promise<unknown>) {
    try {
      await this.repo.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid('non_field_errors', def.uniqueKey ?? 'metadata.conflict');
      throw error;
    }
  }

  private async touchRecordOf(def: ResourceDef, row: Row) {
    const metadataId = def.owner === 'record' ? row.metadata_id : undefined;
    if (typeof metadataId === 'string') await this.access.touch(metadataId);
  }
}
