import { LANGUAGES, METADATA_LIMITS } from '@portal/shared';
import { AppError } from '../../errors.js';
import { lockUserRow } from '../account/account.repo.js';
import type { AuthenticatedUser } from '../account/account.service.js';
import type { SelectQueryBuilder } from 'kysely';
import { orNotFound, type MetadataAccess } from './metadata-access.js';
import { isUniqueViolation, newId, type LooseDb } from './metadata.repo.js';
import { CREATED_TABLES, RESOURCES, type ResourceDef } from './resources.js';

type Row = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Query = SelectQueryBuilder<any, any, any>;

/** Child tables whose rows are shown inside their parent's (`translations`). */
const TRANSLATIONS: Record<string, { table: string; column: string }> = {
  authors: { table: 'author_i18n', column: 'author_id' },
  literature: { table: 'literature_i18n', column: 'literature_id' },
  keywords: { table: 'keyword_i18n', column: 'keyword_id' },
};

/** Link tables whose rows show the linked entity in full (`author_detail`, `literature_detail`). */
const DETAILS: Record<string, { column: string; table: string; as: string }> = {
  meta_author: { column: 'author_id', table: 'authors', as: 'author_detail' },
  citations: { column: 'literature_id', table: 'literature', as: 'literature_detail' },
  meta_keyword: { column: 'keyword_id', table: 'keywords', as: 'keyword_detail' },
  meta_fund: { column: 'fund_id', table: 'funds', as: 'fund_detail' },
  meta_keyword_standard: { column: 'keyword_standard_id', table: 'keyword_standards', as: 'keyword_standard_detail' },
  meta_discipline: { column: 'keyword_standard_id', table: 'keyword_standards', as: 'keyword_standard_detail' },
  meta_special: { column: 'special_id', table: 'specials', as: 'special_detail' },
};

interface Link {
  table: string;
  column: string;
}

/** Shared entities that records link to: deleting one in use would take it out of others' records. */
const LINKED_BY: Record<string, Link[]> = {
  authors: [{ table: 'meta_author', column: 'author_id' }],
  literature: [{ table: 'citations', column: 'literature_id' }],
  keywords: [{ table: 'meta_keyword', column: 'keyword_id' }],
  funds: [{ table: 'meta_fund', column: 'fund_id' }],
  keyword_standards: [
    { table: 'meta_discipline', column: 'keyword_standard_id' },
    { table: 'meta_keyword_standard', column: 'keyword_standard_id' },
  ],
  specials: [{ table: 'meta_special', column: 'special_id' }],
};

/**
 * Shared entries records link to. A signed-in user sees their own, those of records they can see
 * (published or theirs) and, for funds, the programme funds; entries only others' drafts use stay
 * private. They change in place only where every record using them may change with them; anyone
 * else's write goes to their own copy (see `planEntryWrite`).
 */
const SHARED_ENTRIES = ['authors', 'literature', 'keywords', 'funds'];

/**
 * How to reach a fund named in a record: for its creator and staff. Everyone else who reads a
 * record's attached rows (anyone, once it is published; its reviewers) sees the fund's names,
 * never these (they are blank in the reply). Authors have their own rule (`contactableAuthors`).
 */
const FUND_CONTACTS = ['phone', 'email'] as const;

/** An author's personal data: blank in a reply to whoever may not read it (`contactableAuthors`). */
const AUTHOR_CONTACTS = ['email', 'phone', 'address', 'zipcode'] as const;
/** The same in an author's translations. */
const AUTHOR_TRANSLATED_CONTACTS = ['address'] as const;

function blank(row: Row, fields: readonly string[]): void {
  for (const field of fields) if (field in row) row[field] = '';
}

/** An author row (or a copy of one) without its personal data, its translations included. */
function withoutAuthorContacts(author: Row): Row {
  blank(author, AUTHOR_CONTACTS);
  if (Array.isArray(author.translations)) for (const version of author.translations as Row[]) blank(version, AUTHOR_TRANSLATED_CONTACTS);
  return author;
}

/**
 * How long an identical second create by the same account is taken for the same click sent twice
 * (a double click, a resent request): refused with a 409 (`checkRepeatedCreate`).
 */
