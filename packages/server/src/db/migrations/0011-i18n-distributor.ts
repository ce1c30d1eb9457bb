import type { Kysely } from 'kysely';

/**
 * Issue 16. The distributor's organisation and address in the record's other language, like its other
 * translated texts: an English page shows them where the provider gave them, ISO 19139 writes both.
 */
const COLUMNS = ['dist_unit', 'dist_address'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema
      .alterTable('metadata_i18n')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('metadata_i18n').dropColumn(column).execute();
}
