import { translate, type Language, type SiteVariant } from '@portal/shared';
import { escapeMarkup } from '../http/markup.js';
import { canonicalUrl, landingHeadTags, languageAlternates, LANGUAGE_PREFIXES, metaDescription, type LandingPageHead } from '../modules/landing/index.js';

/**
 * The public site as search engines see it: which pages exist, the tags the server writes into a
 * page's head, robots.txt and the sitemap. The addresses (canonical, language alternates) and a
 * dataset's landing page head are the landing module's (modules/landing).
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

/**
 * What a page's head says: an indexed page's description (a catalogue key), a dataset's landing page
 * (its own title and description, text of the record), or that search engines keep out. `title`,
 * when given, comes before the site's name in <title>.
 */
export type PageHead = { kind: 'indexed'; path: string; description: string } | LandingPageHead | { kind: 'noindex'; title?: string };

export interface SiteOptions {
  /** The portal's public address without a trailing slash (config PUBLIC_URL). */
  publicUrl: string;
  siteVariant: SiteVariant;
}

/** The tags written into the head of a page in a language: description, canonical, alternates; or noindex. */
export function headTags(head: PageHead, language: Language, { publicUrl, siteVariant }: SiteOptions): string[] {
  if (head.kind === 'noindex') return ['<meta name="robots" content="noindex" />'];
  const site = translate(language, `site.${siteVariant}.title`);
  const description = head.kind === 'record' ? metaDescription(head.description) : translate(language, head.description, { site });
  return [
    ...(description ? [`<meta name="description" content="${escapeMarkup(description)}" />`] : []),
    `<link rel="canonical" href="${escapeMarkup(canonicalUrl(publicUrl, language, head.path))}" />`,
    ...languageAlternates(publicUrl, head.path).map(({ hreflang, href }) => `<link rel="alternate" hreflang="${hreflang}" href="${escapeMarkup(href)}" />`),
    ...(head.kind === 'record' ? landingHeadTags(head, description, language, { publicUrl, siteVariant }) : []),
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
