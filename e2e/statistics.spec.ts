import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { AFTER_LOAD, createUsers, expect, prefixOf, signedInQuietly, test, textsOf, watchScripts } from './fixtures';
import { apiSession, applyFor, completeRecord, expectJson, publishedRecord } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const PHONE = { width: 390, height: 844 };
const NORWAY: Record<Language, string> = { 'zh-hans': '挪威', en: 'Norway' };

type Person = { username: string; password: string };
type Dataset = { id: string; title: string };

/**
 * A provider's published open dataset that another person has read once (a view), downloaded once
 * and applied for once from Norway, all through the API as a browser or a script would.
 */
async function usedDataset(): Promise<{ owner: Person; other: Person; record: Dataset }> {
  const [staff, owner, other] = await createUsers({ staff: true, realname: 'Statistics Desk' }, { realname: 'Statistics Owner' }, { realname: 'Statistics Reader' });
  const record = await publishedRecord(owner, staff, 'online');
  const reader = await apiSession(other.username, other.password);
  await expectJson(await reader.get(`/api/metadata/metadata/${record.id}/`));
  const files = await expectJson<{ results: { id: string }[] }>(await reader.get('/api/metadata/meta-file/', { params: { metadata__id: record.id } }));
  const download = await reader.get(`/api/metadata/meta-file/${files.results[0]!.id}/download/`);
  expect(download.status(), await download.text()).toBe(200);
  expect((await applyFor(reader, record.id)).status).toBe('Success');
  await reader.dispose();
  return { owner, other, record };
}

/** The statistics page of `record` as its provider reads it, opened from the published list. */
async function openStatistics(page: Page, language: Language, record: Dataset) {
  const texts = textsOf(language);
  await page.goto(`${prefixOf(language)}/personal/#/metadata/published`);
  await page.getByRole('row').filter({ hasText: record.title }).getByRole('link', { name: texts.statistics.link }).click();
  await expect(page.getByRole('heading', { name: texts.statistics.record.title })).toBeVisible(AFTER_LOAD);
  await expectRecordTitle(page, language, record);
}

/** The record's title as the page heads it: a Chinese page titles the English record by its Chinese version (completeRecord's: the title with （中文）). */
async function expectRecordTitle(page: Page, language: Language, record: Dataset) {
  await expect(page.getByRole('heading', { name: language === 'zh-hans' ? `${record.title}（中文）` : record.title, exact: true })).toBeVisible(AFTER_LOAD);
}

/** The three totals, each read from its own box. */
async function expectTotals(page: Page, totals: { views: number; downloads: number; orders: number }) {
  for (const [key, value] of Object.entries(totals)) {
    await expect(page.getByTestId(`total-${key}`).locator('.ant-statistic-content-value')).toHaveText(String(value));
  }
}

const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
const chartOf = (page: Page) => page.getByTestId('usage-chart');

