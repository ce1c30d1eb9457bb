import type { Page } from '@playwright/test';
import type { CatalogueStats, HotItem, Language } from '@portal/shared';
import { createUser, expect, test, textsOf, uniqueName } from './fixtures';
import { apiSession, expectJson, submitCompleteRecord } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const PHONE = { width: 390, height: 844 };

/** A complete record, submitted by its creator and published by the data centre without review. */
async function publishRecord(title: string, language: Language): Promise<string> {
  const author = await createUser({ realname: 'Home Author' });
  const staff = await createUser({ staff: true, realname: 'Home Staff' });
  const authorApi = await apiSession(author.username, author.password);
  const staffApi = await apiSession(staff.username, staff.password);
  try {
    const { id } = await submitCompleteRecord(authorApi, title, language);
    await expectJson(
      await staffApi.patch(`/api/metadata/review-status/${id}/set_review_status/`, {
        data: { review_status: 'publish_without_review', content: 'Published for the home page.', from_status: 'submitted' },
      }),
    );
    return id;
  } finally {
    await authorApi.dispose();
    await staffApi.dispose();
  }
}

/** What the server answers the home page's two calls, in the page's language. */
async function catalogueOf(page: Page, language: Language) {
  const headers = { 'Accept-Language': language };
  const hot = await expectJson<{ results: HotItem[] }>(await page.request.get('/api/metadata/hot/', { headers }));
  const stats = await expectJson<CatalogueStats>(await page.request.get('/api/metadata/catalogue-stats/', { headers }));
  return { hot: hot.results, stats };
}

/** "35.3 GB", "12 kB", "512 bytes", "0字节": the bytes a shown size stands for. */
function bytesOf(shown: string): number {
  const match = /^([\d.,]+)\s*(bytes?|字节|kB|MB|GB|TB|PB)$/.exec(shown.trim());
  if (!match) throw new Error(`not a size: ${shown}`);
  const power = ['kB', 'MB', 'GB', 'TB', 'PB'].indexOf(match[2]!) + 1;
  return Number(match[1]!.replace(/,/g, '')) * 1000 ** power;
}

/**
 * The home page without the lists its HTML carries for the first render (plugins/web.ts): the page
 * then asks the API for them, as it does when it is reached from another page.
 */
