import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * The OAI-PMH feed (issue 9). `oai_items` is one row per record that was ever published: its
 * datestamp (the last change of what the feed exports, UTC to the second, `YYYY-MM-DDThh:mm:ssZ`),
 * whether it is deleted (unpublished, or removed after publication: the feed keeps deleted records
 * persistently) and whether it has a DOI (the oai_datacite format needs one). No foreign key to
 * `metadata`: a deleted record's tombstone outlives its row. `oai_item_sets` holds each item's set
 * memberships with the datestamp copied, so that a harvest of one set is a range read of one index;
 * `oai_sets` the sets' names. `server_secrets` keeps a random secret made here, the default of
 * `SECRET_KEY` for every instance that shares the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oai_items')
    .addColumn('metadata_id', 'text', (c) => c.primaryKey())
    .addColumn('datestamp', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_doi', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // A harvest reads (datestamp, id) ranges in order; oai_datacite's lists only the records with a DOI.
  await db.schema.createIndex('oai_items_datestamp').on('oai_items').columns(['datestamp', 'metadata_id']).execute();
  await db.schema.createIndex('oai_items_doi_datestamp').on('oai_items').columns(['has_doi', 'datestamp', 'metadata_id']).execute();

  await db.schema
    .createTable('oai_item_sets')
    .addColumn('spec', 'text', (c) => c.notNull())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('oai_items.metadata_id').onDelete('cascade'))
    .addColumn('datestamp', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oai_item_sets_pk', ['spec', 'metadata_id'])
    .execute();
  await db.schema.createIndex('oai_item_sets_datestamp').on('oai_item_sets').columns(['spec', 'datestamp', 'metadata_id']).execute();
  await db.schema.createIndex('oai_item_sets_item').on('oai_item_sets').columns(['metadata_id']).execute();

  await db.schema
    .createTable('oai_sets')
    .addColumn('spec', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into server_secrets (name, value) values ('default', ${randomBytes(32).toString('hex')})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
  await db.schema.dropTable('oai_sets').execute();
  await db.schema.dropTable('oai_item_sets').execute();
  await db.schema.dropTable('oai_items').execute();
}
