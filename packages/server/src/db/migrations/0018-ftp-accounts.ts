import type { Kysely } from 'kysely';

/**
 * Issue 19. FTP accounts (modules/ftp/): `ftp_accounts`, one per kind, user and record (a download
 * account per user and record, spec section 6), removed with the record or the user (cascade) and,
 * once `expires_at` has passed, by the clean-up job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ftp_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addUniqueConstraint('ftp_accounts_one_per_record', ['kind', 'user_id', 'metadata_id'])
    .execute();
  await db.schema.createIndex('ftp_accounts_record').on('ftp_accounts').columns(['metadata_id']).execute();
  await db.schema.createIndex('ftp_accounts_expiry').on('ftp_accounts').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ftp_accounts').execute();
}
