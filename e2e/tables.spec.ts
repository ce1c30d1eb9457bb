import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { AFTER_LOAD, choose, createUsers, expect, prefixOf, settled, signedInQuietly, test, textsOf, uniqueName, watchScripts } from './fixtures';
import { apiSession, completeRecord, expectJson } from './records';

/**
 * Excel to table (issue 20) in the browser: a provider imports a sheet of a draft's workbook and
 * changes the type of a column the dry run found cells of that do not fit; once the record is
 * published, a scientist finds the table, filters a number column by a range, sorts, charts and
 * downloads the rows as CSV (Chinese, 1280 px). Then the viewer in English on a phone, the landing
 * page's list of the record's tables and a table that does not exist; an import on a phone in English.
 */

const ROWS = 1010;
/** The sheet's one cell that is no integer: after the first 1000 rows, which the proposal samples, so that the depth column is proposed as integer. */
const ODD_ROW = 1005;
const rows = Array.from({ length: ROWS }, (_, at) => {
  const n = at + 1;
  return {
    station: `S${(n % 5) + 1}`,
    depth: n === ODD_ROW ? n - 0.5 : n,
    temperature: ((n % 40) - 20) / 2,
    observed: new Date(Date.UTC(2024, 0, 1) + n * 86_400_000),
  };
});
/** The viewer's filter: 9 °C to 9.5 °C. */
const [LOW, HIGH] = [9, 9.5];
const matching = rows.filter((row) => row.temperature >= LOW && row.temperature <= HIGH).sort((a, b) => b.depth - a.depth);

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Stations');
  sheet.addRow(['Station', 'Depth (m)', 'Temperature (°C)', 'Observed']);
  for (const row of rows) sheet.addRow([row.station, row.depth, row.temperature, row.observed]);
  sheet.getColumn(4).numFmt = 'yyyy-mm-dd';
  return Buffer.from(await book.xlsx.writeBuffer());
}

type Person = { username: string; password: string };
const shared: { record?: { id: string; title: string }; code?: string; tableName?: string; provider?: Person; staff?: Person; scientist?: Person } = {};

/** The page scrolls only inside its tables: nothing wider than the window. */
async function expectNoPageScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test.describe.configure({ mode: 'serial' });

