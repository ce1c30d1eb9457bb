import path from 'node:path';
import { request, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import type { Language } from '@portal/shared';
import { E2E_DATA_DIR, E2E_PORT } from '../playwright.config';
import { createUser, expect, linkMailedTo, logIn, prefixOf, test, textsOf, uniqueName } from './fixtures';
import { apiSession, expectJson, submitCompleteRecord } from './records';

const LANGUAGES: Language[] = ['zh-hans', 'en'];

/** An expert's affiliation, specialty and language (of their mails), as their profile would hold them. */
function setProfile(username: string, values: { affiliation: string; specialty: string; language: Language }) {
  const db = new Database(path.join(E2E_DATA_DIR, 'portal.sqlite3'), { fileMustExist: true });
  try {
    db.prepare('update users set affiliation = ?, specialty = ?, language = ? where username = ?').run(values.affiliation, values.specialty, values.language, username);
  } finally {
    db.close();
  }
}

/** Whether a visitor without an account reads the record (its public landing data). */
async function anonymousStatus(id: string): Promise<number> {
  const anonymous = await request.newContext({ baseURL: `http://localhost:${E2E_PORT}` });
  try {
    return (await anonymous.get(`/api/metadata/metadata/${id}/`)).status();
  } finally {
    await anonymous.dispose();
  }
}

/** Chooses an option of an Ant Design select named by its label (the open list's item, by its text). */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(option, { exact: true }).click();
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const d = texts.reviewDesk;
  const prefix = prefixOf(language);
  const english = language === 'en';
  // Each record is written in the other language: the desk shows its title in the page's language.
  const recordLanguage: Language = english ? 'zh-hans' : 'en';

  test.describe(`the data centre's review desk (${language})`, () => {
    test('staff receive a submission, invite an expert found by specialty, read the answer, approve and publish it', async ({ page }) => {
      test.setTimeout(240_000);
      const staff = createUser({ staff: true, realname: english ? 'Desk Officer' : '审核员' });
      const provider = createUser({ realname: english ? 'Ada Provider' : '李提供' });
      const expert = createUser({ realname: english ? 'Erik Glacier' : '王冰川' });
      const specialty = `Rock glacier kinematics ${uniqueName('')}`;
      setProfile(expert.username, { affiliation: 'Institute of Tibetan Plateau Research', specialty, language });

      const stem = uniqueName(english ? '冰川物质平衡' : 'Glacier mass balance ');
      const providerApi = await apiSession(provider.username, provider.password);
      const { id } = await submitCompleteRecord(providerApi, stem, recordLanguage);
      const shownTitle = english ? `${stem} (English)` : `${stem}（中文）`;
      expect(await anonymousStatus(id)).toBe(404);

      await logIn(page, language, staff.username, staff.password);
      await page.goto(`${prefix}/admin/`);
      // The users list and the desk lead to each other.
      await page.getByRole('tab', { name: d.tabs.desk }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}/admin/review$`));
      await expect(page.getByRole('heading', { name: d.title })).toBeVisible();
      await expect(page.getByRole('tab', { name: d.tabs.users })).toBeVisible();

      // Find the submission: submitted ones of the three-pole programme, by title.
      await choose(page, d.filters.status, texts.metadata.status.submitted);
      await choose(page, d.filters.fund, english ? 'Three Poles platform' : '三极平台');
      await page.getByRole('searchbox', { name: d.filters.search }).fill(stem);
      await page.getByRole('searchbox', { name: d.filters.search }).press('Enter');
      const row = page.getByRole('row').filter({ hasText: shownTitle });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(texts.metadata.status.submitted);
      await expect(row).toContainText(texts.review.labels.notReviewed);
      await expect(row).toContainText(english ? 'Ada Provider' : '李提供');
      await expect(row).toContainText(d.expertsCount.replace('{{answered}}', '0').replace('{{invited}}', '0'));
      await expect(row).toContainText(d.ageDays.replace('{{count}}', '0'));

      // The review panel: only the decisions the workflow allows from "submitted".
      await row.getByRole('button', { name: d.open.replace('{{title}}', shownTitle) }).click();
      const panel = page.getByRole('dialog', { name: shownTitle });
      const trail = panel.getByRole('region', { name: d.panel.trail });
      await expect(panel.getByRole('heading', { name: d.panel.decisions })).toBeVisible();
      await expect(panel.getByRole('link', { name: d.panel.openRecord })).toHaveAttribute('href', `${prefix}/personal/#/metadata/edit/${id}`);
      for (const offered of [d.decide.receive, d.decide.publish_without_review, d.decide.return, d.decide.refuse, d.decide.cancel]) {
        await expect(panel.getByRole('button', { name: offered, exact: true })).toBeVisible();
      }
      for (const refused of [d.decide.approve, d.decide.publish, d.decide.invite, d.decide.unpublish]) {
        await expect(panel.getByRole('button', { name: refused, exact: true })).toHaveCount(0);
      }
      await expect(trail.getByText(texts.review.actions.submit, { exact: true })).toBeVisible();

      // Receive.
      await panel.getByRole('button', { name: d.decide.receive, exact: true }).click();
      const confirmReceive = page.getByRole('dialog').filter({ hasText: d.confirm.body.replace('{{from}}', texts.metadata.status.submitted).replace('{{to}}', texts.metadata.status.receive) });
      await confirmReceive.getByRole('button', { name: d.decide.receive }).click();
      await expect(page.getByText(d.done.replace('{{action}}', d.decide.receive))).toBeVisible();
      await expect(trail.getByText(texts.review.actions.receive, { exact: true })).toBeVisible();

      // Invite the expert, found by specialty (no e-mail shown), with the default deadline.
      await panel.getByRole('button', { name: d.decide.invite, exact: true }).click();
      const invitation = page.getByRole('dialog', { name: d.invite.title.replace('{{title}}', shownTitle) });
      await invitation.getByRole('combobox', { name: d.invite.experts }).fill(specialty.split(' ').slice(0, 2).join(' '));
      const candidate = page.getByRole('option', { name: english ? 'Erik Glacier' : '王冰川' });
      await expect(candidate).toHaveCount(1);
      await page.getByText(specialty).click();
      await expect(invitation.getByText(`${expert.username}@example.org`)).toHaveCount(0);
      await invitation.getByLabel(d.invite.message).fill(english ? 'Please check the glacier outlines.' : '请检查冰川边界。');
      await invitation.getByRole('button', { name: d.invite.send }).click();
      await expect(page.getByText(d.invite.sent)).toBeVisible();
      await expect(trail.getByText(texts.review.actions.invite, { exact: true })).toBeVisible();
      const card = panel.getByTestId('expert-answer');
      await expect(card).toContainText(english ? 'Erik Glacier' : '王冰川');
      await expect(card).toContainText(d.review.states.invited);

      // The invitation mail leads the expert to the review form.
      const link = await linkMailedTo(`${expert.username}@example.org`);
      const match = new RegExp(`^http://localhost:${E2E_PORT}${english ? '/en' : ''}/personal/#/review/advice/([\\w-]+)$`).exec(link);
      expect(match, link).not.toBeNull();
      const reviewId = match![1]!;

      // The expert answers through the API.
      const comment = english ? 'Outlines are sound; add the error estimate.' : '边界可靠，请补充误差估计。';
      const expertApi = await apiSession(expert.username, expert.password);
      await expectJson(await expertApi.get(`/api/metadata/review/${reviewId}/`));
      await expectJson(await expertApi.put(`/api/metadata/review/${reviewId}/`, { data: { review_status: 'pass', content: comment, signed: true } }));

      // The record has left the "submitted" list: under review, one expert of one answered; reopened, the panel shows the answer card.
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
      await expect(row).toHaveCount(0);
      await choose(page, d.filters.status, texts.metadata.status.underReview);
      await expect(row).toContainText(texts.review.labels.pass);
      await expect(row).toContainText(d.expertsCount.replace('{{answered}}', '1').replace('{{invited}}', '1'));
      await row.getByRole('button', { name: d.open.replace('{{title}}', shownTitle) }).click();
      await expect(card).toContainText(texts.review.labels.pass);
      await expect(card).toContainText(comment);
      await expect(card).toContainText(d.review.signed);
      await expect(card).toContainText(d.review.roundTag.replace('{{round}}', '1'));
      await expect(trail.getByText(texts.review.actions.answer, { exact: true })).toBeVisible();

      // Approve, then publish.
      await panel.getByRole('button', { name: d.decide.approve, exact: true }).click();
      const confirmApprove = page.getByRole('dialog').filter({ hasText: d.confirm.commentOptional });
      await confirmApprove.getByLabel(d.confirm.commentOptional).fill(english ? 'Approved by the data centre.' : '数据中心审核通过。');
      await confirmApprove.getByRole('button', { name: d.decide.approve }).click();
      await expect(page.getByText(d.done.replace('{{action}}', d.decide.approve))).toBeVisible();
      await panel.getByRole('button', { name: d.decide.publish, exact: true }).click();
      await page.getByRole('dialog').filter({ hasText: d.confirm.commentOptional }).getByRole('button', { name: d.decide.publish }).click();
      await expect(page.getByText(d.done.replace('{{action}}', d.decide.publish))).toBeVisible();
      await expect(trail.getByText(texts.review.actions.publish, { exact: true })).toBeVisible();
      await expect(panel.getByText(d.panel.publishedAt)).toBeVisible();

      // Published: anyone reads it.
      expect(await anonymousStatus(id)).toBe(200);
      await providerApi.dispose();
      await expertApi.dispose();
    });

    test('a decision someone else took meanwhile shows the server\'s message and the record as it stands', async ({ page }) => {
      test.setTimeout(180_000);
      const staff = createUser({ staff: true, realname: english ? 'Desk Officer' : '审核员' });
      const colleague = createUser({ staff: true, realname: english ? 'Other Officer' : '另一审核员' });
      const provider = createUser({ realname: english ? 'Ada Provider' : '李提供' });
      const stem = uniqueName(english ? 'Snow cover ' : '积雪');
      const providerApi = await apiSession(provider.username, provider.password);
      const { id } = await submitCompleteRecord(providerApi, stem, language);

      await logIn(page, language, staff.username, staff.password);
      await page.goto(`${prefix}/admin/review`);
      await page.getByRole('searchbox', { name: d.filters.search }).fill(stem);
      await page.getByRole('searchbox', { name: d.filters.search }).press('Enter');
      await page.getByRole('button', { name: d.open.replace('{{title}}', stem) }).click();
      const panel = page.getByRole('dialog', { name: stem });
      await expect(panel.getByRole('button', { name: d.decide.receive, exact: true })).toBeVisible();

      // The colleague receives it first.
      const colleagueApi = await apiSession(colleague.username, colleague.password);
      await expectJson(await colleagueApi.patch(`/api/metadata/review-status/${id}/set_review_status/`, { data: { review_status: 'receive' } }));

      await panel.getByRole('button', { name: d.decide.receive, exact: true }).click();
      await page.getByRole('dialog').filter({ hasText: d.confirm.body.replace('{{from}}', texts.metadata.status.submitted).replace('{{to}}', texts.metadata.status.receive) }).getByRole('button', { name: d.decide.receive }).click();
      await expect(page.getByText(texts.review.wrongState)).toBeVisible();
      // The panel now offers what follows "received", and the trail names the colleague.
      await expect(panel.getByRole('button', { name: d.decide.invite, exact: true })).toBeVisible();
      await expect(panel.getByRole('button', { name: d.decide.receive, exact: true })).toHaveCount(0);
      await expect(panel.getByText(english ? 'Other Officer' : '另一审核员')).toBeVisible();
      await providerApi.dispose();
      await colleagueApi.dispose();
    });

    test('is for staff: a visitor signs in and comes back, a provider is refused', async ({ page }) => {
      // Two logins and four page loads: more than the default minute on a busy machine.
      test.setTimeout(150_000);
      const staff = createUser({ staff: true, realname: english ? 'Desk Officer' : '审核员' });
      await page.goto(`${prefix}/admin/review`);
      await expect(page.getByRole('heading', { name: texts.account.loginTitle })).toBeVisible();
      await page.getByLabel(texts.fields.login).fill(staff.username);
      await page.getByLabel(texts.fields.password, { exact: true }).fill(staff.password);
      await page.getByRole('button', { name: texts.account.loginButton }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}/admin/review$`));
      await expect(page.getByRole('heading', { name: d.title })).toBeVisible();

      const provider = createUser({ realname: english ? 'Ada Provider' : '李提供' });
      await page.context().clearCookies();
      await logIn(page, language, provider.username, provider.password);
      await page.goto(`${prefix}/admin/review`);
      await expect(page.getByText(texts.account.forbidden)).toBeVisible();
      await expect(page.getByRole('heading', { name: d.title })).toHaveCount(0);
    });
  });
}
