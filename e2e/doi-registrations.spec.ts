import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { E2E_DATA_DIR } from '../playwright.config';
import { DataciteStandin } from '../packages/server/test/datacite-standin';
import { AFTER_LOAD, createUser, expect, logIn, openOnDesk, prefixOf, test as base, textsOf, uniqueName } from './fixtures';
import { apiSession, completeRecord, expectJson } from './records';

/**
 * Staff's DOI registrations page (issue 17) against a local DataCite stand-in
 * (packages/server/test/datacite-standin.ts). The e2e server of the other specs has no DataCite
 * account, and giving it one would mint DOIs in their records; so this spec starts a portal of its
 * own (e2e/server.ts on a fresh data directory beside E2E_DATA_DIR, a free port) with DATACITE_*
 * pointing at a stand-in in this process, which the spec makes refuse and accept.
 */

const ACCOUNT = { user: 'TPDC.PORTAL', password: 'e2e stand-in secret', prefix: '10.55555', repository: 'TPDC.PORTAL' };
const ROOT = path.resolve(import.meta.dirname, '..');

interface DoiPortal {
  url: string;
  dataDir: string;
  standin: DataciteStandin;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the DOI portal exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the DOI portal did not start within two minutes');
}

const test = base.extend<{ portal: DoiPortal }, { doiPortal: DoiPortal }>({
  doiPortal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function names from its first parameter's pattern.
    async ({}, use, workerInfo) => {
      const standin = await new DataciteStandin(ACCOUNT).start();
      const port = await freePort();
      const url = `http://localhost:${port}`;
      // e2e/server.ts clears its DATA_DIR and will only clear one whose name ends in "e2e".
      const dataDir = `${E2E_DATA_DIR}-doi-${workerInfo.workerIndex}-e2e`;
      const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/server.ts'], {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dataDir,
          PUBLIC_URL: url,
          LOG_LEVEL: 'error',
          RATE_LIMIT_LOGIN: '1000',
          RATE_LIMIT_REGISTER: '1000',
          RATE_LIMIT_MAIL: '1000',
          DATACITE_API: `${standin.url}/api`,
          DATACITE_PREFIX: ACCOUNT.prefix,
          DATACITE_USER: ACCOUNT.user,
          DATACITE_PASSWORD: ACCOUNT.password,
          DATACITE_TIMEOUT_MS: '15000',
        },
      });
      try {
        await waitForHealth(url, child);
        // A portal started while the web app was being rebuilt serves the API only: say so, not a missing login screen.
        const personal = await fetch(`${url}/zh-hans/personal/`);
        if (!personal.ok || !personal.headers.get('content-type')?.includes('text/html'))
          throw new Error('the DOI portal serves no web app (was packages/web/dist being rebuilt?)');
        await use({ url, dataDir, standin });
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        await standin.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  portal: async ({ doiPortal }, use) => {
    doiPortal.standin.domains = '*';
    await use(doiPortal);
  },
  baseURL: async ({ doiPortal }, use) => use(doiPortal.url),
});

/** A complete record of the category "DOI assigned by the data centre", published by staff; its DOI minted at once. */
async function publishWithDoi(owner: APIRequestContext, staff: APIRequestContext, title: string, language: Language): Promise<{ id: string; doi: string }> {
  const { id } = await completeRecord(owner, title, language);
  await expectJson(await owner.patch(`/api/metadata/metadata/${id}/`, { data: { doi_category: 'public', sharing_policy: 'online', license: 'CC BY 4.0' } }));
  expect((await expectJson(await owner.post('/metadata/metadata-submit/', { data: { id } }))).status).toBe('true');
  await expectJson(
    await staff.patch(`/api/metadata/review-status/${id}/set_review_status/`, {
      data: { review_status: 'publish_without_review', content: 'Published for the DOI registrations spec.', from_status: 'submitted' },
    }),
  );
  const { doi } = await expectJson<{ doi: string }>(await staff.get(`/api/metadata/metadata/${id}/doi-registration/`));
  expect(doi).toMatch(/^10\.55555\/tpdc\.\d+$/);
  return { id, doi };
}

/** Waits until the portal's first send has come back from DataCite with `status`. */
async function lastStatusBecomes(staff: APIRequestContext, id: string, status: number) {
  await expect
    .poll(
      async () => (await expectJson<{ registrations: { last_status: number }[] }>(await staff.get(`/api/metadata/metadata/${id}/doi-registration/`))).registrations[0]?.last_status,
      {
        message: `DataCite's answer ${status}`,
      },
    )
    .toBe(status);
}

/** The page is no wider than the window: nothing scrolls sideways (a wide table scrolls in its own box). */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth, window: window.innerWidth }));
  expect(widths.page, JSON.stringify(widths)).toBeLessThanOrEqual(widths.window);
  expect(widths.body, JSON.stringify(widths)).toBeLessThanOrEqual(widths.window);
}

const shots = (name: string) => path.join(process.env.E2E_OUTPUT ?? 'test-results', 'doi-registrations', `${name}.png`);

