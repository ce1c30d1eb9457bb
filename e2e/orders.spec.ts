import type { Browser } from '@playwright/test';
import type { Language } from '@portal/shared';
import { AFTER_LOAD, createUsers, expect, prefixOf, settled, signedInQuietly, test, textsOf } from './fixtures';
import { fillApplication, like } from './orders-helpers';
import { apiSession, applyFor, publishedRecord } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const PHONE = { width: 390, height: 844 };

/** From the landing page to the file on disk: basket, application, the success dialog, the download page. */
async function basketToDownload(
  browser: Browser,
  language: Language,
  applicant: { username: string; password: string },
  record: { id: string; title: string },
  viewport?: typeof PHONE,
) {
  const texts = textsOf(language);
  const o = texts.ordersUi;
  const { context, page } = await signedInQuietly(browser, applicant);
  if (viewport) await page.setViewportSize(viewport);
  const prefix = prefixOf(language);

  await page.goto(`${prefix}/data/${record.id}/`);
  await page.getByRole('button', { name: texts.dataCart.add }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.dataCart.added })).toBeVisible();
  await page.getByRole('link', { name: texts.dataCart.openBasket }).click();

  await expect(page.getByRole('heading', { name: o.basket.title })).toBeVisible(AFTER_LOAD);
  // Nothing selected: the spec's words.
  await page.getByRole('button', { name: like(o.basket.apply) }).click();
  await expect(page.getByText(texts.orders.validation.selectData)).toBeVisible();
  await page.getByRole('checkbox', { name: record.title }).check();
  await page.getByRole('button', { name: like(o.basket.apply) }).click();

  await expect(page.getByRole('heading', { name: o.form.title })).toBeVisible(AFTER_LOAD);
  await expect(page.getByRole('link', { name: record.title })).toBeVisible();
  // Prefilled from the profile.
  await expect(page.getByLabel(o.form.realName)).not.toHaveValue('');
  await fillApplication(page, language);
  await page.getByRole('button', { name: o.form.submit }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: o.placed.successTitle });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: o.placed.toDownload }).click();

  await expect(page.getByRole('heading', { name: o.download.title })).toBeVisible(AFTER_LOAD);
  // No file selected yet.
  await page.getByRole('button', { name: like(o.download.download) }).click();
  await expect(page.getByText(texts.orders.noFiles)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: record.title });
  await row.getByRole('button').first().click();
  await page.getByRole('checkbox', { name: 'glacier_1990.csv' }).check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: like(o.download.download) }).click();
  expect((await download).suggestedFilename()).toBe('glacier_1990.csv');

  await page.goto(`${prefix}/personal/#/data/order`);
  const order = page.getByRole('row').filter({ hasText: record.title });
  await expect(order.getByText(texts.orders.status.approved).first()).toBeVisible(AFTER_LOAD);
  await context.close();
}

test.describe('orders: basket, application, order history, download', () => {
  for (const language of LANGUAGES) {
    test(`an open dataset from the landing page to the downloaded file (${language})`, async ({ browser }) => {
      const [staff, owner, applicant] = await createUsers({ staff: true, realname: 'Orders Desk' }, { realname: 'Orders Owner' }, { realname: 'Orders Applicant' });
      const record = await publishedRecord(owner, staff, 'online');
      await basketToDownload(browser, language, applicant, record);
    });
  }

  test('the same on a phone (390 x 844)', async ({ browser }) => {
    const [staff, owner, applicant] = await createUsers({ staff: true, realname: 'Orders Desk' }, { realname: 'Orders Owner' }, { realname: 'Orders Applicant' });
    const record = await publishedRecord(owner, staff, 'online');
    await basketToDownload(browser, 'en', applicant, record, PHONE);
  });
});

test.describe('orders: the owner decides a request', () => {
  for (const language of LANGUAGES) {
    test(`an owner approves a request from the data requests list (${language})`, async ({ browser }) => {
      const texts = textsOf(language);
      const o = texts.ordersUi;
      const [staff, owner, applicant] = await createUsers({ staff: true, realname: 'Orders Desk' }, { realname: 'Orders Owner' }, { realname: 'Requesting Scientist' });
      const record = await publishedRecord(owner, staff, 'offlineEmail');
      const applicantApi = await apiSession(applicant.username, applicant.password);
      const placed = await applyFor(applicantApi, record.id);
      expect(placed.status).toBe('Waiting');

      const { context, page } = await signedInQuietly(browser, owner);
      await page.goto(`${prefixOf(language)}/personal/#/apply-list`);
      await expect(page.getByRole('heading', { name: o.requests.title })).toBeVisible(AFTER_LOAD);
      const row = page.getByRole('row').filter({ hasText: 'Requesting Scientist' });
      await expect(row.getByRole('link', { name: record.title })).toBeVisible();
      await expect(row.getByText('Arctic University of Norway')).toBeVisible();
      await row.getByRole('button', { name: o.requests.actions.approved }).click();
      // One request: English names it in the singular (i18next's `_one`), Chinese has one form.
      const confirm = await settled(page.getByRole('dialog').filter({ hasText: like(language === 'en' ? o.requests.confirm.approved_one : o.requests.confirm.approved, false) }));
      await confirm.getByRole('button', { name: o.requests.actions.approved }).click();
      await expect(page.getByRole('dialog').filter({ hasText: texts.orders.handled })).toBeVisible();
      await page.keyboard.press('Escape');
      // The list entry takes its new state (the list shows waiting requests, so it is read from the 'approved' filter).
      await page.getByText(texts.orders.status.approved, { exact: true }).first().click();
      await expect(page.getByRole('row').filter({ hasText: 'Requesting Scientist' }).getByText(texts.orders.status.approved)).toBeVisible(AFTER_LOAD);
      await context.close();

      // The applicant now finds it approved, with its voucher.
      const mine = await signedInQuietly(browser, applicant);
      await mine.page.goto(`${prefixOf(language)}/personal/#/data/order`);
      const order = mine.page.getByRole('row').filter({ hasText: record.title });
      await expect(order.getByText(texts.orders.status.approved)).toBeVisible(AFTER_LOAD);
      await applicantApi.dispose();
      await mine.context.close();
    });
  }
});

