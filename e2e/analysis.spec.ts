import fs from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { AFTER_LOAD, choose, createUsers, expect, signedInQuietly, test, textsOf, uniqueName, watchScripts } from './fixtures';
import { apiSession, completeRecord, expectJson } from './records';

/**
 * The analysis library (issue 20): a user writes a method over the tabular files of two published
 * open datasets, runs it from the data cart and shares it; another user finds it in Explore, forks it
 * and runs the fork on datasets found by the picker's search. The datasets and a shared method are
 * made through the API; the pages are the subject.
 */

const PHONE = { width: 390, height: 844 };
const zh = textsOf('zh-hans');
const ui = zh.analysisUi;
const MONTHS = ['2021-01', '2021-02', '2021-03', '2021-04', '2021-05', '2021-06'];
const TEMPERATURE = `month,temp\n${MONTHS.map((month, index) => `${month},${-12 + index * 4}`).join('\n')}\n`;
const SNOW = `month,depth\n${MONTHS.map((month, index) => `${month},${60 - index * 10}`).join('\n')}\n`;
/** A join of the two datasets' files on time, those months warmer than a parameter. */
const SQL = 'select t.month, t.temp, s.depth\nfrom temperature t join snow s using (month)\nwhere t.temp > $min_temp\norder by t.month';

type Person = { username: string; password: string };
type Dataset = { id: string; title: string };

let people: Record<'staff' | 'provider' | 'author' | 'forker', Person>;
/** The word every title of this run holds, which the picker's search finds. */
let word: string;
let temperature: Dataset;
let snow: Dataset;