export const REPEATED_CREATE_WINDOW_MS = 10_000;
/** Columns a create writes itself, never part of what makes two creates identical. */
const OWN_COLUMNS = new Set(['id', 'created_by', 'created_at']);

const invalid = (field: string, key: string) => new AppError('VALIDATION_FAILED', key, { fields: { [field]: key } });
const notFound = () => new AppError('NOT_FOUND', 'errors.notFound');

/** How a write to a shared entry goes: in place, or to the caller's copy linked from these drafts of theirs. */
interface EntryWrite {
  copyFor?: string[];
}

/** The record a write names (`metadata`), if any. */
const recordNamed = (input: Row): string | undefined => (typeof input.metadata === 'string' ? input.metadata : undefined);

/** A value as a column holds it: booleans are 0 / 1. */
const columnValue = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** A flag from JSON or a form ('true', '1', 'on') as 0 / 1. */
const flag = (value: unknown) => (['true', '1', 'on', true, 1].includes(value as string) ? 1 : 0);

/** A stored row's numbers as numbers (bigint is text on PostgreSQL) and its 0 / 1 flags as booleans. */
function typed(row: Row): Row {
  const shown: Row = { ...row };
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && (key === 'size' || key === 'sort' || key === 'number') && /^\d+$/.test(value)) shown[key] = Number(value);
  }
  if ('is_core' in row) shown.is_core = Number(row.is_core) === 1;
  return shown;
}

