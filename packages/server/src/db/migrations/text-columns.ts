import type { Kysely } from 'kysely';

/**
 * Text columns a migration adds to one table, not null with '' for the rows already there, and takes
 * away again in the reverse order (0011 and 0015 add translated texts to metadata_i18n so).
 */
export function textColumns(table: string, columns: readonly string[]) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const column of columns)
        await db.schema
          .alterTable(table)
          .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
          .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const column of [...columns].reverse()) await db.schema.alterTable(table).dropColumn(column).execute();
    },
  };
}
