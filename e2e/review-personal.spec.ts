import { randomUUID } from 'node:crypto';
import type { Browser } from '@playwright/test';
import type { Language } from '@portal/shared';
import { answerReview, createUser, expect, prefixOf, signedIn, test, textsOf, uniqueName, withDb } from './fixtures';
import { apiSession as tokenSession, completeRecord, expectJson } from './records';

/**
 * The review screens of the personal centre: an invited expert finds an invitation, reads the record
 * with its data file and answers; a project leader passes project data from their queue. The records
 * and the data centre's steps are made through the API (and the database for the topic link), the
 * people's steps through the screens. What the creator reads of a review (the label, the comments
 * without the expert's name) is walked in review-journey.spec.ts.
 */

const LANGUAGES: Language[] = ['zh-hans', 'en'];

const userId = (username: string) => withDb((db) => (db.prepare('select id from users where username = ?').get(username) as { id: string }).id);

/** A signed-in API session of a user: its own browser context, with the CSRF header every write needs. */
async function apiSession(browser: Browser, user: { username: string; password: string }) {
  const context = await browser.newContext();
  const login = await context.request.post('/account/profile-login/', { form: { username: user.username, password: user.password } });
  expect(login.status()).toBe(200);
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
  const headers = { 'X-CSRFToken': csrf, 'Accept-Language': 'en' };
  const expectOk = async (reply: Awaited<ReturnType<typeof context.request.get>>, status = 200) => {
    expect(reply.status(), await reply.text()).toBe(status);
    return reply.json() as Promise<Record<string, unknown>>;
  };
  return {
    context,
    post: async (url: string, data: unknown, status = 200) => expectOk(await context.request.post(url, { data, headers }), status),
    patch: async (url: string, data: unknown) => expectOk(await context.request.patch(url, { data, headers })),
    upload: async (url: string, metadata: string, file: { name: string; mimeType: string; buffer: Buffer }) =>
      expectOk(await context.request.post(url, { multipart: { metadata, file }, headers }), 201),
  };
}

