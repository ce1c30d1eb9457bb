import type { Kysely } from 'kysely';

/**
 * Issue 19. Uploads that resume (modules/uploads/), owned by the uploads module:
 * - `uploads`: one row per upload under way, by either protocol ('tus' or 'chunked'): who sends it,
 *   into which record and folder, under which name, its declared size (bigint) and SHA-256 (hex, ''
 *   when none was given), the chunked protocol's identifier and chunk layout (NULL, 0 for tus), its
 *   state ('open', 'finishing' while it is handed to the files module) and when it expires unless
 *   written to again. Its bytes grow in the storage's upload area under its id; a finished upload's
 *   row is deleted once the files module lists the file. (metadata_id, identifier) is unique: an
 *   identifier belongs to one account's upload into a record.
 * - `upload_chunks`: the chunks of a chunked upload the server holds, by number (from 1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('identifier', 'text')
    .addColumn('chunk_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_chunks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_identifier').on('uploads').columns(['metadata_id', 'identifier']).unique().execute();
  await db.schema.createIndex('uploads_user').on('uploads').columns(['user_id']).execute();
  await db.schema.createIndex('uploads_expiry').on('uploads').columns(['expires_at']).execute();
  await db.schema
    .createTable('upload_chunks')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_chunks').execute();
  await db.schema.dropTable('uploads').execute();
}
