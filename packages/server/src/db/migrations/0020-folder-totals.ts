import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue 19. A folder's count and bytes of data files kept, not summed per listing: summing a folder
 * of 100,000 files cost PostgreSQL a scan of them on every page (bench/file-tree-listing.ts).
 * `meta_file_totals` holds one row per folder that has held a file (metadata_id, path), kept by
 * triggers on `meta_file` in the writing transaction, so every writer (the tree, uploads, FTP sync,
 * the flat upload, a record's deletion, imports and test factories) keeps it exact; concurrent writers
 * of one folder take turns on its row. Filled from the files there are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('meta_file_totals')
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('files', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('meta_file_totals_pk', ['metadata_id', 'path'])
    .execute();
  await sql`insert into meta_file_totals (metadata_id, path, files, bytes)
    select metadata_id, path, count(*), coalesce(sum(size), 0) from meta_file group by metadata_id, path`.execute(db);
  const add = (row: 'new') =>
    sql.raw(`insert into meta_file_totals (metadata_id, path, files, bytes) values (${row}.metadata_id, ${row}.path, 1, ${row}.size)
      on conflict (metadata_id, path) do update set files = meta_file_totals.files + 1, bytes = meta_file_totals.bytes + excluded.bytes;`);
  const take = (row: 'old') => sql.raw(`update meta_file_totals set files = files - 1, bytes = bytes - ${row}.size where metadata_id = ${row}.metadata_id and path = ${row}.path;`);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function meta_file_totals_change() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then ${take('old')} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add('new')} end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger meta_file_totals after insert or delete or update of metadata_id, path, size on meta_file
      for each row execute function meta_file_totals_change()`.execute(db);
  } else {
    await sql`create trigger meta_file_totals_insert after insert on meta_file begin ${add('new')} end`.execute(db);
    await sql`create trigger meta_file_totals_delete after delete on meta_file begin ${take('old')} end`.execute(db);
    await sql`create trigger meta_file_totals_update after update of metadata_id, path, size on meta_file begin ${take('old')} ${add('new')} end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger meta_file_totals on meta_file`.execute(db);
    await sql`drop function meta_file_totals_change()`.execute(db);
  } else {
    for (const name of ['insert', 'delete', 'update']) await sql.raw(`drop trigger meta_file_totals_${name}`).execute(db);
  }
  await db.schema.dropTable('meta_file_totals').execute();
}
