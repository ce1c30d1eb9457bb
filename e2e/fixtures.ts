import fs from 'node:fs';
import path from 'node:path';
import { expect, test as base, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { simpleParser } from 'mailparser';
import { catalogues, type ExpertOutcome, type Language, type Messages } from '@portal/shared';
import { E2E_DATA_DIR, E2E_PORT } from '../playwright.config';
import type { E2eAccount } from './server';

export { expect };

export const prefixOf = (language: Language) => (language === 'en' ? '/en' : '/zh-hans');
export const textsOf = (language: Language): Messages => catalogues[language];

/**
 * For the first thing a freshly loaded page shows: its scripts are parsed and its first data fetched
 * only then, which on a busy two-core machine takes longer than the default ten seconds.
 */
export const AFTER_LOAD = { timeout: 30_000 };

let sequence = 0;
export function uniqueName(stem: string): string {
  sequence += 1;
  return `${stem}${Date.now().toString(36)}${sequence}`;
}

/** The answer of the captcha the page was shown, read from the database by its cookie. */
export async function captchaAnswer(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'captcha_key');
  if (!cookie) throw new Error('the page has no captcha cookie');
  const db = new Database(path.join(E2E_DATA_DIR, 'portal.sqlite3'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('select answer from captchas where id = ?').get(cookie.value) as { answer: string } | undefined;
    if (!row) throw new Error('captcha not found');
    return row.answer;
  } finally {
    db.close();
  }
}

/** The first link of the newest mail to an address in the outbox. */
export async function linkMailedTo(address: string): Promise<string> {
  return (await mailTo(address)).link;
}

/**
 * The newest mail to an address in the outbox, once it holds at least `count` mails to it (a second
 * mail waits for the second): its text and first link.
 */
export async function mailTo(address: string, count = 1): Promise<{ text: string; link: string }> {
  const outbox = path.join(E2E_DATA_DIR, 'mail');
  await expect.poll(async () => (await mailsTo(outbox, address)).length, { message: `mail ${count} to ${address}` }).toBeGreaterThanOrEqual(count);
  const text = (await mailsTo(outbox, address)).at(-1)!;
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error('no link in the mail');
  return { text, link: match[0] };
}

async function mailsTo(outbox: string, address: string): Promise<string[]> {
  if (!fs.existsSync(outbox)) return [];
  const texts: string[] = [];
  for (const name of fs
    .readdirSync(outbox)
    .filter((n) => n.endsWith('.eml'))
    .sort()) {
    const raw = fs.readFileSync(path.join(outbox, name));
    // Only mails that name the address anywhere are parsed: the outbox grows with every spec.
    if (!raw.includes(address)) continue;
    const mail = await simpleParser(raw);
    const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '');
    if (to.includes(address)) texts.push(mail.text ?? '');
  }
  return texts;
}

/** Work on the e2e server's database (for facts no screen of this release sets). */
export function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(path.join(E2E_DATA_DIR, 'portal.sqlite3'), { fileMustExist: true });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** An expert's affiliation, specialty and language (of their mails), as their profile would hold them. */
export function setProfile(username: string, values: { affiliation: string; specialty: string; language: Language }) {
  withDb((db) =>
    db.prepare('update users set affiliation = ?, specialty = ?, language = ? where username = ?').run(values.affiliation, values.specialty, values.language, username),
  );
}

type NewUser = { staff?: boolean; project?: 0 | 1 | 2; realname: string };
type Account = { username: string; password: string };

/**
 * Active accounts as an operator makes them with `portal create-user` (the same service), made in
 * the e2e server's process by its own route (e2e/server.ts): no process an account. `portalUrl`: of
 * a portal a spec started itself.
 */
