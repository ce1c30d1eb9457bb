import type { Generated } from 'kysely';

export interface RateLimitTable {
  key: string;
  count: Generated<number>;
  /** Epoch milliseconds; bigint on PostgreSQL, so read it through Number(). */
  reset_at: number | string;
}

export interface ServerSecretTable {
  name: string;
  value: string;
}

/** The server's own tables, no module's: rate-limit counters (plugins/rate-limit-store.ts) and the stored secret (db/server-secret.ts). */
export interface ServerTables {
  rate_limits: RateLimitTable;
  server_secrets: ServerSecretTable;
}
