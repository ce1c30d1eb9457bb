import type { Browser, Page } from '@playwright/test';
import { countWords, descriptionLength, KEYWORD_TYPES, type Language } from '@portal/shared';
import { AFTER_LOAD, createUser, expect, logIn, prefixOf, settled, test, textsOf, uniqueName } from './fixtures';
import { tinyPng } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];

/** Chooses files through the file dialog a click opens, as a person would. */
async function chooseFile(page: Page, open: () => Promise<void>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await open();
  await (await chooser).setFiles(file);
}

async function otherUserSees(browser: Browser, language: Language, editPath: string) {
  const texts = textsOf(language);
  const stranger = await createUser({ realname: 'Stranger' });
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, language, stranger.username, stranger.password);
  await page.goto(editPath);
  // A draft of someone else's is not even visible: the server's text, never the editor.
  await expect(page.getByText(texts.metadata.notFound)).toBeVisible();
  await expect(page.getByRole('tab', { name: texts.editor.tabs.overview })).toHaveCount(0);
  await context.close();
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const e = texts.editor;
  const prefix = prefixOf(language);
  const english = language === 'en';
  const other: Language = english ? 'zh-hans' : 'en';

  test.describe(`a data provider's metadata (${language})`, () => {
    test('adds a record, is told what is missing, completes it, submits, returns it to draft and edits it again', async ({ page, browser }) => {
      test.setTimeout(300_000);
      const provider = await createUser({ realname: english ? 'Ada Glacier' : '李冰川' });
      await logIn(page, language, provider.username, provider.password);

      // Add: the language first.
      await page.goto(`${prefix}/personal/#/metadata/add`);
      await expect(page.getByRole('heading', { name: e.addTitle })).toBeVisible();
      await page.getByRole('radio', { name: english ? e.languageEn : e.languageZh }).check();
      await page.getByRole('button', { name: e.create }).click();
      await expect(page).toHaveURL(/#\/metadata\/edit\/[\w-]+$/);
      const editPath = new URL(page.url()).pathname + new URL(page.url()).hash;
      await expect(page.getByRole('tab', { name: e.tabs.overview })).toBeVisible();

      // Overview.
      const title = english ? `Glacier mass balance of the Qilian Mountains ${uniqueName('')}` : `祁连山冰川物质平衡数据集${uniqueName('')}`;
      const abstract = english
        ? 'This dataset records the annual mass balance of twelve glaciers in the Qilian Mountains measured with stakes and snow pits from 2010 to 2020. '.repeat(2)
        : '本数据集记录了二〇一〇年至二〇二〇年祁连山十二条冰川的年物质平衡，采用花杆与雪坑观测方法获得，并经过质量控制与误差评估，可用于冰川变化研究与水资源评估。'.repeat(4);
      await page.getByLabel(e.fields.title, { exact: true }).fill(title);
      if (!english) {
        await page.getByLabel(e.fields.titleEn, { exact: true }).fill('Glacier mass balance of the Qilian Mountains');
        await page.getByLabel(e.fields.descriptionEn, { exact: true }).fill('Annual mass balance of twelve glaciers in the Qilian Mountains, 2010 to 2020.');
      }
      await page.getByLabel(e.fields.description, { exact: true }).fill(abstract);
      const wordCount = e.fields.wordCount.replace('{{count}}', String(countWords(abstract))).replace('{{chars}}', String(descriptionLength(abstract)));
      await expect(page.getByText(wordCount)).toBeVisible();
      await page.getByLabel(e.fields.usageMethod).fill(english ? 'One CSV file a year: qilian_mb_YYYY.csv' : '每年一个 CSV 文件：qilian_mb_YYYY.csv');
      // Out of range or no number: kept as typed and refused at the field, never changed silently (issue 16).
      await page.getByLabel(e.fields.fileSize).fill('12a');
      await page.getByLabel(e.fields.east).fill('200');
      await expect(page.getByText(texts.metadata.validation.number)).toBeVisible();
      await expect(page.getByText(texts.metadata.validation.longitude)).toBeVisible();
      await expect(page.getByLabel(e.fields.east)).toHaveValue('200');
      await expect(page.getByLabel(e.fields.fileSize)).toHaveValue('12a');
      await page.getByLabel(e.fields.fileSize).fill('12.5');
      await page.getByLabel(e.fields.timeStart).fill('2010-01-01');
      await page.getByLabel(e.fields.timeEnd).fill('2020-12-31');
      await page.getByLabel(e.fields.east).fill('103');
      await page.getByLabel(e.fields.south).fill('36');
      await page.getByLabel(e.fields.west).fill('94');
      await page.getByLabel(e.fields.north).fill('40');
      // The abstract is shorter than the editor's threshold: it asks whether it is complete.
      await page.getByRole('button', { name: e.save, exact: true }).click();
      const confirm = await settled(page.getByRole('dialog').filter({ hasText: e.shortDescription.title }));
      await confirm.getByRole('button', { name: e.shortDescription.ok }).click();
      await expect(page.getByText(texts.metadata.saved)).toBeVisible();

      // Submitting now lists what is missing, and nothing is submitted.
      await page.getByRole('button', { name: e.submit, exact: true }).click();
      const reasons = page.getByRole('dialog').filter({ hasText: texts.metadata.submit.title });
      await expect(reasons).toBeVisible();
      for (const reason of ['keywords', 'thumbnail', 'dataFile', 'platform', 'provider'] as const) {
        await expect(reasons.getByText(texts.metadata.submit.reasons[reason])).toBeVisible();
      }
      // No author at all: the missing provider says so, not an English translation of nobody.
      await expect(reasons.getByText(texts.metadata.submit.reasons.authorEnglish)).toHaveCount(0);
      await expect(reasons.getByText(texts.metadata.submit.reasons.title)).toHaveCount(0);
      await reasons.getByRole('button', { name: e.close }).click();

      // Publishing platform, saved automatically.
      await page.getByRole('radio', { name: texts.metadata.options.platform.portal }).check();
      await expect(page.getByTestId('save-state')).toHaveText(new RegExp(e.saveState.saved.replace('{{time}}', '\\d{2}:\\d{2}')));

      // A data resource provider, created.
      await page.getByRole('tab', { name: e.tabs.providers }).click();
      await page.getByRole('button', { name: e.author.createNew.replace('{{what}}', e.author.provider) }).click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel(e.author.name, { exact: true }).fill('寒区旱区研究所');
      await dialog.getByLabel(e.author.nameEn, { exact: true }).fill('Northwest Institute of Eco-Environment and Resources');
      await dialog.getByLabel(e.author.affiliation, { exact: true }).fill('中国科学院西北生态环境资源研究院');
      await dialog.getByLabel(e.author.affiliationEn, { exact: true }).fill('Chinese Academy of Sciences');
      await dialog.getByLabel(e.author.email).fill(`${uniqueName('data')}@example.org`);
      await dialog.getByRole('button', { name: e.add }).click();
      await expect(page.getByRole('cell', { name: 'Northwest Institute of Eco-Environment and Resources' })).toBeVisible();

      // An author with a role and an English translation.
      await page.getByRole('tab', { name: e.tabs.authors }).click();
      await page.getByRole('button', { name: e.author.createNew.replace('{{what}}', e.author.author) }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel(e.author.name, { exact: true }).fill('王冰');
      await dialog.getByLabel(e.author.nameEn, { exact: true }).fill('Wang Bing');
      await dialog.getByLabel(e.author.affiliation, { exact: true }).fill('兰州大学');
      await dialog.getByLabel(e.author.affiliationEn, { exact: true }).fill('Lanzhou University');
      await dialog.getByLabel(e.author.email).fill(`${uniqueName('wang')}@example.org`);
      await dialog.getByLabel(e.author.role).fill(texts.metadata.options.authorRole.producer);
      await dialog.getByLabel(e.author.role).press('Enter');
      await dialog.getByRole('button', { name: e.add }).click();
      await expect(page.getByRole('cell', { name: 'Wang Bing' })).toBeVisible();
      await expect(page.getByRole('cell', { name: texts.metadata.options.authorRole.producer })).toBeVisible();

      // Keywords: three of each of the four types, each with its translation.
      await page.getByRole('tab', { name: e.tabs.keywords }).click();
      const translationLabel = e.keyword.translation.replace('{{language}}', texts.metadata.options.language[other]);
      for (const type of KEYWORD_TYPES) {
        const typeLabel = texts.metadata.options.keywordType[type];
        await page.getByRole('radio', { name: typeLabel, exact: true }).check();
        for (let i = 1; i <= 3; i++) {
          await page.getByRole('textbox', { name: e.keyword.name, exact: true }).fill(`${type}-${i}`);
          await page.getByLabel(translationLabel).fill(`${type}-${i}-${other}`);
          await page.getByRole('button', { name: e.keyword.add }).click();
          await expect(page.getByRole('region', { name: typeLabel }).getByText(`${type}-${i} / ${type}-${i}-${other}`)).toBeVisible();
        }
      }

      // Thumbnail: a file that is no image is refused in the page, a PNG is uploaded and shown.
      await page.getByRole('tab', { name: e.tabs.thumbnail }).click();
      const uploadThumbnail = () => page.getByRole('button', { name: e.thumbnail.upload }).click();
      await chooseFile(page, uploadThumbnail, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
      await expect(page.getByText(texts.metadata.files.imageOnly)).toBeVisible();
      await chooseFile(page, uploadThumbnail, { name: 'qilian.png', mimeType: 'image/png', buffer: tinyPng() });
      await expect(page.getByText(texts.metadata.files.uploaded)).toBeVisible();
      await expect(page.getByRole('img', { name: e.thumbnail.alt })).toBeVisible();

      // A data file.
      await page.getByRole('tab', { name: e.tabs.files, exact: true }).click();
      await chooseFile(page, () => page.getByText(e.files.drop).click(), {
        name: 'qilian_mb_2010.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('glacier,year,mass_balance_mm\nqiyi,2010,-512\n'),
      });
      await expect(page.getByRole('link', { name: 'qilian_mb_2010.csv' })).toBeVisible();

      // A specification document.
      await page.getByRole('tab', { name: e.tabs.documents }).click();
      await chooseFile(page, () => page.getByText(e.files.drop).click(), {
        name: 'specification.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Stake readings are in centimetres of water equivalent.\n'),
      });
      await expect(page.getByRole('link', { name: 'specification.txt' })).toBeVisible();

      // Submitted: it is in review, read-only.
      await page.getByRole('button', { name: e.submit, exact: true }).click();
      await expect(page.getByText(texts.metadata.submit.success)).toBeVisible();
      await expect(page).toHaveURL(/#\/metadata\/review$/);
      const row = page.getByRole('row').filter({ hasText: title });
      await expect(row).toContainText(texts.metadata.status.submitted);

      // Return to Draft, then edit it again.
      await row.getByRole('button', { name: e.returnDraft }).click();
      await page.getByRole('button', { name: e.yes, exact: true }).click();
      await expect(page.getByText(texts.metadata.submit.returned)).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
      await page.goto(`${prefix}/personal/#/metadata/draft`);
      await page.getByRole('link', { name: title }).click();
      await expect(page.getByRole('tab', { name: e.tabs.overview })).toBeVisible();
      const titleField = page.getByLabel(e.fields.title, { exact: true });
      await expect(titleField).toHaveValue(title);
      await titleField.fill(`${title} v2`);
      await expect(page.getByTestId('save-state')).toHaveText(new RegExp(e.saveState.saved.replace('{{time}}', '\\d{2}:\\d{2}')));
      await page.reload();
      // A reload starts the personal centre anew: a first load.
      await expect(page.getByLabel(e.fields.title, { exact: true })).toHaveValue(`${title} v2`, AFTER_LOAD);

      // Someone else never gets the editor.
      await otherUserSees(browser, language, editPath);
    });

    test('edits a reference and its translation, the translated version, and deletes a data file', async ({ page }) => {
      test.setTimeout(120_000);
      const provider = await createUser({ realname: english ? 'Ben Permafrost' : '赵冻土' });
      await logIn(page, language, provider.username, provider.password);
      await page.goto(`${prefix}/personal/#/metadata/add`);
      await page.getByRole('radio', { name: english ? e.languageEn : e.languageZh }).check();
      await page.getByRole('button', { name: e.create }).click();
      await expect(page.getByRole('tab', { name: e.tabs.overview })).toBeVisible();

      // Reference: added, its title changed, translated, deleted.
      const reference = uniqueName(english ? 'Permafrost temperature ' : '多年冻土温度');
      await page.getByRole('tab', { name: e.tabs.reference }).click();
      await page.getByRole('button', { name: e.reference.add }).click();
      let dialog = page.getByRole('dialog');
      await dialog.getByLabel(e.reference.title, { exact: true }).fill(reference);
      await dialog.getByLabel(e.reference.year).fill('2019');
      await dialog.getByRole('button', { name: e.saveShort }).click();
      await expect(page.getByText(e.reference.added)).toBeVisible();
      await page.getByRole('row').filter({ hasText: reference }).getByRole('button', { name: e.edit }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel(e.reference.title, { exact: true }).fill(`${reference} v2`);
      await dialog.getByRole('button', { name: e.saveShort }).click();
      await expect(page.getByText(e.reference.modified)).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: `${reference} v2` });
      await row.getByRole('button', { name: e.reference.translate }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel(e.reference.title, { exact: true }).fill(`${reference} (${other})`);
      await dialog.getByRole('button', { name: e.saveShort }).click();
      await expect(row.getByRole('cell', { name: `${reference} (${other})` })).toBeVisible();
      await row.getByRole('button', { name: e.remove }).click();
      await page.getByRole('button', { name: e.yes, exact: true }).click();
      await expect(page.getByText(texts.metadata.deleted)).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: reference })).toHaveCount(0);

      // The version in the other language, kept after a reload (and the Overview shows its English title).
      const translatedTitle = english ? `冻土温度观测${uniqueName('')}` : `Permafrost temperature ${uniqueName('')}`;
      const titleLabel = `${e.fields.title} (${texts.metadata.options.language[other]})`;
      await page.getByRole('tab', { name: e.tabs.translations }).click();
      const translatedField = page.getByLabel(titleLabel, { exact: true });
      // Past its limit a title is kept as typed, counted, and refused at the field (never cut).
      await translatedField.fill('x'.repeat(501));
      await expect(page.getByText('501 / 500')).toBeVisible();
      await expect(page.getByText(texts.metadata.validation.tooLong)).toBeVisible();
      await expect(translatedField).toHaveValue('x'.repeat(501));
      // Typed and reloaded at once, without Save: the browser asks first, and the page's closing
      // sends it (issue 16: it was lost without a word).
      await translatedField.fill(translatedTitle);
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.type());
        void dialog.accept();
      });
      await page.reload();
      expect(asked).toEqual(['beforeunload']);
      // The editor drawn again after the reload (a loaded machine takes more than the usual 10 s).
      await expect(page.getByRole('tab', { name: e.tabs.translations })).toBeVisible(AFTER_LOAD);
      if (!english) await expect(page.getByLabel(e.fields.titleEn, { exact: true })).toHaveValue(translatedTitle);
      await page.getByRole('tab', { name: e.tabs.translations }).click();
      await expect(page.getByLabel(titleLabel, { exact: true })).toHaveValue(translatedTitle);

      // Six data files chosen at once: five are uploaded into the file manager, the sixth is named with why.
      await page.getByRole('tab', { name: e.tabs.files, exact: true }).click();
      const csv = (name: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from('borehole,depth_m,temperature_c\nqtp-1,10,-1.2\n') });
      const chooser = page.waitForEvent('filechooser');
      await page.getByText(e.files.drop).click();
      await (
        await chooser
      ).setFiles(['permafrost_2019.csv', 'permafrost_2020.csv', 'permafrost_2021.csv', 'permafrost_2022.csv', 'permafrost_2023.csv', 'permafrost_2024.csv'].map(csv));
      const refused = page.getByRole('alert').filter({ hasText: 'permafrost_2024.csv' });
      await expect(refused).toContainText(texts.fileManager.upload.tooMany.replace('{{max}}', '5'));
      for (const year of [2019, 2020, 2021, 2022, 2023]) await expect(page.getByRole('cell', { name: `permafrost_${year}.csv`, exact: true })).toBeVisible(AFTER_LOAD);
      await expect(page.getByRole('cell', { name: 'permafrost_2024.csv', exact: true })).toHaveCount(0);
      await page.getByRole('button', { name: `${e.delete} permafrost_2019.csv` }).click();
      await page.getByRole('button', { name: e.yes, exact: true }).click();
      await expect(page.getByText(texts.fileManager.deleted)).toBeVisible();
      await expect(page.getByRole('cell', { name: 'permafrost_2019.csv', exact: true })).toHaveCount(0);
    });
  });
}
