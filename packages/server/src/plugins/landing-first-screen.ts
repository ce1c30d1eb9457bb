import { LANGUAGES, languageTag, textVersions, translate, type Language, type TextVersioned } from '@portal/shared';
import { escapeMarkup, type SiteOptions } from './site-pages.js';

/**
 * The first screen of a published record's landing page, written by the server into `#root` so
 * that a phone shows the title and abstract before the web app has loaded: the public frame's
 * header (brand), the breadcrumb, the title with its language buttons and the abstract, with the
 * markup and classes the web app draws (app/PublicLayout.tsx, features/landing/LandingPage.tsx),
 * so that nothing moves when the app draws the whole page in its place. Every text is escaped.
 */
export function landingFirstScreen(record: TextVersioned, language: Language, prefix: string, site: Pick<SiteOptions, 'siteVariant'>): string {
  const t = (key: string, params?: Record<string, string>) => escapeMarkup(translate(language, key, params));
  const versions = textVersions(record);
  const available = LANGUAGES.filter((each) => versions[each].title || versions[each].description);
  const shown = available.includes(language) ? language : record.language;
  const text = versions[shown];
  const tag = languageTag(shown);
  const siteTitle = translate(language, `site.${site.siteVariant}.title`);
  const buttons =
    available.length > 1
      ? `<div class="lp-versions" role="group" aria-label="${t('landing.versions.label')}">${available
          .map(
            (each) =>
              `<button type="button" lang="${languageTag(each)}" aria-pressed="${each === shown}">${t(`landing.versions.${each}`)}</button>`,
          )
          .join('')}</div>`
      : '';
  const abstract = text.description
    ? `<div lang="${tag}">${text.description
        .split(/\n+/)
        .map((paragraph) => `<p>${escapeMarkup(paragraph)}</p>`)
        .join('')}</div>`
    : `<p class="lp-muted">${t('landing.noAbstract')}</p>`;
  return [
    '<div class="site">',
    `<a href="#main" class="skip-link">${t('nav.skipToContent')}</a>`,
    '<header class="site-header"><div class="site-header-brand">',
    `<a href="${prefix}/" style="display:flex;align-items:center;gap:10px;color:inherit;min-width:0">`,
    `<img src="/logos/${escapeMarkup(site.siteVariant)}.svg" alt="${escapeMarkup(translate(language, 'site.logoAlt', { title: siteTitle }))}" width="36" height="36" style="flex:none">`,
    `<span style="font-size:18px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis">${escapeMarkup(siteTitle)}</span></a>`,
    '</div></header>',
    '<main id="main" class="site-main" tabindex="-1">',
    '<article class="lp" aria-labelledby="lp-title">',
    `<nav aria-label="${t('landing.breadcrumb')}" class="lp-breadcrumb"><ol><li><a href="${prefix}/">${t('nav.home')}</a></li><li><a href="${prefix}/data/">${t('nav.data')}</a></li></ol></nav>`,
    `<header class="lp-header"><h1 id="lp-title" lang="${tag}">${escapeMarkup(text.title || versions[record.language].title)}</h1>${buttons}</header>`,
    '<div class="lp-layout">',
    `<section class="lp-section lp-abstract" aria-labelledby="lp-abstract"><h2 id="lp-abstract">${t('landing.sections.abstract')}</h2>${abstract}</section>`,
    '</div></article></main></div>',
  ].join('');
}
