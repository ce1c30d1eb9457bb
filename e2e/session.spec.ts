import type { Language } from '@portal/shared';
import { createUser, expect, logIn, prefixOf, signOut, test, textsOf } from './fixtures';

const LANGUAGES: Language[] = ['zh-hans', 'en'];
const AUTH_COOKIES = ['token', 'csrftoken', 'sessionid'];

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const prefix = prefixOf(language);

  test.describe(`the login session (${language})`, () => {
    test('keeps the token out of scripts, works on the cookie alone, and Sign Out leaves none of token, csrftoken, sessionid', async ({ page, context }) => {
      const user = await createUser({ realname: language === 'en' ? 'Session Tester' : '会话测试' });
      await logIn(page, language, user.username, user.password);

      // The token is an HttpOnly cookie: the page's scripts cannot read it.
      const token = (await context.cookies()).find((c) => c.name === 'token');
      expect(token?.httpOnly).toBe(true);
      expect(token?.sameSite).toBe('Lax');
      expect(await page.evaluate(() => document.cookie.split('; ').map((c) => c.split('=')[0]))).not.toContain('token');

      // Signed in on the cookie alone: the profile opens and a write (with the CSRF header) goes through.
      await page.goto(`${prefix}/personal/#/personal/information`);
      await expect(page.getByRole('heading', { name: texts.profile.title })).toBeVisible();
      await page.getByLabel(texts.fields.affiliation).fill('Institute of Tibetan Plateau Research');
      await page.getByLabel(texts.fields.address).fill('16 Lincui Road, Beijing');
      await page.getByRole('button', { name: texts.profile.save }).click();
      await expect(page.getByText(texts.account.changeSuccess)).toBeVisible();

      // A session cookie the spec's client may have, as Sign Out must clear it too.
      await context.addCookies([{ name: 'sessionid', value: 'legacy', domain: 'localhost', path: '/' }]);
      await signOut(page, language);
      const names = (await context.cookies()).map((c) => c.name);
      for (const name of AUTH_COOKIES) expect(names, name).not.toContain(name);

      // Signed out for real: the personal centre asks for a login again.
      await page.goto(`${prefix}/personal/#/personal/settings`);
      await expect(page.getByRole('heading', { name: texts.account.loginTitle })).toBeVisible();
    });
  });
}
