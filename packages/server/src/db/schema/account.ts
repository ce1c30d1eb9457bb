/**
 * Table types. One schema serves SQLite and PostgreSQL: ids are random text, booleans are
 * integers 0/1, times are ISO-8601 text (they sort and compare as text on both).
 */
export interface UserTable {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  realname: string;
  phone: string;
  address: string;
  affiliation: string;
  zipcode: string;
  specialty: string;
  is_staff: number;
  is_project: number;
  is_active: number;
  /** The language of the user's mails: that of their last sign-in, unless they chose one (issue 16). */
  language: string;
  /** 1 once the user chose their mail language in Settings: signing in no longer changes it. */
  mail_language_chosen: number;
  date_joined: string;
  last_login: string | null;
}

export interface AuthTokenTable {
  key_hash: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
}

export interface AccountLinkTable {
  key_hash: string;
  user_id: string;
  purpose: 'activate' | 'reset';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface CaptchaTable {
  id: string;
  answer: string;
  expires_at: string;
}

/** The account module's tables (modules/account: account.repo.ts writes them; migrations 0001, 0009). */
export interface AccountTables {
  users: UserTable;
  auth_tokens: AuthTokenTable;
  account_links: AccountLinkTable;
  captchas: CaptchaTable;
}