test.describe('statistics of a dataset', () => {
  test('the provider reads views, downloads, orders and countries in both languages', async ({ browser }) => {
    const { owner, record } = await usedDataset();
    const { context, page } = await signedInQuietly(browser, owner);
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const language of LANGUAGES) {
      const s = textsOf(language).statistics;
      const scripts = watchScripts(page);
      await openStatistics(page, language, record);
      await expectTotals(page, { views: 1, downloads: 1, orders: 1 });
      // Everything happened today: one day on the axis, by day and by month.
      const today = new Date().toISOString().slice(0, 10);
      await expect(chartOf(page)).toHaveAttribute('aria-label', s.record.chartLabel.replace('{{first}}', today).replace('{{last}}', today));
      await expect(chartOf(page).locator('canvas')).toBeVisible();
      expect(
        [...scripts.keys()].some((name) => name.startsWith('UsageChart-')),
        'the chart came in its own chunk',
      ).toBe(true);
      await page.getByText(s.record.byMonth, { exact: true }).click();
      await expect(chartOf(page)).toHaveAttribute('aria-label', s.record.chartLabel.replace('{{first}}', today.slice(0, 7)).replace('{{last}}', today.slice(0, 7)));
      await expect(chartOf(page).locator('canvas')).toBeVisible();

      // The order came from Norway; the open download needed no application, so its country is unknown.
      const norway = page.getByRole('row').filter({ hasText: NORWAY[language] });
      await expect(norway.getByRole('cell')).toHaveText([NORWAY[language], '0', '1']);
      const unknown = page.getByRole('row').filter({ hasText: s.record.unknownCountry });
      await expect(unknown.getByRole('cell')).toHaveText([s.record.unknownCountry, '1', '0']);
    }

    // The chart follows the window.
    const wide = (await chartOf(page).locator('canvas').boundingBox())!.width;
    await page.setViewportSize({ width: 900, height: 900 });
    await expect.poll(async () => (await chartOf(page).locator('canvas').boundingBox())!.width).toBeLessThan(wide - 100);
    await context.close();
  });

  test('on a phone (390 x 844): the chart takes the width, nothing scrolls sideways, Apply Statistics folds its columns', async ({ browser }) => {
    const { owner, record } = await usedDataset();
    const { context, page } = await signedInQuietly(browser, owner);
    await page.setViewportSize(PHONE);
    await openStatistics(page, 'en', record);
    await expectTotals(page, { views: 1, downloads: 1, orders: 1 });
    const canvas = (await chartOf(page).locator('canvas').boundingBox())!;
    expect(canvas.x).toBeGreaterThanOrEqual(0);
    expect(canvas.width, 'the chart takes the width of the page').toBeGreaterThanOrEqual(PHONE.width - 80);
    expect(canvas.x + canvas.width).toBeLessThanOrEqual(PHONE.width);
    await expect(page.getByRole('row').filter({ hasText: 'Norway' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Apply Statistics: the counts stand under the title, where the columns would not fit.
    const s = textsOf('en').statistics;
    await page.goto('/en/personal/#/metadata/apply-statistics');
    const row = page.getByRole('row').filter({ hasText: record.title });
    await expect(row.getByText(`${s.views} 1 · ${s.downloads} 1 · ${s.orders} 1 · ${s.waiting} 0`)).toBeVisible(AFTER_LOAD);
    await expect(row.getByRole('link', { name: s.link })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });

  test('anyone else is told in words, and an unknown dataset too', async ({ browser }) => {
    const { other, record } = await usedDataset();
    const { context, page } = await signedInQuietly(browser, other);
    for (const language of LANGUAGES) {
      const s = textsOf(language).statistics;
      await page.goto(`${prefixOf(language)}/personal/#/metadata/statistics/${record.id}`);
      await expect(page.getByText(s.record.forbidden)).toBeVisible(AFTER_LOAD);
      await expect(chartOf(page)).toHaveCount(0);
      await page.goto(`${prefixOf(language)}/personal/#/metadata/statistics/no-such-record`);
      await expect(page.getByText(s.record.notFound)).toBeVisible(AFTER_LOAD);
    }
    await context.close();
  });

  test('a dataset nobody has used shows an empty state, not an empty chart', async ({ browser }) => {
    const [staff, owner] = await createUsers({ staff: true, realname: 'Statistics Desk' }, { realname: 'Statistics Owner' });
    const record = await publishedRecord(owner, staff, 'online');
    const { context, page } = await signedInQuietly(browser, owner);
    const scripts = watchScripts(page);
    for (const language of LANGUAGES) {
      await openStatistics(page, language, record);
      await expectTotals(page, { views: 0, downloads: 0, orders: 0 });
      await expect(page.getByText(textsOf(language).statistics.record.empty)).toBeVisible();
      await expect(chartOf(page)).toHaveCount(0);
    }
    expect(
      [...scripts.keys()].filter((name) => name.startsWith('UsageChart-')),
      'nothing to draw, no chart code',
    ).toEqual([]);
    await context.close();

    // Staff looking at the statistics is no reader's view either: the page reads no record to title itself.
    const desk = await signedInQuietly(browser, staff);
    for (const language of LANGUAGES) {
      await desk.page.goto(`${prefixOf(language)}/personal/#/metadata/statistics/${record.id}`);
      await expectRecordTitle(desk.page, language, record);
      await expectTotals(desk.page, { views: 0, downloads: 0, orders: 0 });
    }
    await desk.context.close();
  });
});

test.describe('Apply Statistics', () => {
  for (const language of LANGUAGES) {
    test(`the provider finds the dataset with its counts and opens its statistics (${language})`, async ({ browser }) => {
      const s = textsOf(language).statistics;
      const { owner, record } = await usedDataset();
      const { context, page } = await signedInQuietly(browser, owner);
      await page.goto(`${prefixOf(language)}/personal/#/metadata/apply-statistics`);
      await expect(page.getByRole('heading', { name: s.apply.title })).toBeVisible(AFTER_LOAD);
      const provider = page.getByTestId('role-provider');
      await expect(provider).toContainText(s.apply.roles.provider);
      const counts = (key: 'datasets' | 'views' | 'downloads' | 'orders' | 'waiting') =>
        provider.locator('.ant-descriptions-row').filter({ hasText: s[key] }).locator('.ant-descriptions-item-content');
      await expect(counts('datasets')).toHaveText('1');
      await expect(counts('downloads')).toHaveText('1');
      await expect(counts('orders')).toHaveText('1');
      // Open data is granted at once: nothing waits.
      await expect(counts('waiting')).toHaveText('0');

      const row = page.getByRole('row').filter({ hasText: record.title });
      // On Chinese pages the title is the record's Chinese version: the English title with （中文）.
      await expect(row.getByRole('cell')).toHaveText([new RegExp(escaped(record.title)), '1', '1', '1', '0', s.link]);
      await expect(row.getByRole('link', { name: record.title })).toHaveAttribute('href', `${prefixOf(language)}/data/${record.id}/`);

      // The same person as an author or assessor of nothing: the other tabs say so.
      await page.getByRole('tab', { name: s.apply.roles.assessor }).click();
      await expect(page.getByText(s.apply.empty.assessor)).toBeVisible();
      await page.getByRole('tab', { name: s.apply.roles.provider }).click();

      await page.getByRole('row').filter({ hasText: record.title }).getByRole('link', { name: s.link }).click();
      await expect(page.getByRole('heading', { name: s.record.title })).toBeVisible(AFTER_LOAD);
      await expectTotals(page, { views: 1, downloads: 1, orders: 1 });
      await context.close();
    });
  }
});

test.describe('Apply Statistics at 1280 px', () => {
  for (const language of LANGUAGES) {
    test(`a long title wraps and every count column stays in view (${language})`, async ({ browser }) => {
      const s = textsOf(language).statistics;
      const [staff, owner] = await createUsers({ staff: true, realname: 'Statistics Desk' }, { realname: 'Statistics Long Title' });
      const ownerApi = await apiSession(owner.username, owner.password);
      const staffApi = await apiSession(staff.username, staff.password);
      const title = 'Mass balance, surface velocity and debris cover of the glaciers of the Qilian Mountains and the Tianshan from field surveys and satellite images';
      const record = await completeRecord(ownerApi, title, 'en');
      expect((await expectJson(await ownerApi.post('/metadata/metadata-submit/', { data: { id: record.id } }))).status).toBe('true');
      await expectJson(
        await staffApi.patch(`/api/metadata/review-status/${record.id}/set_review_status/`, {
          data: { review_status: 'publish_without_review', content: 'For a layout check.', from_status: 'submitted' },
        }),
      );
      const { context, page } = await signedInQuietly(browser, owner);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${prefixOf(language)}/personal/#/metadata/apply-statistics`);
      await expect(page.getByRole('heading', { name: s.apply.title })).toBeVisible(AFTER_LOAD);
      const row = page.getByRole('row').filter({ hasText: title.slice(0, 30) });
      await expect(row.getByRole('link', { name: s.link })).toBeInViewport();
      await expect(page.getByRole('columnheader', { name: s.apply.actions })).toBeInViewport();
      const scroller = page.locator('.ant-table-content, .ant-table-body').first();
      const { scrollWidth, clientWidth } = await scroller.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
      expect(scrollWidth, 'the table does not scroll sideways').toBeLessThanOrEqual(clientWidth + 1);
      await ownerApi.dispose();
      await staffApi.dispose();
      await context.close();
    });
  }
});
