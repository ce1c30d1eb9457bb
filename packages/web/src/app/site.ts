import { languagePrefix, SITE_VARIANTS, type SiteVariant } from '@portal/shared';
import { pageLanguage } from './i18n';

/** The site variant the server wrote into the page (SITE_VARIANT). */
export function siteVariant(): SiteVariant {
  const value = document.querySelector('meta[name="portal-site-variant"]')?.getAttribute('content');
  return (SITE_VARIANTS as readonly string[]).includes(value ?? '') ? (value as SiteVariant) : 'portal';
}

/** Links of the public site keep the page's language. */
export const sitePath = (path: string) => `${languagePrefix(pageLanguage)}${path}`;
/** The site root: where the spec sends people after login and logout. */
export const siteRoot = () => (pageLanguage === 'en' ? '/en/' : '/');
export const personalPath = (hashRoute = '/') => `${languagePrefix(pageLanguage)}/personal/#${hashRoute}`;
/** The login screen, which returns to `next` (a personal-centre route or a page of SITE_RETURN_PAGES) afterwards. */
export const loginPath = (next: string) => personalPath(`/login?next=${encodeURIComponent(next)}`);

/** The site's top menu (spec section 1), in the public header and the personal centre's header; Personal Center follows. */
export { TOP_MENU } from '@portal/shared/domain/site-menu';
