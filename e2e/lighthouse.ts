import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import lighthouse from 'lighthouse';
import config, { E2E_PORT } from '../playwright.config';
import { expect } from './fixtures';

export type Category = 'accessibility' | 'performance';

/** Lighthouse's errors that mean a broken trace of the load ("Please run Lighthouse again"), not a broken page. */
const TRANSIENT = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP', 'NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST', 'PROTOCOL_TIMEOUT']);

export interface Audit {
  scores: Partial<Record<Category, number>>;
  /** The binary audits that failed, with up to three of the elements each names. */
  failed: string[];
  /** With performance: its metrics as Lighthouse shows them (FCP, LCP, TBT, CLS, Speed Index). */
  metrics: string;
  /** With performance: the cumulative layout shift, as measured (0 when nothing moved). */
  layoutShift?: number;
  /** With performance: what moved, as Lighthouse names it (up to three elements). */
  shifted: string[];
}

const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

/**
 * Lighthouse in Debian's Chromium, which Playwright starts with a debugging port. The persistent
 * context is the browser's default one, so the tabs Lighthouse opens carry what `prepare` left in
 * it (a session from a login through the API).
 */
/** `cold`: the browser's cache and storage are cleared first, as for a visitor arriving from elsewhere (Lighthouse's default). */
type AuditOptions = { cold?: boolean };

export async function withLighthouse<T>(
  baseURL: string,
  run: (context: BrowserContext, audit: (address: string, categories: Category[], options?: AuditOptions) => Promise<Audit>) => Promise<T>,
): Promise<T> {
  // A debugging port of each worker's own (two workers may audit at once).
  const port = E2E_PORT + 1000 + Number(process.env.TEST_WORKER_INDEX ?? 0);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'));
  const launch = config.use!.launchOptions!;
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: launch.executablePath,
      args: [...(launch.args ?? []), `--remote-debugging-port=${port}`],
      baseURL,
    });
    const runOnce = async (address: string, categories: Category[], { cold = false }: AuditOptions) => {
      const result = await lighthouse(`${baseURL}${address}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: categories,
        // Keep the session cookies (pages of the personal centre need the signed-in user), unless cold.
        disableStorageReset: !cold,
        // Its gatherer reads every response body back over the protocol, which times out on a busy
        // machine; it is advice, not part of the score.
        skipAudits: ['uses-text-compression'],
      });
      return result!.lhr;
    };
    const audit = async (address: string, categories: Category[], options: AuditOptions = {}): Promise<Audit> => {
      let lhr = await runOnce(address, categories, options);
      // Lighthouse itself asks for another run when Chromium's trace of the load came out broken
      // (NO_NAVSTART, NO_FCP...): that says nothing of the page. Any other error, and any score, counts.
      for (let attempt = 2; lhr.runtimeError && TRANSIENT.has(lhr.runtimeError.code) && attempt <= 3; attempt++) {
        console.log(`${address}: Lighthouse ${lhr.runtimeError.code}, run ${attempt} of 3`);
        lhr = await runOnce(address, categories, options);
      }
      expect(lhr.runtimeError, `${address}: ${lhr.runtimeError?.message}`).toBeUndefined();
      expect(lhr.finalDisplayedUrl, `${address} was not redirected`).toBe(`${baseURL}${address}`);
      const scores = Object.fromEntries(categories.map((category) => [category, Math.round((lhr.categories[category]!.score ?? 0) * 100)]));
      const failed = Object.values(lhr.audits)
        .filter((audit) => audit.score === 0 && audit.scoreDisplayMode === 'binary')
        .map((audit) => {
          const items = (audit.details as { items?: { node?: { snippet?: string; explanation?: string } }[] } | undefined)?.items ?? [];
          const where = items.slice(0, 3).map((item) => `${item.node?.snippet} ${item.node?.explanation?.split('\n')[0] ?? ''}`);
          return `${audit.id} [${where.join(' | ')}]`;
        });
      const metrics = categories.includes('performance') ? METRICS.map((id) => `${id} ${lhr.audits[id]?.displayValue ?? '?'}`).join(', ') : '';
      const layoutShift = categories.includes('performance') ? lhr.audits['cumulative-layout-shift']?.numericValue : undefined;
      const shiftItems = (lhr.audits['layout-shifts']?.details as { items?: { node?: { snippet?: string }; score?: number }[] } | undefined)?.items ?? [];
      const shifted = shiftItems.slice(0, 3).map((item) => `${item.node?.snippet ?? '?'} (${item.score?.toFixed(3)})`);
      return { scores, failed, metrics, layoutShift, shifted };
    };
    return await run(context, audit);
  } finally {
    await context?.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
