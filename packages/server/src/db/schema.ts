import type { Generated } from 'kysely';

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
  language: string;
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

export interface RateLimitTable {
  key: string;
  count: Generated<number>;
  /** Epoch milliseconds; bigint on PostgreSQL, so read it through Number(). */
  reset_at: number | string;
}

export interface Database {
  users: UserTable;
  auth_tokens: AuthTokenTable;
  account_links: AccountLinkTable;
  captchas: CaptchaTable;
  rate_limits: RateLimitTable;
}
