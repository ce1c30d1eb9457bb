import crypto from 'node:crypto';
import type { Language } from '@portal/shared';
import { createUser, expect, logIn, prefixOf, test, textsOf, uniqueName } from './fixtures';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const WIDTHS = [1280, 390];
/**
 * 20 MB: three of the client's 8 MB requests, slow enough at the throttled speed for the network to
 * be cut during the first (Chromium's offline emulation fails the requests that follow, not the one under way).
 */
const SIZE = 20 * 1024 * 1024;

/**
 * The record's file manager (issue 19): a provider makes a folder, uploads a file into it through
 * tus, the network is cut in the middle of the upload and comes back, the upload goes on by itself,
 * and the listed SHA-256 is the source's. A sixth file of one drop is refused with a message.
 */
for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const e = texts.editor;
  const f = texts.fileManager;
  for (const width of WIDTHS) {
    test(`a provider uploads into a new folder through a network cut (${language}, ${width} px)`, async ({ page, context }) => {
      test.setTimeout(180_000);
      const provider = await createUser({ realname: 'File Manager Tester' });
      await logIn(page, language, provider.username, provider.password);
      await page.goto(`${prefixOf(language)}/personal/#/metadata/add`);
      await page.getByRole('radio', { name: language === 'en' ? e.languageEn : e.languageZh }).check();
      await page.getByRole('button', { name: e.create }).click();
      await expect(page).toHaveURL(/#\/metadata\/edit\/[\w-]+$/);
      await page.getByRole('tab', { name: e.tabs.files, exact: true }).click();
      // The file manager itself at the width under test (the editor's tab bar on a phone is not its subject).
      await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
      await expect(page.getByTestId('folder-summary')).toBeVisible();

      // A new folder, opened.
      const folder = uniqueName('stations');
      await page.getByRole('button', { name: f.newFolder }).click();
      const dialog = page.getByRole('dialog', { name: f.newFolder });
      await dialog.getByLabel(f.name).fill(folder);
      await dialog.getByRole('button', { name: e.save }).click();
      await expect(dialog).toBeHidden();
      await page.getByRole('table').getByText(folder, { exact: true }).click();
      await expect(page.locator('[aria-current="location"]')).toHaveText(folder);

      // A sixth file of one drop is refused, by name.
      const tiny = Array.from({ length: 6 }, (_, n) => ({ name: `part-${n + 1}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`part ${n + 1}\n`) }));
      const input = page.locator('input[type="file"]');
      await input.setInputFiles(tiny);
      await expect(page.getByRole('alert').filter({ hasText: 'part-6.txt' })).toContainText(f.upload.tooMany.replace('{{max}}', '5'));
      await expect(page.getByTestId('upload-item').and(page.locator('[data-state="done"]'))).toHaveCount(5);
      await expect(page.getByRole('cell', { name: 'part-5.txt', exact: true })).toBeVisible();
      await expect(page.getByRole('cell', { name: 'part-6.txt', exact: true })).toHaveCount(0);
      await page.getByRole('button', { name: f.upload.clear }).click();

      // A few MB at a throttled speed; the network is cut while it goes up, then comes back.
      const source = crypto.randomBytes(SIZE);
      const sha256 = crypto.createHash('sha256').update(source).digest('hex');
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
      await input.setInputFiles({ name: 'raster.nc', mimeType: 'application/octet-stream', buffer: source });
      const item = page.getByTestId('upload-item').filter({ hasText: 'raster.nc' });
      await expect.poll(async () => Number(await item.getAttribute('data-sent')), { timeout: 60_000 }).toBeGreaterThan(SIZE / 8);
      // Both the throttling session and the context go offline (the later conditions of one session do not undo the other's).
      await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await context.setOffline(true);
      await expect(item).toHaveAttribute('data-state', 'offline', { timeout: 30_000 });
      await expect(item).toContainText(f.upload.offline);
      await page.screenshot({ path: `test-results/file-manager-${language}-${width}-offline.png`, fullPage: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await context.setOffline(false);
      await expect(item).toHaveAttribute('data-state', 'done', { timeout: 90_000 });

      const row = page.getByRole('row').filter({ hasText: 'raster.nc' });
      await expect(row.getByTestId('sha256')).toHaveAttribute('data-sha256', sha256);
      await expect(page.getByTestId('folder-summary')).toContainText(language === 'en' ? '6 items' : '6 项');
      await page.screenshot({ path: `test-results/file-manager-${language}-${width}.png`, fullPage: true });
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  }
}
