import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { AFTER_LOAD, expect, prefixOf, test, textsOf } from './fixtures';

/**
 * Motion follows the visitor's system setting: most visitors see dialogs grow and fade as Ant
 * Design draws them; a visitor who asks for less motion (prefers-reduced-motion) sees none. The
 * other specs run as that visitor (playwright.config.ts), so these two hold both sides.
 */

/** Opens the data sharing agreement of the registration page and returns the animation classes its dialog took while opening. */
async function openAgreement(page: Page, language: Language): Promise<string[]> {
  const texts = textsOf(language);
  await page.goto(`${prefixOf(language)}/personal/#/register`);
  await expect(page.getByRole('heading', { name: texts.account.registerTitle })).toBeVisible(AFTER_LOAD);
  // Every class of a running entering or appearing animation (its "-active" step: without motion
  // Ant Design still passes through "-prepare", which animates nothing), on any element added or changed from now on.
  await page.evaluate(() => {
    const seen = new Set<string>();
    const note = (element: Element) => {
      for (const name of element.classList) if (/-(appear|enter)-active$/.test(name)) seen.add(name);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target instanceof Element) note(record.target);
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          note(node);
          node.querySelectorAll('*').forEach(note);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    (window as unknown as { motionSeen: Set<string> }).motionSeen = seen;
  });
  await page.getByText(texts.account.agreementTitle, { exact: true }).click();
  const dialog = page.getByRole('dialog', { name: texts.account.agreementTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(texts.account.agreementBody.slice(0, 20));
  const seen = await page.evaluate(() => [...(window as unknown as { motionSeen: Set<string> }).motionSeen]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  return seen;
}

test.describe('motion as most visitors have it', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('the agreement dialog grows into view (zh-hans)', async ({ page }) => {
    const seen = await openAgreement(page, 'zh-hans');
    expect(seen).toContain('ant-zoom-appear-active');
  });
});

test.describe('motion for a visitor who asks for less', () => {
  test('the agreement dialog appears at once, without animation (en)', async ({ page }) => {
    const seen = await openAgreement(page, 'en');
    expect(seen).toEqual([]);
  });
});
