import type { Language } from '@portal/shared';
import { captchaAnswer, createUser, expect, linkMailedTo, logIn, prefixOf, signOut, test, textsOf, uniqueName } from './fixtures';

const LANGUAGES: Language[] = ['zh-hans', 'en'];

for (const language of LANGUAGES) {
  const texts = textsOf(language);
  const other: Language = language === 'en' ? 'zh-hans' : 'en';
  const prefix = prefixOf(language);

  test.describe(`a researcher's account (${language})`, () => {
    test('registers, verifies by mail, logs in, switches language, edits the profile, changes the password, logs out', async ({ page, context }) => {
      // The whole journey of an account in one test: more steps than the default minute allows on a busy machine.
      test.setTimeout(120_000);
      const username = uniqueName('res');
      const email = `${username}@example.org`;
      const realname = language === 'en' ? 'Ada Glacier' : '李冰川';
      const password = 'permafrost-2026';

      // Register.
      await page.goto(`${prefix}/personal/#/register`);
      await expect(page.getByRole('heading', { name: texts.account.registerTitle })).toBeVisible();
      await page.getByLabel(texts.fields.username).fill(username);
      await page.getByLabel(texts.fields.realname).fill(realname);
      await page.getByLabel(texts.fields.email).fill(email);
      await page.getByLabel(texts.fields.password, { exact: true }).fill(password);
      await page.getByLabel(texts.fields.password2).fill(password);
      await page.getByLabel(texts.fields.affiliation).fill('Institute of Tibetan Plateau Research');
      await page.getByLabel(texts.fields.address).fill('16 Lincui Road, Beijing');
      await expect(page.getByAltText(texts.account.captchaAlt)).toBeVisible();
      // A wrong code first: the server refuses it and a new image is shown.
      await page.getByLabel(texts.fields.captcha).fill('zzzz');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: texts.account.registerButton }).click();
      await expect(page.getByText(texts.account.captchaError).first()).toBeVisible();
      await expect.poll(() => captchaAnswer(page).catch(() => '')).not.toBe('');
      await page.getByLabel(texts.fields.captcha).fill(await captchaAnswer(page));
      await page.getByRole('button', { name: texts.account.registerButton }).click();
      await expect(page.getByText(texts.account.registerMailSent.replace('{{email}}', email))).toBeVisible();

      // Not active before the link is followed.
      await page.goto(`${prefix}/personal/#/login`);
      await page.getByLabel(texts.fields.login).fill(username);
      await page.getByLabel(texts.fields.password, { exact: true }).fill(password);
      await page.getByRole('button', { name: texts.account.loginButton }).click();
      await expect(page.getByText(texts.account.notActive).first()).toBeVisible();

      // Verify by the mailed link.
      await page.goto(await linkMailedTo(email));
      await expect(page.getByText(texts.account.activated)).toBeVisible();

      // Log in: the site root shows the real name in the header.
      await page.getByLabel(texts.fields.login).fill(username);
      await page.getByLabel(texts.fields.password, { exact: true }).fill(password);
      await page.getByRole('button', { name: texts.account.loginButton }).click();
      await expect(page).toHaveURL(new RegExp(`${language === 'en' ? '/en/' : ':\\d+/'}$`));
      await expect(page.getByText(texts.account.loginSuccess)).toBeVisible();
      await expect(page.getByTestId('header-user')).toContainText(realname);

      // Switch language: same address, other language, cookie set.
      await page.goto(`${prefix}/personal/#/personal/information`);
      await expect(page.getByTestId('header-user')).toContainText(realname);
      await page.getByRole('button', { name: texts.nav.switchToLabel }).click();
      await expect(page).toHaveURL(new RegExp(`${prefixOf(other)}/personal/#/personal/information$`));
      await expect(page.getByRole('heading', { name: textsOf(other).profile.title })).toBeVisible();
      expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe(other);
      await page.getByRole('button', { name: textsOf(other).nav.switchToLabel }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}/personal/#/personal/information$`));
      expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe(language);

      // Edit the profile.
      await expect(page.getByRole('heading', { name: texts.profile.title })).toBeVisible();
      const affiliation = page.getByLabel(texts.fields.affiliation);
      await affiliation.fill('Alfred Wegener Institute');
      await page.getByLabel(texts.fields.phone).fill('+49 471 4831');
      await page.getByRole('button', { name: texts.profile.save }).click();
      await expect(page.getByText(texts.account.changeSuccess)).toBeVisible();
      await page.reload();
      await expect(page.getByLabel(texts.fields.affiliation)).toHaveValue('Alfred Wegener Institute');
      await expect(page.getByLabel(texts.fields.phone)).toHaveValue('+49 471 4831');

      // Bad input is refused with the server's message.
      await page.getByLabel(texts.fields.phone).fill('call me maybe');
      await page.getByRole('button', { name: texts.profile.save }).click();
      await expect(page.getByText(texts.validation.phone.invalid).first()).toBeVisible();

      // Change the password: back to the login screen, the new password works.
      await page.goto(`${prefix}/personal/#/personal/settings`);
      const newPassword = 'sea-ice-extent-2027';
      await page.getByLabel(texts.fields.old_password).first().fill('wrong-password');
      await page.getByLabel(texts.fields.new_password).fill(newPassword);
      await page.getByLabel(texts.fields.password2).fill(newPassword);
      await page.getByRole('button', { name: texts.settings.passwordButton }).click();
      await expect(page.getByText(texts.account.originPasswordError).first()).toBeVisible();
      await page.getByLabel(texts.fields.old_password).first().fill(password);
      await page.getByRole('button', { name: texts.settings.passwordButton }).click();
      await expect(page.getByText(texts.account.passwordChanged)).toBeVisible();
      await expect(page).toHaveURL(/#\/login$/);
      await logIn(page, language, username, newPassword);

      // Log out from the header's dropdown: cookies cleared, back at the site root.
      await signOut(page, language);
      const names = (await context.cookies()).map((c) => c.name);
      expect(names).not.toContain('token');
      expect(names).not.toContain('sessionid');
      // The personal centre asks for a login again.
      await page.goto(`${prefix}/personal/#/personal/settings`);
      await expect(page.getByRole('heading', { name: texts.account.loginTitle })).toBeVisible();
    });

    test('Settings shows the mail language of the last sign-in and keeps the one chosen', async ({ page }) => {
      const user = await createUser({ realname: language === 'en' ? 'Mail Reader' : '邮件读者' });
      // Signed in on a page of the other language: that is the mail language until one is chosen.
      await logIn(page, other, user.username, user.password);
      await page.goto(`${prefix}/personal/#/personal/settings`);
      await expect(page.getByRole('heading', { name: texts.settings.mailLanguageTitle })).toBeVisible();
      const choices = page.getByRole('radiogroup', { name: texts.fields.mail_language });
      await expect(choices.getByRole('radio', { name: texts.settings.mailLanguages[other] })).toBeChecked();

      await choices.getByRole('radio', { name: texts.settings.mailLanguages[language] }).check();
      await page.getByRole('button', { name: texts.settings.mailLanguageButton }).click();
      await expect(page.getByText(texts.settings.mailLanguageSaved.replace('{{language}}', texts.settings.mailLanguages[language]))).toBeVisible();

      // Chosen: signing in on the other language's page again does not change it.
      await signOut(page, language);
      await logIn(page, other, user.username, user.password);
      await page.goto(`${prefix}/personal/#/personal/settings`);
      await expect(page.getByRole('radiogroup', { name: texts.fields.mail_language }).getByRole('radio', { name: texts.settings.mailLanguages[language] })).toBeChecked();
    });

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      test(`registering at ${viewport.width} px: the captcha is shown whole, a wrong code is said at its field`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto(`${prefix}/personal/#/register`);
        await expect(page.getByRole('heading', { name: texts.account.registerTitle })).toBeVisible();
        const image = page.getByAltText(texts.account.captchaAlt);
        await expect(image).toBeVisible();
        // Shown at the size it is drawn (it was squeezed from 40 to 32 px and its glyphs cut), inside the screen.
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        const size = await image.evaluate((img: HTMLImageElement) => ({ natural: [img.naturalWidth, img.naturalHeight], shown: [img.clientWidth, img.clientHeight] }));
        expect(size.shown).toEqual(size.natural);
        const box = (await image.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        const username = uniqueName('cap');
        await page.getByLabel(texts.fields.username).fill(username);
        await page.getByLabel(texts.fields.realname).fill(language === 'en' ? 'Ada Glacier' : '李冰川');
        await page.getByLabel(texts.fields.email).fill(`${username}@example.org`);
        await page.getByLabel(texts.fields.password, { exact: true }).fill('permafrost-2026');
        await page.getByLabel(texts.fields.password2).fill('permafrost-2026');
        await page.getByLabel(texts.fields.affiliation).fill('Institute of Tibetan Plateau Research');
        await page.getByLabel(texts.fields.address).fill('16 Lincui Road, Beijing');
        await page.getByLabel(texts.fields.captcha).fill('zzzz');
        await page.getByRole('checkbox', { name: texts.account.agreementText }).check();
        const first = await image.getAttribute('src');
        await page.getByRole('button', { name: texts.account.registerButton }).click();
        // The server's word is under the code's field, and stays there with the new image (not a toast that goes).
        const field = page.locator('.ant-form-item').filter({ has: page.getByLabel(texts.fields.captcha) });
        await expect(field.locator('.ant-form-item-explain-error')).toHaveText(texts.account.captchaError);
        await expect(image).not.toHaveAttribute('src', first!);
        await expect(page.locator('.ant-message').getByText(texts.account.captchaError)).toHaveCount(0);
        await page.waitForTimeout(3_500);
        await expect(field.locator('.ant-form-item-explain-error')).toHaveText(texts.account.captchaError);
        await expect(page.getByLabel(texts.fields.captcha)).toHaveValue('');
        await expect(page.getByLabel(texts.fields.captcha)).toBeInViewport();
      });
    }

    test('a project member sees my projects and not my data', async ({ page }) => {
      const member = await createUser({ project: 1, realname: language === 'en' ? 'Project Lead' : '项目负责人' });
      await logIn(page, language, member.username, member.password);
      await page.goto(`${prefix}/personal/#/`);
      const menu = page.getByRole('navigation', { name: texts.nav.personal });
      await expect(menu.getByText(texts.menu.projects)).toBeVisible();
      await expect(menu.getByText(texts.menu.myData)).toHaveCount(0);
      await expect(menu.getByText(texts.menu.review)).toBeVisible();
    });

    test('a staff user finds Admin in the header and the list of users there', async ({ page }) => {
      const staff = await createUser({ staff: true, realname: language === 'en' ? 'Data Centre' : '数据中心' });
      await logIn(page, language, staff.username, staff.password);
      await page.goto(`${prefix}/personal/#/`);
      await page.getByTestId('header-user').click();
      await page.getByRole('link', { name: texts.nav.admin }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}/admin/$`));
      await expect(page.getByRole('heading', { name: texts.admin.title })).toBeVisible();
      await expect(page.getByRole('cell', { name: staff.username, exact: true })).toBeVisible();
      // Search narrows the list to the matching account.
      const other = await createUser({ realname: 'Permafrost Modeller' });
      await page.getByRole('searchbox', { name: texts.admin.search }).fill(other.username);
      await page.getByRole('searchbox', { name: texts.admin.search }).press('Enter');
      await expect(page.getByRole('cell', { name: other.username, exact: true })).toBeVisible();
      await expect(page.getByRole('cell', { name: staff.username, exact: true })).toHaveCount(0);
    });

    test('an ordinary user has no Admin entry and my data instead of my projects', async ({ page }) => {
      const user = await createUser({ realname: language === 'en' ? 'Field Scientist' : '野外科学家' });
      await logIn(page, language, user.username, user.password);
      await page.goto(`${prefix}/personal/#/`);
      await page.getByTestId('header-user').click();
      await expect(page.getByText(texts.nav.signOut)).toBeVisible();
      await expect(page.getByRole('link', { name: texts.nav.admin })).toHaveCount(0);
      const menu = page.getByRole('navigation', { name: texts.nav.personal });
      await expect(menu.getByText(texts.menu.myData)).toBeVisible();
      await expect(menu.getByText(texts.menu.projects)).toHaveCount(0);
      // The admin page itself refuses a non-staff user (the server refuses the list too).
      await page.goto(`${prefix}/admin/`);
      await expect(page.getByText(texts.account.forbidden)).toBeVisible();
    });
  });
}
