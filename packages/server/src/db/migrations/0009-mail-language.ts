import type { Kysely } from 'kysely';

/**
 * Issue 16. `users.language` is the language of the mails a user gets: the language of their last
 * sign-in (the page they signed in on), until they choose one in Settings. `mail_language_chosen` is 1
 * once they have chosen: a sign-in no longer changes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('mail_language_chosen', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('mail_language_chosen').execute();
}