async function makeAccounts(options: NewUser[], portalUrl = `http://localhost:${E2E_PORT}`): Promise<Account[]> {
  const accounts: E2eAccount[] = options.map((one) => ({ ...one, username: uniqueName('op'), password: 'operator-pass-2026' }));
  const reply = await fetch(`${portalUrl}/__e2e__/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accounts }) });
  if (reply.status !== 201) throw new Error(`the e2e server made no accounts: ${reply.status} ${await reply.text()}`);
  return accounts.map(({ username, password }) => ({ username, password }));
}

/** An active account made as an operator would (`portalUrl`: of a portal a spec started itself). */
export async function createUser(options: NewUser, portalUrl?: string): Promise<Account> {
  return (await makeAccounts([options], portalUrl))[0]!;
}

/** Several active accounts at once. */
export async function createUsers<T extends NewUser[]>(...options: T): Promise<{ [K in keyof T]: Account }> {
  return (await makeAccounts(options)) as { [K in keyof T]: Account };
}

/** Fills in the login screen shown now and signs in. */
export async function fillLogin(page: Page, language: Language, username: string, password: string) {
  const texts = textsOf(language);
  await page.getByLabel(texts.fields.login).fill(username);
  await page.getByLabel(texts.fields.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: texts.account.loginButton }).click();
}

/** A page that needs a signed-in user was opened without one: the login screen asks, and leads back there. */
export async function logInToContinue(page: Page, language: Language, username: string, password: string) {
  const texts = textsOf(language);
  await expect(page.getByRole('heading', { name: texts.account.loginTitle })).toBeVisible(AFTER_LOAD);
  await expect(page.getByText(texts.account.loginToContinue)).toBeVisible();
  await fillLogin(page, language, username, password);
}

/** Logs in through the login screen of the personal centre. */
export async function logIn(page: Page, language: Language, username: string, password: string) {
  const texts = textsOf(language);
  await page.goto(`${prefixOf(language)}/personal/#/login`);
  await fillLogin(page, language, username, password);
  // Login leads to the site root, which says so and whose header then names the user.
  await expect(page.getByText(texts.account.loginSuccess)).toBeVisible();
  await expect(page.getByTestId('header-user')).toBeVisible();
}

/** Signs out from the header's dropdown in the personal centre; the site root then says so. */
export async function signOut(page: Page, language: Language) {
  const texts = textsOf(language);
  await page.goto(`${prefixOf(language)}/personal/#/`);
  await page.getByTestId('header-user').click();
  await page.getByText(texts.nav.signOut).click();
  await expect(page.getByText(texts.account.logoutDone)).toBeVisible();
  await expect(page.getByRole('link', { name: texts.nav.login, exact: true })).toBeVisible();
}

/** A browser context of its own (another person at another computer), signed in through the login screen. */
export async function signedIn(browser: Browser, language: Language, user: { username: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, language, user.username, user.password);
  return { context, page };
}

/**
 * A browser context of its own whose person is signed in by the login call (its cookies), for a
 * person whose login screen is not the subject: one page load less than the screen and the site root.
 */
export async function signedInQuietly(browser: Browser, user: { username: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const login = await context.request.post('/account/profile-login/', { form: { username: user.username, password: user.password } });
  expect(login.status(), await login.text()).toBe(200);
  return { context, page: await context.newPage() };
}

/** "Saved at {{time}}" of the catalogue as a pattern that any hh:mm matches. */
export const timePattern = (template: string) =>
  new RegExp(
    template
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\{time\}\}/, '\\d{1,2}:\\d{2}')
      .replace(/\{\{\w+\}\}/g, '.*'),
  );

/**
 * Chooses an option of an Ant Design select named by its label, and sees it chosen. The option is
 * looked for in that select's own list (the popup holding the listbox its combobox controls), not in
 * whichever list is open: on a loaded machine another select's list may still be fading out, and a
 * click measured while the list grows can land on the neighbouring item, so a select that does not
 * show the option is tried again, opened only when it is closed (a click on an open select shuts it).
 */
