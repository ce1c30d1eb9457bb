import { LANGUAGES, METADATA_LIMITS } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/account.service.js';
import type { SelectQueryBuilder } from 'kysely';
import type { MetadataAccess } from './metadata-access.js';
import { isUniqueViolation, newId, type LooseDb } from './metadata.repo.js';
import { CREATED_TABLES, type ResourceDef } from './resources.js';

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
 * Shared entries a signed-in user may see: their own, those of records they can see (published or
 * theirs) and, for funds, the programme funds. Entries only others' drafts use stay private.
 */
const VISIBLE_SHARED = ['authors', 'literature', 'keywords', 'funds'];

/** List filters that name a record: who may not see it learns nothing of what is attached to it. */
const RECORD_FILTERS = ['metadata__id', 'metadatakeyword__metadata__id'];

const invalid = (field: string, key: string) => new AppError('VALIDATION_FAILED', key, { fields: { [field]: key } });

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
    // A filter naming a record (also on shared entities: the authors of a record) needs the record readable.
    let namesRecord = false;
    for (const name of RECORD_FILTERS) {
      if (def.filters?.[name] && given(name)) {
        await this.access.readable(user, String(query[name]));
        namesRecord = true;
      }
    }
    // A translation list names its entry: that entry must be one the caller may see.
    if (def.parent && user && !user.is_staff) {
      const parentId = [def.parent.field, `${def.parent.field}__id`, def.parent.column].map((name) => query[name]).find((v) => typeof v === 'string' && v);
      if (typeof parentId === 'string' && !(await this.isVisible(def.parent.table, parentId, user))) throw new AppError('NOT_FOUND', 'errors.notFound');
    }
    let base = this.db.selectFrom(def.table);
    if (!namesRecord && user && !user.is_staff && VISIBLE_SHARED.includes(def.table)) base = this.visibleOnly(base, def.table, user);
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
    return { count: Number(counted.count), results };
  }

  async get(def: ResourceDef, user: AuthenticatedUser | null, id: string) {
    if (def.read === 'user' && !user) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const row = await this.find(def, id);
    if (def.owner === 'record') await this.access.readable(user, String(row.metadata_id));
    if (user && !user.is_staff) {
      const hidden =
        (VISIBLE_SHARED.includes(def.table) && !(await this.isVisible(def.table, id, user))) ||
        (def.parent && !(await this.isVisible(def.parent.table, String(row[def.parent.column]), user)));
      if (hidden) throw new AppError('NOT_FOUND', 'errors.notFound');
    }
    return (await this.present(def, [row]))[0]!;
  }

  async create(def: ResourceDef, user: AuthenticatedUser, input: Row) {
    await this.mayCreate(def, user, input);
    const id = newId();
    const values: Row = { id };
    for (const [field, value] of Object.entries(input)) {
      if (value === undefined || def.extraFields?.includes(field)) continue;
      const reference = def.references?.find((r) => r.field === field);
      values[reference ? reference.column : field] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
    if (def.table === 'funds') values.is_core = ['true', '1', 'on', true].includes(input.is_core as string) ? 1 : 0;
    if (CREATED_TABLES.has(def.table)) Object.assign(values, { created_by: user.id, created_at: new Date().toISOString() });
    const recordId = typeof (values.metadata_id ?? input.metadata) === 'string' ? String(values.metadata_id ?? input.metadata) : undefined;
    await this.writeOnce(def, async (trx) => {
      if (recordId) {
        // Writing the record's row first locks it (PostgreSQL) until commit: two requests adding to one
        // record take turns, so the per-record limits below count what the other one wrote.
        await trx.updateTable('metadata').set({ updated_at: new Date().toISOString() }).where('id', '=', recordId).execute();
        await this.checkRecordLimits(def, trx, recordId);
      }
      await trx.insertInto(def.table).values(values).execute();
      await this.afterCreate(def, trx, id, input);
    });
    return (await this.present(def, [await this.find(def, id)]))[0]!;
  }

  async update(def: ResourceDef, user: AuthenticatedUser, id: string, input: Row) {
    const row = await this.find(def, id);
    await this.mayChange(def, user, row);
    const values: Row = {};
    for (const [field, value] of Object.entries(input)) {
      // A row never moves to another record or parent: that would bypass the other one's owner.
      if (value === undefined || def.extraFields?.includes(field) || field === 'metadata' || field === def.parent?.field) continue;
      const reference = def.references?.find((r) => r.field === field);
      if (reference && value !== null && !(await this.exists(reference.table, value))) throw invalid(field, reference.messageKey);
      values[reference ? reference.column : field] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
    if (def.table === 'keyword_standards' && typeof values.parent_id === 'string' && (await this.isAncestorOrSelf(id, values.parent_id))) {
      throw invalid('parent', 'metadata.validation.keywordStandard');
    }
    if (def.table === 'funds' && 'is_core' in values) values.is_core = ['true', '1', 'on', 1].includes(values.is_core as string) ? 1 : 0;
    if (def.table === 'authors' && typeof values.name === 'string' && values.name !== row.name && (await this.isLinked('authors', id))) {
      throw invalid('name', 'metadata.author.nameLocked');
    }
    if (Object.keys(values).length) {
      await this.writeOnce(def, (trx) => trx.updateTable(def.table).set(values).where('id', '=', id).execute());
    }
    await this.touchRecordOf(def, row);
    return (await this.present(def, [await this.find(def, id)]))[0]!;
  }

  async remove(def: ResourceDef, user: AuthenticatedUser, id: string) {
    const row = await this.find(def, id);
    await this.mayChange(def, user, row);
    if (await this.isLinked(def.table, id)) throw new AppError('CONFLICT', 'metadata.inUse');
    if (def.table === 'keyword_standards' && (await this.subtreeLinked(id))) throw new AppError('CONFLICT', 'metadata.inUse');
    await this.db.deleteFrom(def.table).where('id', '=', id).execute();
    await this.touchRecordOf(def, row);
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
    const def = { table: 'meta_author', owner: 'record', read: 'public', name: 'meta-author', orderBy: [] } as ResourceDef;
    const rows = (await this.db.selectFrom('meta_author').selectAll().where('metadata_id', '=', metadataId).orderBy('sort').orderBy('id').execute()) as Row[];
    return this.present(def, rows);
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

  private async linkedToOwnDraft(table: string, id: string, user: AuthenticatedUser): Promise<boolean> {
    for (const link of LINKED_BY[table] ?? []) {
      const row = await this.db
        .selectFrom(link.table)
        .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
        .select(`${link.table}.id`)
        .where(`${link.table}.${link.column}`, '=', id)
        .where('record.owner_id', '=', user.id)
        .where('record.status', '=', 'draft')
        .limit(1)
        .executeTakeFirst();
      if (row) return true;
    }
    return false;
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
    if (user.is_staff || !VISIBLE_SHARED.includes(table)) return true;
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
    for (const reference of def.references ?? []) {
      if (reference.field === 'metadata' || input[reference.field] === undefined || input[reference.field] === null) continue;
      if (!(await this.exists(reference.table, input[reference.field]))) throw invalid(reference.field, reference.messageKey);
      // A shared entry is linked only when the caller may see it (not one of another's private drafts).
      if (!(await this.isVisible(reference.table, String(input[reference.field]), user))) throw invalid(reference.field, reference.messageKey);
    }
    // A translation of a shared entry is written by who may change the entry (its creator, staff), or,
    // when the entry has none in that language yet, by whoever uses it in a draft of theirs (an author
    // picked from the list may lack the English the checklist asks for).
    if (def.parent) {
      const parentId = String(input[def.parent.field]);
      if (!(await this.linkedToOwnDraft(def.parent.table, parentId, user))) await this.mayChange(def, user, { [def.parent.column]: parentId });
    }
  }

  private async mayChange(def: ResourceDef, user: AuthenticatedUser, row: Row) {
    if (def.owner === 'staff') {
      if (!user.is_staff) throw new AppError('FORBIDDEN', 'account.forbidden');
      return;
    }
    if (def.owner === 'record') {
      await this.access.writable(user, String(row.metadata_id));
      return;
    }
    let createdBy = row.created_by;
    let entry = { table: def.table, id: row.id as string | undefined };
    if (def.parent) {
      const parentId = row[def.parent.column] as string;
      const parent = (await this.db.selectFrom(def.parent.table).select('created_by').where('id', '=', parentId).executeTakeFirst()) as Row | undefined;
      createdBy = parent?.created_by;
      entry = { table: def.parent.table, id: parentId };
    }
    if (!user.is_staff && createdBy !== user.id) throw new AppError('FORBIDDEN', 'metadata.noRight');
    // A shared entry also belongs to the records that use it: it changes only while all of them may.
    if (entry.id && (await this.usedByOthers(entry.table, entry.id, user))) throw new AppError('CONFLICT', 'metadata.sharedLocked');
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

  /** Rows as the API shows them: `x` beside each `x_id`, numbers as numbers, the linked entity and translations. */
  async present(def: ResourceDef, rows: Row[]): Promise<Row[]> {
    const out = rows.map((row) => {
      const shown: Row = { ...row };
      for (const [key, value] of Object.entries(row)) {
        if (key.endsWith('_id') && key !== 'id') shown[key.slice(0, -3)] = value;
        if (typeof value === 'string' && (key === 'size' || key === 'sort' || key === 'number') && /^\d+$/.test(value)) shown[key] = Number(value);
      }
      if ('is_core' in row) shown.is_core = Number(row.is_core) === 1;
      return shown;
    });
    const translations = TRANSLATIONS[def.table];
    if (translations) await this.attachTranslations(out, translations, 'id');
    const detail = DETAILS[def.table];
    if (detail && out.length) {
      const ids = [...new Set(out.map((row) => row[detail.column] as string))];
      const linked = (await this.db.selectFrom(detail.table).selectAll().where('id', 'in', ids).execute()) as Row[];
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