/** Moves a record into review as its creator's submission would, with its English version's title. */
function submitInDb(id: string, values: { enTitle?: string; project?: { specialId: string } } = {}) {
  withDb((db) => {
    const now = new Date().toISOString();
    db.prepare(`update metadata set status = 'submitted', submitted_at = ?, submitting_type = ?, topic_review_status = ?, updated_at = ? where id = ?`).run(
      now,
      values.project ? 'project' : 'general',
      values.project ? 'waiting' : '',
      now,
      id,
    );
    if (values.enTitle)
      db.prepare(
        `insert into metadata_i18n (id, metadata_id, language, title) values (?, ?, 'en', ?) on conflict (metadata_id, language) do update set title = excluded.title`,
      ).run(randomUUID(), id, values.enTitle);
    if (values.project) db.prepare('insert into meta_special (id, metadata_id, special_id) values (?, ?, ?)').run(randomUUID(), id, values.project.specialId);
  });
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const r = texts.review;
  const prefix = prefixOf(language);
  const english = language === 'en';

  test.describe(`the review screens of the personal centre (${language})`, () => {
    test('an expert finds an invitation in the menu, reads the record with its data file and answers', async ({ browser }) => {
      test.setTimeout(240_000);
      const tag = uniqueName('');
      const expertName = `Expert Wang ${tag}`;
      const creator = await createUser({ realname: 'Creator Chen' });
      const expert = await createUser({ realname: expertName });
      const staff = await createUser({ realname: 'Staff Zhou', staff: true });

      // The creator's record, written in Chinese with an English title, and its data file.
      const zhTitle = `青藏高原湖冰物候数据集 ${tag}`;
      const enTitle = `Lake ice phenology of the Tibetan Plateau ${tag}`;
      const owner = await apiSession(browser, creator);
      const { id } = (await owner.post('/api/metadata/metadata/', { language: 'zh-hans', title: zhTitle }, 201)) as { id: string };
      const csv = Buffer.from(`station,date,ice\nNamco,2020-01-01,1\n${tag}\n`);
      await owner.upload('/metadata/upload-file/', id, { name: 'lake-ice.csv', mimeType: 'text/csv', buffer: csv });
      submitInDb(id, { enTitle });

      // The data centre receives it and invites the expert.
      const desk = await apiSession(browser, staff);
      await desk.patch(`/api/metadata/review-status/${id}/set_review_status/`, { review_status: 'receive' });
      const message = english ? 'Please check the ice-on dates.' : '请核对封冻日期。';
      await desk.post('/metadata/invite-experts/', { metadata: id, experts: [userId(expert.username)], deadline: inDays(10), message });

      // The expert finds the invitation through the menu, its title in the page's language.
      const pageTitle = english ? enTitle : zhTitle;
      const { context: expertContext, page } = await signedIn(browser, language, expert);
      await page.goto(`${prefix}/personal/#/`);
      await page.getByRole('menuitem', { name: texts.menu.review }).click();
      await page.getByRole('menuitem', { name: texts.menu.invitedReview }).click();
      await expect(page).toHaveURL(/#\/invited\/review$/);
      const invitation = page.getByTestId('invitation').filter({ hasText: pageTitle });
      await expect(invitation).toBeVisible();
      await expect(invitation).toContainText(r.ui.invited.deadline);
      await expect(invitation).toContainText(r.labels.notReviewed);

      // The review page: the invitation's message, the record as a document, its data file.
      await invitation.getByRole('link', { name: pageTitle }).click();
      await expect(page).toHaveURL(/#\/review\/advice\/[\w-]+$/);
      await expect(page.getByRole('heading', { name: r.ui.advice.heading.replace('{{title}}', pageTitle) })).toBeVisible();
      await expect(page.getByText(message)).toBeVisible();
      const documentView = page.getByTestId('record-document');
      await expect(documentView).toContainText(zhTitle);
      await expect(documentView).toContainText(enTitle);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'lake-ice.csv' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('lake-ice.csv');
      const chunks: Buffer[] = [];
      for await (const chunk of (await file.createReadStream())!) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(csv)).toBe(true);
      // Opening the review moved the record to "under review".
      expect(withDb((db) => (db.prepare('select status from metadata where id = ?').get(id) as { status: string }).status)).toBe('underReview');

      // The answer: the comment is required, then "pass after modification" is saved and shown.
      await page.getByRole('button', { name: r.ui.advice.submit }).click();
      await expect(page.getByText(r.validation.commentRequired)).toBeVisible();
      const comment = english ? `Give the ice-on dates of 2019 as well. ${tag}` : `请补充二〇一九年的封冻日期。${tag}`;
      const answer = await answerReview(page, language, { outcome: 'pass_after_modification', comment });
      await expect(answer.getByRole('button', { name: r.ui.advice.change })).toBeVisible();

      // The invitation has left the waiting list and is in the history.
      await page.goto(`${prefix}/personal/#/invited/review`);
      await expect(page.getByText(r.ui.invited.empty)).toBeVisible();
      await page.goto(`${prefix}/personal/#/review/hitory`);
      const done = page.getByTestId('history-item').filter({ hasText: pageTitle });
      await expect(done).toContainText(r.labels.pass_after_modification);
      await expertContext.close();
      await owner.context.close();
      await desk.context.close();
    });

    test('an expert of round 2 reads the record as submitted, drawn as its landing page, and what changed since round 1', async ({ browser }) => {
      test.setTimeout(240_000);
      const tag = uniqueName('');
      const creator = await createUser({ realname: 'Creator Gao' });
      const expert = await createUser({ realname: `Expert Ma ${tag}` });
      const staff = await createUser({ realname: 'Staff Xu', staff: true });
      const expertId = userId(expert.username);

      // The creator's complete record (people, keywords, thumbnail, a data file) with a reference, submitted.
      const title = english ? `Borehole temperature of the Qilian Mountains ${tag}` : `祁连山钻孔地温 ${tag}`;
      const revised = english ? `Borehole temperature of the Qilian Mountains, 2010-2021 ${tag}` : `祁连山钻孔地温（2010-2021）${tag}`;
      const reference = english ? `Permafrost warming in the Qilian Mountains ${tag}` : `祁连山多年冻土升温 ${tag}`;
      const owner = await tokenSession(creator.username, creator.password);
      const { id } = await completeRecord(owner, title, language);
      await expectJson(await owner.post('/api/metadata/literature/', { data: { title: reference, type: 'citation', year: '2019', metadata: id } }), 201);
      const submitted = async () => expect((await expectJson(await owner.post('/metadata/metadata-submit/', { data: { id } }))).status).toBe('true');
      await submitted();

      // Round 1: taken in, the expert invited; the expert asks for changes, the data centre sends it back.
      const desk = await apiSession(browser, staff);
      await desk.patch(`/api/metadata/review-status/${id}/set_review_status/`, { review_status: 'receive' });
      await desk.post('/metadata/invite-experts/', { metadata: id, experts: [expertId], deadline: inDays(10), message: 'Round one.' });
      const roundOf = (round: number) => withDb((db) => (db.prepare('select id from reviews where metadata_id = ? and round = ?').get(id, round) as { id: string }).id);
      const reviewer = await tokenSession(expert.username, expert.password);
      await expectJson(await reviewer.get(`/api/metadata/review/${roundOf(1)}/`));
      await expectJson(
        await reviewer.put(`/api/metadata/review/${roundOf(1)}/`, { data: { review_status: 'review_after_modification', content: 'Give 2021 too.', signed: false } }),
      );
      await desk.patch(`/api/metadata/review-status/${id}/set_review_status/`, { review_status: 'return', content: 'Please answer the expert.' });

      // The creator changes the title and the end of the time range, adds a keyword, submits again; round 2 begins.
      await expectJson(await owner.patch(`/api/metadata/metadata/${id}/`, { data: { title: revised, time_end: '2021-12-31' } }));
      const keyword = english ? `Qilian borehole ${tag}` : `祁连钻孔 ${tag}`;
      await expectJson(
        await owner.post('/api/metadata/keyword/', { data: { name: keyword, type: 'place', language, metadata: id, translation: english ? '祁连钻孔' : 'Qilian borehole' } }),
        201,
      );
      await submitted();
      await desk.patch(`/api/metadata/review-status/${id}/set_review_status/`, { review_status: 'receive' });

      const { context, page } = await signedIn(browser, language, expert);
      await page.goto(`${prefix}/personal/#/review/advice/${roundOf(2)}`);
      const record = page.getByTestId('submitted-record');
      await expect(record).toBeVisible({ timeout: 30_000 });
      await expect(record).toContainText(texts.review.ui.advice.submitted.replace('{{round}}', '2'));
      // The whole record, as its landing page draws it: title, people with their roles, keywords, reference, thumbnail.
      await expect(record.getByRole('heading', { name: revised })).toBeVisible();
      const people = record.getByRole('region', { name: texts.landing.sections.authors });
      await expect(people).toContainText(/张冰川|Zhang Bingchuan/);
      await expect(people).toContainText(texts.landing.options.authorRole.resourceProvider);
      const keywords = record.getByRole('region', { name: texts.landing.sections.keywords });
      await expect(keywords).toContainText(keyword);
      await expect(keywords).toContainText(texts.landing.options.keywordType.place);
      await expect(record.getByRole('region', { name: texts.landing.sections.literature })).toContainText(reference);
      const thumbnail = record.getByRole('img', { name: texts.landing.thumbnail });
      await expect(thumbnail).toBeVisible();
      await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
      // The data file still downloads beside it.
      await expect(page.getByRole('link', { name: 'glacier_1990.csv' })).toBeVisible();

      // What changed since round 1: the title and the end of the time range before and after, the keyword added.
      const changes = page.getByTestId('record-changes');
      await expect(changes).toContainText(texts.review.ui.changes.title.replace('{{round}}', '1'));
      await expect(changes).toContainText(texts.editor.fields.title);
      await expect(changes).toContainText(title);
      await expect(changes).toContainText(revised);
      await expect(changes).toContainText(texts.editor.fields.timeEnd);
      await expect(changes).toContainText('2021-12-31');
      await expect(changes).toContainText(texts.editor.tabs.keywords);
      await expect(changes).toContainText(keyword);
      await expect(changes).not.toContainText(texts.editor.fields.description);

      // On a phone the same page fits: nothing wider than the screen, each label of the changes on one line.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      for (const label of await changes.locator('.ant-descriptions-item-label').all()) {
        const lines = await label.evaluate((element) => element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight));
        expect(lines, await label.innerText()).toBeLessThan(2);
      }
      await context.close();
      await owner.dispose();
      await reviewer.dispose();
      await desk.context.close();
    });

    test('a project leader passes a record of their topic from the project list', async ({ browser }) => {
      test.setTimeout(180_000);
      const tag = uniqueName('');
      const creator = await createUser({ realname: 'Creator Liu' });
      const leader = await createUser({ realname: 'Leader Li', project: 1 });
      const staff = await createUser({ realname: 'Staff Qian', staff: true });
      const desk = await apiSession(browser, staff);
      const special = (await desk.post('/api/metadata/special/', { name: `三极专题 ${tag}` }, 201)) as { id: string };
      await desk.post('/api/metadata/special-manage/', { special: special.id, user: userId(leader.username) }, 201);

      const title = english ? `Permafrost temperature of the Qilian Mountains ${tag}` : `祁连山多年冻土温度 ${tag}`;
      const owner = await apiSession(browser, creator);
      const { id } = (await owner.post('/api/metadata/metadata/', { language, title }, 201)) as { id: string };
      submitInDb(id, { project: { specialId: special.id } });

      const { context, page } = await signedIn(browser, language, leader);
      await page.goto(`${prefix}/personal/#/`);
      await page.getByRole('menuitem', { name: texts.menu.projects }).click();
      await page.getByRole('menuitem', { name: texts.menu.projectReview }).click();
      await expect(page).toHaveURL(/#\/review\/projectList$/);
      const item = page.getByTestId('project-item').filter({ hasText: title });
      // The leader's own step, said once (project leader not reviewed).
      await expect(item).toContainText(r.labels.leaderNotReviewed);
      await expect(item).not.toContainText(r.ui.project.topicStatus.waiting);
      await item.getByRole('button', { name: r.ui.project.review }).click();
      await expect(page).toHaveURL(new RegExp(`#/review/submit/${id}$`));
      await expect(page.getByTestId('record-document')).toContainText(title);

      // "Not pass" needs a comment; "pass" does not.
      await page.getByRole('radio', { name: r.ui.project.noPass }).check();
      await page.getByRole('button', { name: r.ui.project.submit, exact: true }).click();
      await expect(page.getByText(r.ui.project.commentRequired, { exact: true }).last()).toBeVisible();
      await page.getByRole('radio', { name: r.ui.project.pass, exact: true }).check();
      await page.getByRole('button', { name: r.ui.project.submit, exact: true }).click();
      await expect(page.getByText(r.ui.project.done)).toBeVisible();
      await expect(page).toHaveURL(/#\/review\/projectList$/);
      await expect(page.getByTestId('project-item').filter({ hasText: title })).toHaveCount(0);
      expect(withDb((db) => (db.prepare('select topic_review_status from metadata where id = ?').get(id) as { topic_review_status: string }).topic_review_status)).toBe('pass');

      // The leader's history lists it as passed.
      await page.goto(`${prefix}/personal/#/review/hitory`);
      await expect(page.getByTestId('project-history-item').filter({ hasText: title })).toContainText(r.ui.project.topicStatus.pass);
      await context.close();
      await owner.context.close();
      await desk.context.close();
    });
  });
}