test.describe('orders: a request and a voucher read on any screen', () => {
  for (const language of LANGUAGES) {
    test(`a data request with a long e-mail and a link in its reason keeps its labels on one line on a phone (${language})`, async ({ browser }) => {
      const texts = textsOf(language);
      const o = texts.ordersUi;
      const [staff, owner, applicant] = await createUsers({ staff: true, realname: 'Orders Desk' }, { realname: 'Orders Owner' }, { realname: 'Requesting Scientist' });
      const record = await publishedRecord(owner, staff, 'offlineEmail');
      const applicantApi = await apiSession(applicant.username, applicant.password);
      const line = await (await applicantApi.post('/api/account/line_item/', { data: { metadata_id: record.id } })).json();
      const placed = await applicantApi.post('/api/account/order/', {
        data: {
          realName: 'Requesting Scientist',
          email: 'scientist.with.a.very.long.address@institute-of-tibetan-plateau-research.example.org',
          phone: '+47 1234 5678',
          zipcode: '9019',
          affiliation: 'InstituteOfTibetanPlateauResearchChineseAcademyOfSciences',
          address: 'Hansine Hansens veg 18, Tromsø',
          country: 'NO',
          reason: 'See https://example.org/projects/lake-ice-phenology/regional-climate-model-evaluation/2026/plan.pdf for the plan.',
          line: [line.id],
        },
      });
      expect(placed.status(), await placed.text()).toBe(201);
      const orderId = (await placed.json()).order.orders[0].id as string;

      const { context, page } = await signedInQuietly(browser, owner);
      await page.setViewportSize(PHONE);
      await page.goto(`${prefixOf(language)}/personal/#/application/${orderId}`);
      await expect(page.getByRole('heading', { name: o.requests.detailTitle })).toBeVisible(AFTER_LOAD);
      const labels = page.locator('.ant-descriptions-item-label');
      await expect(labels.filter({ hasText: o.form.reason })).toBeVisible();
      // Each label on one line (it was squeezed to a character a line beside the long values), the page no wider than the phone.
      for (const label of await labels.all()) {
        const lines = await label.evaluate((element) => {
          const style = getComputedStyle(element);
          const content = element.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
          return content / parseFloat(style.lineHeight);
        });
        expect(lines, await label.innerText()).toBeLessThan(2);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await applicantApi.dispose();
      await context.close();
    });

    test(`the voucher check has a form at /voucher/ that takes a code as people type it (${language})`, async ({ browser }) => {
      const texts = textsOf(language);
      const v = texts.voucherCheck;
      const prefix = language === 'en' ? '/en' : '';
      const [staff, owner, applicant] = await createUsers({ staff: true, realname: 'Orders Desk' }, { realname: 'Orders Owner' }, { realname: 'Voucher Holder' });
      const record = await publishedRecord(owner, staff, 'online');
      const applicantApi = await apiSession(applicant.username, applicant.password);
      const placed = (await applyFor(applicantApi, record.id)) as unknown as { order: { orders: { voucher_code: string | null }[] } };
      const code = placed.order.orders[0]!.voucher_code!;
      expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

      const context = await browser.newContext();
      const page = await context.newPage();
      for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto(`${prefix}/voucher/`);
        await expect(page.getByRole('heading', { name: v.title })).toBeVisible(AFTER_LOAD);
        // Nothing typed: said at the field.
        await page.getByRole('button', { name: v.form.submit }).click();
        await expect(page.getByRole('alert').filter({ hasText: v.form.required })).toBeVisible();
        await expect(page.getByLabel(v.form.code)).toHaveAttribute('aria-invalid', 'true');
        // In lower case and without its dashes, as read aloud and typed.
        await page.getByLabel(v.form.code).fill(code.toLowerCase().replace(/-/g, ''));
        await page.getByRole('button', { name: v.form.submit }).click();
        await expect(page.getByText(v.valid.replace('{{code}}', code))).toBeVisible(AFTER_LOAD);
        await expect(page.getByRole('link', { name: record.title })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        // Another code from the result; an unknown one offers the form again.
        await page.getByRole('link', { name: v.form.another }).click();
        await page.getByLabel(v.form.code).fill('ZZZZ-ZZZZ-ZZZZ');
        await page.getByLabel(v.form.code).press('Enter');
        await expect(page.getByText(v.notFound.replace('{{code}}', 'ZZZZ-ZZZZ-ZZZZ'))).toBeVisible(AFTER_LOAD);
        await expect(page.getByLabel(v.form.code)).toHaveValue('ZZZZ-ZZZZ-ZZZZ');
      }
      // The address without its final slash leads there too.
      const reply = await context.request.get(`${prefix}/voucher`, { maxRedirects: 0 });
      expect(reply.status()).toBe(302);
      expect(reply.headers().location).toBe(`${prefix}/voucher/`);
      await applicantApi.dispose();
      await context.close();
    });
  }
});
