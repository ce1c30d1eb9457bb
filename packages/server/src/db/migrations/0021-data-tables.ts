import type { Kysely } from 'kysely';

/**
 * Issue 20, Excel to table. `data_tables` (modules/tables/): the catalogue of the database tables
 * providers made from a record's workbooks and CSV files, one row per import: the record, the data
 * file and sheet it came from, its `code` (the name of its own table, `t_` and random letters), its
 * title, its columns as declared (field, display names in both languages, unit, note, type: JSON),
 * its row count, who made it and when. `state` is 'loading' while the rows go in (the table is shown
 * to nobody then; one left loading by a process that died is dropped by the clean-up) and 'ready'
 * after. Removed with the record (cascade; its table is dropped first, on the record's `deleting`
 * event) and with the data file (the files module's event).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_tables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('sheet', 'text', (c) => c.notNull())
    .addColumn('header_rows', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('row_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_tables_metadata').on('data_tables').columns(['metadata_id']).execute();
  await db.schema.createIndex('data_tables_file').on('data_tables').columns(['file_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_tables').execute();
}
