import { languageTag, type Language } from '@portal/shared';

/**
 * The public site's addresses. Canonical form: a Chinese page's address has no language prefix
 * (`/data/`), an English one is under `/en` (`/en/data/`); `/zh-hans/...` serves the same Chinese
 * page and names the unprefixed address as canonical. The site root is where visitors and links
 * arrive, and x-default must be an address that is canonical itself: the unprefixed Chinese page,
 * which the server gives to anyone who has not chosen a language.
 */

/** Every page is served under each: none and `/zh-hans` are Chinese, `/en` English. */
export const LANGUAGE_PREFIXES = ['', '/en', '/zh-hans'] as const;

export function canonicalUrl(publicUrl: string, language: Language, path: string): string {
  return `${publicUrl}${language === 'en' ? '/en' : ''}${path}`;
}

/** The page in each language, and which one a visitor of another language gets (x-default). */
export function languageAlternates(publicUrl: string, path: string): { hreflang: string; href: string }[] {
  return [
    { hreflang: languageTag('zh-hans'), href: canonicalUrl(publicUrl, 'zh-hans', path) },
    { hreflang: languageTag('en'), href: canonicalUrl(publicUrl, 'en', path) },
    { hreflang: 'x-default', href: canonicalUrl(publicUrl, 'zh-hans', path) },
  ];
}

/** The landing page of a dataset, by its id, without a language prefix. */
export function landingPath(id: string): string {
  return `/data/${encodeURIComponent(id)}/`;
}