async function withoutCarriedLists(page: Page, home: string) {
  await page.route(
    (url) => url.pathname === home,
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script type="application\/json" id="portal-home">[^<]*<\/script>/, '');
      await route.fulfill({ response, body });
    },
  );
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const home = language === 'en' ? '/en/' : '/';
  const sitePrefix = language === 'en' ? '/en' : '';
  const locale = language === 'en' ? 'en-GB' : 'zh-CN';
  const count = (value: number) => new Intl.NumberFormat(locale).format(value);

  test.describe(`the home page (${language})`, () => {
    test('shows the catalogue as the server counts it: the counts, the hot list, the most viewed and the newest, each title leading to its landing page', async ({ page }) => {
      // Two accounts, a complete record with its files, its publication: several calls on a busy machine.
      test.setTimeout(180_000);
      const title = uniqueName(language === 'en' ? 'Lake levels of the Tibetan Plateau ' : '青藏高原湖泊水位');
      const id = await publishRecord(title, language);

      await page.goto(home);
      const main = page.getByRole('main');
      const hotList = main.getByRole('region', { name: texts.home.hotData });
      // The page shows the new record (the newest first); the hot list ranks by downloads and views, so
      // after other specs' downloads a new record may be below its first 10.
      await expect(main.getByRole('region', { name: texts.home.newest }).getByRole('link', { name: title })).toBeVisible();
      const { hot, stats } = await catalogueOf(page, language);
      expect(stats.datasets).toBeGreaterThan(0);

      // The counts: the server's numbers, in the page's language.
      const counts = main.getByRole('region', { name: texts.home.statsTitle });
      await expect(counts.getByRole('definition')).toHaveText([count(stats.datasets), count(stats.files), /\S/]);
      await expect(counts.getByRole('term')).toHaveText([texts.home.stats.datasets, texts.home.stats.files, texts.home.stats.volume]);
      const volume = (await counts.getByRole('definition').nth(2).innerText()).trim();
      expect(Math.abs(bytesOf(volume) - stats.bytes)).toBeLessThanOrEqual(Math.max(stats.bytes * 0.05, 0.5));

      // The hot list: the first 10 of the server's, with downloads and views; no comments column (the portal has none).
      const table = hotList.getByRole('table');
      await expect(table.getByRole('columnheader')).toHaveText([texts.home.columns.title, texts.home.columns.downloads, texts.home.columns.views]);
      const words = (text: string) => text.replace(/\s+/g, ' ').trim();
      const expected = hot.slice(0, 10).map((item) => words([item.title, count(item.lineitem_set), count(item.hit_count)].join(' ')));
      const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
      await expect(rows).toHaveCount(expected.length);
      expect((await rows.allInnerTexts()).map(words)).toEqual(expected);
      if (hot.slice(0, 10).some((item) => item.id === id)) await expect(hotList.getByRole('link', { name: title })).toHaveAttribute('href', `${sitePrefix}/data/${id}/`);

      // The newest publications, newest first: ours is among them.
      const newest = main.getByRole('region', { name: texts.home.newest });
      await expect(newest.getByRole('listitem')).toHaveCount(stats.newest.length);
      await expect(newest.getByRole('link')).toHaveText(stats.newest.map((item) => item.title));
      await expect(newest.getByRole('link', { name: title })).toHaveAttribute('href', `${sitePrefix}/data/${id}/`);

      // The most viewed: the server's top 5 (records nobody viewed are not "most viewed"), or its empty state.
      const viewed = main.getByRole('region', { name: texts.home.viewedData });
      // With datasets published but none viewed it says so, not that nothing is published (issue 16).
      if (stats.most_viewed.length === 0) await expect(viewed.getByText(stats.newest.length > 0 ? texts.home.noViews : texts.home.noData)).toBeVisible();
      else await expect(viewed.getByRole('link')).toHaveText(stats.most_viewed.slice(0, 5).map((item) => item.title));
    });

    test('its search box opens the data page with the words typed', async ({ page }) => {
      await page.goto(home);
      const search = page.getByRole('search');
      await search.getByLabel(texts.home.searchLabel).fill(language === 'en' ? 'glacier mass balance' : '冰川 物质平衡');
      await search.getByRole('button', { name: texts.home.searchButton }).click();
      await expect(page).toHaveURL(language === 'en' ? /\/en\/data\/\?q=glacier(\+|%20)mass(\+|%20)balance$/ : /^[^?]*:\d+\/data\/\?q=/);
      expect(new URL(page.url()).searchParams.get('q')).toBe(language === 'en' ? 'glacier mass balance' : '冰川 物质平衡');
      await expect(page.getByRole('heading', { name: texts.data.title, exact: true })).toBeVisible();
    });

    test('says plainly that nothing has been published yet, and that a list could not be loaded', async ({ page }) => {
      // The suite's database holds published records by now: the server's empty replies are given
      // here, and the page is taken without the lists its HTML carries, so that it asks for them.
      await withoutCarriedLists(page, home);
      await page.route(/\/api\/metadata\/hot\//, (route) => route.fulfill({ json: { results: [] } }));
      await page.route(/\/api\/metadata\/catalogue-stats\//, (route) => route.fulfill({ json: { datasets: 0, files: 0, bytes: 0, newest: [], most_viewed: [] } }));
      await page.goto(home);
      const main = page.getByRole('main');
      for (const list of [texts.home.hotData, texts.home.viewedData, texts.home.newest]) {
        await expect(main.getByRole('region', { name: list }).getByText(texts.home.noData)).toBeVisible();
      }
      const counts = main.getByRole('region', { name: texts.home.statsTitle }).getByRole('definition');
      await expect(counts).toHaveText(['0', '0', language === 'en' ? '0 bytes' : '0字节']);
      await expect(main.getByRole('table')).toHaveCount(0);

      // A failed call says so and offers to try again.
      await page.unrouteAll();
      await withoutCarriedLists(page, home);
      await page.route(/\/api\/metadata\/hot\//, (route) => route.fulfill({ status: 500, body: 'down' }));
      await page.reload();
      const hotList = main.getByRole('region', { name: texts.home.hotData });
      await expect(hotList.getByText(texts.home.loadFailed)).toBeVisible();
      await page.unrouteAll();
      await hotList.getByRole('button', { name: texts.home.retry }).click();
      await expect(hotList.getByText(texts.home.loadFailed)).toHaveCount(0);
      await expect(hotList.getByRole('table').or(hotList.getByText(texts.home.noData))).toBeVisible();
    });

    test.describe('on a phone', () => {
      test.use({ viewport: PHONE });

      test('nothing is wider than the screen, and the lists keep their titles and numbers', async ({ page }) => {
        await page.goto(home);
        const main = page.getByRole('main');
        await expect(main.getByRole('heading', { name: texts.home.welcome })).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        const search = page.getByRole('search');
        const field = await search.getByLabel(texts.home.searchLabel).boundingBox();
        expect(field!.width, 'the search field takes the width').toBeGreaterThanOrEqual(PHONE.width - 80);
        const hotList = main.getByRole('region', { name: texts.home.hotData });
        const table = hotList.getByRole('table');
        if (await table.count()) {
          const box = await table.boundingBox();
          expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
          await expect(table.getByRole('columnheader')).toHaveCount(3);
        }
      });
    });
  });
}