/** An open dataset published by the desk with one more data file, `file` (its English title is `title`). */
async function openDataset(provider: APIRequestContext, desk: APIRequestContext, title: string, file: { name: string; text: string }): Promise<Dataset> {
  const record = await completeRecord(provider, title, 'en');
  const upload = await provider.post('/metadata/upload-file/', {
    multipart: { metadata: record.id, file: { name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.text) } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  await expectJson(await provider.patch(`/api/metadata/metadata/${record.id}/`, { data: { sharing_policy: 'online', license: 'CC BY 4.0' } }));
  expect((await expectJson(await provider.post('/metadata/metadata-submit/', { data: { id: record.id } }))).status).toBe('true');
  await expectJson(
    await desk.patch(`/api/metadata/review-status/${record.id}/set_review_status/`, {
      data: { review_status: 'publish_without_review', content: 'Published for the analysis spec.', from_status: 'submitted' },
    }),
  );
  return record;
}

/** A method of `person`'s made through the API (public when asked); its id. */
async function methodOf(person: Person, name: string, isPublic: boolean): Promise<string> {
  const api = await apiSession(person.username, person.password);
  const method = await expectJson(
    await api.post('/api/analysis/methods/', {
      data: {
        name,
        name_en: name,
        sql: SQL,
        parameters: [{ name: 'min_temp', type: 'number', default: -100 }],
        chart: { type: 'line', x: 'month', y: ['temp', 'depth'] },
        public: isPublic,
      },
    }),
    201,
  );
  await api.dispose();
  return method.id;
}

/** The finished run's result: status Done, the rows counted, the first cells shown. */
async function expectResult(page: Page, texts: typeof ui, rows: number, firstMonth: string) {
  const result = page.getByTestId('run-result');
  await expect(result.getByText(texts.status.done, { exact: true })).toBeVisible(AFTER_LOAD);
  await expect(result.getByText(texts.run.rowCount.replace('{{count}}', String(rows)), { exact: true })).toBeVisible();
  await expect(result.getByRole('cell', { name: firstMonth, exact: true })).toBeVisible();
  return result;
}

const noSideScroll = async (page: Page, width: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

test.describe('analysis methods', () => {
  test.beforeAll(async () => {
    const [staff, provider, author, forker] = await createUsers(
      { staff: true, realname: 'Analysis Desk' },
      { realname: 'Analysis Provider' },
      { realname: '方法作者' },
      { realname: 'Fork Reader' },
    );
    people = { staff, provider, author, forker };
    word = uniqueName('Namco');
    const providerApi = await apiSession(provider.username, provider.password);
    const desk = await apiSession(staff.username, staff.password);
    temperature = await openDataset(providerApi, desk, `${word} air temperature`, { name: 'temperature.csv', text: TEMPERATURE });
    snow = await openDataset(providerApi, desk, `${word} snow depth`, { name: 'snow.csv', text: SNOW });
    await providerApi.dispose();
    await desk.dispose();
  });

  test('a user writes a method; the server’s refusal is shown in Chinese; an edit is a new version (Chinese, 1280 px)', async ({ browser }) => {
    const { context, page } = await signedInQuietly(browser, people.author);
    await page.setViewportSize({ width: 1280, height: 900 });
    const name = `气温与积雪 ${word}`;

    // My methods: a new method; the server's refusal of a default that is no number is shown in Chinese.
    await page.goto('/zh-hans/personal/#/analyze');
    await expect(page.getByRole('heading', { name: ui.my.title })).toBeVisible(AFTER_LOAD);
    await page.getByRole('button', { name: ui.my.create }).click();
    const editor = page.getByRole('dialog', { name: ui.form.createTitle });
    await editor.getByLabel(ui.form.name, { exact: true }).fill(name);
    await editor.getByLabel(ui.form.nameEn, { exact: true }).fill(`Temperature and snow ${word}`);
    await editor.getByLabel(ui.form.description, { exact: true }).fill('按月连接气温与积雪深度。');
    await editor.getByLabel(ui.form.sql).fill(SQL);
    await editor.getByRole('button', { name: ui.form.addParameter }).click();
    const parameter = editor.getByRole('group', { name: ui.form.parameterN.replace('{{n}}', '1') });
    await parameter.getByLabel(ui.form.parameterName).fill('min_temp');
    await parameter.getByLabel(ui.form.parameterDefault).fill('很冷');
    await choose(page, ui.form.chart, ui.chartTypes.line);
    await editor.getByLabel(ui.form.chartX).fill('month');
    for (const column of ['temp', 'depth']) {
      await editor.getByLabel(ui.form.chartY).fill(column);
      await editor.getByLabel(ui.form.chartY).press('Enter');
    }
    await page.getByRole('button', { name: ui.common.save }).click();
    await expect(page.getByText(zh.analysis.parameterValue.number.replace('{{name}}', 'min_temp'))).toBeVisible();
    await parameter.getByLabel(ui.form.parameterDefault).fill('-100');
    await page.getByRole('button', { name: ui.common.save }).click();
    await expect(page.getByText(ui.form.created)).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByText(ui.common.private, { exact: true })).toBeVisible();

    // An edit makes version 2; the editor lists both.
    await row.getByRole('button', { name: ui.common.editNamed.replace('{{name}}', name) }).click();
    const edit = page.getByRole('dialog', { name: ui.form.editTitle.replace('{{name}}', name) });
    await edit.getByLabel(ui.form.descriptionEn, { exact: true }).fill('Monthly air temperature joined with snow depth.');
    await edit.getByRole('button', { name: ui.common.save }).click();
    await expect(page.getByText(ui.form.saved.replace('{{version}}', '2'))).toBeVisible();
    await row.getByRole('button', { name: ui.common.editNamed.replace('{{name}}', name) }).click();
    await expect(edit.getByRole('button', { name: new RegExp(`^${ui.form.versionAt.replace('{{version}}', '1').replace(' · {{date}}', '')}`) })).toBeVisible();
    await expect(edit.getByRole('button', { name: new RegExp(`^${ui.form.versionAt.replace('{{version}}', '2').replace(' · {{date}}', '')}`) })).toBeVisible();
    await context.close();
  });

  test('a user runs a method on the data cart’s two datasets, sees the result and shares it (Chinese, 1280 px)', async ({ browser }) => {
    const name = `气温与积雪 ${uniqueName('run')}`;
    await methodOf(people.author, name, false);
    const author = await apiSession(people.author.username, people.author.password);
    for (const dataset of [temperature, snow]) await expectJson(await author.post('/api/account/line_item/', { data: { metadata_id: dataset.id } }), 201);
    await author.dispose();
    const { context, page } = await signedInQuietly(browser, people.author);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The data cart: both datasets chosen, the method picked; the run page opens with them.
    await page.goto('/zh-hans/personal/#/data/analyze');
    await expect(page.getByRole('heading', { name: ui.cart.title })).toBeVisible(AFTER_LOAD);
    await expect(page.getByRole('row').filter({ hasText: temperature.title }).getByRole('checkbox')).toBeChecked();
    await choose(page, ui.cart.method, name);
    const scripts = watchScripts(page);
    await page.getByRole('button', { name: ui.cart.analyse.replace('{{count}}', '2') }).click();
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible(AFTER_LOAD);
    const picked = page.locator('.ant-select', { has: page.getByRole('combobox', { name: ui.run.datasets }) });
    // The Chinese page names each English record by its Chinese version (completeRecord's: the title with （中文）).
    await expect(picked.getByText(`${temperature.title}（中文）`)).toBeVisible();
    await expect(page.getByLabel(`min_temp (${ui.parameterTypes.number})`)).toHaveValue('-100');
    await page.getByLabel(`min_temp (${ui.parameterTypes.number})`).fill('-5');
    await page.getByRole('button', { name: ui.run.start, exact: true }).click();

    // The result: the months warmer than -5 °C, the chart (its own chunk), the CSV, the run kept with its inputs.
    const result = await expectResult(page, ui, 4, '2021-03');
    await expect(result.getByText('min_temp = -5')).toBeVisible();
    await expect(result.getByTestId('result-chart').locator('canvas')).toBeVisible();
    expect(
      [...scripts.keys()].some((script) => script.startsWith('ResultChart-')),
      'the chart came in its own chunk',
    ).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), result.getByRole('link', { name: ui.run.downloadCsv }).click()]);
    expect(download.suggestedFilename()).toMatch(/^气温与积雪 .*\.csv$/);
    const csv = await fs.readFile(await download.path(), 'utf8');
    expect(csv).toBe('\ufeffmonth,temp,depth\r\n2021-03,-4,40\r\n2021-04,0,30\r\n2021-05,4,20\r\n2021-06,8,10\r\n');
    const history = page.getByRole('region', { name: ui.run.history });
    await expect(history.getByRole('row')).toHaveCount(2);
    await expect(history.getByText(ui.status.done, { exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('run-zh-1280.png'), fullPage: true });

    // Share: published, it shows in Explore.
    await page.goto('/zh-hans/personal/#/analyze/methodsharing');
    await page.getByRole('switch', { name: ui.share.publicNamed.replace('{{name}}', name) }).click();
    await expect(page.getByText(ui.share.published.replace('{{name}}', name))).toBeVisible();
    await context.close();
  });

  test('another user finds a shared method in Explore, forks it and runs the fork on datasets found by search (Chinese, 1280 px)', async ({ browser }) => {
    const name = `站点连接 ${word}`;
    await methodOf(people.author, name, true);
    const { context, page } = await signedInQuietly(browser, people.forker);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/zh-hans/personal/#/analyze/exploredways');
    await page.getByRole('searchbox', { name: ui.explore.search }).fill(name);
    await page.getByRole('button', { name: ui.explore.searchButton }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByText('方法作者')).toBeVisible(AFTER_LOAD);
    await row.getByRole('button', { name: ui.common.openNamed.replace('{{name}}', name) }).click();
    const detail = page.getByRole('dialog', { name });
    await expect(detail.getByText('where t.temp > $min_temp')).toBeVisible();
    await detail.getByRole('button', { name: ui.explore.fork }).click();
    await expect(page.getByText(ui.explore.forked.replace('{{name}}', name))).toBeVisible();

    // The fork is the reader's own, private, and runs on datasets the picker finds by typing.
    const fork = page.getByRole('row').filter({ hasText: name });
    await expect(fork.getByText(ui.common.forked, { exact: true })).toBeVisible(AFTER_LOAD);
    await fork.getByRole('button', { name: ui.common.runNamed.replace('{{name}}', name) }).click();
    const picker = page.getByRole('combobox', { name: ui.run.datasets });
    for (const [dataset, typed] of [
      [temperature, `${word} air`],
      [snow, `${word} snow`],
    ] as const) {
      await picker.fill(typed);
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(`${dataset.title}（中文）`, { exact: true }).click();
    }
    // The list stays open for more choices, over the form: closed before the form is sent.
    await picker.press('Escape');
    await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toHaveCount(0);
    await page.getByRole('button', { name: ui.run.start, exact: true }).click();
    await expectResult(page, ui, 6, '2021-01');
    await context.close();
  });

  test('on a phone in English (390 px): the result table scrolls inside, nothing scrolls sideways; a method is deleted, its run stays', async ({ browser }) => {
    const en = textsOf('en').analysisUi;
    const methodId = await methodOf(people.author, `Phone ${word}`, false);
    const api = await apiSession(people.author.username, people.author.password);
    const started = await expectJson(await api.post(`/api/analysis/methods/${methodId}/runs/`, { data: { datasets: [temperature.id, snow.id], parameters: {} } }), 202);
    await api.dispose();
    const { context, page } = await signedInQuietly(browser, people.author);
    await page.setViewportSize(PHONE);
    await page.goto(`/en/personal/#/analyze/run/${methodId}?run=${started.id}`);
    const result = await expectResult(page, en, 6, '2021-01');
    await expect(result.getByText(`${word} air temperature`)).toBeVisible();
    // The run's inputs fill the form, to run it again or changed.
    const picked = page.locator('.ant-select', { has: page.getByRole('combobox', { name: en.run.datasets }) });
    await expect(picked.getByText(`${word} snow depth`)).toBeVisible();
    const table = result.locator('.ant-table-content');
    const box = (await table.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await expect(result.getByTestId('result-chart').locator('canvas')).toBeVisible();
    await noSideScroll(page, PHONE.width);
    await page.screenshot({ path: test.info().outputPath('run-en-390.png'), fullPage: true });
    await page.goto('/en/personal/#/analyze');
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: `Phone ${word}` })
        .getByRole('button', { name: en.common.runNamed.replace('{{name}}', `Phone ${word}`) }),
    ).toBeVisible(AFTER_LOAD);
    await noSideScroll(page, PHONE.width);
    await page.screenshot({ path: test.info().outputPath('methods-en-390.png'), fullPage: true });
    // Deleted after a question: it leaves the list, and its run stays readable at its address.
    const row = page.getByRole('row').filter({ hasText: `Phone ${word}` });
    await row.getByRole('button', { name: en.common.deleteNamed.replace('{{name}}', `Phone ${word}`) }).click();
    const ask = page.getByRole('tooltip').filter({ hasText: en.my.deleteConfirm.replace('{{name}}', `Phone ${word}`) });
    await ask.getByRole('button', { name: en.common.yes }).click();
    await expect(page.getByText(en.my.deleted.replace('{{name}}', `Phone ${word}`))).toBeVisible();
    await expect(row).toHaveCount(0);
    // A fresh load, so that nothing of the method is left in the page's cache.
    await page.goto(`/en/personal/#/analyze/run/${methodId}?run=${started.id}`);
    await page.reload();
    await expect(page.getByText(en.run.methodGone)).toBeVisible(AFTER_LOAD);
    await expectResult(page, en, 6, '2021-01');
    await expect(page.getByRole('button', { name: en.run.rerun })).toHaveCount(0);
    await context.close();
  });
});
