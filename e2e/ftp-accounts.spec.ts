import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { ftpAccountListSchema, ftpAccountSchema } from '@portal/shared/contracts/ftp';
import { E2E_PORT } from '../playwright.config';
import { AFTER_LOAD, createUsers, expect, prefixOf, settled, test, textsOf, uniqueName } from './fixtures';
import { like } from './orders-helpers';
import { apiSession, applyFor, expectJson, publishedRecord } from './records';

/**
 * The FTP accounts' screens (issue 19), in both languages at 1280 and 390 px: a scientist with an
 * approved order gets an FTP account on the order's page and the download page, and the test signs
 * in with what the page shows (curl and wget over FTP, the commands as the page gives them); a
 * provider at the root of a draft's files makes an upload account, sends files with curl -T and the
 * page's lftp mirror -R line, brings them into the tree, deletes the account; the panel is not in a sub-folder.
 */

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const WIDTHS = [1280, 390];
/** The e2e server's FTP port (playwright.config.ts). */
const FTP_PORT = E2E_PORT + 1;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command line through the shell, as a user pastes it; its exit code instead of a throw. */
function shell(command: string, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The names in a folder of the account's FTP root (curl's NLST); the exit code tells a refused login (67). */
const curlList = (username: string, password: string, cwd: string) => shell(`curl -sS --max-time 30 --list-only 'ftp://${username}:${password}@127.0.0.1:${FTP_PORT}/'`, cwd);

/** Signs the page's context in by the login call (its cookies) and sets the width under test. */
async function signIn(page: Page, user: { username: string; password: string }, width: number) {
  await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
  const login = await page.context().request.post('/account/profile-login/', { form: { username: user.username, password: user.password } });
  expect(login.status(), await login.text()).toBe(200);
}

async function noHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** A dialog whole: the window made as tall as it for the picture (a modal taller than the window scrolls), then as it was. */
async function shootDialog(page: Page, dialog: Locator, file: string) {
  const size = page.viewportSize()!;
  const height = await dialog.evaluate((element) => Math.ceil(element.getBoundingClientRect().height) + 200);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await dialog.screenshot({ path: file });
  await page.setViewportSize(size);
}

