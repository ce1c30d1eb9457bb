import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AccountLinkTable, UserTable } from '../../db/schema.js';

export type UserRow = UserTable;
export type NewUser = Omit<UserTable, 'last_login'>;
/** Which accounts a search looks at, and in which columns. */
export type UserSearchScope = 'all' | 'experts';
export type UserChanges = Partial<Omit<UserTable, 'id' | 'date_joined'>>;

/** The only SQL of the account feature. */
export class AccountRepo {
  constructor(private readonly db: Db) {}

  /** Each user's name as records and trails show it: the real name, or the username without one. */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'realname', 'username'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((row) => [row.id, row.realname || row.username]));
  }

  /** By username only, any case (an operator names an account on the command line). */
  findUserByUsername(username: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'is_staff', 'is_active'])
      .where(sql<string>`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
  }

  findUserById(id: string) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** By username (any case) or by e-mail address. */
  findUserByLogin(login: string) {
    const lowered = login.toLowerCase();
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb(sql<string>`lower(username)`, '=', lowered), eb('email', '=', lowered)]))
      .executeTakeFirst();
  }

  findUserByEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  /**
   * Whether another account already holds this username (any case) or e-mail. A username may hold
   * `@`, and login takes either: a username equal to another account's e-mail (or the reverse)
   * would make that login ambiguous, so it counts as taken too.
   */
  async isTaken(username: string | undefined, email: string | undefined, exceptUserId?: string): Promise<boolean> {
    if (!username && !email) return false;
    let query = this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => {
        const either = [];
        for (const login of [username, email]) {
          if (!login) continue;
          either.push(eb(sql<string>`lower(username)`, '=', login.toLowerCase()), eb('email', '=', login.toLowerCase()));
        }
        return eb.or(either);
      });
    if (exceptUserId) query = query.where('id', '!=', exceptUserId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insertUser(user: NewUser): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ ...user, last_login: null })
      .execute();
  }

  async deleteUser(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  async updateUser(id: string, changes: UserChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  /**
   * A sign-in: its time, and its page's language as the user's mail language unless they chose one
   * (checked in the statement, so that a choice saved meanwhile is never overwritten).
   */
  async recordSignIn(id: string, now: string, language: string | undefined): Promise<void> {
    await this.db.updateTable('users').set({ last_login: now }).where('id', '=', id).execute();
    if (!language) return;
    await this.db.updateTable('users').set({ language }).where('id', '=', id).where('mail_language_chosen', '=', 0).where('language', '!=', language).execute();
  }

  async countUsers(search: string | undefined, scope: UserSearchScope = 'all'): Promise<number> {
    const row = await this.searchUsers(search, scope)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  listUsers(search: string | undefined, offset: number, limit: number, scope: UserSearchScope = 'all') {
    return this.searchUsers(search, scope).selectAll().orderBy('date_joined', 'desc').orderBy('id').offset(offset).limit(limit).execute();
  }

  /**
   * `all`: every account, by username, real name, e-mail or affiliation (the admin's user list).
   * `experts`: active accounts staff may invite, by username, real name, affiliation or specialty;
   * never by e-mail, which the invitation search does not show (a match on it would reveal it).
   */
  private searchUsers(search: string | undefined, scope: UserSearchScope) {
    let query = this.db.selectFrom('users');
    if (scope === 'experts') query = query.where('is_active', '=', 1);
    if (search) {
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const columns = scope === 'experts' ? (['username', 'realname', 'affiliation', 'specialty'] as const) : (['username', 'realname', 'email', 'affiliation'] as const);
      query = query.where((eb) => eb.or(columns.map((column) => eb(sql<string>`lower(${sql.ref(column)})`, 'like', sql<string>`${pattern} escape '\\'`))));
    }
    return query;
  }

  // Tokens: only their SHA-256 is stored.
  async insertToken(keyHash: string, userId: string, now: string): Promise<void> {
    await this.db.insertInto('auth_tokens').values({ key_hash: keyHash, user_id: userId, created_at: now, last_used_at: now }).execute();
  }

  findActiveUserByToken(keyHash: string) {
    return this.db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .selectAll('users')
      .select('auth_tokens.last_used_at as token_last_used_at')
      .where('auth_tokens.key_hash', '=', keyHash)
      .where('users.is_active', '=', 1)
      .executeTakeFirst();
  }

  async touchToken(keyHash: string, now: string): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ last_used_at: now }).where('key_hash', '=', keyHash).execute();
  }

  async deleteToken(keyHash: string): Promise<void> {
    await this.db.deleteFrom('auth_tokens').where('key_hash', '=', keyHash).execute();
  }

  async deleteTokensUnusedSince(time: string): Promise<number> {
    const result = await this.db.deleteFrom('auth_tokens').where('last_used_at', '<', time).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteTokensOfUser(userId: string): Promise<void> {
    await this.db.deleteFrom('auth_tokens').where('user_id', '=', userId).execute();
  }

  // Single-use links (activation, password reset): only their SHA-256 is stored.
  async insertLink(link: Omit<AccountLinkTable, 'used_at'>): Promise<void> {
    await this.db
      .insertInto('account_links')
      .values({ ...link, used_at: null })
      .execute();
  }

  /** Marks a live link used and returns its user id, in one statement so that it works once only. */
  async consumeLink(keyHash: string, purpose: AccountLinkTable['purpose'], now: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('account_links')
      .set({ used_at: now })
      .where('key_hash', '=', keyHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async findLiveLink(keyHash: string, purpose: AccountLinkTable['purpose'], now: string) {
    return this.db
      .selectFrom('account_links')
      .select('user_id')
      .where('key_hash', '=', keyHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** A new link replaces the older ones of the same purpose. */
  async expireLinksOfUser(userId: string, purpose: AccountLinkTable['purpose'], now: string): Promise<void> {
    await this.db.updateTable('account_links').set({ used_at: now }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
  }

  // Captchas: kept in the database so that any instance can check them.
  async insertCaptcha(id: string, answer: string, expiresAt: string, now: string): Promise<void> {
    await this.db.deleteFrom('captchas').where('expires_at', '<=', now).execute();
    await this.db.insertInto('captchas').values({ id, answer, expires_at: expiresAt }).execute();
  }

  /** Returns the answer of a live captcha and deletes it: every captcha is tried once. */
  async takeCaptcha(id: string, now: string): Promise<string | undefined> {
    const row = await this.db.deleteFrom('captchas').where('id', '=', id).where('expires_at', '>', now).returning('answer').executeTakeFirst();
    return row?.answer;
  }

  transaction<T>(work: (repo: AccountRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new AccountRepo(trx)));
  }
}
