import type { Kysely } from 'kysely';

/**
 * Issue 16. The record as its creator submitted it for a round of review (`snapshot`, the JSON of
 * contracts/review's recordSnapshotSchema), one row per record and round, so that the round's
 * experts read what they were asked to judge and, from round 2, what changed since the round
 * before. Written at submission for the round the submission starts; a record taken back and
 * submitted again before that round began replaces it. Same conventions as 0001 to 0009.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('review_snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('review_snapshots_round', ['metadata_id', 'round'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_snapshots').execute();
}
