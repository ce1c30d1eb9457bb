import path from 'node:path';
import { defineConfig } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8123);
/** E2E_DATA_DIR and E2E_PORT let two runs share a checkout (each its own server, database and results). */
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, process.env.E2E_DATA_DIR ?? 'var/e2e');

/**
 * Specs that count what the whole catalogue holds. (The search spec searches words of its own run, so
 * it runs beside the others: what they publish meanwhile cannot change what it asserts.)
 */
const WHOLE_CATALOGUE = ['home.spec.ts'];

/**
 * End-to-end tests in Debian's Chromium (no browser download): the real server on a fresh
 * SQLite database under var/e2e, with the mail outbox the tests read verification links from.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: process.env.E2E_OUTPUT ?? 'test-results',
  // A test's whole budget: journeys of several pages took over a minute on a busy two-core machine.
  timeout: 120_000,
  // Waiting, not a speed check: a page on a busy CI machine (half as fast as a developer's) may take
  // longer than ten seconds to show what a quiet one shows at once.
  expect: { timeout: process.env.CI ? 20_000 : 10_000 },
  // Two browsers at once next to the one server (two cores: the server mostly waits on them). Spec
  // files run whole in one worker each; the specs that read what the whole catalogue holds (the home
  // page's counts and lists) run afterwards, one at a time, so that no other spec publishes while
  // they count.
  workers: 2,
  fullyParallel: false,
  projects: [
    { name: 'parallel', testIgnore: WHOLE_CATALOGUE },
    { name: 'whole-catalogue', testMatch: WHOLE_CATALOGUE, dependencies: ['parallel'], workers: 1 },
  ],
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    // No trace by default: recording one (a snapshot at every action) cost a third of the suite's time
    // (statistics.spec 57 s against 41 s, CPU 38 s against 23 s), and CI keeps no files to read it from.
    // To see why a test fails: `npx playwright test e2e/<spec> --trace retain-on-failure`.
    trace: 'off',
    // Visitors who ask for less motion get no animations (global.css): the tests do not wait for dialogs
    // and menus to grow, and a click cannot land on a list still moving. motion.spec checks both settings.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    // The web app is built first when its sources are newer than the build (`npx playwright test` alone
    // would otherwise test a stale one; after `npm run test:e2e` this finds it up to date at once).
    command: 'node scripts/ensure-web-build.mjs && npx tsx e2e/server.ts',
    url: `http://localhost:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    // A build on two cores takes one to two minutes.
    timeout: 300_000,
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      PUBLIC_URL: `http://localhost:${E2E_PORT}`,
      LOG_LEVEL: 'warn',
      // The portal's FTP server beside it, on a port of this run's own (two runs, or a portal on 2121, may share the machine).
      FTP_PORT: String(E2E_PORT + 1),
      // Every test logs in afresh from one address: the production limits would refuse the later ones.
      RATE_LIMIT_LOGIN: '1000',
      RATE_LIMIT_REGISTER: '1000',
      RATE_LIMIT_MAIL: '1000',
    },
  },
});
