import type { Kysely } from 'kysely';

/**
 * Issue 19, whole datasets. `archives` (modules/archive/): one row per published record, the state of
 * its whole-dataset zip and the job that builds it, so that a build survives a restart (a row left
 * `building` by a process that died is taken again once its lease has run out). Removed with the
 * record (cascade; the blob goes first, on the record's `removing` event).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('archives')
    .addColumn('metadata_id', 'text', (c) => c.primaryKey().references('metadata.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('checked_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('storage_key', 'text')
    .addColumn('size', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('file_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('data_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('built_at', 'text')
    .addColumn('builder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('archives_state').on('archives').columns(['state']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('archives').execute();
}
