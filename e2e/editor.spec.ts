import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import type { Locator } from '@playwright/test';
import { AFTER_LOAD, createUser, expect, logIn, prefixOf, settled, test, textsOf, timePattern, uniqueName, withDb } from './fixtures';

const LANGUAGES: Language[] = ['zh-hans', 'en'];

/** Signs a new provider in and opens the editor of a new record written in `recordLanguage`. */
async function newRecord(page: Page, language: Language, recordLanguage: Language = language) {
  const e = textsOf(language).editor;
  const provider = await createUser({ realname: 'Editor Tester' });
  await logIn(page, language, provider.username, provider.password);
  await page.goto(`${prefixOf(language)}/personal/#/metadata/add`);
  await page.getByRole('radio', { name: recordLanguage === 'en' ? e.languageEn : e.languageZh }).check();
  await page.getByRole('button', { name: e.create }).click();
  await expect(page).toHaveURL(/#\/metadata\/edit\/[\w-]+$/);
  // The editor's code and the new record arrive first: a first load on a busy machine.
  await expect(page.getByLabel(e.fields.title, { exact: true })).toBeVisible(AFTER_LOAD);
  return new URL(page.url()).hash.split('/').at(-1)!;
}

/** The page is no wider than the screen, and the dialog's buttons and fields lie inside it. */
async function expectFits(page: Page, dialog: Locator) {
  await settled(dialog);
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // What reaches past the screen's edge, named for the failure message.
    wide: [...document.querySelectorAll('body *')]
      .filter((element) => {
        if (element.getBoundingClientRect().right <= window.innerWidth + 0.5) return false;
        // Inside a box that clips or scrolls it (the tab bar), it does not widen the page.
        for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
          if (getComputedStyle(parent).overflowX !== 'visible') return false;
        }
        return true;
      })
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`),
  }));
  expect(scrollWidth, wide.join('; ')).toBeLessThanOrEqual(innerWidth);
  for (const control of await dialog.locator('button, input, .ant-select').all()) {
    const box = await control.boundingBox();
    if (!box) continue;
    expect(box.x, await control.evaluate((element) => element.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(innerWidth);
  }
}

/** Sets a record's status as the (not yet built) review would. */
function setStatus(id: string, status: string) {
  withDb((db) => db.prepare('update metadata set status = ? where id = ?').run(status, id));
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const e = texts.editor;
  const prefix = prefixOf(language);
  const english = language === 'en';

  test.describe(`the metadata editor (${language})`, () => {
    test('an invalid e-mail does not lose the title and abstract: the save state says so and a reload shows them', async ({ page }) => {
      await newRecord(page, language);
      const title = `${english ? 'Snow depth of the Pamirs' : '帕米尔积雪深度'} ${uniqueName('')}`;
      const abstract = english ? 'Daily snow depth from twelve stations.' : '十二个站点的逐日积雪深度。';
      await page.getByLabel(e.fields.title, { exact: true }).fill(title);
      await page.getByLabel(e.fields.description, { exact: true }).fill(abstract);
      await page.getByLabel(e.fields.dist_email).fill('not-an-e-mail');
      const state = page.getByTestId('save-state');
      await expect(state).toHaveText(timePattern(e.saveState.partial));
      await expect(state).toContainText(e.fields.dist_email);
      await expect(page.getByText(texts.validation.email.invalid)).toHaveCount(1);

      // The bad e-mail is not stored: leaving the page asks first.
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.type());
        void dialog.accept();
      });
      await page.reload();
      // A reload starts the personal centre anew (its shell, Ant Design, the editor): slower than an edit on a busy machine.
      await expect(page.getByLabel(e.fields.title, { exact: true })).toHaveValue(title, { timeout: 30_000 });
      await expect(page.getByLabel(e.fields.description, { exact: true })).toHaveValue(abstract);
      // The e-mail typed is still here, with its error, until it is fixed.
      await expect(page.getByLabel(e.fields.dist_email)).toHaveValue('not-an-e-mail');
      await expect(page.getByText(texts.validation.email.invalid)).toBeVisible();
      expect(dialogs).toContain('beforeunload');

      // Fixed, everything is saved.
      await page.getByLabel(e.fields.dist_email).fill('snow@example.org');
      await expect(state).toHaveText(timePattern(e.saveState.saved));
      await page.reload();
      await expect(page.getByLabel(e.fields.dist_email)).toHaveValue('snow@example.org');
    });

    test('leaving the editor in the app with changes that cannot be saved asks first', async ({ page }) => {
      await newRecord(page, language);
      await page.getByLabel(e.fields.title, { exact: true }).fill(`${english ? 'Lake ice' : '湖冰'} ${uniqueName('')}`);
      await page.getByLabel(e.fields.dist_email).fill('lake@');
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.partial));
      const drafts = page.getByRole('menuitem', { name: texts.menu.drafts, exact: true });
      await drafts.click();
      const ask = page.getByRole('dialog').filter({ hasText: e.leave.title });
      await expect(ask).toBeVisible();
      await expect(ask).toContainText(e.fields.dist_email);
      await ask.getByRole('button', { name: e.leave.stay }).click();
      // The closing dialog is gone before the next one is asked for (its buttons answer no more).
      await expect(ask).toBeHidden();
      await expect(page).toHaveURL(/#\/metadata\/edit\//);
      await expect(page.getByLabel(e.fields.dist_email)).toHaveValue('lake@');
      // A click in the moment after Stay, before the app has let go of the first attempt, is not
      // a second attempt: it is made again until the question is asked (a person is never that fast).
      await expect(async () => {
        if (!(await ask.isVisible())) await drafts.click({ timeout: 2_000 });
        await expect(ask).toBeVisible({ timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
      await ask.getByRole('button', { name: e.leave.leave }).click();
      await expect(page.getByRole('heading', { name: e.list.draftTitle })).toBeVisible();
    });

    test('a refused field is named by its label, once', async ({ page }) => {
      await newRecord(page, language);
      await page.getByLabel(e.fields.title, { exact: true }).fill(`${english ? 'Permafrost' : '冻土'} ${uniqueName('')}`);
      // The order of the time range is the server's rule: the end is refused, the rest is saved.
      await page.getByLabel(e.fields.timeStart).fill('2020-01-01');
      await page.getByLabel(e.fields.timeEnd).fill('2010-01-01');
      const state = page.getByTestId('save-state');
      await expect(state).toHaveText(timePattern(e.saveState.partial));
      await expect(state).toContainText(e.fields.timeEnd);
      await expect(page.getByText(texts.metadata.validation.timeOrder)).toHaveCount(1);
      await expect(page.getByText('time_end')).toHaveCount(0);

      // The checklist's required fields carry the required mark.
      for (const name of [e.fields.title, e.fields.usageMethod, e.fields.fileSize, e.fields.east]) {
        await expect(page.locator('label.ant-form-item-required').filter({ hasText: new RegExp(`^\\*?\\s*${name.replace(/[()]/g, '\\$&')}$`) })).toHaveCount(1);
      }

      // A keyword the record has already: the server's refusal under the keyword field only.
      await page.getByRole('tab', { name: e.tabs.keywords }).click();
      const other: Language = english ? 'zh-hans' : 'en';
      const translationLabel = e.keyword.translation.replace('{{language}}', texts.metadata.options.language[other]);
      for (let i = 0; i < 2; i++) {
        await page.getByRole('textbox', { name: e.keyword.name, exact: true }).fill('glacier');
        await page.getByLabel(translationLabel).fill('冰川');
        await page.getByRole('button', { name: e.keyword.add }).click();
        // Add is busy until the list is read again (a click meanwhile adds nothing): the second waits for it.
        if (i === 0) await expect(page.getByText(e.keyword.added)).toBeVisible();
        if (i === 0) await expect(page.getByRole('button', { name: e.keyword.add })).not.toHaveClass(/ant-btn-loading/);
      }
      await expect(page.getByText(texts.metadata.keyword.exists)).toHaveCount(1);
      await expect(page.locator('.ant-form-item').filter({ hasText: texts.metadata.keyword.exists }).locator('.ant-form-item-label label')).toContainText(e.keyword.name);
      await expect(page.getByText(/\bname:/)).toHaveCount(0);
    });

    test('on a phone every dialog fits the screen, and Add clicked twice adds one provider', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await newRecord(page, language);
      /** Opens a dialog by its button and checks it fits; returns it. */
      const open = async (opener: string) => {
        await page.getByRole('button', { name: opener, exact: true }).click();
        const dialog = page.getByRole('dialog').filter({ hasText: opener });
        await expectFits(page, dialog);
        return dialog;
      };
      /** A tab chosen; on a phone the bar may still be sliding from the last choice, so the click is tried again until it holds. */
      const openTab = async (name: string) => {
        const tab = page.getByRole('tab', { name, exact: true });
        await expect(async () => {
          await tab.click();
          await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 1000 });
        }).toPass();
      };
      const close = async (dialog: Locator) => {
        await dialog.getByRole('button', { name: e.cancel }).click();
        await expect(dialog).toBeHidden();
      };
      // The tabs in their order: on a phone the bar scrolls to the one chosen, and those behind it leave the screen.
      await close(await open(e.fundNew));

      await openTab(e.tabs.providers);
      const provider = e.author.createNew.replace('{{what}}', e.author.provider);
      const dialog = await open(provider);
      // Add double-clicked: the button waits for the first answer, and one provider is added.
      const name = uniqueName(english ? 'Glacier Institute ' : '冰川研究所');
      await dialog.getByLabel(e.author.name, { exact: true }).fill(name);
      await dialog.getByLabel(e.author.nameEn, { exact: true }).fill(`${name} (en)`);
      await dialog.getByLabel(e.author.affiliation, { exact: true }).fill(english ? 'Lanzhou University' : '兰州大学');
      await dialog.getByLabel(e.author.affiliationEn, { exact: true }).fill('Lanzhou University');
      await dialog.getByLabel(e.author.email).fill(`${uniqueName('provider')}@example.org`);
      await dialog.getByRole('button', { name: e.add }).dblclick();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1);
      // The second click never reached the server (which would refuse it, with this message).
      await expect(page.getByText(texts.metadata.repeatedCreate)).toHaveCount(0);
      expect(withDb((db) => (db.prepare('select count(*) as n from authors where name = ?').get(name) as { n: number }).n)).toBe(1);
      await close(await open(e.author.pickExisting.replace('{{what}}', e.author.provider)));

      await openTab(e.tabs.authors);
      await close(await open(e.author.createNew.replace('{{what}}', e.author.author)));
      await openTab(e.tabs.reference);
      await close(await open(e.reference.add));
    });

    test('the author dialog takes an ORCID iD: a wrong check digit is told at the field, the address form stored bare (1280 and 390 px)', async ({ page }) => {
      const ids = texts.identifiers;
      await newRecord(page, language);
      await page.getByRole('tab', { name: e.tabs.providers, exact: true }).click();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        const opener = e.author.createNew.replace('{{what}}', e.author.provider);
        await page.getByRole('button', { name: opener, exact: true }).click();
        const dialog = page.getByRole('dialog').filter({ hasText: opener });
        await expectFits(page, dialog);
        const name = uniqueName(english ? 'Permafrost Lab ' : '冻土实验室');
        await dialog.getByLabel(e.author.name, { exact: true }).fill(name);
        await dialog.getByLabel(e.author.nameEn, { exact: true }).fill(`${name} (en)`);
        await dialog.getByLabel(e.author.affiliation, { exact: true }).fill(english ? 'Lanzhou University' : '兰州大学');
        await dialog.getByLabel(e.author.affiliationEn, { exact: true }).fill('Lanzhou University');
        await dialog.getByLabel(e.author.email).fill(`${uniqueName('orcid')}@example.org`);
        await dialog.getByLabel(ids.affiliationRor, { exact: true }).fill('https://ror.org/01mkqqe32');
        await dialog.getByLabel(ids.orcid, { exact: true }).fill('0000-0002-1825-0098');
        // Under the ORCID field as typed, in the page's language, and the dialog still fits with it.
        const orcidItem = dialog.locator('.ant-form-item').filter({ hasText: ids.orcidInvalid });
        await expect(orcidItem).toHaveCount(1);
        await expect(orcidItem.locator('.ant-form-item-label label')).toHaveText(ids.orcid);
        await expectFits(page, dialog);
        expect(withDb((db) => (db.prepare('select count(*) as n from authors where name = ?').get(name) as { n: number }).n)).toBe(0);

        await dialog.getByLabel(ids.orcid, { exact: true }).fill('https://orcid.org/0000-0002-1825-0097');
        await expect(dialog.getByText(ids.orcidInvalid)).toHaveCount(0);
        await dialog.getByRole('button', { name: e.add }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByRole('row').filter({ hasText: name }).getByRole('link', { name: '0000-0002-1825-0097' })).toHaveAttribute(
          'href',
          'https://orcid.org/0000-0002-1825-0097',
        );
        const stored = withDb((db) => db.prepare('select orcid, affiliation_ror from authors where name = ?').get(name)) as { orcid: string; affiliation_ror: string };
        expect(stored).toEqual({ orcid: '0000-0002-1825-0097', affiliation_ror: '01mkqqe32' });
      }
    });

    test('the projection list holds real projections only', async ({ page }) => {
      await newRecord(page, language);
      await page.getByLabel(e.fields.projection).click();
      const options = page.locator('.ant-select-item-option');
      await expect(options.filter({ hasText: 'WGS84' })).toBeVisible();
      await page.getByLabel(e.fields.projection).fill('token');
      await expect(options.filter({ hasText: '{token}' })).toHaveCount(0);
      // The list of the server has no such entry either (a closed list shows nothing typed).
      const served = await page.evaluate(async () => (await (await fetch('/metadata/projections/')).json()) as { results: string[] });
      expect(served.results).not.toContain('{token}');
    });

    test('a published record reads as a document that says it is published; one in review offers Return to Draft', async ({ page }) => {
      const id = await newRecord(page, language);
      const title = `${english ? 'Glacier outlines' : '冰川边界'} ${uniqueName('')}`;
      await page.getByLabel(e.fields.title, { exact: true }).fill(title);
      await page.getByLabel(e.fields.dist_email).fill('outlines@example.org');
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));

      setStatus(id, 'published');
      await page.reload();
      await expect(page.getByText(e.readOnly.published)).toBeVisible();
      await expect(page.getByText(texts.metadata.readOnly)).toHaveCount(0);
      await expect(page.getByRole('button', { name: e.returnDraft })).toHaveCount(0);
      // Labels and values, no form fields, no autosave hint.
      await expect(page.getByRole('textbox')).toHaveCount(0);
      await expect(page.getByText(e.autosaveHint)).toHaveCount(0);
      const document = page.getByTestId('record-document');
      await expect(document.getByText(title)).toBeVisible();
      await expect(document.getByText('outlines@example.org')).toBeVisible();
      await expect(document.getByText(e.fields.dist_email, { exact: true })).toBeVisible();

      setStatus(id, 'submitted');
      await page.reload();
      await expect(page.getByText(e.readOnly.inReview)).toBeVisible();
      await expect(page.getByRole('textbox')).toHaveCount(0);
      await expect(page.getByTestId('record-document').getByText(title)).toBeVisible();
      await expect(page.getByRole('button', { name: e.returnDraft })).toBeVisible();
    });

    test("the Translations tab says which fields have no translation yet, and keeps the distributor's (issue 16; 1280 and 390 px)", async ({ page }) => {
      const other: Language = english ? 'zh-hans' : 'en';
      const otherName = texts.metadata.options.language[other];
      const id = await newRecord(page, language);
      await page.getByLabel(e.fields.title, { exact: true }).fill(`${english ? 'Lake ice' : '湖冰'} ${uniqueName('')}`);
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));
      withDb((db) => db.prepare('update metadata set dist_unit = ?, dist_city = ? where id = ?').run(english ? 'Data Center' : '数据中心', english ? 'Lhasa' : '拉萨', id));
      await page.reload();
      await page.getByRole('tab', { name: e.tabs.translations }).click();
      const hint = e.translation.untranslated.replace('{{language}}', otherName).replace('{{own}}', texts.metadata.options.language[language]);
      await expect(page.getByTestId('untranslated-title')).toHaveText(hint);
      await expect(page.getByTestId('untranslated-dist_unit')).toHaveText(hint);
      await expect(page.getByTestId('untranslated-dist_city')).toHaveText(hint);
      // The record has no abstract, province or country of its own: nothing to say.
      for (const field of ['description', 'dist_province', 'dist_country']) await expect(page.getByTestId(`untranslated-${field}`)).toHaveCount(0);
      const unit = page.getByLabel(`${e.translation.distUnit} (${otherName})`);
      await unit.fill(english ? '数据中心' : 'Data Center');
      await expect(page.getByTestId('untranslated-dist_unit')).toHaveCount(0);
      await expect(page.getByTestId('untranslated-title')).toBeVisible();
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));
      await page.reload();
      await page.getByRole('tab', { name: e.tabs.translations }).click();
      await expect(page.getByLabel(`${e.translation.distUnit} (${otherName})`)).toHaveValue(english ? '数据中心' : 'Data Center');
      // The city, province and country, with the rest, on a phone's screen.
      await page.setViewportSize({ width: 390, height: 844 });
      const translated = english
        ? { dist_address: '林萃路16号', dist_city: '拉萨', dist_province: '西藏', dist_country: '中国' }
        : { dist_address: '16 Lincui Road', dist_city: 'Lhasa', dist_province: 'Tibet', dist_country: 'China' };
      const labels = {
        dist_address: e.translation.distAddress,
        dist_city: e.translation.distCity,
        dist_province: e.translation.distProvince,
        dist_country: e.translation.distCountry,
      };
      for (const [field, value] of Object.entries(translated)) await page.getByLabel(`${labels[field as keyof typeof labels]} (${otherName})`).fill(value);
      await expect(page.getByTestId('untranslated-dist_city')).toHaveCount(0);
      await expectFits(page, page.locator('form#translation'));
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));
      const stored = withDb((db) => db.prepare('select dist_unit, dist_address, dist_city, dist_province, dist_country from metadata_i18n where metadata_id = ?').get(id));
      expect(stored).toEqual({ dist_unit: english ? '数据中心' : 'Data Center', ...translated });
    });

    test('the drafts list shows the title in the language of the page', async ({ page }) => {
      // A record written in the other language, with a title in the page's language.
      const recordLanguage: Language = english ? 'zh-hans' : 'en';
      await newRecord(page, language, recordLanguage);
      const own = `${english ? '冰湖编目' : 'Glacial lake inventory'} ${uniqueName('')}`;
      const translated = `${english ? 'Glacial lake inventory' : '冰湖编目'} ${uniqueName('')}`;
      await page.getByLabel(e.fields.title, { exact: true }).fill(own);
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));
      if (english) {
        await page.getByLabel(e.fields.titleEn, { exact: true }).fill(translated);
        await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));
      } else {
        await page.getByRole('tab', { name: e.tabs.translations }).click();
        await page.getByLabel(`${e.fields.title} (${texts.metadata.options.language['zh-hans']})`).fill(translated);
        await page.getByRole('button', { name: e.save, exact: true }).click();
        await expect(page.getByText(texts.metadata.saved)).toBeVisible();
      }
      await page.goto(`${prefix}/personal/#/metadata/draft`);
      await expect(page.getByRole('link', { name: translated })).toBeVisible();
    });
  });
}
