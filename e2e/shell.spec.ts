import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { AFTER_LOAD, createUser, expect, logIn, prefixOf, test, textsOf } from './fixtures';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const PHONE = { width: 390, height: 844 };

/** "All changes saved at {{time}}" of the catalogue as a pattern that any hh:mm matches. */
const savedPattern = (template: string) => new RegExp(template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\{time\}\}/, '\\d{1,2}:\\d{2}'));

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no box for ${locator}`);
  return box;
}

/** Each of the header's parts lies inside the header and the viewport, and no two of them overlap. */
async function expectHeaderFits(page: Page, header: Locator, parts: Record<string, Locator>) {
  const viewport = page.viewportSize()!;
  const outer = await boxOf(header);
  const boxes = await Promise.all(Object.entries(parts).map(async ([name, part]) => ({ name, box: await boxOf(part) })));
  for (const { name, box } of boxes) {
    expect(box.x, `${name} starts inside the viewport`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends inside the viewport`).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y, `${name} starts inside the header`).toBeGreaterThanOrEqual(outer.y - 0.5);
    expect(box.y + box.height, `${name} ends inside the header`).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const apart =
        a.box.x + a.box.width <= b.box.x + 0.5 || b.box.x + b.box.width <= a.box.x + 0.5 || a.box.y + a.box.height <= b.box.y + 0.5 || b.box.y + b.box.height <= a.box.y + 0.5;
      expect(apart, `${a.name} and ${b.name} do not overlap`).toBe(true);
    }
  }
  // Nothing sticks out sideways: the page does not scroll horizontally.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
}

/** The element shows its whole text: not clipped by an ellipsis or a narrow box. */
async function expectWholeText(locator: Locator, text: string) {
  await expect(locator).toBeVisible();
  await expect(locator).toHaveText(text);
  const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  expect(clipped, `"${text}" is not clipped`).toBe(false);
}

/** The topmost element at the centre of a field is the field itself: nothing covers it. */
async function expectUncovered(locator: Locator) {
  const covered = await locator.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return !(top === el || el.contains(top));
  });
  expect(covered, 'nothing covers the field').toBe(false);
}

/**
 * The login screen a visitor was sent to: it says they will be taken back, refuses nothing, and
 * takes the account. Soft on the notice, so that a missing one is reported and the return is still checked.
 */
