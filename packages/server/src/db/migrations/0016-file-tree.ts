import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue 19. A record's data files form a tree.
 * - `meta_file.path`: the folder a file is in, normalised ('/' the root, '/a/b/'); the flat files
 *   of before are the root's. `modified_at`: its last change (its created_at to begin with).
 * - `meta_folder`: the folders, one row each (metadata_id, path, name), holding no bytes. Folders
 *   have a table of their own so that everything that reads `meta_file` (counts, totals, zips, the
 *   DOI fingerprint, orders) keeps reading data files only.
 * - (metadata_id, path, name) is unique in each table; a file and a folder of one name in one folder
 *   are refused by the files module under the record's lock. Records with two files of one name (the
 *   flat list allowed it) keep the first (by created_at, id) and the others get ' (2)', ' (3)'... before
 *   their extension.
 * - Indexes: one folder of 100,000 files lists any page sorted by name, size or modified time
 *   from an index, and its count and bytes come from one (bench/file-tree-listing.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('meta_file')
    .addColumn('path', 'text', (c) => c.notNull().defaultTo('/'))
    .execute();
  await db.schema
    .alterTable('meta_file')
    .addColumn('modified_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update meta_file set modified_at = created_at`.execute(db);
  await renameDuplicates(db);
  // PostgreSQL reads a page's ids from the index alone when it holds them (SQLite's indexes lead to the row without reading it).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`create unique index meta_file_tree_name on meta_file (metadata_id, path, name) include (id)`.execute(db);
  else await db.schema.createIndex('meta_file_tree_name').unique().on('meta_file').columns(['metadata_id', 'path', 'name']).execute();
  await db.schema.createIndex('meta_file_tree_size').on('meta_file').columns(['metadata_id', 'path', 'size', 'id']).execute();
  await db.schema.createIndex('meta_file_tree_modified').on('meta_file').columns(['metadata_id', 'path', 'modified_at', 'id']).execute();

  await db.schema
    .createTable('meta_folder')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meta_folder_tree_name').unique().on('meta_folder').columns(['metadata_id', 'path', 'name']).execute();
  await db.schema.createIndex('meta_folder_tree_modified').on('meta_folder').columns(['metadata_id', 'path', 'modified_at', 'id']).execute();
}

async function renameDuplicates(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; metadata_id: string; name: string }>`
    select f.id, f.metadata_id, f.name from meta_file f
    where exists (select 1 from meta_file o where o.metadata_id = f.metadata_id and o.name = f.name and o.id <> f.id)
    order by f.metadata_id, f.name, f.created_at, f.id`.execute(db);
  const taken = new Set<string>();
  let previous = '';
  for (const row of rows) {
    const key = `${row.metadata_id}\u0001${row.name}`;
    if (key !== previous) {
      previous = key;
      taken.add(key);
      continue;
    }
    const dot = row.name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [row.name.slice(0, dot), row.name.slice(dot)] : [row.name, ''];
    let name = row.name;
    for (let n = 2; ; n++) {
      name = `${stem} (${n})${extension}`;
      const { rows: clash } = await sql`select 1 from meta_file where metadata_id = ${row.metadata_id} and name = ${name}`.execute(db);
      if (!clash.length && !taken.has(`${row.metadata_id}\u0001${name}`)) break;
    }
    taken.add(`${row.metadata_id}\u0001${name}`);
    await sql`update meta_file set name = ${name} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('meta_folder').execute();
  for (const index of ['meta_file_tree_name', 'meta_file_tree_size', 'meta_file_tree_modified']) await db.schema.dropIndex(index).execute();
  await db.schema.alterTable('meta_file').dropColumn('modified_at').execute();
  await db.schema.alterTable('meta_file').dropColumn('path').execute();
}
