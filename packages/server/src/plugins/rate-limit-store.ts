import { sql } from 'kysely';
import type { Db } from '../db/index.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit that keeps its counters in the database, so that several
 * server instances share them (no state lives only in one process). One atomic upsert per hit.
 */
export function createDatabaseRateLimitStore(db: Db) {
  interface StoreOptions {
    /** Milliseconds; the plugin always passes a number here. */
    timeWindow?: number | string;
    routeInfo?: { method?: string; url?: string };
    /** Routes of one group share their counters (the plugin also appends it to the key). */
    groupId?: string;
  }
  return class DatabaseRateLimitStore {
    private readonly prefix: string;
    private readonly timeWindow: number;
    constructor(options: StoreOptions = {}) {
      this.prefix = options.groupId ? 'group|' : options.routeInfo ? `${options.routeInfo.method} ${options.routeInfo.url}|` : '';
      this.timeWindow = Number(options.timeWindow ?? 60_000);
    }

    /** The plugin passes the route's window as a third argument at run time. */
    incr(key: string, callback: Callback, timeWindow?: number): void {
      const now = Date.now();
      const resetAt = now + (timeWindow ?? this.timeWindow);
      db.insertInto('rate_limits')
        .values({ key: this.prefix + key, count: 1, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
            reset_at: sql`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
          }),
        )
        .returning(['count', 'reset_at'])
        .executeTakeFirstOrThrow()
        .then((row) => callback(null, { current: Number(row.count), ttl: Math.max(0, Number(row.reset_at) - now) }))
        .catch((error: Error) => callback(error));
    }

    child(routeOptions: unknown) {
      return new DatabaseRateLimitStore(routeOptions as StoreOptions);
    }
  };
}