/** The rules of the attached entities (see resources.ts for who may change what). */
export class ResourceService {
  constructor(
    private readonly db: LooseDb,
    private readonly access: MetadataAccess,
  ) {}

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
      } else if (user && !(await this.isVisible(filter.names, value, user))) {
        throw notFound();
      }
    }
    let base = this.db.selectFrom(def.table);
    if (!namesRecord && user && !user.is_staff && SHARED_ENTRIES.includes(def.table)) base = this.visibleOnly(base, def.table, user);
    for (const [name, apply] of Object.entries(def.filters ?? {})) {
      if (!given(name)) continue;
      const value = String(query[name]);
      if (value.length > 200) throw invalid(name, 'metadata.validation.filter');
      base = apply(base, value);
    }
    const counted = (await base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst()) as { count: number | string };
    let rows = base.selectAll(def.table);
    for (const order of def.orderBy) {
      const [column, direction] = order.split(' ');
      rows = rows.orderBy(`${def.table}.${column}`, direction === 'desc' ? 'desc' : 'asc');
    }
    const results = await this.present(def, (await rows.offset(offset).limit(limit).execute()) as Row[]);
    return { count: Number(counted.count), results: await this.asCallerMaySee(def, user, results, record) };
  }

  async get(def: ResourceDef, user: AuthenticatedUser | null, id: string) {
    if (def.read === 'user' && !user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const row = await this.find(def, id);
    const record = def.owner === 'record' ? await orNotFound(this.access.readable(user, String(row.metadata_id))) : undefined;
    if (user && !(await this.isVisible(def.parent?.table ?? def.table, String(def.parent ? row[def.parent.column] : id), user))) throw notFound();
    return (await this.asCallerMaySee(def, user, await this.present(def, [row]), record))[0]!;
  }

  async create(def: ResourceDef, user: AuthenticatedUser, input: Row) {
    await this.mayCreate(def, user, input);
    // A translation is a change of its entry: made on the caller's copy when the entry may not change in place.
    const parentId = def.parent ? String(input[def.parent.field]) : undefined;
    const plan = def.parent && parentId ? await this.planEntryWrite(def.parent.table, parentId, user, recordNamed(input)) : {};
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
    await this.writeOnce(def, async (trx) => {
      if (recordId) {
        // Writing the record's row first locks it (PostgreSQL) until commit: two requests adding to one
        // record take turns, so the per-record limits below count what the other one wrote.
        await trx.updateTable('metadata').set({ updated_at: new Date().toISOString() }).where('id', '=', recordId).execute();
        await this.checkRecordLimits(def, trx, recordId);
      }
      await this.checkRepeatedCreate(trx, def, user, values, input);
      if (def.parent && parentId && plan.copyFor) values[def.parent.column] = await this.copyEntry(trx, def.parent.table, parentId, user, plan.copyFor);
      await trx.insertInto(def.table).values(values).execute();
      await this.afterCreate(def, trx, id, input);
      await this.access.changed(trx, [recordId, ...(await this.recordsShowing(trx, def, { ...values, id }))]);
    });
    return this.presentOne(def, user, id, plan.copyFor && parentId);
  }

  async update(def: ResourceDef, user: AuthenticatedUser, id: string, input: Row) {
    const row = await this.find(def, id);
    // A shared entry or its translation: in place, or on the caller's copy; anything else by its owner.
    const entry = def.owner === 'creator' ? { table: def.parent?.table ?? def.table, id: String(def.parent ? row[def.parent.column] : id) } : undefined;
    const plan = entry ? await this.planEntryWrite(entry.table, entry.id, user, recordNamed(input)) : (await this.mayChange(def, user, row), {});
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
    if (def.table === 'authors' && !plan.copyFor && typeof values.name === 'string' && values.name !== row.name && (await this.isLinked('authors', id))) {
      throw invalid('name', 'metadata.author.nameLocked');
    }
    let target = id;
    await this.writeOnce(def, async (trx) => {
      if (entry && plan.copyFor) {
        const copyId = await this.copyEntry(trx, entry.table, entry.id, user, plan.copyFor);
        target = def.parent ? await this.translationOf(trx, def, copyId, row.language) : copyId;
      }
      if (Object.keys(values).length) await trx.updateTable(def.table).set(values).where('id', '=', target).execute();
      if (target === id) await this.access.changed(trx, await this.recordsShowing(trx, def, row));
    });
    await this.touchRecordOf(def, row);
    return this.presentOne(def, user, target, plan.copyFor && entry!.id);
  }

  async remove(def: ResourceDef, user: AuthenticatedUser, id: string) {
    const row = await this.find(def, id);
    if (def.parent && def.owner === 'creator') {
      // Taking a translation off an entry changes the entry: in place, or on the caller's copy.
      const parentId = String(row[def.parent.column]);
      const plan = await this.planEntryWrite(def.parent.table, parentId, user, undefined);
      await this.db.transaction().execute(async (trx) => {
        const target = plan.copyFor ? await this.translationOf(trx, def, await this.copyEntry(trx, def.parent!.table, parentId, user, plan.copyFor), row.language) : id;
        await trx.deleteFrom(def.table).where('id', '=', target).execute();
        if (target === id) await this.access.changed(trx, await this.recordsShowing(trx, def, row));
      });
      return;
    }
    await this.mayChange(def, user, row);
    if (await this.isLinked(def.table, id)) throw new AppError('CONFLICT', 'metadata.inUse');
    if (def.table === 'keyword_standards' && (await this.subtreeLinked(id))) throw new AppError('CONFLICT', 'metadata.inUse');
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom(def.table).where('id', '=', id).execute();
      await this.access.changed(trx, await this.recordsShowing(trx, def, row));
    });
    await this.touchRecordOf(def, row);
  }

  /**
   * The records whose public view shows this row: its own record, or every published record linking
   * the shared entry (author, keyword, literature, fund, standard) it is or translates.
   */
  private async recordsShowing(trx: LooseDb, def: ResourceDef, row: Row): Promise<string[]> {
    if (typeof row.metadata_id === 'string') return [row.metadata_id];
    const table = def.parent?.table ?? def.table;
    const entryId = def.parent ? row[def.parent.column] : row.id;
    const ids: string[] = [];
    for (const link of LINKED_BY[table] ?? []) {
      const rows = (await trx
        .selectFrom(link.table)
        .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
        .select('record.id')
        .where(`${link.table}.${link.column}`, '=', entryId)
        .where('record.status', '=', 'published')
        .execute()) as { id: string }[];
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  }

  /** author_sort/: numbers the record's author links 0, 1, 2 ... in the given order, in one transaction. */
  async sortAuthors(user: AuthenticatedUser, metadataId: string, ids: string[]) {
    await this.access.writable(user, metadataId);
    const links = (await this.db.selectFrom('meta_author').select('id').where('metadata_id', '=', metadataId).execute()) as { id: string }[];
    const own = new Set(links.map((link) => link.id));
    if (new Set(ids).size !== ids.length || ids.some((id) => !own.has(id))) throw invalid('ids', 'metadata.validation.author');
    await this.db.transaction().execute(async (trx) => {
      for (const [index, id] of ids.entries()) await trx.updateTable('meta_author').set({ sort: index }).where('id', '=', id).execute();
    });
    await this.access.touch(metadataId);
    const def = RESOURCES.find((r) => r.name === 'meta-author')!;
    const rows = (await this.db.selectFrom('meta_author').selectAll().where('metadata_id', '=', metadataId).orderBy('sort').orderBy('id').execute()) as Row[];
    return this.asCallerMaySee(def, user, await this.present(def, rows));
  }

  /** DELETE keyword/?metadata=..&keyword=..: takes the keyword off the record (the keyword stays). */
  async unlinkKeyword(user: AuthenticatedUser, metadataId: string, keywordId: string) {
    await this.access.writable(user, metadataId);
    const result = await this.db.deleteFrom('meta_keyword').where('metadata_id', '=', metadataId).where('keyword_id', '=', keywordId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError('NOT_FOUND', 'errors.notFound');
    await this.access.touch(metadataId);
  }

  private async find(def: ResourceDef, id: string): Promise<Row> {
    const row = id.length <= 100 ? ((await this.db.selectFrom(def.table).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined) : undefined;
    if (!row) throw new AppError('NOT_FOUND', 'errors.notFound');
    return row;
  }

  private async exists(table: string, id: unknown): Promise<boolean> {
    if (typeof id !== 'string' || id.length > 100) return false;
    return !!(await this.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());
  }

  private async isLinked(table: string, id: string): Promise<boolean> {
    for (const link of LINKED_BY[table] ?? []) {
      if (await this.db.selectFrom(link.table).select('id').where(link.column, '=', id).limit(1).executeTakeFirst()) return true;
    }
    return false;
  }

  /** The per-record limits (funds), counted inside the writing transaction after the record is locked. */
  private async checkRecordLimits(def: ResourceDef, trx: LooseDb, recordId: string) {
    const limit = def.maxPerRecord
      ? { table: def.table, messageKey: def.maxPerRecord.messageKey, max: def.maxPerRecord.count }
      : def.table === 'funds'
        ? { table: 'meta_fund', messageKey: 'metadata.fund.tooMany', max: METADATA_LIMITS.fundsMax }
        : undefined;
    if (!limit) return;
    const row = (await trx.selectFrom(limit.table).select((eb) => eb.fn.countAll().as('count')).where('metadata_id', '=', recordId).executeTakeFirst()) as {
      count: number | string;
    };
    if (Number(row.count) >= limit.max) throw invalid('non_field_errors', limit.messageKey);
  }

  /**
   * An identical create by the same account a moment ago (`REPEATED_CREATE_WINDOW_MS`) is the same
   * click sent twice: refused with a 409 that says so, and nothing is written. Refused rather than
   * answered with the first row, because an author is made by two requests (author/, then
   * meta-author/): a second author answered with the first one's row would still fail on its link,
   * after the first flow told the user it was added; one clear refusal stops the second flow at its
   * first step. Identical means every column the create writes, and what it writes beside its row
   * from the same body (an author's English name and affiliation, the record a literature entry or
   * fund is linked to, a keyword's translation). Only shared entries (authors, literature, keywords,
   * funds ...) can repeat: link rows and translations have unique keys of their own, and a keyword
   * added to a record has its own rule (`metadata.keyword.exists`, at the field). Checked in the
   * writing transaction after locking the account's row, so that two requests at once take turns
   * and the second sees the first's row.
   */
  private async checkRepeatedCreate(trx: LooseDb, def: ResourceDef, user: AuthenticatedUser, values: Row, input: Row) {
    if (!CREATED_TABLES.has(def.table) || def.parent) return;
    const recordId = recordNamed(input);
    if (def.table === 'keywords' && recordId) return;
    await lockUserRow(trx, user.id);
    const since = new Date(Date.now() - REPEATED_CREATE_WINDOW_MS).toISOString();
    const table = def.table;
    let query = trx.selectFrom(table).select(`${table}.id`).where(`${table}.created_by`, '=', user.id).where(`${table}.created_at`, '>=', since);
    for (const [column, value] of Object.entries(values)) {
      if (OWN_COLUMNS.has(column)) continue;
      query = value === null ? query.where(`${table}.${column}`, 'is', null) : query.where(`${table}.${column}`, '=', value);
    }
    const beside = (child: string, column: string, match: Row) =>
      query.where((eb) =>
        eb.exists(
          Object.entries(match).reduce(
            (sub, [name, value]) => sub.where(`${child}.${name}`, '=', value),
            eb.selectFrom(child).select(`${child}.id`).whereRef(`${child}.${column}`, '=', `${table}.id`),
          ),
        ),
      );
    if (table === 'authors') query = beside('author_i18n', 'author_id', { language: 'en', name: input.name_en ?? '', affiliation: input.affiliation_en ?? '' });
    if (table === 'literature' && recordId) query = beside('citations', 'literature_id', { metadata_id: recordId });
    if (table === 'funds' && recordId) query = beside('meta_fund', 'fund_id', { metadata_id: recordId });
    if (table === 'keywords') {
      const translation = typeof input.translation === 'string' ? input.translation.trim() : '';
      query = translation
        ? beside('keyword_i18n', 'keyword_id', { name: translation })
        : query.where((eb) => eb.not(eb.exists(eb.selectFrom('keyword_i18n').select('keyword_i18n.id').whereRef('keyword_i18n.keyword_id', '=', `${table}.id`))));
    }
    if (await query.executeTakeFirst()) throw new AppError('CONFLICT', 'metadata.repeatedCreate');
  }

  /** Whether `candidate` is `id` or lies below it: a parent there would make a cycle. */
  private async isAncestorOrSelf(id: string, candidate: string): Promise<boolean> {
    let current: string | null = candidate;
    for (let depth = 0; current && depth < 50; depth++) {
      if (current === id) return true;
      const row = (await this.db.selectFrom('keyword_standards').select('parent_id').where('id', '=', current).executeTakeFirst()) as { parent_id: string | null } | undefined;
      current = row?.parent_id ?? null;
    }
    return false;
  }

  /** Deleting a standard deletes its children (cascade): none of them may be in use either. */
  private async subtreeLinked(id: string): Promise<boolean> {
    let level = [id];
    for (let depth = 0; level.length && depth < 50; depth++) {
      const children = (await this.db.selectFrom('keyword_standards').select('id').where('parent_id', 'in', level).execute()) as { id: string }[];
      level = children.map((c) => c.id);
      for (const child of level) if (await this.isLinked('keyword_standards', child)) return true;
    }
    return false;
  }

  /** Records linking to the entry that this caller may not change now: someone else's, or not a draft. */
  private async usedByOthers(table: string, id: string, user: AuthenticatedUser): Promise<boolean> {
    if (user.is_staff) return false;
    for (const link of LINKED_BY[table] ?? []) {
      const row = await this.db
        .selectFrom(link.table)
        .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
        .select(`${link.table}.id`)
        .where(`${link.table}.${link.column}`, '=', id)
        .where((eb) => eb.or([eb('record.owner_id', '<>', user.id), eb('record.status', '<>', 'draft')]))
        .limit(1)
        .executeTakeFirst();
      if (row) return true;
    }
    return false;
  }

  /** The caller's drafts that link the entry (only `metadataId`, when named). */
  private async draftsLinking(table: string, id: string, user: AuthenticatedUser, metadataId: string | undefined): Promise<string[]> {
    const drafts = new Set<string>();
    for (const link of LINKED_BY[table] ?? []) {
      let query = this.db
        .selectFrom(link.table)
        .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
        .select('record.id as id')
        .distinct()
        .where(`${link.table}.${link.column}`, '=', id)
        .where('record.owner_id', '=', user.id)
        .where('record.status', '=', 'draft');
      if (metadataId !== undefined) query = query.where('record.id', '=', metadataId);
      for (const row of (await query.execute()) as { id: string }[]) drafts.add(row.id);
    }
    return [...drafts].sort();
  }

  private visibleOnly(query: Query, table: string, user: AuthenticatedUser): Query {
    return query.where((eb) =>
      eb.or([
        eb(`${table}.created_by`, '=', user.id),
        ...(table === 'funds' ? [eb('funds.is_core', '=', 1)] : []),
        ...(LINKED_BY[table] ?? []).map((link) =>
          eb(
            `${table}.id`,
            'in',
            eb
              .selectFrom(link.table)
              .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
              .select(`${link.table}.${link.column}`)
              .where((inner) => inner.or([inner('record.status', '=', 'published'), inner('record.owner_id', '=', user.id)])),
          ),
        ),
      ]),
    );
  }

  private async isVisible(table: string, id: string, user: AuthenticatedUser): Promise<boolean> {
    if (user.is_staff || !SHARED_ENTRIES.includes(table)) return true;
    return !!(await this.visibleOnly(this.db.selectFrom(table).select(`${table}.id`), table, user).where(`${table}.id`, '=', id).executeTakeFirst());
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
      if (!(await this.exists(reference.table, value)) || !(await this.isVisible(reference.table, String(value), user))) {
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
    if (!(await this.isVisible(def.table, String(row.id), user))) throw notFound();
    if (!user.is_staff && row.created_by !== user.id) throw new AppError('FORBIDDEN', 'metadata.noRight');
  }

  /**
   * How a write to a shared entry (or to its translations) goes. In place for staff, and for its
   * creator while every record using it is a draft of theirs. Anyone else who uses it in drafts of
   * theirs gets their own copy, linked from those drafts instead (`metadataId`: from that one only);
   * the records of others, and the caller's records in review or published, keep the original.
   * Who cannot see the entry gets 'not found'; who uses it in no draft of theirs 'no right' (its
   * creator: `sharedLocked`).
   */
  private async planEntryWrite(table: string, id: string, user: AuthenticatedUser, metadataId: string | undefined): Promise<EntryWrite> {
    const entry = (await this.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
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
    const drafts = await this.draftsLinking(table, id, user, metadataId);
    if (drafts.length) return { copyFor: drafts };
    if (metadataId !== undefined) throw invalid('metadata', 'metadata.notLinked');
    throw own ? new AppError('CONFLICT', 'metadata.sharedLocked') : new AppError('FORBIDDEN', 'metadata.noRight');
  }

  /**
   * The caller's own copy of a shared entry, with its translations (created by the caller), linked
   * instead of the original from `drafts`: each link row keeps its own columns (sort, role ...).
   * Returns the copy's id.
   */
  private async copyEntry(trx: LooseDb, table: string, id: string, user: AuthenticatedUser, drafts: string[]): Promise<string> {
    const original = (await trx.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
    const copyId = newId();
    const now = new Date().toISOString();
    // The copy is the caller's, and its creator reads its contacts: an author's personal data goes
    // into it only when the caller may read them on the original (else a write would reveal them).
    const privateAuthor = table === 'authors' && !(await this.contactableAuthors(user, [id], trx)).has(id);
    const copy = { ...original, id: copyId, created_by: user.id, created_at: now };
    await trx.insertInto(table).values(privateAuthor ? withoutAuthorContacts(copy) : copy).execute();
    const translations = TRANSLATIONS[table];
    if (translations) {
      const rows = (await trx.selectFrom(translations.table).selectAll().where(translations.column, '=', id).execute()) as Row[];
      const copies = rows.map((row) => ({ ...row, id: newId(), [translations.column]: copyId }));
      if (privateAuthor) for (const version of copies) blank(version, AUTHOR_TRANSLATED_CONTACTS);
      if (copies.length) await trx.insertInto(translations.table).values(copies).execute();
    }
    await trx.updateTable('metadata').set({ updated_at: now }).where('id', 'in', drafts).execute();
    for (const link of LINKED_BY[table] ?? []) {
      await trx.updateTable(link.table).set({ [link.column]: copyId }).where(link.column, '=', id).where('metadata_id', 'in', drafts).execute();
    }
    return copyId;
  }

  /** The id of the entry's translation in a language (after a copy: the copy's). */
  private async translationOf(trx: LooseDb, def: ResourceDef, entryId: string, language: unknown): Promise<string> {
    const row = (await trx.selectFrom(def.table).select('id').where(def.parent!.column, '=', entryId).where('language', '=', String(language)).executeTakeFirstOrThrow()) as {
      id: string;
    };
    return row.id;
  }

  /** A row as the API shows it; `copied_from` names the original when the write went to the caller's copy. */
  private async presentOne(def: ResourceDef, user: AuthenticatedUser, id: string, copiedFrom: string | undefined) {
    const [row] = await this.asCallerMaySee(def, user, await this.present(def, [await this.find(def, id)]));
    return copiedFrom ? { ...row!, copied_from: copiedFrom } : row!;
  }

  /** Writes in one transaction; a unique violation becomes the resource's own message and leaves nothing behind. */
  private async writeOnce(def: ResourceDef, work: (trx: LooseDb) => Promise<unknown>) {
    try {
      await this.db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid('non_field_errors', def.uniqueKey ?? 'metadata.conflict');
      throw error;
    }
  }

  /** What one POST does beyond its own row: the translations and record links the editor sends along. */
  private async afterCreate(def: ResourceDef, trx: LooseDb, id: string, input: Row) {
    const metadataId = typeof input.metadata === 'string' ? input.metadata : undefined;
    if (def.table === 'authors') {
      await trx
        .insertInto('author_i18n')
        .values({ id: newId(), author_id: id, language: 'en', name: input.name_en, affiliation: input.affiliation_en ?? '', address: '' })
        .execute();
    }
    if (def.table === 'literature' && metadataId) {
      await trx.insertInto('citations').values({ id: newId(), metadata_id: metadataId, literature_id: id, sort: input.sort ?? 0 }).execute();
    }
    if (def.table === 'funds' && metadataId) {
      await trx.insertInto('meta_fund').values({ id: newId(), metadata_id: metadataId, fund_id: id }).execute();
    }
    if (def.table === 'keywords') {
      const language = (input.language as string | undefined) ?? 'zh-hans';
      if (typeof input.translation === 'string' && input.translation.trim()) {
        const other = LANGUAGES.find((l) => l !== language)!;
        await trx.insertInto('keyword_i18n').values({ id: newId(), keyword_id: id, language: other, name: input.translation.trim() }).execute();
      }
      if (metadataId) {
        const duplicate = await trx
          .selectFrom('meta_keyword')
          .innerJoin('keywords', 'keywords.id', 'meta_keyword.keyword_id')
          .select('meta_keyword.id')
          .where('meta_keyword.metadata_id', '=', metadataId)
          .where('keywords.type', '=', input.type as string)
          .where((eb) => eb(eb.fn('lower', [eb.ref('keywords.name')]), '=', String(input.name).toLowerCase()))
          .executeTakeFirst();
        if (duplicate) throw invalid('name', 'metadata.keyword.exists');
        await trx.insertInto('meta_keyword').values({ id: newId(), metadata_id: metadataId, keyword_id: id }).execute();
      }
      if (!input.language) await trx.updateTable('keywords').set({ language }).where('id', '=', id).execute();
    }
  }

  private async touchRecordOf(def: ResourceDef, row: Row) {
    const metadataId = def.owner === 'record' ? row.metadata_id : undefined;
    if (typeof metadataId === 'string') await this.access.touch(metadataId);
  }

  /**
   * Who may read how to reach an author (e-mail, phone, address, postcode): staff; whoever created the
   * author row (they typed them in); and the owner of records linking it while no other owner's record
   * does (an author the data centre entered for them). An author found through like_author on someone
   * else's record and linked to one's own draft shows its name, affiliation and roles, not these:
   * linking is no way to collect people's addresses. Nobody signed out reads them.
   */
  async contactableAuthors(user: AuthenticatedUser | null, ids: readonly string[], db: LooseDb = this.db): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (!user || unique.length === 0) return new Set();
    if (user.is_staff) return new Set(unique);
    const rows = (await db.selectFrom('authors').select(['id', 'created_by']).where('id', 'in', unique).execute()) as { id: string; created_by: string | null }[];
    const contactable = new Set(rows.filter((row) => row.created_by === user.id).map((row) => row.id));
    const others = unique.filter((id) => !contactable.has(id));
    if (!others.length) return contactable;
    const links = (await db
      .selectFrom('meta_author')
      .innerJoin('metadata as record', 'record.id', 'meta_author.metadata_id')
      .select(['meta_author.author_id as author_id', 'record.owner_id as owner_id'])
      .where('meta_author.author_id', 'in', others)
      .execute()) as { author_id: string; owner_id: string }[];
    const owners = new Map<string, Set<string>>();
    for (const link of links) owners.set(link.author_id, (owners.get(link.author_id) ?? new Set()).add(link.owner_id));
    for (const [authorId, ownerIds] of owners) if (ownerIds.size === 1 && ownerIds.has(user.id)) contactable.add(authorId);
    return contactable;
  }

  /**
   * Rows as the caller may read them: authors' personal data (author rows, their translations, a
   * link's `author_detail`) by `contactableAuthors`; a fund's contacts for its record's owner and
   * staff (`record`: the record a list or row belongs to; a signed-in user's own lists otherwise).
   */
  private async asCallerMaySee(def: ResourceDef, user: AuthenticatedUser | null, rows: Row[], record?: { owner_id: string }): Promise<Row[]> {
    const mayContactFunds = !!user && (user.is_staff || (record ? record.owner_id === user.id : true));
    const authors: { id: string; row: Row; fields: readonly string[] }[] = [];
    for (const row of rows) {
      const fund = row.fund_detail as Row | null | undefined;
      if (fund && !mayContactFunds) blank(fund, FUND_CONTACTS);
      const author = row.author_detail as Row | null | undefined;
      if (author) authors.push({ id: String(author.id), row: author, fields: AUTHOR_CONTACTS });
      if (def.table === 'authors') authors.push({ id: String(row.id), row, fields: AUTHOR_CONTACTS });
      if (def.table === 'author_i18n') authors.push({ id: String(row.author_id), row, fields: AUTHOR_TRANSLATED_CONTACTS });
    }
    if (!authors.length) return rows;
    const contactable = await this.contactableAuthors(user, authors.map((author) => author.id));
    for (const author of authors) {
      if (contactable.has(author.id)) continue;
      if (author.fields === AUTHOR_CONTACTS) withoutAuthorContacts(author.row);
      else blank(author.row, author.fields);
    }
    return rows;
  }

  /**
   * Rows as the API shows them: `x` beside each `x_id`, numbers as numbers, the linked entity (its
   * columns as numbers and flags too) and translations. The routes serialize them through the
   * resource's reply schema, which keeps only the fields it names.
   */
  async present(def: ResourceDef, rows: Row[]): Promise<Row[]> {
    const out = rows.map((row) => {
      const shown = typed(row);
      for (const [key, value] of Object.entries(row)) if (key.endsWith('_id') && key !== 'id') shown[key.slice(0, -3)] = value;
      return shown;
    });
    const translations = TRANSLATIONS[def.table];
    if (translations) await this.attachTranslations(out, translations, 'id');
    const detail = DETAILS[def.table];
    if (detail && out.length) {
      const ids = [...new Set(out.map((row) => row[detail.column] as string))];
      const linked = ((await this.db.selectFrom(detail.table).selectAll().where('id', 'in', ids).execute()) as Row[]).map(typed);
      const linkedTranslations = TRANSLATIONS[detail.table];
      if (linkedTranslations) await this.attachTranslations(linked, linkedTranslations, 'id');
      const byId = new Map(linked.map((row) => [row.id, row]));
      for (const row of out) row[detail.as] = byId.get(row[detail.column]) ?? null;
    }
    return out;
  }

  private async attachTranslations(rows: Row[], translations: { table: string; column: string }, key: string) {
    if (!rows.length) return;
    const found = (await this.db
      .selectFrom(translations.table)
      .selectAll()
      .where(translations.column, 'in', rows.map((row) => row[key] as string))
      .orderBy('language')
      .execute()) as Row[];
    const byParent = new Map<unknown, Row[]>();
    for (const translation of found) byParent.set(translation[translations.column], [...(byParent.get(translation[translations.column]) ?? []), translation]);
    for (const row of rows) row.translations = byParent.get(row[key]) ?? [];
  }
}
