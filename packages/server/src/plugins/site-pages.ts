import { LANGUAGES, languageTag, translate, type Language, type SiteVariant } from '@portal/shared';

/**
 * The public site as search engines see it: which pages exist, their canonical addresses and
 * language alternates, the tags the server writes into a page's head, robots.txt and the sitemap.
 *
 * Canonical form: a Chinese page's address has no language prefix (`/data/`), an English one is
 * under `/en` (`/en/data/`); `/zh-hans/...` serves the same Chinese page and names the unprefixed
 * address as canonical. The site root is where visitors and links arrive, and x-default must be an
 * address that is canonical itself: the unprefixed Chinese page, which the server gives to anyone
 * who has not chosen a language.
 */

/** Pages a search engine should index, by their path without a language prefix. */
export const INDEXED_PAGES = [
  { path: '/', description: 'seo.home' },
  { path: '/data/', description: 'seo.data' },
  { path: '/news/', description: 'seo.news' },
  { path: '/about', description: 'seo.about' },
] as const;
/** Another address of an indexed page. */
export const PAGE_ALIASES: Readonly<Record<string, string>> = { '/index': '/' };
/** Pages for signed-in people: served like the others, never indexed. */
export const PRIVATE_PAGES = ['/personal/', '/admin/', '/admin/review'] as const;
/** Every page is served under each: none and `/zh-hans` are Chinese, `/en` English. */
export const LANGUAGE_PREFIXES = ['', '/en', '/zh-hans'] as const;

/**
 * What a page's head says: an indexed page's description (a catalogue key), a dataset's landing page
 * (its own title and description, text of the record), or that search engines keep out. `title`,
 * when given, comes before the site's name in <title>.
 */
export type PageHead =
  | { kind: 'indexed'; path: string; description: string }
  | {
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
  | { kind: 'noindex'; title?: string };

export interface SiteOptions {
  /** The portal's public address without a trailing slash (config PUBLIC_URL). */
  publicUrl: string;
  siteVariant: SiteVariant;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For text and attribute values of HTML and XML alike. */
export function escapeMarkup(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

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

/** The tags written into the head of a page in a language: description, canonical, alternates; or noindex. */
export function headTags(head: PageHead, language: Language, { publicUrl, siteVariant }: SiteOptions): string[] {
  if (head.kind === 'noindex') return ['<meta name="robots" content="noindex" />'];
  const site = translate(language, `site.${siteVariant}.title`);
  const description = head.kind === 'record' ? metaDescription(head.description) : translate(language, head.description, { site });
  return [
    ...(description ? [`<meta name="description" content="${escapeMarkup(description)}" />`] : []),
    `<link rel="canonical" href="${escapeMarkup(canonicalUrl(publicUrl, language, head.path))}" />`,
    ...languageAlternates(publicUrl, head.path).map(
      ({ hreflang, href }) => `<link rel="alternate" hreflang="${hreflang}" href="${escapeMarkup(href)}" />`,
    ),
    ...(head.kind === 'record' ? recordTags(head, description, language, { publicUrl, siteVariant }) : []),
  ];
}

/** Open Graph's locale of a language (`ll_TT`, its own form). */
const OG_LOCALES: Record<Language, string> = { 'zh-hans': 'zh_CN', en: 'en_US' };

/**
 * A dataset page's machine-readable description: its citation tags; the Open Graph and Twitter card
 * tags link previews read (WeChat, Slack, X); a typed alternate for each export; its JSON-LD. Every
 * value is escaped for an attribute.
 */
function recordTags(head: Extract<PageHead, { kind: 'record' }>, description: string, language: Language, { publicUrl, siteVariant }: SiteOptions): string[] {
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
    ...(head.exportLinks ?? []).map(
      ({ href, type, title }) => `<link rel="alternate" type="${escapeMarkup(type)}" href="${escapeMarkup(href)}" title="${escapeMarkup(title)}" />`,
    ),
    // In a script element only `</script` (and `<!--`) would end it early: every `<` is written as \u003c.
    ...(head.jsonLd ? [`<script type="application/ld+json">${head.jsonLd.replace(/</g, '\\u003c')}</script>`] : []),
  ];
}

/** The read calls of a dataset's landing page, which answer for a published record only. */
const LANDING_PAGE_CALLS = ['metadata', 'meta-author', 'meta-keyword', 'meta-fund', 'citation', 'meta-file', 'meta-attach', 'meta-media'].map((name) => `/api/metadata/${name}/`);

/**
 * Crawlers may read the public pages and what they are built from; the personal centre, the admin
 * pages and the API stay out, except the public catalogue's read calls (issue 8) that the home and
 * data pages render from, which a crawler running scripts needs, and the OAI-PMH feed (`/oai`, for
 * harvesters that honour robots.txt). The Allow lines come first for crawlers that take the first
 * matching line rather than the longest.
 */
export function robotsTxt(publicUrl: string): string {
  const privatePaths = ['/personal/', '/admin/'].flatMap((path) => LANGUAGE_PREFIXES.map((prefix) => `${prefix}${path}`));
  return [
    'User-agent: *',
    'Allow: /api/metadata/search/',
    'Allow: /api/metadata/hot/',
    'Allow: /api/metadata/catalogue-stats/',
    // What a dataset's landing page is drawn from (published records only answer).
    ...LANDING_PAGE_CALLS.map((path) => `Allow: ${path}`),
    'Allow: /oai',
    'Disallow: /api/',
    'Disallow: /account/',
    'Disallow: /metadata/',
    ...privatePaths.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
