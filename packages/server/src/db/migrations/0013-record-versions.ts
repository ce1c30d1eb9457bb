import { sql, type Kysely } from 'kysely';

/**
 * Issue 17. A published record's version and access right (modules/doi/record-versions.ts).
 * - `version_number`: 1 at the first publication; a republication whose files or metadata differ
 *   from what was last published adds one. 0: never published.
 * - `version_fingerprint`: SHA-256 of the record's published content (its export model without dates
 *   and counters, and its data files' names and SHA-256), kept while it is published.
 * - `version_published_at`: the `published_at` the version was counted at (a new one is a republication).
 * - `access_right`: the COAR access right the exports last showed (open, embargoed, restricted,
 *   metadataOnly); the hourly job finds records whose protection period has ended by it.
 * Records published before get version 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('metadata')
    .addColumn('version_number', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('metadata')
    .addColumn('version_fingerprint', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('metadata').addColumn('version_published_at', 'text').execute();
  await db.schema
    .alterTable('metadata')
    .addColumn('access_right', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update metadata set version_number = 1, version_published_at = published_at where published_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['access_right', 'version_published_at', 'version_fingerprint', 'version_number']) {
    await db.schema.alterTable('metadata').dropColumn(column).execute();
  }
}
