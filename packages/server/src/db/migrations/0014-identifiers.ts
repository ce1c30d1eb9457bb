import type { Kysely } from 'kysely';

/**
 * Issue 17. Identifiers of people, organisations and funders, each in the one form
 * `shared/rules/identifiers.ts` stores ('' when not given):
 * - `authors.orcid`: the author's ORCID iD (`0000-0002-1825-0097`);
 * - `authors.affiliation_ror`: the ROR ID of the author's affiliation (`03yrm5c26`), which is the
 *   author's `affiliation` text and its translations;
 * - `affiliations.ror`: the ROR ID of an entry of the shared affiliation list;
 * - `funds.funder_identifier`: the funder's Crossref Funder ID (`10.13039/501100001809`) or ROR ID.
 */
const COLUMNS = [
  ['authors', 'orcid'],
  ['authors', 'affiliation_ror'],
  ['affiliations', 'ror'],
  ['funds', 'funder_identifier'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of COLUMNS) {
    await db.schema
      .alterTable(table)
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of [...COLUMNS].reverse()) await db.schema.alterTable(table).dropColumn(column).execute();
}
