import type { Kysely } from 'kysely';

/**
 * Issue 17. DOI registration with DataCite (modules/doi/). Same conventions as before (text ids, ISO times).
 * - `doi_registrations`: one row per DOI the portal minted, and the outbox of its registration: what
 *   DataCite should hold (`wanted`: findable while the record is published, registered once it is
 *   withdrawn), what it was last seen to hold (`state`: '' never registered, findable, registered),
 *   and the work left (`status`: pending, done, failed = given up after many tries) with its tries,
 *   next try and the last failure (HTTP status, 0 for no reply; DataCite's `errors[]` as JSON). No
 *   foreign key to the record: a DOI outlives a deleted record, and DataCite must still be told.
 * - `doi_sequence`: the last number given to `{number}` of DATACITE_DOI_PATTERN, per pattern.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('doi_registrations')
    .addColumn('doi', 'text', (c) => c.primaryKey())
    .addColumn('metadata_id', 'text', (c) => c.notNull())
    .addColumn('wanted', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'text')
    .execute();
  await db.schema.createIndex('doi_registrations_due').on('doi_registrations').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('doi_registrations_record').on('doi_registrations').columns(['metadata_id']).execute();
  await db.schema
    .createTable('doi_sequence')
    .addColumn('pattern', 'text', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('doi_sequence').execute();
  await db.schema.dropTable('doi_registrations').execute();
}
