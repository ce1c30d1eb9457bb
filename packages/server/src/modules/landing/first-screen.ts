import { languagePrefix, languageTag, translate, type Language, type SiteVariant } from '@portal/shared';
import { TOP_MENU } from '@portal/shared/domain/site-menu';
import { escapeMarkup } from '../../http/markup.js';

/** A record's title and abstract in each language, as the landing page shows them (web features/landing/landingData.ts textVersions). */
export type TextVersions = Record<Language, { title: string; description: string }>;

/** The header's icons as the app draws them (the web build's `.vite/frame-icons.json`). */
export interface FrameIcons {
  menu: string;
  global: string;
}

export interface FirstScreenInput {
  /** The record's language first, then the other: the order of the version buttons. */
  versions: [Language, Language];
  texts: TextVersions;
  recordLanguage: Language;
  /** The page's language and the address prefix it was asked under ('', '/en', '/zh-hans'). */
  language: Language;
  prefix: string;
  siteVariant: SiteVariant;
  icons: FrameIcons;
}

/**
 * The first screen of a published record's landing page, written by the server into `#root` for a
 * visitor who is not signed in, so that a phone shows the record before the web app has loaded: the
 * public frame's header (a phone's and a desktop's, one shown by the width as the app chooses with
 * useIsPhone), the breadcrumb, the title with its version buttons and the abstract. The markup, its
 * classes and inline styles are those the app draws (web app/PublicLayout.tsx, components/SiteBrand,
 * MenuDrawerButton, LanguageSwitch, features/landing/LandingPage.tsx), element for element and without
 * white space between elements, as React writes them, so that the whole page the app draws in its
 * place starts with the same pixels (e2e/landing.spec.ts compares them). Every text is escaped.
 */
export function landingFirstScreen(input: FirstScreenInput): string {
  const { language, prefix, icons, texts } = input;
  const t = (key: string, params?: Record<string, string>) => escapeMarkup(translate(language, key, params));
  // Links as the app's router writes them under its basename, and as sitePath / personalPath do.
  const basename = prefix || '/';
  const routerHref = (path: string) => (basename === '/' ? path : path === '/' ? basename : `${basename}${path}`);
  const site = languagePrefix(language);
  const personal = (route: string) => `${site}/personal/#${route}`;
  const siteTitle = translate(language, `site.${input.siteVariant}.title`);

  const brand = (wrap: boolean) =>
    `<div class="site-header-brand"><a href="${site}/" style="display:flex;align-items:center;gap:10px;color:inherit;min-width:0">` +
    `<img src="/logos/${escapeMarkup(input.siteVariant)}.svg" alt="${escapeMarkup(translate(language, 'site.logoAlt', { title: siteTitle }))}" width="36" height="36" style="flex:none">` +
    `<span style="${wrap ? 'font-size:16px;font-weight:600;line-height:1.3;overflow-wrap:anywhere' : 'font-size:18px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis'}">${escapeMarkup(siteTitle)}</span></a></div>`;
  const login = `<a href="${personal('/login')}" class="header-login">${t('nav.login')}</a>`;
  const menu = TOP_MENU.map(({ path, labelKey }) => `<li><a href="${routerHref(path)}"${path === '/data/' ? ' aria-current="page"' : ''}>${t(labelKey)}</a></li>`).join('');
  const target: Language = language === 'en' ? 'zh-hans' : 'en';
  const phoneHeader =
    `<header class="site-header is-phone" data-first-screen="phone">` +
    `<button type="button" class="icon-button is-square" aria-label="${t('nav.openMenu')}" aria-expanded="false" aria-haspopup="dialog">${icons.menu}</button>` +
    `${brand(true)}<div class="site-header-actions">${login}</div></header>`;
  const desktopHeader =
    `<header class="site-header" data-first-screen="desktop">${brand(false)}` +
    `<nav aria-label="${t('nav.siteMenu')}" class="site-nav"><ul class="site-nav-list">${menu}<li><a href="${personal('/')}">${t('nav.personal')}</a></li></ul></nav>` +
    `<div class="site-header-actions"><button type="button" class="icon-button" aria-label="${t('nav.switchToLabel')}">${icons.global}<span lang="${languageTag(target)}">${t('nav.switchTo')}</span></button>` +
    `${login}<a href="${personal('/register')}" class="button button-primary">${t('nav.register')}</a></div></header>`;

  const available = input.versions.filter((each) => texts[each].title || texts[each].description);
  const shown = available.includes(language) ? language : input.recordLanguage;
  const text = texts[shown];
  const tag = languageTag(shown);
  const buttons =
    available.length > 1
      ? `<div class="lp-versions" role="group" aria-label="${t('landing.versions.label')}">${available
          .map((each) => `<button type="button" lang="${languageTag(each)}" aria-pressed="${each === shown}">${t(`landing.versions.${each}`)}</button>`)
          .join('')}</div>`
      : '';
  const abstract = text.description
    ? `<div lang="${tag}">${text.description
        .split(/\n+/)
        .map((paragraph) => `<p>${escapeMarkup(paragraph)}</p>`)
        .join('')}</div>`
    : `<p class="lp-muted">${t('landing.noAbstract')}</p>`;
  return (
    `<div class="site"><a href="#main" class="skip-link">${t('nav.skipToContent')}</a>${phoneHeader}${desktopHeader}` +
    `<main id="main" class="site-main" tabindex="-1"><article class="lp" aria-labelledby="lp-title">` +
    `<nav aria-label="${t('landing.breadcrumb')}" class="lp-breadcrumb"><ol><li><a href="${routerHref('/')}">${t('nav.home')}</a></li><li><a href="${routerHref('/data/')}">${t('nav.data')}</a></li></ol></nav>` +
    `<header class="lp-header"><h1 id="lp-title" lang="${tag}">${escapeMarkup(text.title || texts[input.recordLanguage].title)}</h1>${buttons}</header>` +
    `<div class="lp-layout"><section class="lp-section lp-abstract" aria-labelledby="lp-abstract"><h2 id="lp-abstract">${t('landing.sections.abstract')}</h2>${abstract}</section></div>` +
    `</article></main></div>`
  );
}

/** Shows one of the two headers by the width at which the app draws a phone's (web components/useIsPhone.ts). */
export const FIRST_SCREEN_STYLE =
  '<style>@media (max-width: 767.98px){[data-first-screen="desktop"]{display:none}}@media (min-width: 768px){[data-first-screen="phone"]{display:none}}</style>';
