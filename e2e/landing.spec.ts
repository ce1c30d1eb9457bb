import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { E2E_DATA_DIR } from '../playwright.config';
import { AFTER_LOAD, createUser, expect, prefixOf, test, textsOf, uniqueName, watchScripts, withDb } from './fixtures';
import { withLighthouse } from './lighthouse';
import { apiSession, completeRecord, expectJson, submitCompleteRecord } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const PHONE = { width: 390, height: 844 };
const FIRST_LOAD_BUDGET = 170 * 1024;
/** Data files of the polar record: the one uploaded through the API and these, as a harvest by FTP would leave them (uploads stop at five). */
const MORE_FILES = 45;
/** Where screenshots go when asked for (LANDING_SHOTS_DIR), to look at the page by eye. */
const SHOTS = process.env.LANDING_SHOTS_DIR;

interface Seeded {
  run: string;
  polar: { id: string; en: string; zh: string; abstractZh: string; theme: { en: string; zh: string } };
  gone: { id: string; en: string; reason: string };
}

/**
 * A published Antarctic record of the data centre, made through the API as a provider and the desk
 * would (complete record, licence, protection period, distributor, literature, a fund), with 46 data
 * files; and a record published, then unpublished with a reason. Made once per run.
 */
async function seed(): Promise<Seeded> {
  const file = path.join(E2E_DATA_DIR, 'landing-spec-records.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Seeded;
  const run = uniqueName('lp');
  const staff = await createUser({ staff: true, realname: 'Landing Desk' });
  const provider = await createUser({ realname: 'Landing Provider' });
  const providerApi = await apiSession(provider.username, provider.password);
  const staffApi = await apiSession(staff.username, staff.password);
  const theme = { en: `Ice shelves ${run}`, zh: `冰架 ${run}` };
  const polar = {
    en: `Antarctic ice shelf basal melt ${run}`,
    zh: `南极冰架底部融化 ${run}`,
    abstractZh: '南极冰架底部融化速率数据集，基于卫星测高与冰流速反演，覆盖南纬六十五度以南的全部冰架。',
  };
  const { id } = await completeRecord(providerApi, polar.en, 'en', {
    box: { west: -180, south: -90, east: 180, north: -65 },
    translation: {
      title: polar.zh,
      description: polar.abstractZh,
      use_term: '使用本数据时请引用本数据集。',
      usage_method: '每年一个文件：glacier_YYYY.nc',
      dist_unit: '国家青藏高原科学数据中心',
      dist_address: '朝阳区林萃路16号',
      dist_city: '北京',
      dist_province: '北京市',
      dist_country: '中国',
    },
    keywords: [{ name: theme.en, type: 'theme', language: 'en', translation: theme.zh }],
  });
  await expectJson(
    await providerApi.patch(`/api/metadata/metadata/${id}/`, {
      data: {
        license: 'CC BY-NC-SA 4.0',
        sharing_policy: 'online',
        protection_period: 'oneYear',
        temporal_resolution: 'yearly',
        spatial_resolution: '1 km',
        projection: 'South_Pole_Stereographic',
        scale: 1000000,
        doi: `10.11888/Glacio.tpdc.${run}`,
        use_term: 'Cite this dataset when you use it.',
        dist_unit: 'National Tibetan Plateau Data Center',
        dist_address: '16 Lincui Road, Chaoyang District',
        dist_city: 'Beijing',
        dist_province: 'Beijing Municipality',
        dist_country: 'China',
        dist_email: 'data@tpdc.example.org',
      },
    }),
  );
  await expectJson(
    await providerApi.post('/api/metadata/literature/', {
      data: {
        metadata: id,
        title: '南极冰架底部融化的卫星观测',
        title_en: 'Satellite observations of Antarctic ice shelf basal melt',
        type: 'related',
        year: '2023',
        doi: '10.5194/tc-17-1-2023',
      },
    }),
    201,
  );
  await expectJson(
    await providerApi.post('/api/metadata/fund/', { data: { metadata: id, name: '南极冰架研究项目', name_en: 'Antarctic Ice Shelf Project', serial_number: 'XDA20100300' } }),
    201,
  );
  // A manager on the Author Information tab (issue 16): a contributor, whom no citation names.
  const manager = await expectJson(
    await providerApi.post('/api/metadata/author/', {
      data: {
        name: '王芳',
        name_en: 'Wang Fang',
        email: `wang-${run}@example.org`,
        affiliation: '国家青藏高原科学数据中心',
        affiliation_en: 'National Tibetan Plateau Data Center',
      },
    }),
    201,
  );
  await expectJson(await providerApi.post('/api/metadata/meta-author/', { data: { metadata: id, author: manager.id, role: 'manager', event_date: '2024-05-01' } }), 201);
  expect((await expectJson(await providerApi.post('/metadata/metadata-submit/', { data: { id } }))).status).toBe('true');
  await expectJson(await staffApi.patch(`/api/metadata/review-status/${id}/set_review_status/`, { data: { review_status: 'publish_without_review' } }));

  withDb((db) => {
    const owner = db.prepare('select owner_id from metadata where id = ?').get(id) as { owner_id: string };
    const insert = db.prepare('insert into meta_file (id, metadata_id, name, mime, storage_key, sha256, size, created_by, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const start = Date.now() + 60_000;
    for (let i = 1; i <= MORE_FILES; i++) {
      insert.run(randomUUID(), id, `tile_${String(i).padStart(3, '0')}.tif`, 'image/tiff', `e2e/${randomUUID()}`, '', 1_000_000, owner.owner_id, new Date(start + i).toISOString());
    }
  });

  const gone = { en: `Withdrawn lake ice ${run}`, reason: `Duplicates another dataset ${run}.` };
  const withdrawn = await submitCompleteRecord(providerApi, gone.en, 'en', { translation: { title: `撤销的湖冰 ${run}`, description: '湖冰。' } });
  await expectJson(await staffApi.patch(`/api/metadata/review-status/${withdrawn.id}/set_review_status/`, { data: { review_status: 'publish_without_review' } }));
  await expectJson(await staffApi.patch(`/api/metadata/review-status/${withdrawn.id}/set_review_status/`, { data: { review_status: 'unpublish', content: gone.reason } }));
  await providerApi.dispose();
  await staffApi.dispose();
  const seeded = { run, polar: { id, ...polar, theme }, gone: { id: withdrawn.id, ...gone } };
  fs.writeFileSync(file, JSON.stringify(seeded));
  return seeded;
}

let seeded: Seeded;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  seeded = await seed();
});

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const l = texts.landing;
  const english = language === 'en';
  const prefix = prefixOf(language);

  for (const phone of [false, true]) {
    test.describe(`a dataset's landing page (${language}${phone ? ', phone' : ''})`, () => {
      if (phone) test.use({ viewport: PHONE });

      test("opened from the search results: title, authors, keywords, the Antarctic map, paged files, the other language's abstract", async ({ page }) => {
        test.setTimeout(120_000);
        const title = english ? seeded.polar.en : seeded.polar.zh;
        await page.goto(`${prefix}/data/?q=${encodeURIComponent(seeded.run)}`);
        await page.getByRole('link', { name: title, exact: true }).click(AFTER_LOAD);
        await expect(page).toHaveURL(new RegExp(`${prefix}/data/${seeded.polar.id}/$`));
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible(AFTER_LOAD);
        await expect(page).toHaveTitle(new RegExp(`^${title.replace(/[.*+?^$()|[\]\\]/g, '\\$&')} - `));

        // Authors in the page's language, with their roles and affiliations: the creators the citation names.
        const authors = page.getByRole('region', { name: l.sections.authors });
        await expect(authors.getByRole('listitem')).toHaveText([
          english
            ? `Zhang Bingchuan${texts.landing.options.authorRole.resourceProvider}Institute of Tibetan Plateau Research, CAS`
            : `张冰川${texts.landing.options.authorRole.resourceProvider}中国科学院青藏高原研究所`,
        ]);
        // The other people under their roles: the manager is a contributor.
        const contributors = page.getByRole('region', { name: l.sections.contributors });
        await expect(contributors.getByRole('listitem')).toHaveText([
          english ? `Wang Fang${l.options.authorRole.manager}National Tibetan Plateau Data Center` : `王芳${l.options.authorRole.manager}国家青藏高原科学数据中心`,
        ]);
        // Keywords by type, in the page's language.
        const keywords = page.getByRole('region', { name: l.sections.keywords });
        const themes = keywords.getByRole('definition').filter({ has: page.getByText(english ? seeded.polar.theme.en : seeded.polar.theme.zh, { exact: true }) });
        await expect(themes).toHaveCount(1);
        await expect(keywords.getByRole('term')).toContainText([
          l.options.keywordType.discipline,
          l.options.keywordType.place,
          l.options.keywordType.temporal,
          l.options.keywordType.theme,
        ]);

        // Licence and DOI as links.
        await expect(page.getByRole('link', { name: l.options.license['BY-NC-SA'] })).toHaveAttribute('href', 'https://creativecommons.org/licenses/by-nc-sa/4.0/');
        await expect(page.getByRole('link', { name: `https://doi.org/10.11888/Glacio.tpdc.${seeded.run}` })).toBeVisible();
        // The distributor's organisation and address in the page's language (issue 16: the English ones showed on both pages).
        const contact = page.getByRole('region', { name: l.sections.contact });
        await expect(contact).toContainText(english ? 'National Tibetan Plateau Data Center' : '国家青藏高原科学数据中心');
        // The whole address too: an English one from the street up, a Chinese one from the country down.
        await expect(contact).toContainText(english ? '16 Lincui Road, Chaoyang District, Beijing, Beijing Municipality, China' : '中国 北京市 北京 朝阳区林萃路16号');
        await expect(contact).not.toContainText(english ? '国家青藏高原科学数据中心' : 'National Tibetan Plateau Data Center');
        for (const word of english ? ['林萃路', '北京', '中国'] : ['Lincui Road', 'Beijing', 'China']) await expect(contact).not.toContainText(word);
        // What the provider wrote in both languages shows in the page's (issue 16: one language showed on both pages).
        await expect(page.getByRole('region', { name: l.sections.access })).toContainText(english ? 'Cite this dataset when you use it.' : '使用本数据时请引用本数据集。');
        await expect(page.getByRole('region', { name: l.sections.details })).toContainText(english ? 'One file a year: glacier_YYYY.nc' : '每年一个文件：glacier_YYYY.nc');

        // The area on the Antarctic polar stereographic map, drawn when it nears the screen.
        await page.getByRole('region', { name: l.coverage.mapRegion }).scrollIntoViewIfNeeded();
        const map = page.getByTestId('landing-map');
        await expect(map).toHaveAttribute('data-view', 'antarctic');
        await expect(map).toHaveAccessibleName(l.coverage.map.replace('{{view}}', texts.search.ui.map.antarctic));
        await expect(map.locator('canvas').first()).toBeVisible();

        // 46 files, 20 a page: the second page starts with the 21st.
        const files = page.getByRole('region', { name: l.sections.files });
        await expect(files.getByText(new RegExp(l.files.summary.replace('{{count}}', '46').replace('{{size}}', '.*MB')))).toBeVisible();
        await expect(files.getByRole('row')).toHaveCount(21);
        await expect(files.getByRole('cell', { name: 'glacier_1990.csv' })).toBeVisible();
        await files.getByRole('button', { name: l.files.next }).click();
        await expect(files.getByRole('cell', { name: 'tile_020.tif' })).toBeVisible();
        await expect(files.getByRole('cell', { name: 'tile_019.tif' })).toHaveCount(0);
        await expect(files.getByText(l.files.page.replace('{{page}}', '2').replace('{{last}}', '3'))).toBeVisible();
        await expect(page).toHaveURL(/[?&]files=2$/);

        // The other language's title and abstract, a click away; the page stays.
        const versions = page.getByRole('group', { name: l.versions.label });
        const abstract = page.getByRole('region', { name: l.sections.abstract });
        await versions.getByRole('button', { name: english ? l.versions['zh-hans'] : l.versions.en }).click();
        await expect(abstract).toContainText(english ? seeded.polar.abstractZh : 'Annual glacier outlines of the Tibetan Plateau');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(english ? seeded.polar.zh : seeded.polar.en);
        await versions.getByRole('button', { name: english ? l.versions.en : l.versions['zh-hans'] }).click();
        await expect(abstract).toContainText(english ? 'Annual glacier outlines of the Tibetan Plateau' : seeded.polar.abstractZh);
        await expect(page).toHaveURL(new RegExp(`${prefix}/data/${seeded.polar.id}/`));

        // Cite it: the page's usual style first (GB/T 7714 in Chinese, APA in English), made by the server.
        const cite = page.getByRole('region', { name: l.cite.title });
        const styles = english ? [l.cite.styles.apa, l.cite.styles.gbt7714] : [l.cite.styles.gbt7714, l.cite.styles.apa];
        await expect(cite.locator('figcaption')).toHaveText(styles);
        const first = cite.locator('figure').first();
        await expect(first).toContainText(english ? `${seeded.polar.en} [Data set]` : `${seeded.polar.zh}[DS/OL]`);
        await expect(first).toContainText(`10.11888/Glacio.tpdc.${seeded.run}`);
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
        await cite.getByRole('button', { name: l.cite.copyStyle.replace('{{style}}', styles[0]!) }).click();
        await expect(page.getByRole('status').filter({ hasText: l.cite.copied })).toBeVisible();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await first.locator('p').innerText()).trim());
        const ris = cite.getByRole('link', { name: l.cite.formats.ris });
        await expect(ris).toHaveAttribute('href', `/api/metadata/metadata/${seeded.polar.id}/export/?format=ris&lang=${language}`);
        const download = await page.request.get((await ris.getAttribute('href'))!);
        expect(download.headers()['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
        expect(await download.text()).toMatch(/^TY {2}- DATA/m);
        expect(await noSidewaysScroll(page), 'nothing sticks out sideways').toBeLessThanOrEqual(0);
        // No wire names of the catalogue anywhere on the page.
        expect(await page.locator('main').innerText()).not.toMatch(/\b(landing|metadata|search)\.[a-z]+\.[A-Za-z]/);

        if (SHOTS) {
          fs.mkdirSync(SHOTS, { recursive: true });
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: path.join(SHOTS, `landing-${language}-${phone ? 'phone' : 'desktop'}.png`), fullPage: true });
        }

        // The site's language switch keeps the dataset: the same page in the other language.
        if (!phone) {
          const other = textsOf(english ? 'zh-hans' : 'en');
          await page.getByRole('button', { name: texts.nav.switchToLabel }).click();
          await expect(page).toHaveURL(new RegExp(`${english ? '' : '/en'}/data/${seeded.polar.id}/`));
          await expect(page.getByRole('heading', { level: 1, name: english ? seeded.polar.zh : seeded.polar.en })).toBeVisible(AFTER_LOAD);
          await expect(page.getByRole('region', { name: other.landing.cite.title }).locator('figcaption').first()).toHaveText(
            english ? other.landing.cite.styles.gbt7714 : other.landing.cite.styles.apa,
          );
        }
      });

      if (!phone) {
        test('a client that runs no script reads the title, the citation and the JSON-LD in the HTML', async ({ request }) => {
          const response = await request.get(`${prefix}/data/${seeded.polar.id}/`, { headers: { accept: 'text/html' } });
          expect(response.status()).toBe(200);
          const html = await response.text();
          const title = english ? seeded.polar.en : seeded.polar.zh;
          expect(html).toContain(`<title>${title} - `);
          const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!);
          expect(jsonLd).toMatchObject({ '@context': 'https://schema.org/', '@type': 'Dataset', name: title });
          expect(JSON.stringify(jsonLd)).toContain(`10.11888/Glacio.tpdc.${seeded.run}`);
          const citation = /<meta name="dcterms.bibliographicCitation" content="([^"]*)"/.exec(html)![1]!;
          expect(citation).toContain(english ? `${title} [Data set]` : `${title}[DS/OL]`);
        });
      }

      test('an unpublished record shows its tombstone with the reason; an unknown id is not found', async ({ page }) => {
        const response = await page.goto(`${prefix}/data/${seeded.gone.id}/`);
        expect(response?.status()).toBe(410);
        await expect(page.getByRole('heading', { level: 1, name: l.tombstone.title })).toBeVisible(AFTER_LOAD);
        await expect(page.getByText(seeded.gone.reason)).toBeVisible();
        await expect(page.getByText(seeded.gone.en, { exact: true })).toBeVisible();
        // Still citable.
        await expect(page.getByRole('region', { name: l.cite.title })).toContainText(english ? `${seeded.gone.en} [Data set]` : '[DS/OL]');
        expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
        expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `tombstone-${language}-${phone ? 'phone' : 'desktop'}.png`), fullPage: true });

        const missing = await page.goto(`${prefix}/data/${randomUUID()}/`);
        expect(missing?.status()).toBe(404);
        await expect(page.getByRole('heading', { level: 1, name: texts.notFound.title })).toBeVisible(AFTER_LOAD);
      });
    });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test.describe('the landing page stays light', () => {
  test(`its first load is at most ${FIRST_LOAD_BUDGET / 1024} KB of compressed JavaScript; the map's code comes only as the map nears the screen`, async ({ browser }) => {
    const assets = path.resolve(import.meta.dirname, '../packages/web/dist/assets');
    const mapFiles = fs.readdirSync(assets).filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes('ol-zoom'));
    expect(mapFiles.length, 'OpenLayers is in the build').toBeGreaterThan(0);
    // A phone: the map is far below the first screen.
    const context = await browser.newContext({ viewport: PHONE });
    // The page's head names the page's own code, fetched beside the entry (not after it has run).
    const html = await (await context.request.get(`/en/data/${seeded.polar.id}/`)).text();
    expect(html, "the landing page's chunk is preloaded").toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/LandingPage-[\w-]+\.js">/);
    const page = await context.newPage();
    const scripts = watchScripts(page);
    await page.goto(`/en/data/${seeded.polar.id}/`);
    await expect(page.getByRole('heading', { level: 1, name: seeded.polar.en })).toBeVisible(AFTER_LOAD);
    await page.waitForLoadState('networkidle');
    await expect.poll(() => [...scripts.values()].every((size) => size > 0)).toBe(true);
    const names = [...scripts.keys()];
    expect(
      names.filter((name) => mapFiles.includes(name)),
      'no map code on the first screen',
    ).toEqual([]);
    expect(
      names.filter((name) => name.startsWith('antd-')),
      'no Ant Design on a public page',
    ).toEqual([]);
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    console.log(`/en/data/{id}/ first load: ${kb(total)} compressed in ${names.length} scripts`);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);

    await page.getByRole('region', { name: textsOf('en').landing.coverage.mapRegion }).scrollIntoViewIfNeeded();
    await expect(page.getByTestId('landing-map').locator('canvas').first()).toBeVisible();
    await expect
      .poll(() => [...scripts.keys()].filter((name) => mapFiles.includes(name)).length, { message: "the map's code is loaded when it nears the screen" })
      .toBeGreaterThan(0);
    await context.close();
  });

  test("the server's first screen is drawn where the app then draws the page, at 1280 and 390 px in both languages", async ({ browser }) => {
    test.setTimeout(240_000);
    // Without scripts the visitor sees what the server wrote; with them, the app's page in its place.
    const parts = [
      '.site-header',
      '.site-header-brand img',
      '.site-header-brand span',
      '.site-header-actions',
      '.site-header .icon-button',
      '.header-login',
      '.site-nav-list',
      '.lp-breadcrumb',
      '#lp-title',
      '.lp-versions button',
      '#lp-abstract',
      '.lp-abstract p',
    ];
    const boxes = (page: Page) =>
      page.evaluate(
        (selectors) =>
          selectors.map((selector) => {
            const shown = [...document.querySelectorAll(selector)].filter((element) => element.getClientRects().length > 0);
            const box = (element: Element) => {
              const { x, y, width, height } = element.getBoundingClientRect();
              return [x, y, width, height].map((value) => Math.round(value * 10) / 10).join(',');
            };
            return `${selector}: ${shown.map(box).join(' | ')}`;
          }),
        parts,
      );
    const different: string[] = [];
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      for (const language of LANGUAGES) {
        const address = `${prefixOf(language)}/data/${seeded.polar.id}/`;
        const serverOnly = await browser.newContext({ viewport, javaScriptEnabled: false });
        const written = await serverOnly.newPage();
        await written.goto(address);
        await expect(written.locator('#lp-title')).toHaveText(language === 'en' ? seeded.polar.en : seeded.polar.zh);
        const before = await boxes(written);
        await serverOnly.close();
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(address);
        // The app's page: its facts beside or below the abstract.
        await expect(page.locator('.lp-aside')).toBeVisible(AFTER_LOAD);
        const after = await boxes(page);
        await context.close();
        before.forEach((box, index) => {
          if (box !== after[index]) different.push(`${viewport.width} px ${language}: server ${box}; app ${after[index]}`);
        });
        // The top menu is in the drawer on a phone.
        const expected = viewport === PHONE ? before.filter((box) => !box.startsWith('.site-nav-list:')) : before;
        expect(
          expected.filter((box) => box.endsWith(': ')),
          `every part is on the ${viewport.width} px first screen (${language})`,
        ).toEqual([]);
      }
    }
    expect(different).toEqual([]);
  });

  test("nothing moves as it loads on a phone (Lighthouse CLS 0), in both languages; the mobile performance score is reported beside the home page's", async ({ baseURL }) => {
    test.setTimeout(360_000);
    await withLighthouse(baseURL!, async (_context, audit) => {
      const results: string[] = [];
      const moved: string[] = [];
      for (const language of LANGUAGES) {
        const address = `${prefixOf(language)}/data/${seeded.polar.id}/`;
        // A first visit, as from a search engine: nothing of the site in the browser's cache.
        const { scores, metrics, layoutShift, shifted } = await audit(address, ['performance'], { cold: true });
        results.push(`${address}: ${scores.performance} (${metrics})`);
        if (layoutShift !== 0) moved.push(`${address} moved as it loaded (CLS ${layoutShift}): ${shifted.join(', ')}`);
      }
      // The home page in the same run, for comparison on a machine whose load moves the scores.
      const home = await audit('/en/', ['performance'], { cold: true });
      results.push(`/en/ (for comparison): ${home.scores.performance} (${home.metrics})`);
      console.log(`Lighthouse mobile performance of the landing page: ${results.join('; ')}`);
      test.info().annotations.push({ type: 'performance', description: results.join('; ') });
      expect(moved).toEqual([]);
    });
  });
});