const textOf = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent())?.trim() ?? '';

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const f = texts.ftpUi;
  const prefix = prefixOf(language);
  for (const width of WIDTHS) {
    test(`a scientist with an approved order gets an FTP account that signs in (${language}, ${width} px)`, async ({ page }, testInfo) => {
      test.setTimeout(150_000);
      const [staff, owner, scientist] = await createUsers({ staff: true, realname: 'FTP Desk' }, { realname: 'FTP Owner' }, { realname: 'FTP Scientist' });
      const record = await publishedRecord(owner, staff, 'offlineEmail');
      const scientistApi = await apiSession(scientist.username, scientist.password);
      const placed = (await applyFor(scientistApi, record.id)) as unknown as { order: { orders: { id: string }[] } };
      const orderId = placed.order.orders[0]!.id;
      await scientistApi.dispose();
      const ownerApi = await apiSession(owner.username, owner.password);
      await expectJson(await ownerApi.post('/account/order-handle/', { data: { orders: [orderId], status: 'approved', reason: '' } }));
      await ownerApi.dispose();
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'e2e-ftp-'));

      try {
        await signIn(page, scientist, width);
        await page.goto(`${prefix}/personal/#/data/order/${orderId}`);
        await expect(page.getByRole('heading', { name: texts.ordersUi.orders.detailTitle })).toBeVisible(AFTER_LOAD);
        // By keyboard: the action, then the dialog's button.
        await page.getByRole('button', { name: like(f.download.openFor) }).press('Enter');
        const dialog = await settled(page.getByRole('dialog', { name: f.download.title }));
        // No account yet: ftpinfo's message, in the server's words, and the way to make one.
        await expect(dialog).toContainText(texts.ftp.noAccount);
        await dialog.getByRole('button', { name: f.download.create }).press('Enter');
        await expect(dialog.getByTestId('ftp-password')).toBeVisible();
        await expect(dialog.getByRole('alert')).toContainText(f.passwordOnce);
        await expect(dialog.getByTestId('ftp-port')).toHaveText(String(FTP_PORT));
        await expect(dialog.getByTestId('ftp-expires')).not.toBeEmpty();
        const username = await textOf(page, 'ftp-username');
        const password = await textOf(page, 'ftp-password');
        expect(username).toMatch(/^d[0-9a-f]{12}$/);
        await shootDialog(page, dialog, testInfo.outputPath(`ftp-download-${language}-${width}.png`));
        await noHorizontalOverflow(page);

        // The details are real: curl signs in with them and lists the dataset's file.
        const listed = await curlList(username, password, work);
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout.trim()).toBe('glacier_1990.csv');
        // The page's commands, pasted as they are: curl lists, wget -r fetches the dataset.
        const curlCommand = await textOf(page, 'ftp-curl-command');
        expect(curlCommand).toContain(`${username}:${password}`);
        const pasted = await shell(curlCommand, work);
        expect(pasted.code, pasted.stderr).toBe(0);
        expect(pasted.stdout.trim()).toBe('glacier_1990.csv');
        const wgot = await shell(await textOf(page, 'ftp-wget-command'), work);
        expect(wgot.code, wgot.stderr).toBe(0);
        expect(await fs.readFile(path.join(work, 'glacier_1990.csv'), 'utf8')).toContain('year,area_km2');

        // Opened again (here, from the download page): the same account by ftpinfo, without its password.
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await page.goto(`${prefix}/personal/#/data/downloadData`);
        await expect(page.getByRole('heading', { name: texts.ordersUi.download.title })).toBeVisible(AFTER_LOAD);
        await page.getByRole('button', { name: like(f.download.openFor) }).click();
        const again = await settled(page.getByRole('dialog', { name: f.download.title }));
        await expect(again.getByTestId('ftp-username')).toHaveText(username);
        await expect(again.getByTestId('ftp-password')).toHaveCount(0);
        await expect(again).toContainText(f.promptsPassword);
        await expect(again.getByTestId('ftp-curl-command')).not.toContainText(password);
        // The reply the dialog read is the shared contract's.
        const info = ftpAccountSchema.parse(await expectJson(await page.context().request.get(`/data/ftpinfo/?id=${record.id}`)));
        expect(info).toMatchObject({ kind: 'download', metadata: record.id, username, port: FTP_PORT });
        await shootDialog(page, again, testInfo.outputPath(`ftp-download-again-${language}-${width}.png`));
        await noHorizontalOverflow(page);
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    });

    test(`a provider uploads over FTP and brings the files into the tree (${language}, ${width} px)`, async ({ page }, testInfo) => {
      test.setTimeout(150_000);
      const [provider] = await createUsers({ realname: 'FTP Provider' });
      const providerApi = await apiSession(provider.username, provider.password);
      const draft = await expectJson(await providerApi.post('/api/metadata/metadata/', { data: { language, title: uniqueName('FTP upload ') } }), 201);
      await providerApi.dispose();
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'e2e-ftp-'));

      try {
        await signIn(page, provider, 1280);
        await page.goto(`${prefix}/personal/#/metadata/edit/${draft.id}`);
        await page.getByRole('tab', { name: texts.editor.tabs.files, exact: true }).click(AFTER_LOAD);
        // The file manager at the width under test (the editor's tab bar on a phone is not its subject).
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        const panel = page.getByTestId('ftp-upload-panel');
        await expect(panel).toBeVisible();
        await expect(panel).toContainText(f.upload.none);

        // A new upload account: its password shown once, with the warning.
        await panel.getByRole('button', { name: f.upload.create }).press('Enter');
        await expect(panel.getByTestId('ftp-password')).toBeVisible();
        await expect(panel.getByRole('alert')).toContainText(f.passwordOnce);
        const username = await textOf(page, 'ftp-username');
        const password = await textOf(page, 'ftp-password');
        expect(username).toMatch(/^u[0-9a-f]{12}$/);
        const listedReply = ftpAccountListSchema.parse(await expectJson(await page.context().request.get(`/api/data/ftp/?metadata__id=${draft.id}`)));
        expect(listedReply.results.map((account) => account.username)).toEqual([username]);
        // Listed, with where it signs in.
        await expect(
          panel
            .getByRole('row')
            .filter({ hasText: username })
            .filter({ hasText: `:${FTP_PORT}` }),
        ).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`ftp-upload-${language}-${width}.png`), fullPage: true });
        await noHorizontalOverflow(page);

        // One file with curl -T; a folder with the page's lftp line (the password given instead of asked for).
        await fs.writeFile(path.join(work, 'station-a.csv'), 'time,temperature\n2024-01-01,-31.5\n');
        await fs.mkdir(path.join(work, 'localdir', 'daily'), { recursive: true });
        await fs.writeFile(path.join(work, 'localdir', 'daily', 'd1.nc'), 'netcdf-ish bytes');
        const sent = await shell(`curl -sS --max-time 30 -T station-a.csv 'ftp://${username}:${password}@127.0.0.1:${FTP_PORT}/'`, work);
        expect(sent.code, sent.stderr).toBe(0);
        const mirrorCommand = await textOf(page, 'ftp-mirror-command');
        expect(mirrorCommand).toContain(`-u ${username} `);
        const mirrored = await shell(`${mirrorCommand.replace(`-u ${username} `, `-u ${username},${password} `)}`, work);
        expect(mirrored.code, mirrored.stderr).toBe(0);

        // Brought into the tree: the result names them, the tree lists them.
        await panel.getByRole('button', { name: f.upload.sync }).click();
        const result = page.getByTestId('ftp-sync-result');
        await expect(result).toContainText(f.upload.synced.replace('{{countText}}', '2').replace(/（?\(?\{\{size\}\}.*$/, ''));
        await expect(result).toContainText('/station-a.csv');
        await expect(result).toContainText('/daily/d1.nc');
        await expect(page.getByRole('cell', { name: 'station-a.csv', exact: true })).toBeVisible();
        await expect(page.getByRole('table').getByText('daily', { exact: true })).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`ftp-synced-${language}-${width}.png`), fullPage: true });
        await noHorizontalOverflow(page);

        // Deleted with a confirmation: the list is empty and the account no longer signs in.
        await panel.getByRole('button', { name: f.upload.deleteLabel.replace('{{username}}', username) }).click();
        await page.getByRole('button', { name: texts.editor.yes }).click();
        await expect(panel).toContainText(f.upload.none);
        expect((await curlList(username, password, work)).code).toBe(67);

        // In a sub-folder there is no FTP panel (spec section 6: the root only).
        await page.getByRole('table').getByText('daily', { exact: true }).click();
        await expect(page.locator('[aria-current="location"]')).toHaveText('daily');
        await expect(page.getByRole('cell', { name: 'd1.nc', exact: true })).toBeVisible();
        await expect(page.getByTestId('ftp-upload-panel')).toHaveCount(0);
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    });
  }
}
