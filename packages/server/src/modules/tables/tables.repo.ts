import { sql, type Kysely, type Selectable } from 'kysely';
import type { TableColumn, TableColumnType } from '@portal/shared';
import type { Db, Dialect, Tx } from '../../db/index.js';
import type { DataTablesTable, MetadataTable } from '../../db/schema.js';
import type { Stored } from './cell-values.js';

export type CatalogueRow = Selectable<DataTablesTable>;

/** A table listed with its record (every column) and the record's title in its other language. */
export type ListedRow = Selectable<MetadataTable> & {
  table_code: string;
  table_name: string;
  table_columns: string;
  table_rows: number | string;
  table_created: string;
  other_language: string | null;
  other_title: string | null;
};

/** The tables providers made: their names are codes the catalogue holds, their columns declared fields. */
type MadeTables = Kysely<Record<string, Record<string, unknown>>>;

/** The column every table has beside its fields: the row's number in the sheet (its key and default order). */
export const ROW_COLUMN = '_row';

/** Parameters per multi-row insert (SQLite allows 32766, PostgreSQL 65535). */
const INSERT_PARAMETERS = 20_000;

/** A filter of a page: a declared field, its operator, and its value as the column stores it. */
export interface RowFilter {
  field: string;
  type: TableColumnType;
  operator: 'gte' | 'lte' | 'contains';
  value: Stored;
}

export interface RowsQuery {
  filters: RowFilter[];
  ordering: { field: string; descending: boolean } | undefined;
  offset: number;
  limit: number;
}

/**
 * The only SQL of the tables module: the catalogue (`data_tables`) and the tables it names. Every
 * table and column name written into SQL is an identifier Kysely quotes, taken from the catalogue
 * (codes it made, fields the shared rule allowed); every value is bound.
 */
