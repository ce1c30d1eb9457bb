import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { E2E_PORT } from '../playwright.config';
import {
  AFTER_LOAD,
  answerReview,
  choose,
  createUsers,
  decideOnDesk,
  expect,
  logInToContinue,
  mailTo,
  openOnDesk,
  prefixOf,
  setProfile,
  signedInQuietly,
  test,
  textsOf,
  timePattern,
  uniqueName,
} from './fixtures';
import { anonymousRecord, apiSession, completeRecord } from './records';

/**
 * The journey of issue 7, review and publication, through the real screens of its three people, each
 * at their own browser: a provider submits a complete record (prepared through the API); the data
 * centre receives it and invites an expert found by specialty; the expert, led by the invitation
 * mail, answers "pass after modification"; the data centre sends it back; the provider reads the
 * comment, changes the abstract and submits again; taken in again, it goes back to the same expert
 * ("review after modification"), who passes it; the data centre approves and publishes it, and then
 * anyone reads it. The desk's own checks (filters, list columns, the decisions offered) ride along.
 */

const LANGUAGES: Language[] = ['zh-hans', 'en'];

/** With JOURNEY_SCREENSHOTS set, a whole-page picture of a step in /tmp, to look at (a few seconds each, so not in CI). */
async function snapshot(page: Page, name: string) {
  if (process.env.JOURNEY_SCREENSHOTS) await page.screenshot({ path: `/tmp/journey-${name}.png`, fullPage: true });
}

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const d = texts.reviewDesk;
  const r = texts.review;
  const e = texts.editor;
  const status = texts.metadata.status;
  const prefix = prefixOf(language);
  const english = language === 'en';
  // The record is written in the other language: every screen shows its title in the page's language.
  const recordLanguage: Language = english ? 'zh-hans' : 'en';
  // The review form offers an outcome in the words of the "after modification" tag (one text more to count).
  const outcomeOfTagWords = r.labels.review_after_modification === r.ui.invited.afterModification ? 1 : 0;

  test(`a submission is reviewed, sent back, fixed, passed by the same expert and published (${language})`, async ({ page, browser }) => {
    // Three people, two logins on screen, four pages loaded and some fifteen opened: some two minutes
    // on a quiet two-core machine, more than twice that beside other work.
    test.setTimeout(480_000);
    const tag = uniqueName('');
    const providerName = english ? 'Ada Provider' : '李提供';
    const expertName = english ? `Erik Glacier ${tag}` : `王冰川 ${tag}`;
    const [staff, provider, expert] = await createUsers({ staff: true, realname: english ? 'Desk Officer' : '审核员' }, { realname: providerName }, { realname: expertName });
    const expertMail = `${expert.username}@example.org`;
    const specialty = `Rock glacier kinematics ${tag}`;
    setProfile(expert.username, { affiliation: 'Institute of Tibetan Plateau Research', specialty, language });

    const stem = uniqueName(english ? '冰川物质平衡' : 'Glacier mass balance ');
    const shownTitle = english ? `${stem} (English)` : `${stem}（中文）`;
    const providerApi = await apiSession(provider.username, provider.password);
    const { id } = await completeRecord(providerApi, stem, recordLanguage);
    await providerApi.dispose();
    // A draft: nobody else reads it.
    expect((await anonymousRecord(id)).status).toBe(404);

    const invitationMessage = english ? `Please check the glacier outlines. ${tag}` : `请检查冰川边界。${tag}`;
    const firstComment = english ? `Outlines are sound; give the error estimate in the abstract. ${tag}` : `边界可靠，请在摘要中补充误差估计。${tag}`;
    const returnComment = english ? `Please add what the expert asks. ${tag}` : `请按专家意见补充。${tag}`;
    const secondComment = english ? `The error estimate is there now. ${tag}` : `误差估计已补充。${tag}`;

    await test.step('the provider submits the record from the draft list', async () => {
      await page.goto(`${prefix}/personal/#/metadata/draft`);
      await logInToContinue(page, language, provider.username, provider.password);
      await expect(page).toHaveURL(/#\/metadata\/draft$/);
      const draft = page.getByRole('row').filter({ hasText: shownTitle });
      await expect(draft).toContainText(status.draft, AFTER_LOAD);
      await draft.getByRole('button', { name: e.submit, exact: true }).click();
      await expect(page.getByText(texts.metadata.submit.success)).toBeVisible();
      await expect(page).toHaveURL(/#\/metadata\/review$/);
      const inReview = page.getByRole('row').filter({ hasText: shownTitle });
      await expect(inReview).toContainText(status.submitted);
      await expect(inReview).toContainText(r.labels.notReviewed);
    });

    const { context: staffContext, page: desk } = await signedInQuietly(browser, staff);
    const { row, panel, trail } = await test.step('the data centre finds the submission on its desk', async () => {
      await desk.goto(`${prefix}/admin/review`);
      await expect(desk.getByRole('heading', { name: d.title })).toBeVisible(AFTER_LOAD);
      // The desk and the users list lead to each other.
      await expect(desk.getByRole('tab', { name: d.tabs.desk, selected: true })).toBeVisible();
      await expect(desk.getByRole('tab', { name: d.tabs.users })).toBeVisible();
      // Submitted ones of the three-pole programme, by title.
      await choose(desk, d.filters.status, status.submitted);
      await choose(desk, d.filters.fund, english ? 'Three Poles platform' : '三极平台');
      const found = await openOnDesk(desk, language, stem, shownTitle);
      await expect(found.row).toHaveCount(1);
      await expect(found.row).toContainText(status.submitted);
      await expect(found.row).toContainText(r.labels.notReviewed);
      await expect(found.row).toContainText(providerName);
      await expect(found.row).toContainText(d.expertsCount.replace('{{answered}}', '0').replace('{{invited}}', '0'));
      await expect(found.row).toContainText(d.ageDays.replace('{{count}}', '0'));
      // The panel offers only the decisions the workflow allows from "submitted".
      await expect(found.panel.getByRole('heading', { name: d.panel.decisions })).toBeVisible();
      await expect(found.panel.getByRole('link', { name: d.panel.openRecord })).toHaveAttribute('href', `${prefix}/personal/#/metadata/edit/${id}`);
      for (const offered of [d.decide.receive, d.decide.publish_without_review, d.decide.return, d.decide.refuse, d.decide.cancel]) {
        await expect(found.panel.getByRole('button', { name: offered, exact: true })).toBeVisible();
      }
      for (const refused of [d.decide.approve, d.decide.publish, d.decide.invite, d.decide.unpublish]) {
        await expect(found.panel.getByRole('button', { name: refused, exact: true })).toHaveCount(0);
      }
      await expect(found.trail.getByText(r.actions.submit, { exact: true })).toBeVisible();
      return found;
    });
    const card = panel.getByTestId('expert-answer');

    await test.step('the data centre receives it and invites an expert found by specialty', async () => {
      await decideOnDesk(desk, language, panel, 'receive', { from: status.submitted, to: status.receive });
      await expect(desk.getByText(d.done.replace('{{action}}', d.decide.receive))).toBeVisible();
      await expect(trail.getByText(r.actions.receive, { exact: true })).toBeVisible();

      await panel.getByRole('button', { name: d.decide.invite, exact: true }).click();
      const invitation = desk.getByRole('dialog', { name: d.invite.title.replace('{{title}}', shownTitle) });
      await invitation.getByRole('combobox', { name: d.invite.experts }).fill(`kinematics ${tag}`);
      await expect(desk.getByRole('option', { name: expertName })).toHaveCount(1);
      await desk.getByText(specialty).click();
      // Found by specialty; no e-mail address is shown.
      await expect(invitation.getByText(expertMail)).toHaveCount(0);
      await invitation.getByLabel(d.invite.message).fill(invitationMessage);
      await invitation.getByRole('button', { name: d.invite.send }).click();
      await expect(desk.getByText(d.invite.sent)).toBeVisible();
      await expect(trail.getByText(r.actions.invite, { exact: true })).toBeVisible();
      await expect(card).toContainText(expertName);
      await expect(card).toContainText(d.review.states.invited);
    });

    const { context: expertContext, page: review } = await test.step('the expert follows the invitation mail, signs in and answers "pass after modification"', async () => {
      const mail = await mailTo(expertMail);
      expect(mail.text).toContain(stem);
      expect(mail.text).toContain(invitationMessage);
      expect(mail.link).toMatch(new RegExp(`^http://localhost:${E2E_PORT}${english ? '/en' : ''}/personal/#/review/advice/[\\w-]+$`));
      const context = await browser.newContext();
      const expertPage = await context.newPage();
      await expertPage.goto(mail.link);
      // Not signed in: the login screen, which leads back to the review.
      await logInToContinue(expertPage, language, expert.username, expert.password);
      await expect(expertPage).toHaveURL(mail.link);
      await expect(expertPage.getByRole('heading', { name: r.ui.advice.heading.replace('{{title}}', shownTitle) })).toBeVisible(AFTER_LOAD);
      await expect(expertPage.getByText(invitationMessage)).toBeVisible();
      // A first review: no "review after modification" tag beside the heading.
      await expect(expertPage.getByText(r.ui.invited.afterModification, { exact: true })).toHaveCount(outcomeOfTagWords);
      await answerReview(expertPage, language, { outcome: 'pass_after_modification', comment: firstComment });
      await snapshot(expertPage, `${language}-1-expert-answer`);
      return { context, page: expertPage };
    });

    await test.step('the provider sees the label in the "in review" list', async () => {
      await page.getByRole('menuitem', { name: texts.menu.drafts }).click();
      await page.getByRole('menuitem', { name: texts.menu.reviewing }).click();
      await expect(page.getByRole('row').filter({ hasText: shownTitle })).toContainText(r.labels.pass_after_modification);
    });

    await test.step('the data centre reads the answer and returns the record', async () => {
      // The record has left the "submitted" list: under review, one expert of one answered.
      await desk.keyboard.press('Escape');
      await expect(panel).toBeHidden();
      await expect(row).toHaveCount(0);
      await choose(desk, d.filters.status, status.underReview);
      await expect(row).toContainText(r.labels.pass_after_modification);
      await expect(row).toContainText(d.expertsCount.replace('{{answered}}', '1').replace('{{invited}}', '1'));
      await row.getByRole('button', { name: d.open.replace('{{title}}', shownTitle) }).click();
      await expect(card).toContainText(r.labels.pass_after_modification);
      await expect(card).toContainText(firstComment);
      await expect(card).toContainText(d.review.unsigned);
      await expect(card).toContainText(d.review.roundTag.replace('{{round}}', '1'));
      await expect(trail.getByText(r.actions.answer, { exact: true })).toBeVisible();
      await decideOnDesk(desk, language, panel, 'return', { from: status.underReview, to: status.draft }, returnComment);
      await expect(desk.getByText(d.done.replace('{{action}}', d.decide.return))).toBeVisible();
      await expect(trail.getByText(r.actions.return, { exact: true })).toBeVisible();
    });

    const changedAbstract = await test.step('the provider reads the comments, changes the abstract and submits again from the editor', async () => {
      // The decision mail brings the comments, the expert's without a name.
      const decision = await mailTo(`${provider.username}@example.org`);
      expect(decision.text).toContain(firstComment);
      expect(decision.text).toContain(returnComment);
      expect(decision.text).not.toContain(expertName);
      await page.goto(`${prefix}/personal/#/metadata/draft`);
      const draft = page.getByRole('row').filter({ hasText: shownTitle });
      await expect(draft).toContainText(status.draft);
      await draft.getByRole('link', { name: shownTitle }).click();
      await expect(page).toHaveURL(new RegExp(`#/metadata/edit/${id}$`));
      // The editor: its own scripts and four requests before the panel shows.
      const reviewPanel = page.getByTestId('review-panel');
      await expect(reviewPanel).toContainText(r.ui.panel.fixHint, AFTER_LOAD);
      // The expert's comment, without the expert's name; the data centre's comment.
      const expertComment = reviewPanel.getByTestId('review-comment').filter({ hasText: firstComment });
      await expect(expertComment).toContainText(r.ui.panel.anonymous);
      await expect(expertComment).toContainText(r.labels.pass_after_modification);
      await expect(reviewPanel.getByTestId('review-comment').filter({ hasText: returnComment })).toBeVisible();
      await reviewPanel.getByText(r.ui.panel.trail).click();
      await expect(reviewPanel).toContainText(r.actions.return);
      await expect(page.getByText(expertName)).toHaveCount(0);
      await snapshot(page, `${language}-2-provider-comments`);

      const abstractField = page.getByLabel(e.fields.description, { exact: true });
      // The abstract is in the record's language.
      const abstract = `${await abstractField.inputValue()}${recordLanguage === 'en' ? ' The area error is within 3 per cent.' : '面积误差在百分之三以内。'}`;
      await abstractField.fill(abstract);
      await expect(page.getByTestId('save-state')).toHaveText(timePattern(e.saveState.saved));
      await page.getByRole('button', { name: e.submit, exact: true }).click();
      await expect(page.getByText(texts.metadata.submit.success)).toBeVisible();
      await expect(page).toHaveURL(/#\/metadata\/review$/);
      await expect(page.getByRole('row').filter({ hasText: shownTitle })).toContainText(status.submitted);
      return abstract;
    });

    await test.step('taken in again, the record goes back to the same expert, labelled "after modification"', async () => {
      await desk.keyboard.press('Escape');
      await expect(panel).toBeHidden();
      await choose(desk, d.filters.status, status.submitted);
      await row.getByRole('button', { name: d.open.replace('{{title}}', shownTitle) }).click();
      await expect(trail.getByText(r.actions.submit, { exact: true })).toHaveCount(2);
      await decideOnDesk(desk, language, panel, 'receive', { from: status.submitted, to: status.receive });
      await expect(desk.getByText(d.done.replace('{{action}}', d.decide.receive))).toBeVisible();
      // No invitation by hand: the experts of round 1 are invited again.
      await expect(trail.getByText(r.actions.invite, { exact: true })).toHaveCount(2);
      const again = card.filter({ hasText: d.review.roundTag.replace('{{round}}', '2') });
      await expect(again).toContainText(expertName);
      await expect(again).toContainText(d.review.afterModification);
      await expect(again).toContainText(d.review.states.invited);
    });

    await test.step('the expert follows the new mail and passes it', async () => {
      const mail = await mailTo(expertMail, 2);
      expect(mail.link).toMatch(/#\/review\/advice\/[\w-]+$/);
      expect(mail.link).not.toBe(review.url());
      await review.goto(mail.link);
      await expect(review.getByRole('heading', { name: r.ui.advice.heading.replace('{{title}}', shownTitle) })).toBeVisible();
      // The tag beside the heading: this is a review after modification.
      await expect(review.getByText(r.ui.invited.afterModification, { exact: true })).toHaveCount(outcomeOfTagWords + 1);
      // The record as resubmitted, and what changed since round 1: the abstract, before and after.
      await expect(review.getByTestId('submitted-record')).toContainText(r.ui.advice.submitted.replace('{{round}}', '2'));
      const changes = review.getByTestId('record-changes');
      await expect(changes).toContainText(r.ui.changes.title.replace('{{round}}', '1'));
      await expect(changes).toContainText(e.fields.description);
      await expect(changes).toContainText(changedAbstract);
      await answerReview(review, language, { outcome: 'pass', comment: secondComment, signed: true });
    });

    await test.step('the data centre approves and publishes it', async () => {
      await desk.keyboard.press('Escape');
      await expect(panel).toBeHidden();
      await choose(desk, d.filters.status, status.underReview);
      // "Passed", no longer "passed after modification" (whose words hold it).
      await expect(row).not.toContainText(r.labels.pass_after_modification);
      await expect(row).toContainText(r.labels.pass);
      await expect(row).toContainText(d.expertsCount.replace('{{answered}}', '1').replace('{{invited}}', '1'));
      await row.getByRole('button', { name: d.open.replace('{{title}}', shownTitle) }).click();
      const passed = card.filter({ hasText: d.review.roundTag.replace('{{round}}', '2') });
      await expect(passed).toContainText(r.labels.pass);
      await expect(passed).toContainText(secondComment);
      await expect(passed).toContainText(d.review.signed);
      await decideOnDesk(desk, language, panel, 'approve', { from: status.underReview, to: status.approved }, english ? 'Approved by the data centre.' : '数据中心审核通过。');
      await expect(desk.getByText(d.done.replace('{{action}}', d.decide.approve))).toBeVisible();
      await decideOnDesk(desk, language, panel, 'publish', { from: status.approved, to: status.published });
      await expect(desk.getByText(d.done.replace('{{action}}', d.decide.publish))).toBeVisible();
      await expect(trail.getByText(r.actions.publish, { exact: true })).toBeVisible();
      await expect(panel.getByText(d.panel.publishedAt)).toBeVisible();
      await snapshot(desk, `${language}-3-desk-published`);
    });

    await test.step('published: anyone reads it, with the changed abstract', async () => {
      const read = await anonymousRecord(id);
      expect(read.status).toBe(200);
      expect(read.record?.description).toBe(changedAbstract);
    });
    await expertContext.close();
    await staffContext.close();
  });
}
