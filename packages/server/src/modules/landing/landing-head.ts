import { LANGUAGES, translate, type Language, type SiteVariant } from '@portal/shared';
import { escapeMarkup } from '../../http/markup.js';
import { canonicalUrl } from './addresses.js';

/** What the head of a dataset's landing page says: its own title and description, text of the record. */
export interface LandingPageHead {
  kind: 'record';
  path: string;
  title: string;
  description: string;
  /** The record's schema.org Dataset (JSON text) and citation_* / dcterms tags (exports.service.ts landingFacts). */
  jsonLd?: string;
  metaTags?: readonly { name: string; content: string }[];
  /** Its exports, each a `<link rel="alternate" type>`. */
  exportLinks?: readonly { href: string; type: string; title: string }[];
  /** Its thumbnail for link previews ('' or absent: none). */
  image?: string;
}

/** Search engines show about this many characters of a description. */
export const DESCRIPTION_LENGTH = 160;

/**
 * An abstract as a meta description: white space folded, and when longer than `max` characters
 * (code points, never half a surrogate pair) cut at the last space of the second half, or at a
 * character for text without spaces (Chinese), with an ellipsis.
 */
export function metaDescription(text: string, max = DESCRIPTION_LENGTH): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  const characters = [...folded];
  if (characters.length <= max) return folded;
  const cut = characters.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  const kept = space >= cut.length / 2 ? cut.slice(0, space) : cut;
  return `${kept.replace(/[\s,.;:，。；：、]+$/u, '')}…`;
}

/** Open Graph's locale of a language (`ll_TT`, its own form). */
const OG_LOCALES: Record<Language, string> = { 'zh-hans': 'zh_CN', en: 'en_US' };

/**
 * A dataset page's machine-readable description: its citation tags; the Open Graph and Twitter card
 * tags link previews read (WeChat, Slack, X); a typed alternate for each export; its JSON-LD. Every
 * value is escaped for an attribute.
 */
export function landingHeadTags(
  head: LandingPageHead,
  description: string,
  language: Language,
  { publicUrl, siteVariant }: { publicUrl: string; siteVariant: SiteVariant },
): string[] {
  const meta = (attribute: 'name' | 'property', key: string, content: string) => `<meta ${attribute}="${escapeMarkup(key)}" content="${escapeMarkup(content)}" />`;
  const other = LANGUAGES.find((l) => l !== language)!;
  return [
    ...(head.metaTags ?? []).map(({ name, content }) => meta('name', name, content)),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', translate(language, `site.${siteVariant}.title`)),
    meta('property', 'og:title', head.title),
    ...(description ? [meta('property', 'og:description', description)] : []),
    meta('property', 'og:url', canonicalUrl(publicUrl, language, head.path)),
    meta('property', 'og:locale', OG_LOCALES[language]),
    meta('property', 'og:locale:alternate', OG_LOCALES[other]),
    ...(head.image ? [meta('property', 'og:image', head.image)] : []),
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', head.title),
    ...(description ? [meta('name', 'twitter:description', description)] : []),
    ...(head.image ? [meta('name', 'twitter:image', head.image)] : []),
    ...(head.exportLinks ?? []).map(({ href, type, title }) => `<link rel="alternate" type="${escapeMarkup(type)}" href="${escapeMarkup(href)}" title="${escapeMarkup(title)}" />`),
    // In a script element only `</script` (and `<!--`) would end it early: every `<` is written as \u003c.
    ...(head.jsonLd ? [`<script type="application/ld+json">${head.jsonLd.replace(/</g, '\\u003c')}</script>`] : []),
  ];
}
