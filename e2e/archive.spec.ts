import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Language } from '@portal/shared';
import { archiveSchema } from '@portal/shared/contracts/archive';
import { AFTER_LOAD, createUsers, expect, prefixOf, test, textsOf } from './fixtures';
import { like } from './orders-helpers';
import { apiSession, applyFor, expectJson, publishedRecord } from './records';

/**
 * "Download everything" on an approved order's page (issue 19), in both languages: the dataset's
 * archive is built in the background, the page shows its state, then its size and a button whose
 * download is the archive (a zip whose SHA-256 is the one the server states); the order's wget command
 * beside it.
 */

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const run = promisify(execFile);

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const a = texts.datasetArchive.ui;
  test(`an approved order's page offers each dataset's whole archive (${language})`, async ({ page }) => {
    test.setTimeout(120_000);
    const [staff, owner, scientist] = await createUsers({ staff: true, realname: 'Archive Desk' }, { realname: 'Archive Owner' }, { realname: 'Archive Scientist' });
    const record = await publishedRecord(owner, staff, 'offlineEmail');
    const scientistApi = await apiSession(scientist.username, scientist.password);
    const placed = (await applyFor(scientistApi, record.id)) as unknown as { order: { orders: { id: string }[] } };
    const orderId = placed.order.orders[0]!.id;
    const ownerApi = await apiSession(owner.username, owner.password);
    await expectJson(await ownerApi.post('/account/order-handle/', { data: { orders: [orderId], status: 'approved', reason: '' } }));
    await ownerApi.dispose();

    const login = await page.context().request.post('/account/profile-login/', { form: { username: scientist.username, password: scientist.password } });
    expect(login.status()).toBe(200);
    await page.goto(`${prefixOf(language)}/personal/#/data/order/${orderId}`);
    await expect(page.getByRole('heading', { name: texts.ordersUi.orders.detailTitle })).toBeVisible(AFTER_LOAD);
    const section = page.getByTestId('order-archives');
    await expect(section).toContainText(a.title);
    const line = section.getByTestId('archive-line');
    await expect(line).toContainText(record.title);
    // Built in the background (one small file: in seconds); the page asks again every 10 s until it is ready.
    await expect(line).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    const archive = archiveSchema.parse(await expectJson(await scientistApi.get(`/api/archive/archives/${record.id}/`)));
    await scientistApi.dispose();
    const button = section.getByRole('link', { name: like(a.downloadFor) });
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute('href', archive.download_url!);

    // The button's download is the archive the server describes.
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const saved = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'e2e-archive-')), 'dataset.zip');
    await download.saveAs(saved);
    const bytes = await fs.readFile(saved);
    expect(bytes.length).toBe(archive.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(archive.sha256);
    expect((await run('unzip', ['-l', saved])).stdout).toContain('glacier_1990.csv');
    await fs.rm(path.dirname(saved), { recursive: true, force: true });

    // The order's HTTP index, as a wget command to copy.
    await expect(section).toContainText(a.indexIntro);
    await expect(section.getByTestId('order-index-wget')).toContainText(`--cut-dirs=6`);

    // On a phone the section fits the screen: the page never scrolls sideways (the command wraps in its box).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(line).toBeVisible();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await section.screenshot({ path: test.info().outputPath(`archive-${language}-390.png`) });
  });
}
