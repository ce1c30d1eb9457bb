import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import { columnsUnnamed, newId, type AnyRow, type ColumnsUnnamed, type Db, type Tx } from '../../db/index.js';
import type { Database } from '../../db/schema.js';

/**
 * The generic resources' SQL (resources.ts declares them). Tables and columns are chosen by the
 * declarations in code, never by a caller; the rows are seen as columns of unknown values, each
 * table one of the database's own.
 */
export type ResourceTable = keyof Database;
export type Row = AnyRow;
type ResourceTables = { [T in ResourceTable]: Row };
export type ResourceDb = ColumnsUnnamed;
export type ResourceQuery = SelectQueryBuilder<ResourceTables, ResourceTable, object>;
export type ResourceExpressions = ExpressionBuilder<ResourceTables, ResourceTable>;

/** A table that links records to a shared entry, by its `column`. */
export interface Link {
  table: ResourceTable;
  column: string;
}

/** Child tables whose rows are shown inside their parent's (`translations`). */
export const TRANSLATIONS: Partial<Record<ResourceTable, { table: ResourceTable; column: string }>> = {
  authors: { table: 'author_i18n', column: 'author_id' },
  literature: { table: 'literature_i18n', column: 'literature_id' },
  keywords: { table: 'keyword_i18n', column: 'keyword_id' },
};