test('a provider imports a sheet of a draft’s workbook and fixes a column’s type after the dry run (zh-hans, 1280 px)', async ({ browser }) => {
  const zh = textsOf('zh-hans');
  const u = zh.tablesUi;
  const [staff, provider, scientist] = await createUsers({ staff: true, realname: 'Tables Desk' }, { realname: 'Tables Provider' }, { realname: 'Tables Scientist' });
  const providerApi = await apiSession(provider.username, provider.password);
  const record = await completeRecord(providerApi, `冰芯站点观测 ${uniqueName('tb')}`, 'zh-hans');
  await expectJson(await providerApi.patch(`/api/metadata/metadata/${record.id}/`, { data: { sharing_policy: 'online', license: 'CC BY 4.0' } }));
  const upload = await providerApi.post('/metadata/upload-file/', {
    multipart: { metadata: record.id, file: { name: 'stations.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await workbook() } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);

  // The provider opens the wizard from the file's row in the Data Files tab.
  const { context, page } = await signedInQuietly(browser, provider);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${prefixOf('zh-hans')}/personal/#/metadata/edit/${record.id}`);
  await page.getByRole('tab', { name: zh.editor.tabs.files, exact: true }).click(AFTER_LOAD);
  await page.getByRole('button', { name: u.import.actionOf.replace('{{name}}', 'stations.xlsx') }).click();
  const wizard = await settled(page.getByRole('dialog', { name: u.import.title.replace('{{name}}', 'stations.xlsx') }));
  // The workbook's one sheet is chosen, with its rows and columns.
  await expect(wizard.getByRole('combobox', { name: u.import.sheet })).toBeVisible(AFTER_LOAD);
  await expect(wizard.locator('.ant-select-content')).toHaveAttribute('title', 'Stations（1,011 行，4 列）');

  // The spec's rules before any call: a table name is required.
  const tableName = `站点观测 ${uniqueName('t')}`;
  await wizard.getByLabel(u.import.tableName).fill('');
  await wizard.getByRole('button', { name: u.import.create }).click();
  await expect(wizard.getByRole('alert')).toHaveText(zh.tables.tableNameRequired);
  await wizard.getByLabel(u.import.tableName).fill(tableName);
  await wizard.getByRole('button', { name: u.import.create }).click();
  await expect(wizard.getByRole('alert')).toHaveText(zh.tables.fetchHeaderFirst);

  // The header's fields, with the types the data suggests.
  await wizard.getByRole('button', { name: u.import.fetchHeader }).click();
  const cell = (what: string, n: number) => wizard.getByLabel(u.import.cellLabel.replace('{{what}}', what).replace('{{n}}', String(n)));
  await expect(cell(u.import.columns.field, 2)).toHaveValue('depth');
  await expect(cell(u.import.columns.display_name, 3)).toHaveValue('Temperature');
  await expect(cell(u.import.columns.unit, 3)).toHaveValue('°C');
  // A field name of other letters is marked at once.
  await cell(u.import.columns.field, 1).fill('站点');
  await expect(wizard.getByText(zh.tables.fieldNameRule.replace('{{field}}', '站点'))).toBeVisible();
  await cell(u.import.columns.field, 1).fill('station');
  await cell(u.import.columns.display_name_en, 1).fill('Station');
  await cell(u.import.columns.display_name, 1).fill('站点');

  // The dry run finds the one depth that is no integer; the type is changed and the data fits.
  await wizard.getByRole('button', { name: u.import.check }).click();
  const report = wizard.getByRole('region', { name: u.import.report.title });
  await expect(report.getByRole('row').filter({ hasText: '1004.5' }).getByRole('cell')).toHaveText([
    String(ODD_ROW + 1),
    'Depth (m) · depth',
    '1004.5',
    zh.tables.reasons.notInteger,
  ]);
  await page.screenshot({ path: 'test-results-tables/import-report-zh-1280.png', fullPage: true });
  await choose(page, u.import.cellLabel.replace('{{what}}', u.import.columns.type).replace('{{n}}', '2'), u.types.float);
  await expect(report).toBeHidden();
  await wizard.getByRole('button', { name: u.import.check }).click();
  await expect(wizard.getByRole('status')).toHaveText(u.import.report.allFit.replace('{{rows}}', '1,010'));
  await wizard.getByRole('button', { name: u.import.create }).click();
  await expect(wizard.getByText(u.import.created.replace('{{name}}', tableName).replace('{{countText}}', '1,010'))).toBeVisible(AFTER_LOAD);
  await page.screenshot({ path: 'test-results-tables/import-zh-1280.png', fullPage: true });
  await wizard.locator('.ant-result').getByRole('button', { name: u.import.close }).click();
  // The record's tables are listed under its files, each a link to the viewer.
  await expect(page.getByRole('region', { name: u.record.title }).getByRole('link', { name: tableName })).toBeVisible();
  await context.close();
  Object.assign(shared, { record, tableName, provider, staff, scientist });
  await providerApi.dispose();
});

test('a scientist finds the published table, filters a number range, sorts, charts and downloads the rows as CSV (zh-hans, 1280 px)', async ({ browser }) => {
  const u = textsOf('zh-hans').tablesUi;
  const { record, tableName, provider, staff, scientist } = shared as Required<typeof shared>;
  // The desk publishes the record (open access, online).
  const providerApi = await apiSession(provider.username, provider.password);
  expect((await expectJson(await providerApi.post('/metadata/metadata-submit/', { data: { id: record.id } }))).status).toBe('true');
  const staffApi = await apiSession(staff.username, staff.password);
  await expectJson(
    await staffApi.patch(`/api/metadata/review-status/${record.id}/set_review_status/`, {
      data: { review_status: 'publish_without_review', content: 'Published for the tables spec.', from_status: 'submitted' },
    }),
  );
  const listed = await expectJson<{ results: { code: string }[] }>(await providerApi.get('/api/tables/', { params: { metadata__id: record.id } }));
  shared.code = listed.results[0]!.code;
  await staffApi.dispose();
  await providerApi.dispose();

  // A scientist finds the table in the list and opens it.
  const reader = await signedInQuietly(browser, scientist);
  const viewer = reader.page;
  await viewer.setViewportSize({ width: 1280, height: 900 });
  const scripts = watchScripts(viewer);
  await viewer.goto(`${prefixOf('zh-hans')}/personal/#/data/detailedData`);
  await viewer.getByRole('searchbox', { name: u.list.searchPlaceholder }).fill(tableName);
  await viewer.getByRole('searchbox', { name: u.list.searchPlaceholder }).press('Enter');
  await viewer.getByRole('link', { name: tableName }).click(AFTER_LOAD);
  await expect(viewer.getByRole('heading', { name: tableName })).toBeVisible(AFTER_LOAD);
  await expect(viewer.getByTestId('match-count')).toHaveText(u.viewer.allRows.replace('{{countText}}', '1,010'));
  // Its name in an analysis method's SQL, to be copied.
  await expect(viewer.getByText(u.viewer.sqlName)).toContainText(shared.code!);

  // A range on the temperature, then the deepest first.
  await viewer.getByLabel(u.filters.gteLabel.replace('{{column}}', 'Temperature (°C)')).fill(String(LOW));
  await viewer.getByLabel(u.filters.lteLabel.replace('{{column}}', 'Temperature (°C)')).fill(String(HIGH));
  await viewer.getByRole('button', { name: u.filters.apply }).click();
  await expect(viewer.getByTestId('match-count')).toHaveText(u.viewer.matching.replace('{{countText}}', String(matching.length)));
  const depthHeader = viewer.getByRole('columnheader', { name: /Depth \(m\)/ });
  await depthHeader.click();
  await expect(depthHeader).toHaveAttribute('aria-sort', 'ascending');
  await depthHeader.click();
  await expect(depthHeader).toHaveAttribute('aria-sort', 'descending');
  const firstRow = viewer.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(firstRow.getByRole('cell')).toHaveText([
    matching[0]!.station,
    String(matching[0]!.depth),
    String(matching[0]!.temperature),
    matching[0]!.observed.toISOString().slice(0, 10),
  ]);

  // The chart: ECharts comes in its own chunk when the chart is opened.
  expect(
    [...scripts.keys()].some((name) => name.startsWith('TableChart-')),
    'no chart code before the chart is opened',
  ).toBe(false);
  await viewer.getByRole('button', { name: u.chart.open }).click();
  await expect(viewer.getByTestId('table-chart').locator('canvas')).toBeVisible(AFTER_LOAD);
  await expect(viewer.getByText(u.chart.allRows.replace('{{countText}}', String(matching.length)))).toBeVisible();
  expect([...scripts.keys()].some((name) => name.startsWith('TableChart-'))).toBe(true);
  await viewer.screenshot({ path: 'test-results-tables/viewer-zh-1280.png', fullPage: true });

  // The CSV holds the filtered rows in the page's order, under the field, display name and unit rows.
  const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.getByRole('link', { name: u.viewer.downloadCsv }).click()]);
  expect(download.suggestedFilename()).toBe(`${tableName}.csv`);
  const lines = fs
    .readFileSync((await download.path())!, 'utf8')
    .replace(/^\ufeff/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines.slice(0, 3)).toEqual(['station,depth,temperature,observed', '站点,Depth,Temperature,Observed', ',m,°C,']);
  expect(lines.slice(3)).toEqual(matching.map((row) => [row.station, row.depth, row.temperature, row.observed.toISOString().slice(0, 10)].join(',')));
  await reader.context.close();
});

test('the viewer on a phone in English; the landing page lists the table; a table that does not exist', async ({ browser }) => {
  const en = textsOf('en');
  const u = en.tablesUi;
  const { record, code, tableName, scientist } = shared as Required<typeof shared>;
  const { context, page } = await signedInQuietly(browser, scientist);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${prefixOf('en')}/personal/#/data/detailedDataDetail/${record.id}/${code}`);
  await expect(page.getByRole('heading', { name: tableName })).toBeVisible(AFTER_LOAD);
  await expect(page.getByRole('columnheader', { name: /Temperature \(°C\)/ })).toBeVisible();
  // On a phone the filters start folded.
  await page.getByRole('button', { name: u.filters.title }).click();
  await page.getByLabel(u.filters.containsLabel.replace('{{column}}', 'Station')).fill('S3');
  await page.getByRole('button', { name: u.filters.apply }).click();
  await expect(page.getByTestId('match-count')).toHaveText(u.viewer.matching.replace('{{countText}}', String(rows.filter((row) => row.station === 'S3').length)));
  await expectNoPageScroll(page);
  await page.screenshot({ path: 'test-results-tables/viewer-en-390.png', fullPage: true });

  // A table that does not exist is a page that says so.
  await page.goto(`${prefixOf('en')}/personal/#/data/detailedDataDetail/${record.id}/t_00000000000000000000`);
  await expect(page.getByText(u.viewer.notFound, { exact: true })).toBeVisible(AFTER_LOAD);
  await expect(page.getByText(en.tables.tableNotFound, { exact: true })).toBeVisible();

  // The record's landing page lists the table with its columns, linking to the viewer.
  await page.goto(`${prefixOf('en')}/data/${record.id}/`);
  const section = page.getByRole('region', { name: en.landing.sections.tables });
  await expect(section.getByRole('heading', { name: tableName })).toBeVisible(AFTER_LOAD);
  await expect(section.getByRole('row').filter({ hasText: 'temperature' }).getByRole('cell')).toHaveText(['Temperature', 'temperature', '°C', en.landing.tables.types.float]);
  await expectNoPageScroll(page);
  await section.screenshot({ path: 'test-results-tables/landing-tables-en-390.png' });
  await section.getByRole('link', { name: en.landing.tables.open.replace('{{name}}', tableName) }).click();
  await expect(page.getByRole('heading', { name: tableName })).toBeVisible(AFTER_LOAD);
  await context.close();
});

test('a provider imports a sheet on a phone in English: the columns scroll inside the wizard, a type is changed, the table is made', async ({ browser }) => {
  const en = textsOf('en');
  const u = en.tablesUi;
  const [provider] = await createUsers({ realname: 'Phone Provider' });
  const providerApi = await apiSession(provider.username, provider.password);
  const record = await completeRecord(providerApi, `Ice core stations ${uniqueName('tp')}`, 'en');
  const upload = await providerApi.post('/metadata/upload-file/', {
    multipart: { metadata: record.id, file: { name: 'stations.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await workbook() } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  await providerApi.dispose();

  const { context, page } = await signedInQuietly(browser, provider);
  await page.goto(`${prefixOf('en')}/personal/#/metadata/edit/${record.id}`);
  await page.getByRole('tab', { name: en.editor.tabs.files, exact: true }).click(AFTER_LOAD);
  // The wizard at a phone's width (the editor's tab bar on a phone, its overflow menu, is not the subject).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: u.import.actionOf.replace('{{name}}', 'stations.xlsx') }).click();
  const wizard = await settled(page.getByRole('dialog', { name: u.import.title.replace('{{name}}', 'stations.xlsx') }));
  await expect(wizard.getByRole('combobox', { name: u.import.sheet })).toBeVisible(AFTER_LOAD);
  const tableName = `Stations ${uniqueName('p')}`;
  await wizard.getByLabel(u.import.tableName).fill(tableName);
  await wizard.getByRole('button', { name: u.import.fetchHeader }).click();
  const cell = (what: string, n: number) => wizard.getByLabel(u.import.cellLabel.replace('{{what}}', what).replace('{{n}}', String(n)));
  await expect(cell(u.import.columns.field, 2)).toHaveValue('depth');
  await cell(u.import.columns.display_name, 1).fill('站点');
  await expectNoPageScroll(page);
  await page.screenshot({ path: 'test-results-tables/import-en-390.png', fullPage: true });

  // The depth that is no integer: its column becomes a decimal one, and every row fits.
  await choose(page, u.import.cellLabel.replace('{{what}}', u.import.columns.type).replace('{{n}}', '2'), u.types.float);
  await wizard.getByRole('button', { name: u.import.check }).click();
  await expect(wizard.getByRole('status')).toHaveText(u.import.report.allFit.replace('{{rows}}', '1,010'));
  await wizard.getByRole('button', { name: u.import.create }).click();
  await expect(wizard.getByText(u.import.created.replace('{{name}}', tableName).replace('{{countText}}', '1,010'))).toBeVisible(AFTER_LOAD);
  await expectNoPageScroll(page);
  await wizard.locator('.ant-result').getByRole('button', { name: u.import.close }).click();
  await expect(page.getByRole('region', { name: u.record.title }).getByRole('link', { name: tableName })).toBeVisible();
  await context.close();
});
