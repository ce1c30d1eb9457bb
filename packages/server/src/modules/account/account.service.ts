import { createHash, randomBytes } from 'node:crypto';
import { CAPTCHA_LIFETIME_MINUTES, CHANGE_RESULT, LINK_LIFETIME_HOURS, languagePrefix, translate, type Language, type SiteVariant, type User } from '@portal/shared';
import type { z } from 'zod';
import type { changeSchema, registerSchema } from '@portal/shared/contracts/account';
import { isUniqueViolation, newId, type Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { PasswordHashing } from '../../config.js';
import type { Mailer } from '../../mail/mailer.js';
import { AccountRepo, type UserChanges, type UserRow } from './account.repo.js';
import { drawCaptcha } from './captcha.js';
import { PasswordHasher } from './password-hasher.js';

export type AuthenticatedUser = User;
type RegisterData = z.output<typeof registerSchema>;
type ChangeData = z.output<typeof changeSchema>;

/**
 * A token expires `tokenTtlDays` after its last use (sliding). Its last-used time, from which the
 * expiry is reckoned, is written at most this often, so that the auth hook of a busy client
 * writes about once an hour, not on every request.
 */
const TOKEN_TOUCH_MS = 3_600_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newKey = () => randomBytes(20).toString('hex');
const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

function toPublicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    realname: row.realname,
    name: row.realname,
    phone: row.phone,
    address: row.address,
    affiliation: row.affiliation,
    zipcode: row.zipcode,
    specialty: row.specialty,
    is_staff: row.is_staff === 1,
    is_project: row.is_project,
    date_joined: row.date_joined,
    last_login: row.last_login,
    profile: { real_name: row.realname },
    mail_language: mailLanguageOf(row),
  };
}

/** The language of a user's mails (`users.language`: the last sign-in's, or the one chosen in Settings). */
export function mailLanguageOf(row: Pick<UserRow, 'language'>): Language {
  return row.language === 'en' ? 'en' : 'zh-hans';
}

export interface AccountServiceOptions {
  publicUrl: string;
  siteVariant: SiteVariant;
  /** Days a token lives after its last use. */
  tokenTtlDays: number;
  /** The parameters new password hashes are made with (verifying reads each hash's own). */
  passwordHashing: PasswordHashing;
}

/** Account rules (spec sections 4, 5, 6, 8). Knows nothing of HTTP. */
export class AccountService {
  /** How passwords are hashed and checked: the accounts', and any other secret stored as a password is (FTP accounts). */
  readonly passwords: PasswordHasher;

  private readonly repo: AccountRepo;

  constructor(
    db: Db,
    private readonly mailer: Mailer,
    private readonly options: AccountServiceOptions,
  ) {
    this.repo = new AccountRepo(db);
    this.passwords = new PasswordHasher(options.passwordHashing);
  }

  /** The portal's address as its users reach it (PUBLIC_URL): its own pages post from there. */
  get publicUrl(): string {
    return this.options.publicUrl;
  }

  get tokenTtlMs(): number {
    return this.options.tokenTtlDays * 24 * 3_600_000;
  }

  /** The user of a live token; an expired token is deleted and answers null, as an unknown one. */
  async authenticate(key: string): Promise<User | null> {
    const keyHash = sha256(key);
    const row = await this.repo.findActiveUserByToken(keyHash);
    if (!row) return null;
    const idleMs = Date.now() - Date.parse(row.token_last_used_at);
    if (idleMs > this.tokenTtlMs) {
      await this.repo.deleteToken(keyHash);
      return null;
    }
    if (idleMs > TOKEN_TOUCH_MS) await this.repo.touchToken(keyHash, new Date().toISOString());
    return toPublicUser(row);
  }

  /** An active account by its id, as a signed-in caller is seen (an FTP login acts for it); null for an unknown or inactive one. */
  async activeUser(id: string): Promise<User | null> {
    const row = await this.repo.findUserById(id);
    return row && row.is_active === 1 ? toPublicUser(row) : null;
  }