async function signInWhenAsked(page: Page, language: Language, user: { username: string; password: string }) {
  const texts = textsOf(language);
  // The first thing a fresh load shows (the personal centre's code, then the login screen's chunk).
  await expect(page.getByRole('heading', { name: texts.account.loginTitle })).toBeVisible(AFTER_LOAD);
  await expect.soft(page.getByText(texts.account.loginToContinue)).toBeVisible();
  await expect(page.getByText(texts.account.forbidden)).toHaveCount(0);
  await page.getByLabel(texts.fields.login).fill(user.username);
  await page.getByLabel(texts.fields.password, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: texts.account.loginButton }).click();
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const prefix = prefixOf(language);
  const english = language === 'en';
  const siteTitle = texts.site.portal.title;

  test.describe(`the shell on a phone (${language})`, () => {
    test.use({ viewport: PHONE });

    test("the personal centre: the menu opens as a drawer, the header fits, the editor's title takes the full width", async ({ page }) => {
      const realname = english ? 'Ada Glacier-Lovelace' : '李冰川研究员';
      const user = await createUser({ realname });
      await logIn(page, language, user.username, user.password);
      await page.goto(`${prefix}/personal/#/`);
      await expect(page.getByRole('heading', { name: texts.dashboard.greeting.replace('{{name}}', realname) })).toBeVisible();

      // No side menu eating the width: the menu sits behind a button in the header.
      const header = page.getByRole('banner');
      const menuButton = header.getByRole('button', { name: texts.nav.openMenu });
      await expect(page.getByRole('navigation', { name: texts.nav.personal })).toBeHidden();
      await expectHeaderFits(page, header, { menuButton, brand: header.getByRole('link', { name: siteTitle }), user: page.getByTestId('header-user') });
      await expectWholeText(page.getByTestId('header-user-name'), realname);

      // The drawer holds the personal menu, the site's links and the language switch.
      await menuButton.click();
      const drawer = page.getByRole('dialog', { name: texts.nav.menu });
      await expect(drawer).toBeVisible();
      const menu = drawer.getByRole('navigation', { name: texts.nav.personal });
      await expect(menu.getByText(texts.menu.settings)).toBeVisible();
      await expect(drawer.getByRole('link', { name: texts.nav.data })).toBeVisible();
      await expect(drawer.getByRole('button', { name: texts.nav.switchToLabel })).toBeVisible();
      await menu.getByText(texts.menu.myData).click();
      await menu.getByText(texts.menu.newData).click();
      await expect(page).toHaveURL(/#\/metadata\/add$/);
      await expect(drawer).toBeHidden();

      // A new record; its title typed in the editor, whose field spans the screen and is not covered.
      await page.getByRole('radio', { name: english ? texts.editor.languageEn : texts.editor.languageZh }).check();
      await page.getByRole('button', { name: texts.editor.create }).click();
      await expect(page).toHaveURL(/#\/metadata\/edit\/[\w-]+$/);
      const title = page.getByLabel(texts.editor.fields.title, { exact: true });
      // The editor's code and the new record arrive first.
      await expect(title).toBeVisible(AFTER_LOAD);
      await title.click();
      await title.pressSequentially(english ? 'Snow depth of the Pamirs' : '帕米尔积雪深度');
      await expect(title).toHaveValue(english ? 'Snow depth of the Pamirs' : '帕米尔积雪深度');
      // The field as drawn: the text box with its character count beside it (the count takes part of the row).
      const field = await boxOf(title.locator('xpath=ancestor::*[contains(@class, "ant-form-item-control-input-content")][1]'));
      expect(field.width, 'the title field spans the screen').toBeGreaterThanOrEqual(PHONE.width - 64);
      expect(field.x).toBeGreaterThanOrEqual(0);
      expect(field.x + field.width).toBeLessThanOrEqual(PHONE.width);
      await expectUncovered(title);
      const headerBox = await boxOf(header);
      expect(field.y, 'the title field is below the header').toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
      await expect(page.getByTestId('save-state')).toHaveText(savedPattern(texts.editor.saveState.saved));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    });

    test("the public header shows the whole site title and user name, and its menu opens the site's pages", async ({ page }) => {
      const realname = english ? 'Ada Glacier-Lovelace' : '李冰川研究员';
      const user = await createUser({ realname });
      await logIn(page, language, user.username, user.password);
      await page.goto(english ? '/en/' : '/');
      const header = page.getByRole('banner');
      const brandTitle = header.getByText(siteTitle, { exact: true });
      await expectWholeText(brandTitle, siteTitle);
      await expectWholeText(page.getByTestId('header-user-name'), realname);
      const menuButton = header.getByRole('button', { name: texts.nav.openMenu });
      await expectHeaderFits(page, header, { menuButton, brand: brandTitle, user: page.getByTestId('header-user') });

      await menuButton.click();
      const drawer = page.getByRole('dialog', { name: texts.nav.menu });
      await expect(drawer.getByRole('button', { name: texts.nav.switchToLabel })).toBeVisible();
      await drawer.getByRole('link', { name: texts.nav.data, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${english ? '/en' : ''}/data/$`));
      // Exact: the home page's headings ("热门数据" ...) also hold the word while it is replaced.
      await expect(page.getByRole('heading', { name: texts.data.title, exact: true })).toBeVisible();
      await expect(drawer).toBeHidden();
    });

    test('the public header of a visitor offers sign in without cutting the title', async ({ page }) => {
      await page.goto(english ? '/en/' : '/');
      const header = page.getByRole('banner');
      const brandTitle = header.getByText(siteTitle, { exact: true });
      await expectWholeText(brandTitle, siteTitle);
      const login = header.getByRole('link', { name: texts.nav.login, exact: true });
      const menuButton = header.getByRole('button', { name: texts.nav.openMenu });
      await expectHeaderFits(page, header, { menuButton, brand: brandTitle, login });
    });
  });

  test.describe(`the personal centre's menu (${language})`, () => {
    /** The menu's entries for a user who is not staff, in the order shown. */
    const everyone = [
      texts.menu.dashboard,
      texts.menu.basket,
      texts.menu.orderHistory,
      texts.menu.download,
      texts.menu.voucher,
      texts.menu.dataTables,
      texts.ordersUi.menu.requests,
      texts.menu.newData,
      texts.menu.drafts,
      texts.menu.reviewing,
      texts.menu.published,
      texts.menu.applyStatistics,
      texts.menu.myMethods,
      texts.menu.exploreMethods,
      texts.menu.shareMethods,
      texts.menu.invitedReview,
      texts.menu.reviewHistory,
      texts.menu.profile,
      texts.menu.settings,
    ];

    /** Every entry of the side menu, its groups opened, with whether it is disabled. */
    async function menuEntries(page: Page) {
      const menu = page.getByRole('navigation', { name: texts.nav.personal });
      await expect(menu.getByText(texts.menu.settings)).toBeVisible({ timeout: 30_000 });
      const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
      // Each click opens one group (and takes it off this list).
      for (let opened = 0; opened < 10 && (await closed.count()) > 0; opened++) await closed.first().click();
      await expect(closed).toHaveCount(0);
      const items = menu.locator('li.ant-menu-item');
      return Promise.all((await items.all()).map(async (item) => ({ label: (await item.innerText()).trim(), disabled: (await item.getAttribute('aria-disabled')) === 'true' })));
    }

    for (const role of ['user', 'staff'] as const) {
      test(`a ${role}'s menu has no dead entry: each opens a page the ${role} can use, as in the other language but for the Chinese-only pre-review`, async ({ page }) => {
        test.setTimeout(180_000);
        const user = await createUser({ realname: role === 'staff' ? 'Staff Menu' : 'Researcher Menu', staff: role === 'staff' });
        await logIn(page, language, user.username, user.password);
        await page.goto(`${prefix}/personal/#/`);
        const entries = await menuEntries(page);
        expect(
          entries.filter((entry) => entry.disabled).map((entry) => entry.label),
          'no disabled entry',
        ).toEqual([]);
        // Staff have the review group's staff pages after Review history: the spec's Chinese-only pre-review
        // (the only entry one language has and the other has not) and the DOI registrations.
        const staffPages = [...(english ? [] : [texts.menu.preReview]), texts.doi.ui.title];
        const afterHistory = everyone.indexOf(texts.menu.reviewHistory) + 1;
        const expected = role === 'staff' ? [...everyone.slice(0, afterHistory), ...staffPages, ...everyone.slice(afterHistory)] : everyone;
        expect(entries.map((entry) => entry.label)).toEqual(expected);

        // Each entry opens its page: not the not-found page, no notice that the page is not for this reader.
        for (const label of expected) {
          await page.getByRole('navigation', { name: texts.nav.personal }).locator('li.ant-menu-item').filter({ hasText: label }).first().click();
          await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 30_000 });
          await expect(page.getByRole('heading', { name: texts.notFound.title }), label).toHaveCount(0);
          await expect(page.getByText(texts.review.ui.preview.staffOnly), label).toHaveCount(0);
          // The menu stays open on the group of the page shown.
          await expect(page.getByRole('navigation', { name: texts.nav.personal }).locator('li.ant-menu-item-selected')).toHaveText(label);
        }
      });
    }
  });

  test.describe(`signing in where it is needed (${language})`, () => {
    test('an anonymous visitor of a personal page is asked to sign in and returned to that page', async ({ page }) => {
      const user = await createUser({ realname: english ? 'Returning Visitor' : '回访者' });
      await page.goto(`${prefix}/personal/#/personal/settings`);
      await signInWhenAsked(page, language, user);
      await expect(page).toHaveURL(new RegExp(`${prefix}/personal/#/personal/settings$`));
      await expect(page.getByRole('heading', { name: texts.settings.title })).toBeVisible();
    });

    test('an anonymous visitor of the admin page is asked to sign in, not refused, and returned to it', async ({ page }) => {
      const staff = await createUser({ staff: true, realname: english ? 'Data Centre' : '数据中心' });
      await page.goto(`${prefix}/admin/`);
      await signInWhenAsked(page, language, staff);
      await expect(page).toHaveURL(new RegExp(`${prefix}/admin/$`));
      await expect(page.getByRole('heading', { name: texts.admin.title })).toBeVisible();
      await expect(page.getByRole('cell', { name: staff.username, exact: true })).toBeVisible();
    });

    test("the home page's second button signs a visitor in and takes a signed-in user to the personal centre", async ({ page }) => {
      const home = english ? '/en/' : '/';
      await page.goto(home);
      const hero = page.getByRole('main');
      await expect(hero.getByRole('link', { name: texts.home.signIn })).toBeVisible();
      await hero.getByRole('link', { name: texts.home.signIn }).click();
      await expect(page.getByRole('heading', { name: texts.account.loginTitle })).toBeVisible();

      const realname = english ? 'Signed-in Scientist' : '已登录科学家';
      const user = await createUser({ realname });
      await logIn(page, language, user.username, user.password);
      await page.goto(home);
      await expect(page.getByTestId('header-user')).toBeVisible();
      await expect(hero.getByRole('heading', { name: texts.home.welcome })).toBeVisible();
      await expect(hero.getByRole('link', { name: texts.home.signIn })).toHaveCount(0);
      await hero.getByRole('link', { name: texts.home.openPersonal }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}/personal/#/$`));
      await expect(page.getByRole('heading', { name: texts.dashboard.greeting.replace('{{name}}', realname) })).toBeVisible();
    });
  });
}

/**
 * Built files holding the personal centre's shell and the metadata editor, found by strings only
 * their code has (a catalogue key the shell's menu button uses, the editor's save-state test id).
 */
function builtFilesWith(marker: string): string[] {
  const assets = path.resolve(import.meta.dirname, '../packages/web/dist/assets');
  return fs.readdirSync(assets).filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes(marker));
}

/** Public pages' first load: at most 170 KB of compressed JavaScript (issue "Find data"). */
const PUBLIC_JS_BUDGET_BYTES = 170 * 1000;

test.describe('public pages stay light', () => {
  test("the home, data, news and about pages never load the personal centre's shell, the editor or Ant Design", async ({ page }) => {
    const shellFiles = builtFilesWith("'menu.collapse'").concat(builtFilesWith('"menu.collapse"'));
    const editorFiles = builtFilesWith("'save-state'").concat(builtFilesWith('"save-state"'));
    // Ant Design's libraries name themselves in their messages ('@ant-design/fast-color: ...').
    const antdFiles = builtFilesWith('@ant-design/');
    expect(shellFiles.length, 'the shell is in the build').toBeGreaterThan(0);
    expect(editorFiles.length, 'the editor is in the build').toBeGreaterThan(0);
    expect(antdFiles.length, 'Ant Design is in the build').toBeGreaterThan(0);
    const personalFiles = [...shellFiles, ...editorFiles, ...antdFiles];

    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(path.basename(new URL(request.url()).pathname));
    });
    const user = await createUser({ realname: 'Light Pages' });
    // As a visitor, then signed in (the header then names the user, from the same light code).
    for (const signedIn of [false, true]) {
      if (signedIn) await logIn(page, 'en', user.username, user.password);
      for (const address of ['/', '/en/', '/data/', '/en/news/', '/about']) {
        scripts.length = 0;
        await page.goto(address);
        await expect(page.getByRole('banner')).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(scripts.length, `${address} loads scripts`).toBeGreaterThan(0);
        expect(
          scripts.filter((name) => personalFiles.includes(name)),
          `${address} (signed in: ${signedIn})`,
        ).toEqual([]);
      }
    }

    // The same check sees the shell when it is loaded: the personal centre does load it.
    scripts.length = 0;
    await page.goto('/en/personal/#/');
    await expect(page.getByTestId('header-user')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((name) => shellFiles.includes(name)).length).toBeGreaterThan(0);
    // And Ant Design with it.
    expect(scripts.filter((name) => antdFiles.includes(name)).length).toBeGreaterThan(0);
  });

  /**
   * Every script a first visit requests (a fresh browser context: nothing cached), each compressed
   * with gzip as the server would send it, summed. The home page and the data page, in both languages.
   */
  for (const address of ['/', '/en/', '/data/', '/en/data/']) {
    test(`${address} loads at most ${PUBLIC_JS_BUDGET_BYTES / 1000} KB of compressed JavaScript on a first visit`, async ({ browser }) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const bodies: Promise<{ name: string; gzip: number; sent: number }>[] = [];
        page.on('response', (response) => {
          const { pathname } = new URL(response.url());
          if (pathname.endsWith('.js') || response.request().resourceType() === 'script') {
            bodies.push(
              Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => ({
                name: path.basename(pathname),
                gzip: zlib.gzipSync(body).length,
                // What the server sent (brotli or gzip by Accept-Encoding), for the log.
                sent: sizes.responseBodySize,
              })),
            );
          }
        });
        await page.goto(address);
        await expect(page.getByRole('banner')).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        const scripts = await Promise.all(bodies);
        const total = scripts.reduce((sum, { gzip }) => sum + gzip, 0);
        const sent = scripts.reduce((sum, { sent }) => sum + sent, 0);
        console.log(
          `${address}: ${(total / 1000).toFixed(1)} KB of gzipped JavaScript (${(sent / 1000).toFixed(1)} KB sent) in ${scripts.length} files: ` +
            scripts.map(({ name, gzip }) => `${name} ${(gzip / 1000).toFixed(1)}`).join(', '),
        );
        expect(scripts.length, 'the page loads its scripts').toBeGreaterThan(0);
        expect(total, `${address}: gzipped JavaScript in bytes`).toBeLessThanOrEqual(PUBLIC_JS_BUDGET_BYTES);
      } finally {
        await context.close();
      }
    });
  }
});