for (const language of ['zh-hans', 'en'] as Language[]) {
  const texts = textsOf(language);
  const ui = texts.doi.ui;
  const prefix = prefixOf(language);
  const english = language === 'en';

  test.describe(`DOI registrations for staff (${language})`, () => {
    for (const width of [1280, 390]) {
      test(`at ${width} px a failed registration shows DataCite's reason, and Retry makes it findable`, async ({ page, portal }) => {
        test.setTimeout(180_000);
        await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
        const staff = await createUser({ staff: true, realname: english ? 'DOI Officer' : '注册员' }, portal.url);
        const provider = await createUser({ realname: english ? 'Ada Provider' : '李提供' }, portal.url);
        const staffApi = await apiSession(staff.username, staff.password, portal.url);
        const providerApi = await apiSession(provider.username, provider.password, portal.url);
        const title = uniqueName(english ? 'Sea ice thickness ' : '海冰厚度');

        // DataCite refuses the landing page's address (the repository's domains): 422 with its reason.
        portal.standin.domains = 'example.org';
        const { id, doi } = await publishWithDoi(providerApi, staffApi, title, language);
        await lastStatusBecomes(staffApi, id, 422);
        // DataCite's words, naming the landing page's address in the record's language.
        const landing = `${portal.url}${english ? '/en' : ''}/data/${id}/`;
        const reason = `url: URL ${landing} is not allowed by repository ${ACCOUNT.repository} domain settings.`;

        // The menu's entry (in the phone's drawer on a phone) leads to the page.
        await logIn(page, language, staff.username, staff.password);
        await page.goto(`${prefix}/personal/#/`);
        if (width < 768) await page.getByRole('banner').getByRole('button', { name: texts.nav.openMenu }).click();
        const menu = page.getByRole('navigation', { name: texts.nav.personal });
        await menu.getByText(texts.menu.review, { exact: true }).click();
        // The submenu opens with an animation (in the drawer on a phone): a click while it still moves can
        // miss, so the click is tried again until the page is the DOI page.
        await expect(async () => {
          await menu.getByText(ui.title, { exact: true }).click();
          await expect(page).toHaveURL(/#\/review\/doi-registrations$/, { timeout: 2_000 });
        }).toPass(AFTER_LOAD);
        await expect(page.getByRole('heading', { name: ui.title })).toBeVisible(AFTER_LOAD);

        // Failed ones first: this one with its DOI, its state, DataCite's reason and the sentence in the page's language.
        const row = page.getByTestId('doi-registration').filter({ hasText: doi });
        await expect(row).toBeVisible();
        await expect(row.getByRole('link', { name: title, exact: true })).toHaveAttribute('href', `${prefix}/data/${id}/`);
        await expect(row.getByTestId('doi-state')).toHaveText(ui.states.failed);
        await expect(row.getByTestId('doi-answer')).toContainText(texts.doi.problem.refused);
        await expect(row.getByTestId('doi-answer')).toContainText(reason);
        await expect(row).toContainText(ui.attempts.replace('{{count}}', '1'));
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: shots(`${language}-${width}-failed`), fullPage: true });

        // DataCite accepts again; the retry is held a moment, and the button waits for it.
        portal.standin.domains = '*';
        portal.standin.stallNext(1500);
        const retry = row.getByRole('button', { name: ui.retryLabel.replace('{{doi}}', doi) });
        await retry.click();
        await expect(retry).toBeDisabled();
        await expect(page.getByText(ui.retried.replace('{{doi}}', doi).replace('{{state}}', ui.states.findable))).toBeVisible({ timeout: 20_000 });
        // The row as it now stands: findable, no reason, no retry.
        await expect(row.getByTestId('doi-state')).toHaveText(ui.states.findable);
        await expect(row.getByTestId('doi-answer')).toHaveCount(0);
        await expect(row.getByRole('button', { name: ui.retryLabel.replace('{{doi}}', doi) })).toHaveCount(0);
        expect(portal.standin.get(doi)).toMatchObject({ state: 'findable', url: landing });
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: shots(`${language}-${width}-retried`), fullPage: true });

        // The failed list no longer holds it once read again; all registrations do, findable.
        // (Ant Design's segmented control hides its radio inputs: their labels take the click.)
        const filter = (name: string) => page.getByRole('radio', { name }).locator('xpath=..');
        await filter(ui.filters.all).click();
        await expect(page.getByRole('radio', { name: ui.filters.all })).toBeChecked();
        await expect(row.getByTestId('doi-state')).toHaveText(ui.states.findable);
        await filter(ui.filters.failing).click();
        await expect(page.getByTestId('doi-registration').filter({ hasText: doi })).toHaveCount(0);

        // The record's staff view on the review desk says where its DOI stands.
        if (width > 800) {
          await page.goto(`${prefix}/admin/review`);
          const { panel } = await openOnDesk(page, language, title, title);
          const line = panel.getByTestId('doi-registration-line');
          await expect(line).toContainText(ui.line);
          await expect(line).toContainText(doi);
          await expect(line).toContainText(ui.states.findable);
        }
        await staffApi.dispose();
        await providerApi.dispose();
      });
    }

    test('is not offered to anyone but staff, and its address tells them so', async ({ page, portal }) => {
      const provider = await createUser({ realname: english ? 'Ada Provider' : '李提供' }, portal.url);
      await logIn(page, language, provider.username, provider.password);
      await page.goto(`${prefix}/personal/#/`);
      const menu = page.getByRole('navigation', { name: texts.nav.personal });
      await menu.getByText(texts.menu.review, { exact: true }).click();
      await expect(menu.getByText(texts.menu.invitedReview, { exact: true })).toBeVisible();
      await expect(menu.getByText(ui.title, { exact: true })).toHaveCount(0);
      await page.goto(`${prefix}/personal/#/review/doi-registrations`);
      await expect(page.getByText(texts.account.forbidden)).toBeVisible(AFTER_LOAD);
    });
  });
}
