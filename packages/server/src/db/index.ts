import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, type Transaction, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../file-modes.js';
import * as accounts from './migrations/0001-accounts.js';
import * as metadata from './migrations/0002-metadata.js';
import * as review from './migrations/0003-review.js';
import * as search from './migrations/0004-search.js';
import * as oai from './migrations/0005-oai.js';
import * as orders from './migrations/0006-orders.js';
import * as orderOutbox from './migrations/0007-order-outbox.js';
import * as cleanText from './migrations/0008-clean-text.js';
import * as mailLanguage from './migrations/0009-mail-language.js';
import * as reviewSnapshots from './migrations/0010-review-snapshots.js';
import * as i18nDistributor from './migrations/0011-i18n-distributor.js';
import * as doiRegistrations from './migrations/0012-doi-registrations.js';
import * as recordVersions from './migrations/0013-record-versions.js';
import * as identifiers from './migrations/0014-identifiers.js';
import * as i18nDistributorPlace from './migrations/0015-i18n-distributor-place.js';
import * as fileTree from './migrations/0016-file-tree.js';
import * as uploads from './migrations/0017-uploads.js';
import * as ftpAccounts from './migrations/0018-ftp-accounts.js';
import * as archives from './migrations/0019-archives.js';
import * as folderTotals from './migrations/0020-folder-totals.js';
import * as dataTables from './migrations/0021-data-tables.js';
import * as analysis from './migrations/0022-analysis.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
/** A handle that is a transaction: code that needs its writes to commit or roll back together takes this. */
export type Tx = Transaction<Database>;
/** A table's row as code that picks tables and columns from declarations sees it (the generic resources, bulk inserts). */
export type AnyRow = Record<string, unknown>;
/** The portal's tables with their columns unnamed, for that code: the tables are still the database's own. */
export type ColumnsUnnamed = Kysely<{ [T in keyof Database]: AnyRow }>;

/** The same connection (or transaction) seen with its columns unnamed. */
export function columnsUnnamed(db: Db): ColumnsUnnamed {
  return db as unknown as ColumnsUnnamed;
}

/** Parameters per multi-row insert (SQLite allows 32766, PostgreSQL 65535). */
const INSERT_PARAMETERS = 20_000;

/** Multi-row inserts, as many rows a statement as the parameter limits allow; every row with the same columns. */
export async function insertInChunks(trx: Tx, table: keyof Database, rows: AnyRow[]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]!).sort().join();
  // A column missing from a row would be written as null, not as its default.
  if (rows.some((row) => Object.keys(row).sort().join() !== columns)) throw new Error(`rows of ${table} with different columns`);
  const perRow = Math.max(1, Object.keys(rows[0]!).length);
  const size = Math.max(1, Math.floor(INSERT_PARAMETERS / perRow));
  for (let at = 0; at < rows.length; at += size) {
    await columnsUnnamed(trx)
      .insertInto(table)
      .values(rows.slice(at, at + size))
      .execute();
  }
}
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
}

/** Migrations are listed in code so they run the same from TypeScript sources and from a bundle. */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-metadata': metadata,
  '0003-review': review,
  '0004-search': search,
  '0005-oai': oai,
  '0006-orders': orders,
  '0007-order-outbox': orderOutbox,
  '0008-clean-text': cleanText,
  '0009-mail-language': mailLanguage,
  '0010-review-snapshots': reviewSnapshots,
  '0011-i18n-distributor': i18nDistributor,
  '0012-doi-registrations': doiRegistrations,
  '0013-record-versions': recordVersions,
  '0014-identifiers': identifiers,
  '0015-i18n-distributor-place': i18nDistributorPlace,
  '0016-file-tree': fileTree,
  '0017-uploads': uploads,
  '0018-ftp-accounts': ftpAccounts,
  '0019-archives': archives,
  '0020-folder-totals': folderTotals,
  '0021-data-tables': dataTables,
  '0022-analysis': analysis,
};

class ListedMigrations implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string; onPoolError?: (error: Error) => void }): DbHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL drops (a restart, a network cut) is reported here; without a
    // listener the event would end the process. The pool discards that connection and opens new ones.
    pool.on('error', (error) => (options.onPoolError ?? ((e: Error) => console.error('PostgreSQL pool:', e.message)))(error));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: PRIVATE_FOLDER });
  const file = path.join(options.dataDir, 'portal.sqlite3');
  // Created (or narrowed) to 0600 before SQLite opens it: SQLite gives its -wal and -shm files the
  // database file's permissions.
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
  fs.chmodSync(file, PRIVATE_FILE);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's lower() folds ASCII only; PostgreSQL's folds all of Unicode. The same for both, so that
  // searching 'émile' finds 'Émile' everywhere. (Usernames are ASCII, so their index is unaffected.)
  sqlite.function('lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), dialect: 'sqlite' };
}

/**
 * Kysely prepares every query anew, and preparing was the largest single cost of a request
 * (bench/account-validate.ts). Kysely's queries are parameterised, so their texts repeat: keep the
 * prepared statements of the most recent texts. One connection, queries one at a time: a statement
 * is never run twice at once.
 */
function withStatementCache(database: SQLite.Database, capacity = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (statement) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(sqlText);
      } else {
        statement = database.prepare(sqlText);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sqlText, statement);
      return statement;
    },
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new ListedMigrations() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The id of a new row of any table. */
export const newId = (): string => randomUUID();

/** Unique-constraint violations of either database, to answer 'already exists' instead of 500. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Locks the user's row until the transaction ends (PostgreSQL: a row lock; SQLite: the write lock),
 * so that two requests of one account checking a per-account limit take turns and each counts what
 * the other wrote. The update changes nothing. (The account module owns `users`; every module's
 * per-account limit takes this one lock.)
 */
export async function lockUserRow(trx: Tx, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ last_login: eb.ref('last_login') }))
    .where('id', '=', userId)
    .execute();
}

/** The active staff accounts, whom the data centre's notices go to. */
export function staffUsers(db: Db) {
  return db.selectFrom('users').select(['id', 'email', 'realname', 'username', 'language']).where('is_staff', '=', 1).where('is_active', '=', 1).execute();
}
