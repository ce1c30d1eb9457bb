import type { Language } from '@portal/shared';
import { createUser, expect, logIn, prefixOf, test, textsOf } from './fixtures';
import { withLighthouse } from './lighthouse';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const MIN_LIGHTHOUSE_SCORE = 98;
const AA_CONTRAST = 4.5;

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const prefix = prefixOf(language);
  const home = language === 'en' ? '/en/' : '/';

  test.describe(`accessibility (${language})`, () => {
    test("the language switch's accessible name holds its visible text, in both headers", async ({ page }) => {
      const check = async () => {
        // Found by what it shows; its name must say the same (WCAG 2.5.3, label in name).
        const button = page.getByRole('button').filter({ hasText: texts.nav.switchTo });
        await expect(button).toHaveCount(1);
        await expect(button).toBeVisible();
        expect((await button.innerText()).trim()).toBe(texts.nav.switchTo);
        await expect(button).toHaveAccessibleName(new RegExp(`^${texts.nav.switchTo}`));
        await expect(button).toHaveAccessibleName(texts.nav.switchToLabel);
      };
      await page.goto(home);
      await check();
      const user = await createUser({ realname: language === 'en' ? 'Screen Reader' : '读屏用户' });
      await logIn(page, language, user.username, user.password);
      await page.goto(`${prefix}/personal/#/personal/information`);
      await expect(page.getByRole('heading', { name: texts.profile.title })).toBeVisible();
      await check();
    });

    test('links and empty-state texts have a contrast of at least 4.5:1', async ({ page }) => {
      const pages = [
        // The home page's lists, filled or empty (the suite's records may have been published by then).
        { address: home, ready: page.getByRole('heading', { name: texts.home.hotData }) },
        { address: `${prefix}/data/`, ready: page.getByText(texts.data.empty) },
        { address: `${prefix}/personal/#/login`, ready: page.getByRole('heading', { name: texts.account.loginTitle }) },
      ];
      for (const { address, ready } of pages) {
        await page.goto(address);
        await expect(ready).toBeVisible();
        await page.waitForLoadState('networkidle');
        const found = await page.evaluate(contrastOfLinksAndEmptyTexts);
        expect(found.length, `${address} has links and empty states to check`).toBeGreaterThan(1);
        const low = found.filter((item) => item.ratio < AA_CONTRAST);
        expect(low, `${address}: texts below ${AA_CONTRAST}:1`).toEqual([]);
      }
    });
  });
}

/**
 * In the page: every visible link (`a`, link-styled buttons) and empty-state text, with the contrast
 * of its text colour against the colour behind it (backgrounds composited up to the first opaque
 * one; elements seen through to a background image are left to Lighthouse, which judges them too).
 */
function contrastOfLinksAndEmptyTexts() {
  type Rgba = [number, number, number, number];
  const parse = (css: string): Rgba => {
    const m = /rgba?\(([^)]+)\)/.exec(css);
    if (!m) return [0, 0, 0, 0];
    const [r, g, b, a] = m[1]!
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r!, g!, b!, a ?? 1];
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const background = (el: Element): Rgba | null => {
    const layers: Rgba[] = [];
    for (let node: Element | null = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const colour = parse(style.backgroundColor);
      layers.push(colour);
      if (colour[3] === 1) break;
      if (style.backgroundImage !== 'none') return null;
    }
    return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  // Ant Design's link buttons and empty states (personal centre), the public pages' own empty states.
  const elements = [...document.querySelectorAll('a[href], .ant-btn-link, .ant-empty-description, .empty-state')];
  return elements.flatMap((el) => {
    const rect = el.getBoundingClientRect();
    const text = (el.textContent ?? '').trim();
    if (!text || rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === 'hidden') return [];
    // Text inside a link is drawn in the colour of its innermost element holding the text.
    const textHolder = [...el.querySelectorAll('*')].reverse().find((child) => (child.textContent ?? '').trim() === text) ?? el;
    const behind = background(el);
    if (!behind) return [];
    const fore = over(parse(getComputedStyle(textHolder).color), behind);
    const [l1, l2] = [luminance(fore), luminance(behind)].sort((a, b) => b - a);
    return [{ text, ratio: Math.round(((l1! + 0.05) / (l2! + 0.05)) * 100) / 100 }];
  });
}

/**
 * Lighthouse's accessibility audit (and only it) of the home page, the login screen and the metadata
 * editor in both languages; the editor's session comes from a login through the API.
 */
test.describe('Lighthouse', () => {
  test(`accessibility score is at least ${MIN_LIGHTHOUSE_SCORE} on the home page, the login screen and the editor, in both languages`, async ({ baseURL }) => {
    test.setTimeout(240_000);
    await withLighthouse(baseURL!, async (context, audit) => {
      const user = await createUser({ realname: 'Lighthouse' });
      const login = await context.request.post('/account/profile-login/', { form: { username: user.username, password: user.password } });
      expect(login.status()).toBe(200);
      const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
      const record = await context.request.post('/api/metadata/metadata/', { data: { language: 'en' }, headers: { 'X-CSRFToken': csrf } });
      expect(record.status()).toBe(201);
      const { id } = (await record.json()) as { id: string };
      // A title, so that the record is a draft someone is writing (not an empty one to tidy away).
      const titled = await context.request.patch(`/api/metadata/metadata/${id}/`, {
        data: { title: 'Snow depth of the Pamirs' },
        headers: { 'X-CSRFToken': csrf },
      });
      expect(titled.ok()).toBe(true);

      const scores: string[] = [];
      const failures: string[] = [];
      for (const language of LANGUAGES) {
        const prefix = prefixOf(language);
        for (const [name, address] of [
          ['home', language === 'en' ? '/en/' : '/'],
          ['login', `${prefix}/personal/#/login`],
          ['editor', `${prefix}/personal/#/metadata/edit/${id}`],
        ] as const) {
          const started = Date.now();
          const {
            scores: { accessibility: score = 0 },
            failed,
          } = await audit(address, ['accessibility']);
          scores.push(`${name} ${language}: ${score} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
          if (score < MIN_LIGHTHOUSE_SCORE) failures.push(`${name} ${language} (${address}) scored ${score}: ${failed.join(', ')}`);
        }
      }
      console.log(`Lighthouse accessibility: ${scores.join('; ')}`);
      expect(failures).toEqual([]);
    });
  });
});
