import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { E2E_DATA_DIR } from '../playwright.config';
import { createUser, expect, prefixOf, test, textsOf, uniqueName, watchScripts } from './fixtures';
import { withLighthouse } from './lighthouse';
import { apiSession, expectJson, submitCompleteRecord } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const PHONE = { width: 390, height: 844 };
/** Issue "Find data": the first load of /data/ (compressed, map not opened). */
const FIRST_LOAD_BUDGET = 170 * 1024;

interface Seeded {
  id: string;
  en: string;
  zh: string;
}

interface Catalogue {
  records: Record<'antarctic' | 'ross' | 'plateau' | 'greenland', Seeded>;
  /** The theme the three glaciology records share, in each language. */
  theme: { en: string; zh: string };
}

/**
 * The catalogue the visitor searches, published by the data centre: three glaciology records (one
 * around the South Pole, one over the Ross Sea across the 180th meridian, one on the Tibetan
 * Plateau) and a Greenland record of another theme. Titles and themes carry a word of this run,
 * so that records other specs publish do not count. Made once per run (a worker started again
 * after a failure reads it back), in the data directory the server empties when it starts.
 */
async function publishCatalogue(): Promise<Catalogue> {
  const file = path.join(E2E_DATA_DIR, 'search-spec-catalogue.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue;
  const run = uniqueName('r');
  const glaciology = { en: `Glaciology ${run}`, zh: `冰川学 ${run}` };
  const seaLevel = { en: `Sea level ${run}`, zh: `海平面 ${run}` };
  const plan = {
    antarctic: { en: `Antarctic ice sheet glacier velocity ${run}`, zh: `南极冰盖冰川流速 ${run}`, box: { west: -180, south: -90, east: 180, north: -65 }, theme: glaciology },
    ross: { en: `Ross Sea outlet glacier fronts ${run}`, zh: `罗斯海出海冰川前缘 ${run}`, box: { west: 160, south: -85, east: -150, north: -72 }, theme: glaciology },
    plateau: { en: `Tibetan Plateau glacier inventory ${run}`, zh: `青藏高原冰川编目 ${run}`, box: { west: 73, south: 26, east: 105, north: 40 }, theme: glaciology },
    greenland: { en: `Greenland glacier mass loss ${run}`, zh: `格陵兰冰川物质损失 ${run}`, box: { west: -73, south: 60, east: -12, north: 84 }, theme: seaLevel },
  };
  const staff = await createUser({ staff: true, realname: 'Catalogue Desk' });
  const provider = await createUser({ realname: 'Polar Provider' });
  const providerApi = await apiSession(provider.username, provider.password);
  const staffApi = await apiSession(staff.username, staff.password);
  const records = {} as Catalogue['records'];
  for (const [key, record] of Object.entries(plan) as [keyof typeof plan, (typeof plan)[keyof typeof plan]][]) {
    const { id } = await submitCompleteRecord(providerApi, record.en, 'en', {
      box: record.box,
      translation: { title: record.zh, description: `${record.zh}：冰川观测数据集。` },
      keywords: [{ name: record.theme.en, type: 'theme', language: 'en', translation: record.theme.zh }],
    });
    await expectJson(await staffApi.patch(`/api/metadata/review-status/${id}/set_review_status/`, { data: { review_status: 'publish_without_review' } }));
    records[key] = { id, en: record.en, zh: record.zh };
  }
  await providerApi.dispose();
  await staffApi.dispose();
  const catalogue = { records, theme: glaciology };
  fs.writeFileSync(file, JSON.stringify(catalogue));
  return catalogue;
}

let seeded: Catalogue['records'];
let theme: Catalogue['theme'];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ records: seeded, theme } = await publishCatalogue());
});

/** A result of the list, found by its title's link. */
const result = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });

