import type { Kysely } from 'kysely';

/**
 * Orders and downloads (issue 10). Same conventions as 0001 to 0005 (text ids, integer flags, ISO times).
 * - `metadata.download_count`: counted downloads, beside `hit_count`.
 * - `cart_lines`: the data basket, a dataset once per user.
 * - `applications`: one application form (spec section 3) as sent, for a selection of basket lines.
 * - `orders`: what one handler decides of an application: the open datasets (granted at once), the
 *   data centre's (offline via the data centre) and one per record owner (offline via the provider's
 *   e-mail). `owner_id` is set for the owner's share only. `expires_at` is set on approval.
 * - `order_lines`: a dataset of an order.
 * - `usage_days`: views, downloads and orders per record, day and country (COUNTER-style counts,
 *   each an upsert); `recent_downloads` remembers a visitor's last counted download of a file for the
 *   30-second repeat window, as `record_views` does for views.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Counted downloads of the record's files, as hit_count counts views (the hot list and the catalogue sort by it).
  await db.schema
    .alterTable('metadata')
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('cart_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('cart_lines_unique', ['user_id', 'metadata_id'])
    .execute();

  await db.schema
    .createTable('applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('applicant_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('real_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('zipcode', 'text', (c) => c.notNull())
    .addColumn('affiliation', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('applications_applicant').on('applications').columns(['applicant_id', 'created_at']).execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('applicant_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('handler', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('decision_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('reminded_at', 'text')
    .addColumn('voucher_code', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_applicant').on('orders').columns(['applicant_id', 'created_at']).execute();
  await db.schema.createIndex('orders_owner').on('orders').columns(['owner_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('orders_handler').on('orders').columns(['handler', 'status', 'created_at']).execute();
  await db.schema.createIndex('orders_application').on('orders').columns(['application_id']).execute();

  await db.schema
    .createTable('order_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addUniqueConstraint('order_lines_unique', ['order_id', 'metadata_id'])
    .execute();
  await db.schema.createIndex('order_lines_metadata').on('order_lines').columns(['metadata_id']).execute();

  await db.schema
    .createTable('usage_days')
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_days_pk', ['metadata_id', 'kind', 'day', 'country'])
    .execute();

  await db.schema
    .createTable('recent_downloads')
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('downloaded_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recent_downloads_pk', ['file_id', 'visitor'])
    .execute();
  await db.schema.createIndex('recent_downloads_at').on('recent_downloads').columns(['downloaded_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('metadata').dropColumn('download_count').execute();
  for (const table of ['recent_downloads', 'usage_days', 'order_lines', 'orders', 'applications', 'cart_lines']) {
    await db.schema.dropTable(table).execute();
  }
}
