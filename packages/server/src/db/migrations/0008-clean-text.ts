import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Removes from stored text the characters no XML may carry (packages/shared rules/text.ts), which
 * input refuses from now on: C0 controls but tab, line feed and carriage return, and U+FFFE/U+FFFF.
 * (Lone surrogates never reached the database: both drivers write UTF-8, which has none.) Before the
 * rule, a title pasted from a word processor could hold one and make every OAI-PMH page and XML
 * export holding the record ill-formed.
 *
 * Every text column of the portal's own tables is cleaned in SQL, with `replace` (both databases
 * have it), only in the rows that change. Left out: the search index (derived, rebuilt by `reindex`;
 * the FTS tables must not be written behind its back), the migrator's own tables, secrets, tokens,
 * captchas and rate-limit counters (made by the server, never by a person).
 */
const SKIPPED = /^(search_|kysely_|sqlite_|server_secrets$|auth_tokens$|captchas$|rate_limits$)/;
const TEXT_TYPES = /char|text|clob/i;

function illegalCharacters(): string[] {
  const characters: string[] = [];
  // NUL: PostgreSQL has never stored it in text; SQLite's replace cannot see it (removeNul does it).
  for (let code = 1; code < 0x20; code++) {
    if (code !== 0x09 && code !== 0x0a && code !== 0x0d) characters.push(String.fromCharCode(code));
  }
  characters.push('\uFFFE', '\uFFFF');
  return characters;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = !(db.getExecutor().adapter instanceof PostgresAdapter);
  const characters = illegalCharacters();
  const tables = await db.introspection.getTables();
  for (const table of tables) {
    if (table.isView || SKIPPED.test(table.name)) continue;
    for (const column of table.columns) {
      if (!TEXT_TYPES.test(column.dataType)) continue;
      const ref = sql.ref(column.name);
      let cleaned = sql`${ref}`;
      for (const character of characters) cleaned = sql`replace(${cleaned}, ${character}, '')`;
      await sql`update ${sql.table(table.name)} set ${ref} = ${cleaned} where ${ref} <> ${cleaned}`.execute(db);
      // SQLite's text functions stop at a NUL (replace finds none), but instr reads a blob's bytes.
      if (sqlite) await removeNul(db, table.name, column.name);
    }
  }
}

async function removeNul(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  const ref = sql.ref(column);
  const rows = await sql<{ row: number; value: string }>`select rowid as "row", ${ref} as "value" from ${sql.table(table)} where instr(cast(${ref} as blob), x'00') > 0`.execute(
    db,
  );
  for (const { row, value } of rows.rows) {
    await sql`update ${sql.table(table)} set ${ref} = ${value.replaceAll('\u0000', '')} where rowid = ${row}`.execute(db);
  }
}

export async function down(): Promise<void> {
  // What was removed is gone; nothing to restore.
}
