import type { Page } from '@playwright/test';
import type { Language } from '@portal/shared';
import { AFTER_LOAD, createUser, expect, prefixOf, signedInQuietly, test, textsOf } from './fixtures';

/**
 * Motion follows the visitor's system setting: most visitors see dialogs grow and fade as Ant
 * Design draws them; a visitor who asks for less motion (prefers-reduced-motion) gets none: Ant
 * Design's motion is switched off (AntdProviders), and the portal's own steps are over at once
 * (global.css). Its menus must still open where they can be used.
 */

/**
 * Opens the data sharing agreement of the registration page and returns the durations (seconds) of
 * the animations its dialog ran while opening: each element that takes an Ant Design animation step
 * ("...-appear-active", "...-enter-active") runs it for its computed animation or transition duration.
 */
async function openAgreement(page: Page, language: Language): Promise<number[]> {
  const texts = textsOf(language);
  await page.goto(`${prefixOf(language)}/personal/#/register`);
  await expect(page.getByRole('heading', { name: texts.account.registerTitle })).toBeVisible(AFTER_LOAD);
  await page.evaluate(() => {
    const durations: number[] = [];
    const seconds = (value: string) => Math.max(...value.split(',').map((part) => (part.trim().endsWith('ms') ? parseFloat(part) / 1000 : parseFloat(part))));
    const note = (element: Element) => {
      if (![...element.classList].some((name) => /-(appear|enter)-active$/.test(name))) return;
      const style = getComputedStyle(element);
      durations.push(Math.max(seconds(style.animationDuration), seconds(style.transitionDuration)));
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
    (window as unknown as { motionDurations: number[] }).motionDurations = durations;
  });
  await page.getByText(texts.account.agreementTitle, { exact: true }).click();
  const dialog = page.getByRole('dialog', { name: texts.account.agreementTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(texts.account.agreementBody.slice(0, 20));
  const durations = await page.evaluate(() => (window as unknown as { motionDurations: number[] }).motionDurations);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  return durations;
}

test.describe('motion as most visitors have it', () => {
  test.use({ reducedMotion: 'no-preference' });
  test('the agreement dialog grows into view (zh-hans)', async ({ page }) => {
    const durations = await openAgreement(page, 'zh-hans');
    // Ant Design's zoom of a dialog: a few tenths of a second.
    expect(Math.max(...durations)).toBeGreaterThanOrEqual(0.1);
  });
});

test.describe('motion for a visitor who asks for less', () => {
  test.use({ reducedMotion: 'reduce' });
  test('the agreement dialog appears at once, without animation (en)', async ({ page }) => {
    const durations = await openAgreement(page, 'en');
    // No step of Ant Design's motion at all, or none that lasts (Math.max of nothing is -Infinity).
    expect(Math.max(...durations)).toBeLessThan(0.001);
  });
});

test.describe('menus for a visitor who asks for less motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test("the header's menu opens where it can be used, and signs out (zh-hans)", async ({ browser }) => {
    const texts = textsOf('zh-hans');
    const user = await createUser({ realname: '少动画的用户' });
    const { context, page } = await signedInQuietly(browser, user);
    await page.goto('/zh-hans/personal/#/');
    await page.getByTestId('header-user').click(AFTER_LOAD);
    const signOut = page.getByRole('menuitem', { name: texts.nav.signOut });
    // Drawn inside the window, not left where a popup waits for an animation that never runs.
    await expect(signOut).toBeInViewport();
    await signOut.click();
    await expect(page.getByText(texts.account.logoutDone)).toBeVisible();
    await context.close();
  });
});
