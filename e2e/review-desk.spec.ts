import type { Language } from '@portal/shared';
import { createUser, decideOnDesk, expect, logIn, logInToContinue, openOnDesk, prefixOf, test, textsOf, uniqueName } from './fixtures';
import { apiSession, expectJson, submitCompleteRecord } from './records';

/**
 * The data centre's review desk beside the journey of review-journey.spec.ts (which walks the desk
 * from receiving to publishing): a decision someone else took first, and who may open the desk.
 */

const LANGUAGES: Language[] = ['zh-hans', 'en'];

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const d = texts.reviewDesk;
  const prefix = prefixOf(language);
  const english = language === 'en';

  test.describe(`the data centre's review desk (${language})`, () => {
    test("a decision someone else took meanwhile shows the server's message and the record as it stands", async ({ page }) => {
      test.setTimeout(180_000);
      const staff = await createUser({ staff: true, realname: english ? 'Desk Officer' : '审核员' });
      const colleague = await createUser({ staff: true, realname: english ? 'Other Officer' : '另一审核员' });
      const provider = await createUser({ realname: english ? 'Ada Provider' : '李提供' });
      const stem = uniqueName(english ? 'Snow cover ' : '积雪');
      const providerApi = await apiSession(provider.username, provider.password);
      const { id } = await submitCompleteRecord(providerApi, stem, language);

      await logIn(page, language, staff.username, staff.password);
      await page.goto(`${prefix}/admin/review`);
      const { panel } = await openOnDesk(page, language, stem, stem);
      await expect(panel.getByRole('button', { name: d.decide.receive, exact: true })).toBeVisible();

      // The colleague receives it first.
      const colleagueApi = await apiSession(colleague.username, colleague.password);
      await expectJson(await colleagueApi.patch(`/api/metadata/review-status/${id}/set_review_status/`, { data: { review_status: 'receive' } }));

      await decideOnDesk(page, language, panel, 'receive', { from: texts.metadata.status.submitted, to: texts.metadata.status.receive });
      await expect(page.getByText(texts.review.wrongState)).toBeVisible();
      // The panel now offers what follows "received", and the trail names the colleague.
      await expect(panel.getByRole('button', { name: d.decide.invite, exact: true })).toBeVisible();
      await expect(panel.getByRole('button', { name: d.decide.receive, exact: true })).toHaveCount(0);
      await expect(panel.getByText(english ? 'Other Officer' : '另一审核员')).toBeVisible();
      await providerApi.dispose();
      await colleagueApi.dispose();
    });

    test("shows a new submission and a colleague's decision without being reloaded", async ({ page }) => {
      test.setTimeout(150_000);
      const staff = await createUser({ staff: true, realname: english ? 'Desk Officer' : '审核员' });
      const colleague = await createUser({ staff: true, realname: english ? 'Other Officer' : '另一审核员' });
      const provider = await createUser({ realname: english ? 'Ada Provider' : '李提供' });
      const stem = uniqueName(english ? 'Lake ice ' : '湖冰');
      // The page's clock is the test's: a minute passes when the test says so.
      await page.clock.install();
      await logIn(page, language, staff.username, staff.password);
      await page.goto(`${prefix}/admin/review`);
      await page.getByRole('searchbox', { name: d.filters.search }).fill(stem);
      await page.getByRole('searchbox', { name: d.filters.search }).press('Enter');
      await expect(page.getByText(d.empty)).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: stem });

      // Submitted meanwhile: the desk shows it within a minute, as it stands.
      const providerApi = await apiSession(provider.username, provider.password);
      const { id } = await submitCompleteRecord(providerApi, stem, language);
      await expect(row).toHaveCount(0);
      await page.clock.fastForward(61_000);
      await expect(row).toContainText(texts.metadata.status.submitted);

      // A colleague takes it in: the next minute's list says so.
      const colleagueApi = await apiSession(colleague.username, colleague.password);
      await expectJson(await colleagueApi.patch(`/api/metadata/review-status/${id}/set_review_status/`, { data: { review_status: 'receive' } }));
      await page.clock.fastForward(61_000);
      await expect(row).toContainText(texts.metadata.status.receive);
      await providerApi.dispose();
      await colleagueApi.dispose();
    });

    test('is for staff: a visitor signs in and comes back, a provider is refused', async ({ page }) => {
      // Two logins and four page loads: more than the default minute on a busy machine.
      test.setTimeout(150_000);
      const staff = await createUser({ staff: true, realname: english ? 'Desk Officer' : '审核员' });
      await page.goto(`${prefix}/admin/review`);
      await logInToContinue(page, language, staff.username, staff.password);
      await expect(page).toHaveURL(new RegExp(`${prefix}/admin/review$`));
      await expect(page.getByRole('heading', { name: d.title })).toBeVisible();

      const provider = await createUser({ realname: english ? 'Ada Provider' : '李提供' });
      await page.context().clearCookies();
      await logIn(page, language, provider.username, provider.password);
      await page.goto(`${prefix}/admin/review`);
      await expect(page.getByText(texts.account.forbidden)).toBeVisible();
      await expect(page.getByRole('heading', { name: d.title })).toHaveCount(0);
    });
  });
}

/** The table shows all its columns without scrolling sideways: its last header cell ends inside it and the window. */
async function expectTableFits(page: import('@playwright/test').Page) {
  const table = page.locator('.ant-table').first();
  await expect(table).toBeVisible();
  const scroller = table.locator('.ant-table-content, .ant-table-body').first();
  const { scrollWidth, clientWidth } = await scroller.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
  expect(scrollWidth, 'the table does not scroll sideways').toBeLessThanOrEqual(clientWidth + 1);
  const last = await table.locator('thead th').last().boundingBox();
  const box = (await scroller.boundingBox())!;
  expect(last!.x + last!.width, 'the last column ends inside the table').toBeLessThanOrEqual(box.x + box.width + 1);
  expect(last!.x + last!.width, 'the last column ends inside the window').toBeLessThanOrEqual(page.viewportSize()!.width);
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const d = texts.reviewDesk;
  test(`the review desk shows every column of a long title's row at 1280 px (${language})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const staff = await createUser({ staff: true, realname: 'Desk Width' });
    const provider = await createUser({ realname: 'Long Title Provider' });
    const stem = uniqueName('Glacier');
    const title = `${stem} mass balance, surface velocity and debris cover of the glaciers of the Qilian Mountains and the Tianshan from field surveys and satellite images`;
    await submitCompleteRecord(await apiSession(provider.username, provider.password), title, language);
    await logIn(page, language, staff.username, staff.password);
    await page.goto(`${prefixOf(language)}/admin/review`);
    await page.getByRole('searchbox', { name: d.filters.search }).fill(stem);
    await page.getByRole('searchbox', { name: d.filters.search }).press('Enter');
    const row = page.getByRole('row').filter({ hasText: stem });
    await expect(row).toHaveCount(1);
    await expect(page.getByRole('columnheader', { name: d.columns.preReview })).toBeInViewport();
    await expect(row.getByText(d.preReviewNotDone)).toBeInViewport();
    await expectTableFits(page);
  });
}
