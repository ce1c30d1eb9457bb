import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (pure functions beside the code) and `api` (the built app on a real
 * database: SQLite by default, PostgreSQL when DATABASE_URL is a postgres:// URL).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
          // A few build a sitemap of 50,000 records or stream a zip: seconds on a loaded machine, not five.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['packages/server/test/**/*.api.test.ts'],
          // One migrated database for the suite, which each test portal copies.
          globalSetup: ['packages/server/test/global-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores: argon2 hashing is CPU-bound, more workers only queue.
          maxWorkers: 2,
          // A worker's test files share its modules: the server's code is imported once a worker, not once
          // a file (that import was about 40 % of the suite's time). Each file still builds its own portal on
          // its own database and data directory, so no state of one reaches another.
          isolate: false,
        },
      },
    ],
  },
});
