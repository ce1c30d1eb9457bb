import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { simpleParser } from 'mailparser';
import { catalogues, type Language, type Messages } from '@portal/shared';
import { E2E_DATA_DIR } from '../playwright.config';

export { expect };

export const prefixOf = (language: Language) => (language === 'en' ? '/en' : '/zh-hans');
export const textsOf = (language: Language): Messages => catalogues[language];

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
  const outbox = path.join(E2E_DATA_DIR, 'mail');
  await expect
    .poll(async () => (await mailsTo(outbox, address)).length, { message: `mail to ${address}` })
    .toBeGreaterThan(0);
  const mails = await mailsTo(outbox, address);
  const match = /https?:\/\/\S+/.exec(mails.at(-1)!);
  if (!match) throw new Error('no link in the mail');
  return match[0];
}

async function mailsTo(outbox: string, address: string): Promise<string[]> {
  if (!fs.existsSync(outbox)) return [];
  const texts: string[] = [];
  for (const name of fs.readdirSync(outbox).filter((n) => n.endsWith('.eml')).sort()) {
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, name)));
    const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '');
    if (to.includes(address)) texts.push(mail.text ?? '');
  }
  return texts;
}

/** An active account made with the operators' tool, as a data-centre operator would. */
export function createUser(options: { staff?: boolean; project?: 0 | 1 | 2; realname: string }) {
  const username = uniqueName('op');
  const password = 'operator-pass-2026';
  const args = ['tsx', 'packages/server/src/cli.ts', 'create-user', '--username', username, '--email', `${username}@example.org`, '--password', password, '--realname', options.realname, '--project', String(options.project ?? 0)];
  if (options.staff) args.push('--staff');
  execFileSync('npx', args, { cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, DATA_DIR: E2E_DATA_DIR }, stdio: 'pipe' });
  return { username, password };
}

/** Logs in through the login screen of the personal centre. */
export async function logIn(page: Page, language: Language, username: string, password: string) {
  const texts = textsOf(language);
  await page.goto(`${prefixOf(language)}/personal/#/login`);
  await page.getByLabel(texts.fields.login).fill(username);
  await page.getByLabel(texts.fields.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: texts.account.loginButton }).click();
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

export const test = base;
