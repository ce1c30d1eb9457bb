import { sql, type Kysely } from 'kysely';

/**
 * Issue 16. Same conventions as 0001 to 0006 (text ids, ISO times).
 * - `order_mails`: the outbox of orders' mails. A mail is written, rendered, in the transaction that
 *   places or changes its order, so a committed order's mail survives the process dying before it is
 *   sent; the sender (right after the commit, and a job for what is left) sends it and marks it sent,
 *   retrying a failure with backoff. `status`: pending, sent, failed (given up after many tries).
 * - The daily order counts (`usage_days`, kind 'order') are counted again from the orders that count
 *   (waiting, returned, approved): withdrawn and rejected orders inflated them before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('order_mails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('order_mails_due').on('order_mails').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('order_mails_order').on('order_mails').columns(['order_id']).execute();

  await sql`delete from usage_days where kind = 'order'`.execute(db);
  await sql`
    insert into usage_days (metadata_id, day, kind, country, count)
    select l.metadata_id, substr(o.created_at, 1, 10), 'order', a.country, count(*)
    from order_lines l
    join orders o on o.id = l.order_id
    join applications a on a.id = o.application_id
    where o.status in ('waiting', 'returned', 'approved')
    group by l.metadata_id, substr(o.created_at, 1, 10), a.country
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('order_mails').execute();
}