  /** Deletes the tokens whose expiry has passed (the periodic clean-up); returns how many. */
  async deleteExpiredTokens(now = Date.now()): Promise<number> {
    return this.repo.deleteTokensUnusedSince(new Date(now - this.tokenTtlMs).toISOString());
  }

  async createCaptcha(): Promise<{ id: string; image: Buffer }> {
    const { text, image } = await drawCaptcha();
    const id = newKey();
    const now = new Date().toISOString();
    await this.repo.insertCaptcha(id, text.toLowerCase(), isoIn(CAPTCHA_LIFETIME_MINUTES * 60_000), now);
    return { id, image };
  }

  private async checkCaptcha(captchaId: string | undefined, answer: string): Promise<void> {
    const expected = captchaId ? await this.repo.takeCaptcha(captchaId, new Date().toISOString()) : undefined;
    if (!expected || expected !== answer.trim().toLowerCase()) {
      throw new AppError('VALIDATION_FAILED', 'account.captchaError', { fields: { captcha: 'account.captchaError' } });
    }
  }

  async register(data: RegisterData, captchaId: string | undefined, language: Language): Promise<User> {
    await this.checkCaptcha(captchaId, data.captcha);
    if (await this.repo.isTaken(data.username, data.email)) throw duplicateError();
    const row: UserRow = {
      id: newId(),
      username: data.username,
      email: data.email,
      password_hash: await this.passwords.hash(data.password),
      realname: data.realname,
      phone: data.phone,
      address: data.address,
      affiliation: data.affiliation,
      zipcode: data.zipcode,
      specialty: data.specialty,
      is_staff: 0,
      is_project: 0,
      is_active: 0,
      language,
      mail_language_chosen: 0,
      date_joined: new Date().toISOString(),
      last_login: null,
    };
    let key: string;
    try {
      key = await this.repo.transaction(async (repo) => {
        await repo.insertUser(row);
        return this.createLink(repo, row.id, 'activate');
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateError();
      throw error;
    }
    // The mail goes out after the commit (no lock held while a mail server answers); an account
    // whose mail could not be sent is removed again, so that the person can simply retry.
    try {
      await this.mailActivation(row, key);
    } catch (error) {
      await this.repo.deleteUser(row.id);
      throw error;
    }
    return toPublicUser(row);
  }

  /** A new single-use link; it replaces the user's older links of the same purpose. */
  private async createLink(repo: AccountRepo, userId: string, purpose: 'activate' | 'reset'): Promise<string> {
    const now = new Date().toISOString();
    const key = newKey();
    await repo.expireLinksOfUser(userId, purpose, now);
    await repo.insertLink({
      key_hash: sha256(key),
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: isoIn(LINK_LIFETIME_HOURS[purpose] * 3_600_000),
    });
    return key;
  }

  private mailActivation(user: UserRow, key: string) {
    const link = `${this.options.publicUrl}/account/activate/${key}/`;
    return this.mail(user, 'activate', { link, hours: LINK_LIFETIME_HOURS.activate });
  }

  /** Account mails are written in the user's mail language, whatever the language of the page that asked. */
  private async mail(user: UserRow, kind: 'activate' | 'reset', params: Record<string, string | number>) {
    const language = mailLanguageOf(user);
    const site = translate(language, `site.${this.options.siteVariant}.title`);
    const all = { ...params, site, name: user.realname || user.username, username: user.username };
    await this.mailer.send({
      to: user.email,
      subject: translate(language, `mail.${kind}Subject`, all),
      text: translate(language, `mail.${kind}Body`, all),
    });
  }

  /** Activates the account of a live link; answers the language to continue in, or undefined. */
  async activate(key: string): Promise<{ language: Language } | undefined> {
    const user = await this.repo.transaction(async (repo) => {
      const userId = await repo.consumeLink(sha256(key), 'activate', new Date().toISOString());
      if (!userId) return undefined;
      await repo.updateUser(userId, { is_active: 1 });
      return repo.findUserById(userId);
    });
    if (!user) return undefined;
    return { language: mailLanguageOf(user) };
  }

  /**
   * Signs in and answers the user with a new token. `language` is the language of the page signed in
   * on: it becomes the user's mail language unless they chose one in Settings.
   */
  async login(login: string, password: string, language?: Language): Promise<User & { token: string }> {
    const user = await this.repo.findUserByLogin(login.trim());
    // Same work and the same reply for an unknown user and a wrong password.
    const valid = await this.passwords.check(user?.password_hash, password);
    if (!user || !valid) throw new AppError('VALIDATION_FAILED', 'account.badCredentials');
    if (user.is_active !== 1) throw new AppError('FORBIDDEN', 'account.notActive');
    const token = newKey();
    const now = new Date().toISOString();
    const signedIn = await this.repo.transaction(async (repo) => {
      await repo.insertToken(sha256(token), user.id, now);
      await repo.recordSignIn(user.id, now, language);
      return repo.findUserById(user.id);
    });
    return { ...toPublicUser(signedIn ?? { ...user, last_login: now }), token };
  }

  async logout(tokenKey: string): Promise<void> {
    await this.repo.deleteToken(sha256(tokenKey));
  }

  async forgot(email: string): Promise<void> {
    const user = await this.repo.findUserByEmail(email);
    if (!user) throw new AppError('NOT_FOUND', 'account.emailNotRegistered', { fields: { email: 'account.emailNotRegistered' } });
    const key = await this.repo.transaction((repo) => this.createLink(repo, user.id, 'reset'));
    const link = `${this.options.publicUrl}${languagePrefix(mailLanguageOf(user))}/personal/#/reset?key=${key}`;
    await this.mail(user, 'reset', { link, hours: LINK_LIFETIME_HOURS.reset });
  }

  /** Sends the verification e-mail again to an account that is not active yet. */
  async resendActivation(login: string): Promise<void> {
    const user = await this.repo.findUserByLogin(login.trim());
    if (!user) throw new AppError('NOT_FOUND', 'account.userNotExists', { fields: { username: 'account.userNotExists' } });
    if (user.is_active === 1) throw new AppError('CONFLICT', 'account.alreadyActive');
    const key = await this.repo.transaction((repo) => this.createLink(repo, user.id, 'activate'));
    await this.mailActivation(user, key);
  }

  async reset(key: string, password: string): Promise<void> {
    const passwordHash = await this.passwords.hash(password);
    await this.repo.transaction(async (repo) => {
      const userId = await repo.consumeLink(sha256(key), 'reset', new Date().toISOString());
      if (!userId) throw new AppError('VALIDATION_FAILED', 'account.linkTimeout');
      // Reading the mail proves the address: a reset also activates a pending account.
      await repo.updateUser(userId, { password_hash: passwordHash, is_active: 1 });
      await repo.deleteTokensOfUser(userId);
    });
  }

  /**
   * /account/change/ (spec section 4): 1 changed, 0 username or e-mail taken, -1 wrong current
   * password, 2 password changed (every token is revoked: log in again).
   */
  async change(current: User, data: ChangeData): Promise<number> {
    const row = await this.repo.findUserById(current.id);
    if (!row) throw new AppError('UNAUTHENTICATED', 'account.loginRequired');
    const changes: UserChanges = {};
    // A field left out of the form stays as it is.
    for (const field of ['username', 'realname', 'email', 'affiliation', 'address', 'phone', 'zipcode', 'specialty'] as const) {
      const value = data[field];
      if (value !== undefined && value !== row[field]) changes[field] = value;
    }
    // Chosen in Settings: from now on a sign-in no longer changes it.
    if (data.mail_language !== undefined) Object.assign(changes, { language: data.mail_language, mail_language_chosen: 1 });
    // A current password that is sent is always checked, even when the e-mail turns out unchanged.
    const sensitive = changes.email !== undefined || data.password !== undefined || !!data.old_password;
    if (sensitive) {
      if (!data.old_password) {
        throw new AppError('VALIDATION_FAILED', 'account.oldPasswordRequired', {
          fields: { old_password: 'account.oldPasswordRequired' },
          extra: { status: CHANGE_RESULT.wrongPassword },
        });
      }
      if (!(await this.passwords.verify(row.password_hash, data.old_password))) {
        throw new AppError('VALIDATION_FAILED', 'account.originPasswordError', {
          fields: { old_password: 'account.originPasswordError' },
          extra: { status: CHANGE_RESULT.wrongPassword },
        });
      }
    }
    if (await this.repo.isTaken(changes.username, changes.email, row.id)) throw duplicateError(CHANGE_RESULT.duplicate);
    if (data.password !== undefined) changes.password_hash = await this.passwords.hash(data.password);
    try {
      await this.repo.transaction(async (repo) => {
        await repo.updateUser(row.id, changes);
        if (data.password !== undefined) await repo.deleteTokensOfUser(row.id);
        // A reset link mailed earlier (perhaps to the old address) must not outlive the change.
        if (data.password !== undefined || changes.email !== undefined) {
          await repo.expireLinksOfUser(row.id, 'reset', new Date().toISOString());
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateError(CHANGE_RESULT.duplicate);
      throw error;
    }
    return data.password !== undefined ? CHANGE_RESULT.passwordChanged : CHANGE_RESULT.success;
  }

  /**
   * /account/ptpe-account/: whether a username or e-mail belongs to an active account of a
   * programme member (is_project 1 or 2), as project leaders check before adding a colleague.
   */
  async isProgrammeAccount(login: string): Promise<boolean> {
    const user = await this.repo.findUserByLogin(login.trim());
    return !!user && user.is_active === 1 && user.is_project > 0;
  }

  async listUsers(search: string | undefined, page: number, pageSize: number) {
    const [count, rows] = await Promise.all([this.repo.countUsers(search), this.repo.listUsers(search, (page - 1) * pageSize, pageSize)]);
    return { count, results: rows.map(toPublicUser) };
  }

  /** Active accounts staff may invite to review, by name, affiliation or specialty; no e-mail. */
  async listExpertCandidates(search: string | undefined, page: number, pageSize: number) {
    const [count, rows] = await Promise.all([this.repo.countUsers(search, 'experts'), this.repo.listUsers(search, (page - 1) * pageSize, pageSize, 'experts')]);
    return {
      count,
      results: rows.map((row) => ({ id: row.id, username: row.username, realname: row.realname, affiliation: row.affiliation, specialty: row.specialty })),
    };
  }

  /** Operators' account creation (CLI): active at once, no e-mail. */
  async createActiveUser(input: { username: string; email: string; password: string; realname?: string; isStaff?: boolean; isProject?: number }): Promise<User> {
    if (await this.repo.isTaken(input.username, input.email)) throw duplicateError();
    const row: UserRow = {
      id: newId(),
      username: input.username,
      email: input.email.toLowerCase(),
      password_hash: await this.passwords.hash(input.password),
      realname: input.realname ?? '',
      phone: '',
      address: '',
      affiliation: '',
      zipcode: '',
      specialty: '',
      is_staff: input.isStaff ? 1 : 0,
      is_project: input.isProject ?? 0,
      is_active: 1,
      language: 'zh-hans',
      mail_language_chosen: 0,
      date_joined: new Date().toISOString(),
      last_login: null,
    };
    await this.repo.insertUser(row);
    return toPublicUser(row);
  }
}

function duplicateError(status?: number) {
  return new AppError('CONFLICT', 'account.duplicate', status === undefined ? {} : { extra: { status } });
}