export async function choose(page: Page, label: string, option: string) {
  const box = page.getByRole('combobox', { name: label });
  const chosen = page.locator('.ant-select', { has: box }).locator('.ant-select-content');
  await expect(async () => {
    if ((await box.getAttribute('aria-expanded')) !== 'true') await box.click();
    await expect(box).toHaveAttribute('aria-controls', /.+/, { timeout: 2_000 });
    const list = (await box.getAttribute('aria-controls'))!;
    const popup = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${list}"]`) });
    await popup.getByTitle(option, { exact: true }).click({ timeout: 5_000 });
    await expect(chosen).toHaveAttribute('title', option, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * The review desk (staff): finds a submission by title and opens its review panel. Returns the row,
 * the panel (a drawer named by the title in the page's language) and its audit trail.
 */
export async function openOnDesk(page: Page, language: Language, search: string, shownTitle: string) {
  const d = textsOf(language).reviewDesk;
  await page.getByRole('searchbox', { name: d.filters.search }).fill(search);
  await page.getByRole('searchbox', { name: d.filters.search }).press('Enter');
  const row = page.getByRole('row').filter({ hasText: shownTitle });
  await row.getByRole('button', { name: d.open.replace('{{title}}', shownTitle) }).click();
  const panel = page.getByRole('dialog', { name: shownTitle });
  return { row, panel, trail: panel.getByRole('region', { name: d.panel.trail }) };
}

/**
 * A dialog shown and done growing: Ant Design zooms a dialog in over a few tenths of a second, and on
 * a busy machine a click measured while it grows can land beside its button (an owner's approval
 * was once lost so in CI). Waits until no animation runs on the dialog, its ancestors or its content.
 */
export async function settled(dialog: Locator): Promise<Locator> {
  await expect(dialog).toBeVisible();
  await expect
    .poll(() =>
      dialog.evaluate(
        (element) =>
          document.getAnimations().filter((animation) => {
            const target = (animation.effect as KeyframeEffect | null)?.target;
            return animation.playState === 'running' && target instanceof Element && (target.contains(element) || element.contains(target));
          }).length,
      ),
    )
    .toBe(0);
  return dialog;
}

/**
 * Takes a decision in the desk's review panel: its button, then the confirmation, which says where
 * the record goes (`from` → `to`, the statuses as the page names them), with the comment when one is given.
 */
export async function decideOnDesk(
  page: Page,
  language: Language,
  panel: Locator,
  action: keyof Messages['reviewDesk']['decide'],
  move: { from: string; to: string },
  comment?: string,
) {
  const d = textsOf(language).reviewDesk;
  await panel.getByRole('button', { name: d.decide[action], exact: true }).click();
  const confirm = await settled(page.getByRole('dialog').filter({ hasText: d.confirm.body.replace('{{from}}', move.from).replace('{{to}}', move.to) }));
  if (comment !== undefined) await confirm.getByRole('textbox').fill(comment);
  await confirm.getByRole('button', { name: d.decide[action] }).click();
}

/**
 * An expert's answer on the review form (/review/advice/:id): the outcome, the comment and, if
 * asked, the signature; then the saved answer as the page shows it.
 */
export async function answerReview(page: Page, language: Language, answer: { outcome: ExpertOutcome; comment: string; signed?: boolean }) {
  const r = textsOf(language).review;
  await page.getByRole('radio', { name: r.labels[answer.outcome], exact: true }).check();
  await page.getByLabel(r.ui.advice.comment).fill(answer.comment);
  if (answer.signed) await page.getByRole('checkbox', { name: r.ui.advice.signed }).check();
  await page.getByRole('button', { name: r.ui.advice.submit }).click();
  await expect(page.getByText(r.ui.advice.saved)).toBeVisible();
  const saved = page.getByTestId('review-answer');
  await expect(saved).toContainText(r.labels[answer.outcome]);
  await expect(saved).toContainText(answer.comment);
  await expect(saved).toContainText(answer.signed ? r.ui.advice.signedYes : r.ui.advice.signedNo);
  return saved;
}

/**
 * The scripts a page requests from now on, by file name, with the bytes that came over the wire
 * (compressed); 0 while one is still arriving.
 */
export function watchScripts(page: Page): Map<string, number> {
  const scripts = new Map<string, number>();
  page.on('requestfinished', async (request) => {
    if (request.resourceType() !== 'script') return;
    const name = path.basename(new URL(request.url()).pathname);
    scripts.set(name, 0);
    scripts.set(name, (await request.sizes()).responseBodySize);
  });
  return scripts;
}

export const test = base;
