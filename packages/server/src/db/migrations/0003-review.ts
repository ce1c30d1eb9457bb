import type { Kysely } from 'kysely';

/**
 * Review and publication: the record's review facts, one row per invited expert and round, and the
 * audit trail of every step. Same conventions as 0001 and 0002.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('metadata')
    .addColumn('topic_review_status', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('metadata')
    .addColumn('is_pre_review', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('metadata')
    .addColumn('review_round', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('metadata')
    .addColumn('published_without_review', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('metadata')
    .addColumn('unpublish_reason', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('metadata').addColumn('embargo_until', 'text').execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('expert_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('signed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('after_modification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'text')
    .addColumn('answered_at', 'text')
    .addColumn('reminded_at', 'text')
    .addUniqueConstraint('reviews_unique', ['metadata_id', 'expert_id', 'round'])
    .execute();
  await db.schema.createIndex('reviews_expert').on('reviews').columns(['expert_id', 'created_at']).execute();

  await db.schema
    .createTable('review_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('review_id', 'text', (c) => c.references('reviews.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_events_metadata').on('review_events').columns(['metadata_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_events').execute();
  await db.schema.dropTable('reviews').execute();
  for (const column of ['topic_review_status', 'is_pre_review', 'review_round', 'published_without_review', 'unpublish_reason', 'embargo_until']) {
    await db.schema.alterTable('metadata').dropColumn(column).execute();
  }
}
