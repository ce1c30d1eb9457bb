import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { textsOf } from './fixtures';

/** Helpers of the orders specs (orders.spec.ts, orders-journey.spec.ts). */

/** A catalogue template ('Apply ({{count}})') as a pattern any value matches. */
export const like = (template: string, whole = true) => {
  const body = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\{\w+\}\}/g, '.*');
  return new RegExp(whole ? `^${body}$` : body);
};

export type Person = { username: string; password: string };

/** The application form filled in past what the profile gave. */
export async function fillApplication(page: Page, language: Language) {
  const f = textsOf(language).ordersUi.form;
  // The test accounts' profiles have no affiliation or address: what a scientist types in.
  await page.getByLabel(f.affiliation).fill('Arctic University of Norway');
  await page.getByLabel(f.address).fill('Hansine Hansens veg 18, Tromsø');
  await page.getByLabel(f.phone).fill('+86 10 1234 5678');
  await page.getByLabel(f.zipcode).fill('100101');
  await page.getByRole('combobox', { name: f.country }).fill(language === 'en' ? 'Norw' : '挪威');
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .getByTitle(language === 'en' ? 'Norway' : '挪威', { exact: true })
    .click();
  await page.getByLabel(f.reason).fill('Lake ice timing for a regional climate model evaluation.');
}