/** Searches through the combobox: its suggestions open as one types, Enter searches what was typed. */
async function searchFor(page: Page, language: Language, words: string) {
  const ui = textsOf(language).search.ui;
  const box = page.getByRole('combobox', { name: ui.searchLabel });
  await box.fill('');
  await box.pressSequentially(words, { delay: 20 });
  await expect(page.getByRole('listbox', { name: ui.suggestions }).getByRole('option').first()).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  // Arrow keys move through the suggestions (and back to the box), Escape closes them.
  await box.press('ArrowDown');
  const first = page.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await box.press('ArrowUp');
  await expect(box).not.toHaveAttribute('aria-activedescendant');
  await box.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(words)}(&|$)`));
}

/** Drags a rectangle of `half` pixels either side of the map's centre (the pole in a polar view). */
async function drawBoxAroundCentre(page: Page, half: number) {
  const canvas = page.getByTestId('search-map');
  const box = (await canvas.boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(cx - half, cy - half);
  await page.mouse.down();
  await page.mouse.move(cx, cy, { steps: 5 });
  await page.mouse.move(cx + half, cy + half, { steps: 5 });
  await page.mouse.up();
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const ui = texts.search.ui;
  const english = language === 'en';
  const titleOf = (record: Seeded) => (english ? record.en : record.zh);

  for (const phone of [false, true]) {
    test.describe(`finding data (${language}${phone ? ', phone' : ''})`, () => {
      if (phone) test.use({ viewport: PHONE });

      test('a visitor searches 冰川 and glacier, narrows by a facet, draws a box on the Antarctic map and opens a result', async ({ page }) => {
        test.setTimeout(120_000);
        // Chinese pages live at /data/ and /zh-hans/data/: the phone takes the one without prefix.
        const prefix = !english && phone ? '' : prefixOf(language);
        await page.goto(`${prefix}/data/`);
        // A browser's first page parses every script of the shell: slow on a busy two-core machine.
        await expect(page.getByRole('heading', { name: texts.data.title, exact: true })).toBeVisible({ timeout: 30_000 });

        // 冰川 finds the records on both languages' pages (their Chinese versions hold the word); their
        // titles, matched in the title field, come first. Other specs' records may follow.
        await searchFor(page, language, '冰川');
        await expect(page.getByRole('main').getByRole('status')).toHaveText(new RegExp(ui.resultCount.replace('{{count}}', '\\d+')));
        for (const record of Object.values(seeded)) await expect(result(page, titleOf(record))).toHaveCount(1);
        if (!english) await expect(result(page, titleOf(seeded.antarctic)).locator('mark').first()).toHaveText('冰川');

        await searchFor(page, language, 'glacier');
        for (const record of Object.values(seeded)) await expect(result(page, titleOf(record))).toHaveCount(1);
        if (english) await expect(result(page, titleOf(seeded.antarctic)).locator('mark').first()).toHaveText('glacier');

        // Narrow by the theme facet (behind the filters button on a phone): Greenland's theme is another.
        if (phone) {
          const toggle = page.getByRole('button', { name: ui.filters.toggle.replace('{{count}}', '0') });
          await expect(toggle).toHaveAttribute('aria-expanded', 'false');
          await expect(page.getByRole('group', { name: ui.facets.theme })).toBeHidden();
          await toggle.click();
        }
        const themes = page.getByRole('group', { name: ui.facets.theme });
        const glaciology = themes.getByRole('checkbox', { name: ui.filters.option.replace('{{label}}', english ? theme.en : theme.zh).replace('{{count}}', '3'), exact: true });
        // A click, not check(): the box shows the address, which the router changes in a transition.
        await glaciology.click();
        await expect(page).toHaveURL(new RegExp(`[?&]theme=${encodeURIComponent(theme.en.toLowerCase()).replace(/%20/g, '\\+')}(&|$)`));
        await expect(glaciology).toBeChecked();
        await expect(result(page, titleOf(seeded.greenland))).toHaveCount(0);
        for (const record of [seeded.antarctic, seeded.ross, seeded.plateau]) await expect(result(page, titleOf(record))).toHaveCount(1);
        await expect(page.getByRole('main').getByRole('status')).toHaveText(ui.resultCount.replace('{{count}}', '3'));
        if (phone) await page.getByRole('button', { name: ui.filters.toggle.replace('{{count}}', '1') }).click();

        // The Antarctic map, a box drawn around the South Pole.
        await page.getByRole('button', { name: ui.map.show }).click();
        await page.getByRole('group', { name: ui.map.views }).getByRole('button', { name: ui.map.antarctic }).click();
        await expect(page).toHaveURL(/[?&]map=antarctic(&|$)/);
        const canvas = page.getByTestId('search-map');
        await expect(canvas).toHaveAccessibleName(ui.map.canvas.replace('{{view}}', ui.map.antarctic));
        await expect(canvas.locator('canvas').first()).toBeVisible();
        await canvas.scrollIntoViewIfNeeded();
        const draw = page.getByRole('button', { name: ui.map.draw });
        await draw.click();
        await expect(draw).toHaveAttribute('aria-pressed', 'true');
        await drawBoxAroundCentre(page, phone ? 70 : 110);
        await expect(page).toHaveURL(/[?&]bbox=-180%2C-90%2C180%2C-[5-8]\d(\.\d+)?(&|$)/);
        await expect(draw).toHaveAttribute('aria-pressed', 'false');
        await expect(page.getByText(ui.map.box.split('{{')[0]!).first()).toBeVisible();
        await expect(result(page, titleOf(seeded.plateau))).toHaveCount(0);
        await expect(result(page, titleOf(seeded.antarctic))).toHaveCount(1);
        await expect(result(page, titleOf(seeded.ross))).toHaveCount(1);
        await expect(page.getByRole('main').getByRole('status')).toHaveText(ui.resultCount.replace('{{count}}', '2'));

        // The whole search is in the address: a result opens its landing page, Back returns to it.
        const searchAddress = page.url();
        await result(page, titleOf(seeded.antarctic))
          .getByRole('link', { name: titleOf(seeded.antarctic), exact: true })
          .click();
        await expect(page).toHaveURL(new RegExp(`^[^?]*${prefix}/data/${seeded.antarctic.id}/$`));
        await page.goBack();
        await expect(page).toHaveURL(searchAddress);
        await expect(result(page, titleOf(seeded.antarctic))).toHaveCount(1);
        await expect(result(page, titleOf(seeded.plateau))).toHaveCount(0);

        // Taking the box off brings the plateau back.
        await page.getByRole('button', { name: ui.map.clearBox }).click();
        await expect(result(page, titleOf(seeded.plateau))).toHaveCount(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing sticks out sideways').toBeLessThanOrEqual(page.viewportSize()!.width);
      });
    });
  }
}

test.describe('the search page comes with its first results', () => {
  for (const language of LANGUAGES) {
    test(`no search request before the first results show; the next search asks (${language})`, async ({ page }) => {
      const texts = textsOf(language);
      const english = language === 'en';
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/metadata/search/') asked.push(request.url());
      });
      const response = await page.goto(`${prefixOf(language)}/data/?q=${encodeURIComponent(english ? 'glacier' : '冰川')}`);
      // The page names its own chunks, so that they come beside the entry rather than after it.
      expect(await response!.text()).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/SearchPage-[\w-]+\.js">/);
      await expect(page.getByRole('heading', { name: texts.data.title, exact: true })).toBeVisible({ timeout: 30_000 });
      for (const record of Object.values(seeded)) await expect(result(page, english ? record.en : record.zh)).toHaveCount(1);
      await expect(page.getByRole('main').getByRole('status')).toHaveText(new RegExp(texts.search.ui.resultCount.replace('{{count}}', '\\d+')));
      expect(asked, 'the first results came with the page').toEqual([]);

      // Another search is asked of the API, and finds what it should.
      await searchFor(page, language, english ? 'Greenland' : '格陵兰');
      await expect(result(page, english ? seeded.greenland.en : seeded.greenland.zh)).toHaveCount(1);
      await expect(result(page, english ? seeded.plateau.en : seeded.plateau.zh)).toHaveCount(0);
      expect(asked.length, 'the next search asks the API').toBeGreaterThan(0);
    });
  }
});

/** Names of the built files that hold a marker string. */
function builtFilesWith(marker: string): string[] {
  const assets = path.resolve(import.meta.dirname, '../packages/web/dist/assets');
  return fs.readdirSync(assets).filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes(marker));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test.describe('the search page stays light', () => {
  test(`its first load is at most ${FIRST_LOAD_BUDGET / 1024} KB of compressed JavaScript; the map's code comes when the map is shown`, async ({ browser }) => {
    const mapFiles = builtFilesWith('sp-map-dragbox');
    expect(mapFiles.length, 'the map is in the build').toBeGreaterThan(0);
    /** A first visit (a new context: nothing cached) and the scripts it loaded, with the bytes that came over the wire. */
    const firstLoad = async (address: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = watchScripts(page);
      await page.goto(address);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      await expect.poll(() => [...scripts.values()].every((size) => size > 0)).toBe(true);
      return { context, page, scripts, loaded: new Map(scripts) };
    };
    const sum = (files: Map<string, number>, names = [...files.keys()]) => names.reduce((total, name) => total + files.get(name)!, 0);

    const { context: aboutContext, loaded: about } = await firstLoad('/en/about');
    await aboutContext.close();
    const { context, page, scripts, loaded: data } = await firstLoad('/en/data/?q=glacier');
    const names = [...data.keys()];
    expect(
      names.filter((name) => mapFiles.includes(name)),
      'no map code before the map is shown',
    ).toEqual([]);
    const total = sum(data);
    // What the search page adds to the public shell that every page loads.
    const own = names.filter((name) => !about.has(name));
    console.log(`/en/data/ first load: ${kb(total)} compressed in ${names.length} scripts; the search page's own: ${kb(sum(data, own))} (${own.join(', ')})`);
    expect(sum(data, own), "the search page's own scripts").toBeLessThanOrEqual(12 * 1024);

    expect(
      names.filter((name) => name.startsWith('antd-')),
      'no Ant Design on a public page',
    ).toEqual([]);
    expect(total, 'the whole first load of /en/data/').toBeLessThanOrEqual(FIRST_LOAD_BUDGET);

    scripts.clear();
    await page.getByRole('button', { name: textsOf('en').search.ui.map.show }).click();
    await expect(page.getByTestId('search-map').locator('canvas').first()).toBeVisible();
    await expect.poll(() => [...scripts.keys()].filter((name) => mapFiles.includes(name)).length, { message: "the map's code is loaded when it is shown" }).toBeGreaterThan(0);
    await expect.poll(() => [...scripts.values()].every((size) => size > 0)).toBe(true);
    console.log(
      `map chunk: ${[...scripts]
        .filter(([name]) => mapFiles.includes(name))
        .map(([name, size]) => `${name} ${kb(size)}`)
        .join(', ')}`,
    );
    await context.close();
  });
});

test.describe('Lighthouse on the search page', () => {
  test('accessibility scores at least 98 with results, in both languages; the mobile performance score is reported', async ({ baseURL }) => {
    test.setTimeout(240_000);
    await withLighthouse(baseURL!, async (_context, audit) => {
      const english = await audit('/en/data/?q=glacier', ['accessibility', 'performance']);
      const chinese = await audit(`/data/?q=${encodeURIComponent('冰川')}`, ['accessibility']);
      console.log(
        `Lighthouse /en/data/?q=glacier: accessibility ${english.scores.accessibility}, mobile performance ${english.scores.performance} (${english.metrics}); /data/?q=冰川: accessibility ${chinese.scores.accessibility}`,
      );
      // Performance is reported, not asserted: its simulated timings follow the machine's load (the issue's target is 90).
      test.info().annotations.push({ type: 'performance', description: `mobile performance ${english.scores.performance} on /en/data/?q=glacier` });
      for (const { scores, failed } of [english, chinese]) expect(scores.accessibility, failed.join(', ')).toBeGreaterThanOrEqual(98);
    });
  });
});