export class TablesRepo {
  constructor(
    readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  private made(db: Db | Tx = this.db): MadeTables {
    return db as unknown as MadeTables;
  }

  // ---- The catalogue ----

  async insert(trx: Tx, row: CatalogueRow): Promise<void> {
    await trx.insertInto('data_tables').values(row).execute();
  }

  /** Marks a loaded table ready with its row count; false when its row is gone (its file or record deleted meanwhile). */
  async markReady(trx: Tx, id: string, rows: number): Promise<boolean> {
    const result = await trx.updateTable('data_tables').set({ state: 'ready', row_count: rows }).where('id', '=', id).where('state', '=', 'loading').executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async exists(id: string): Promise<boolean> {
    return !!(await this.db.selectFrom('data_tables').select('id').where('id', '=', id).executeTakeFirst());
  }

  findReady(code: string): Promise<CatalogueRow | undefined> {
    return this.db.selectFrom('data_tables').selectAll().where('code', '=', code).where('state', '=', 'ready').executeTakeFirst();
  }

  /**
   * The ready tables a caller may be shown before the download rule is judged, newest first, with
   * their record (every column, for the rule) and its title in the other language: published
   * records' and the caller's own (`ownerId`), or all (`everyRecord`, staff). `search` matches the
   * table's name and the record's titles, case-insensitively; at most `limit` rows.
   */
  listed(scope: { ownerId: string | null; everyRecord: boolean }, filter: { search: string; metadataId: string }, limit: number): Promise<ListedRow[]> {
    let rows = this.db
      .selectFrom('data_tables')
      .innerJoin('metadata', 'metadata.id', 'data_tables.metadata_id')
      .leftJoin('metadata_i18n', (join) => join.onRef('metadata_i18n.metadata_id', '=', 'metadata.id').onRef('metadata_i18n.language', '<>', 'metadata.language'))
      .selectAll('metadata')
      .select([
        'data_tables.code as table_code',
        'data_tables.name as table_name',
        'data_tables.columns as table_columns',
        'data_tables.row_count as table_rows',
        'data_tables.created_at as table_created',
        'metadata_i18n.language as other_language',
        'metadata_i18n.title as other_title',
      ])
      .where('data_tables.state', '=', 'ready');
    if (!scope.everyRecord) {
      const ownerId = scope.ownerId;
      rows = rows.where((eb) => (ownerId ? eb.or([eb('metadata.status', '=', 'published'), eb('metadata.owner_id', '=', ownerId)]) : eb('metadata.status', '=', 'published')));
    }
    if (filter.metadataId) rows = rows.where('data_tables.metadata_id', '=', filter.metadataId);
    if (filter.search) {
      const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
      rows = rows.where((eb) => eb.or([like('data_tables.name'), like('metadata.title'), like('metadata_i18n.title')]));
    }
    return rows.orderBy('data_tables.created_at', 'desc').orderBy('data_tables.code').limit(limit).execute() as Promise<ListedRow[]>;
  }

  /** The record's title in its other language, if it has one. */
  titles(metadataId: string): Promise<{ other_language: string | null; other_title: string | null } | undefined> {
    return this.db
      .selectFrom('metadata')
      .leftJoin('metadata_i18n', (join) => join.onRef('metadata_i18n.metadata_id', '=', 'metadata.id').onRef('metadata_i18n.language', '<>', 'metadata.language'))
      .select(['metadata_i18n.language as other_language', 'metadata_i18n.title as other_title'])
      .where('metadata.id', '=', metadataId)
      .executeTakeFirst();
  }

  /** The ready tables of one record, oldest first (the order they were made). */
  ofRecord(metadataId: string): Promise<CatalogueRow[]> {
    return this.db.selectFrom('data_tables').selectAll().where('metadata_id', '=', metadataId).where('state', '=', 'ready').orderBy('created_at').orderBy('code').execute();
  }

  /** The tables (any state) of these data files or records, in the caller's transaction. */
  of(trx: Tx, by: 'file_id' | 'metadata_id', ids: readonly string[]): Promise<Pick<CatalogueRow, 'id' | 'code'>[]> {
    if (!ids.length) return Promise.resolve([]);
    return trx.selectFrom('data_tables').select(['id', 'code']).where(by, 'in', ids).execute();
  }

  /** Tables still loading that began before `before`: their import's process died. */
  staleLoading(before: string): Promise<Pick<CatalogueRow, 'id' | 'code'>[]> {
    return this.db.selectFrom('data_tables').select(['id', 'code']).where('state', '=', 'loading').where('created_at', '<', before).execute();
  }

  /** Drops the table and its catalogue row, in `db` (a transaction of the caller's, or the database). */
  async remove(db: Db | Tx, table: Pick<CatalogueRow, 'id' | 'code'>): Promise<void> {
    await db.schema.dropTable(table.code).ifExists().execute();
    await db.deleteFrom('data_tables').where('id', '=', table.id).execute();
  }

  // ---- The tables ----

  /** Makes the table with `_row` and one column per field, typed for this database. */
  async createTable(code: string, columns: readonly TableColumn[]): Promise<void> {
    let builder = this.db.schema.createTable(code).addColumn(ROW_COLUMN, 'integer', (c) => c.primaryKey());
    for (const column of columns) builder = builder.addColumn(column.field, sql.raw(this.columnType(column.type)));
    await builder.execute();
  }

  /**
   * integer: bigint; float: double precision (SQLite's real, the same 8 bytes); date and datetime:
   * PostgreSQL's date and timestamp, and ISO 8601 text on SQLite (which sorts and compares as
   * time); string: varchar(255) (text on SQLite, which has no lengths; the import checks them);
   * text: text.
   */
  private columnType(type: TableColumnType): string {
    const sqlite = this.dialect === 'sqlite';
    switch (type) {
      case 'integer':
        return 'bigint';
      case 'float':
        return sqlite ? 'real' : 'double precision';
      case 'date':
        return sqlite ? 'text' : 'date';
      case 'datetime':
        return sqlite ? 'text' : 'timestamp';
      case 'string':
        return sqlite ? 'text' : 'varchar(255)';
      case 'text':
        return 'text';
    }
  }

  /** Inserts rows (their `_row` and fields) in one transaction, as many a statement as the parameter limits allow. */
  async insertRows(code: string, rows: Record<string, Stored>[]): Promise<void> {
    if (!rows.length) return;
    const size = Math.max(1, Math.floor(INSERT_PARAMETERS / Object.keys(rows[0]!).length));
    await this.db.transaction().execute(async (trx) => {
      for (let at = 0; at < rows.length; at += size) {
        await this.made(trx)
          .insertInto(code)
          .values(rows.slice(at, at + size))
          .execute();
      }
    });
  }

  /**
   * An index on each field but long text, for the viewer's sorts and ranges; then the table's
   * statistics, so that the planner knows a range's share of the rows (a narrow range read by its
   * index and sorted, a wide one read in the order's index) from the first page on. SQLite samples
   * (analysis_limit), so that a table of millions of rows is measured in a moment.
   */
  async createIndexes(code: string, columns: readonly TableColumn[]): Promise<void> {
    for (const [at, column] of columns.entries()) {
      if (column.type === 'text') continue;
      await this.db.schema
        .createIndex(`${code}_${at + 1}`)
        .on(code)
        .column(column.field)
        .execute();
    }
    if (this.dialect === 'sqlite') await sql`pragma analysis_limit = 1000`.execute(this.db);
    await sql`analyze ${sql.table(code)}`.execute(this.db);
  }

  /** The table's rows matching every filter (a query to select from). */
  private filtered(code: string, filters: readonly RowFilter[]) {
    let rows = this.made().selectFrom(code);
    for (const filter of filters) {
      const column = sql.ref(filter.field);
      if (filter.operator === 'contains') {
        const pattern = `%${String(filter.value)
          .toLowerCase()
          .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        rows = rows.where(sql<boolean>`lower(${column}) like ${pattern} escape '\\'`);
      } else {
        rows = rows.where(sql<boolean>`${column} ${sql.raw(filter.operator === 'gte' ? '>=' : '<=')} ${filter.value}`);
      }
    }
    return rows;
  }

  /** How many rows match every filter. */
  async count(code: string, filters: readonly RowFilter[]): Promise<number> {
    const counted = await this.filtered(code, filters)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(counted.count);
  }

  /** A page of the table's rows matching every filter, in order, and how many match. */
  async page(code: string, columns: readonly TableColumn[], query: RowsQuery): Promise<{ count: number; rows: Record<string, unknown>[] }> {
    const count = await this.count(code, query.filters);
    let page = this.filtered(code, query.filters).select(columns.map((column) => this.selected(column)));
    if (query.ordering) page = page.orderBy(sql`${sql.ref(query.ordering.field)} ${sql.raw(query.ordering.descending ? 'desc' : 'asc')} nulls last`);
    page = page.orderBy(sql.ref(ROW_COLUMN));
    const found = await page.offset(query.offset).limit(query.limit).execute();
    return { count, rows: found.map((row) => this.read(row, columns)) };
  }

  /**
   * Every row matching the filters, in the page's order, `batch` rows a query: each batch starts
   * after the last row of the one before (its sort value and `_row`, nulls last), so that a download
   * of a million rows holds one batch in memory and every query is a range of the indexes.
   */
  async *rowsInOrder(
    code: string,
    columns: readonly TableColumn[],
    query: Pick<RowsQuery, 'filters' | 'ordering'>,
    batch: number,
  ): AsyncGenerator<Record<string, string | number | null>[]> {
    const ordering = query.ordering;
    const sortField = ordering?.field;
    let after: { value: unknown; row: number } | undefined;
    for (;;) {
      let rows = this.filtered(code, query.filters).select([...columns.map((column) => this.selected(column)), sql.ref(ROW_COLUMN).as('__row')]);
      if (sortField) {
        // PostgreSQL's dates as text (a Date would come back in local time), compared as the column's type again.
        const sortColumn = columns.find((each) => each.field === sortField)!;
        rows = rows.select(
          this.dialect === 'postgres' && (sortColumn.type === 'date' || sortColumn.type === 'datetime')
            ? sql`${sql.ref(sortField)}::text`.as('__sort')
            : sql.ref(sortField).as('__sort'),
        );
        const column = sql.ref(sortField);
        const row = sql.ref(ROW_COLUMN);
        if (after && after.value === null) rows = rows.where(sql<boolean>`${column} is null and ${row} > ${after.row}`);
        else if (after) {
          const beyond = sql.raw(ordering.descending ? '<' : '>');
          rows = rows.where(sql<boolean>`(${column} ${beyond} ${after.value} or (${column} = ${after.value} and ${row} > ${after.row}) or ${column} is null)`);
        }
        rows = rows.orderBy(sql`${column} ${sql.raw(ordering.descending ? 'desc' : 'asc')} nulls last`);
      } else if (after) rows = rows.where(sql<boolean>`${sql.ref(ROW_COLUMN)} > ${after.row}`);
      const found = await rows.orderBy(sql.ref(ROW_COLUMN)).limit(batch).execute();
      if (!found.length) return;
      const last = found[found.length - 1]!;
      after = { value: sortField ? (last.__sort ?? null) : null, row: Number(last.__row) };
      yield found.map((row) => this.read(row, columns));
      if (found.length < batch) return;
    }
  }

  /** PostgreSQL's dates and times as text (node-postgres would make local-time Dates of them). */
  private selected(column: TableColumn) {
    if (this.dialect === 'postgres' && (column.type === 'date' || column.type === 'datetime')) return sql`${sql.ref(column.field)}::text`.as(column.field);
    return sql.ref(column.field).as(column.field);
  }

  /** A row as the reply gives it: numbers as numbers (bigint is text on PostgreSQL), date-times with their T. */
  private read(row: Record<string, unknown>, columns: readonly TableColumn[]): Record<string, string | number | null> {
    const out: Record<string, string | number | null> = {};
    for (const column of columns) {
      const value = row[column.field];
      if (value === null || value === undefined) out[column.field] = null;
      else if (column.type === 'integer' || column.type === 'float') out[column.field] = Number(value);
      else if (column.type === 'datetime') out[column.field] = String(value).replace(' ', 'T');
      else out[column.field] = String(value);
    }
    return out;
  }
}