/** Shared entities that records link to: deleting one in use would take it out of others' records. */
export const LINKED_BY: Partial<Record<ResourceTable, Link[]>> = {
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

/** The records' side of a link: which of them, owned by whom, in which status. */
export interface RecordCondition {
  ownerId?: string;
  status?: string;
  /** Records someone other than this user owns, or that are not drafts. */
  notDraftOf?: string;
  /** Records that are published or owned by this user. */
  publishedOrOwnedBy?: string;
  recordId?: string;
}

export class ResourcesRepo {
  /** The same connection, its tables seen with unnamed columns. */
  readonly db: ResourceDb;

  constructor(private readonly portalDb: Db) {
    this.db = columnsUnnamed(portalDb);
  }

  /** Runs `work` in one transaction: a repo bound to it, and the transaction for other modules' writes in it. */
  transaction<T>(work: (repo: ResourcesRepo, trx: Tx) => Promise<T>): Promise<T> {
    return this.portalDb.transaction().execute((trx) => work(new ResourcesRepo(trx), trx));
  }

  select(table: ResourceTable): ResourceQuery {
    return this.db.selectFrom(table);
  }

  async count(query: ResourceQuery): Promise<number> {
    const row = await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async find(table: ResourceTable, id: string): Promise<Row | undefined> {
    return this.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  }

  async exists(table: ResourceTable, id: string): Promise<boolean> {
    return !!(await this.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());
  }

  async rowsWhere(table: ResourceTable, column: string, values: readonly unknown[], orderBy: string[] = []): Promise<Row[]> {
    if (!values.length) return [];
    let query = this.db.selectFrom(table).selectAll().where(column, 'in', values);
    for (const order of orderBy) query = query.orderBy(order);
    return query.execute();
  }

  /** The count of a filtered list and one page of it, in the declared order ('column' or 'column desc'). */
  async page(query: ResourceQuery, table: ResourceTable, orderBy: readonly string[], offset: number, limit: number): Promise<{ count: number; rows: Row[] }> {
    const count = await this.count(query);
    let rows = query.selectAll(table);
    for (const order of orderBy) {
      const [column, direction] = order.split(' ');
      rows = rows.orderBy(`${table}.${column}`, direction === 'desc' ? 'desc' : 'asc');
    }
    return { count, rows: await rows.offset(offset).limit(limit).execute() };
  }

  /** Whether the user may see this shared entry (`visibleOnly`). */
  async isVisibleTo(table: ResourceTable, id: string, userId: string): Promise<boolean> {
    return !!(await this.visibleOnly(this.select(table).select(`${table}.id`), table, userId)
      .where(`${table}.id`, '=', id)
      .executeTakeFirst());
  }

  async insert(table: ResourceTable, rows: Row | Row[]): Promise<void> {
    if (Array.isArray(rows) && !rows.length) return;
    await this.db.insertInto(table).values(rows).execute();
  }

  async update(table: ResourceTable, id: string, values: Row): Promise<void> {
    if (Object.keys(values).length) await this.db.updateTable(table).set(values).where('id', '=', id).execute();
  }

  /** Deletes rows by their `column`; answers how many went. */
  async delete(table: ResourceTable, where: Row): Promise<number> {
    const result = await Object.entries(where)
      .reduce((query, [column, value]) => query.where(column, '=', value), this.db.deleteFrom(table))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Marks records as changed now (lists sort by them); in a transaction, this locks their rows first. */
  async touchRecords(ids: readonly string[], now = new Date().toISOString()): Promise<void> {
    if (ids.length) await this.db.updateTable('metadata').set({ updated_at: now }).where('id', 'in', ids).execute();
  }

  async isLinked(table: ResourceTable, id: string): Promise<boolean> {
    for (const link of LINKED_BY[table] ?? []) {
      if (await this.db.selectFrom(link.table).select('id').where(link.column, '=', id).limit(1).executeTakeFirst()) return true;
    }
    return false;
  }

  /** The ids of records linking the shared entry through any of its links, that meet `condition`. */
  async recordsLinking(table: ResourceTable, entryId: unknown, condition: RecordCondition): Promise<string[]> {
    const ids: string[] = [];
    for (const link of LINKED_BY[table] ?? []) {
      let query = this.db
        .selectFrom(link.table)
        .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
        .select('record.id as id')
        .distinct()
        .where(`${link.table}.${link.column}`, '=', entryId);
      if (condition.ownerId) query = query.where('record.owner_id', '=', condition.ownerId);
      if (condition.status) query = query.where('record.status', '=', condition.status);
      if (condition.recordId !== undefined) query = query.where('record.id', '=', condition.recordId);
      const other = condition.notDraftOf;
      if (other) query = query.where((eb) => eb.or([eb('record.owner_id', '<>', other), eb('record.status', '<>', 'draft')])).limit(1);
      for (const row of await query.execute()) ids.push(String(row.id));
    }
    return ids;
  }

  /** Shared entries the user may see: their own, the programme funds, and those linked from records published or theirs. */
  visibleOnly(query: ResourceQuery, table: ResourceTable, userId: string): ResourceQuery {
    return query.where((eb) =>
      eb.or([
        eb(`${table}.created_by`, '=', userId),
        ...(table === 'funds' ? [eb('funds.is_core', '=', 1)] : []),
        ...(LINKED_BY[table] ?? []).map((link) =>
          eb(
            `${table}.id`,
            'in',
            eb
              .selectFrom(link.table)
              .innerJoin('metadata as record', 'record.id', `${link.table}.metadata_id`)
              .select(`${link.table}.${link.column}`)
              .where((inner) => inner.or([inner('record.status', '=', 'published'), inner('record.owner_id', '=', userId)])),
          ),
        ),
      ]),
    );
  }

  /** The children of these keyword standards. */
  async standardsBelow(ids: readonly string[]): Promise<string[]> {
    const rows = await this.rowsWhere('keyword_standards', 'parent_id', ids);
    return rows.map((row) => String(row.id));
  }

  /** The parent of a keyword standard (null at the top, undefined when there is none). */
  async standardParent(id: string): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('keyword_standards').select('parent_id').where('id', '=', id).executeTakeFirst();
    return row ? ((row.parent_id as string | null) ?? null) : undefined;
  }

  /** How many rows of `table` the record has (its per-record limits). */
  async countOfRecord(table: ResourceTable, recordId: string): Promise<number> {
    return this.count(this.db.selectFrom(table).where('metadata_id', '=', recordId));
  }

  /**
   * The caller's own copy of a shared entry (`copy`: its new columns) with its translations (`blank`:
   * fields emptied in them), linked instead of the original from `drafts`, each link row keeping its
   * own columns (sort, role ...). The drafts are touched. Returns the copy's id.
   */
  async copyEntry(table: ResourceTable, original: Row, copy: Row, drafts: string[], blank: (translation: Row) => Row): Promise<string> {
    const copyId = newId();
    await this.db
      .insertInto(table)
      .values({ ...original, ...copy, id: copyId })
      .execute();
    const translations = TRANSLATIONS[table];
    if (translations) {
      const rows = await this.rowsWhere(translations.table, translations.column, [original.id]);
      await this.insert(
        translations.table,
        rows.map((row) => blank({ ...row, id: newId(), [translations.column]: copyId })),
      );
    }
    await this.touchRecords(drafts, String(copy.created_at));
    for (const link of LINKED_BY[table] ?? []) {
      await this.db
        .updateTable(link.table)
        .set({ [link.column]: copyId })
        .where(link.column, '=', original.id)
        .where('metadata_id', 'in', drafts)
        .execute();
    }
    return copyId;
  }

  /** The id of the entry's translation in a language. */
  async translationOf(table: ResourceTable, column: string, entryId: string, language: unknown): Promise<string> {
    const row = await this.db.selectFrom(table).select('id').where(column, '=', entryId).where('language', '=', String(language)).executeTakeFirstOrThrow();
    return String(row.id);
  }

  /** Whether the record already has a keyword of this type and name (any case). */
  async recordHasKeyword(metadataId: string, type: string, name: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('meta_keyword')
      .innerJoin('keywords', 'keywords.id', 'meta_keyword.keyword_id')
      .select('meta_keyword.id')
      .where('meta_keyword.metadata_id', '=', metadataId)
      .where('keywords.type', '=', type)
      .where((eb) => eb(eb.fn('lower', [eb.ref('keywords.name')]), '=', name.toLowerCase()))
      .executeTakeFirst();
    return !!row;
  }

  /**
   * Whether the user created a row of `table` since `since` with exactly these column values, and
   * with a row of each `beside` child (its `column` pointing at it) holding `match`; `without`: with
   * no row of that child at all.
   */
  async createdAlike(table: ResourceTable, userId: string, since: string, values: Row, beside?: { child: ResourceTable; column: string; match?: Row }): Promise<boolean> {
    let query = this.db.selectFrom(table).select(`${table}.id`).where(`${table}.created_by`, '=', userId).where(`${table}.created_at`, '>=', since);
    for (const [column, value] of Object.entries(values)) {
      query = value === null ? query.where(`${table}.${column}`, 'is', null) : query.where(`${table}.${column}`, '=', value);
    }
    if (beside) {
      const { child, column, match } = beside;
      query = query.where((eb) => {
        const children = eb.selectFrom(child).select(`${child}.id`).whereRef(`${child}.${column}`, '=', `${table}.id`);
        if (!match) return eb.not(eb.exists(children));
        return eb.exists(Object.entries(match).reduce((sub, [name, value]) => sub.where(`${child}.${name}`, '=', value), children));
      });
    }
    return !!(await query.executeTakeFirst());
  }

  /** The owners of the records linking each of these authors. */
  async authorLinkOwners(ids: readonly string[]): Promise<{ author_id: string; owner_id: string }[]> {
    const links = await this.db
      .selectFrom('meta_author')
      .innerJoin('metadata as record', 'record.id', 'meta_author.metadata_id')
      .select(['meta_author.author_id as author_id', 'record.owner_id as owner_id'])
      .where('meta_author.author_id', 'in', ids)
      .execute();
    return links.map((link) => ({ author_id: String(link.author_id), owner_id: String(link.owner_id) }));
  }
}
