import { LANGUAGES, stripIllegalText } from '@portal/shared';
import { escapeMarkup } from '../http/markup.js';
import { canonicalUrl, landingPath, languageAlternates } from '../modules/landing/index.js';
import { INDEXED_PAGES } from './site-pages.js';

/**
 * The sitemap (sitemaps.org 0.9) with the xhtml:link alternates search engines read for each
 * language: every indexed page and every published dataset's landing page, once per language, a
 * landing page with `<lastmod>` (the record's last change as the OAI-PMH feed dates it, else its
 * publication). A sitemap holds at most 50,000 addresses (the protocol's limit), two a record: past
 * that, `/sitemap.xml` is a sitemap index of `/sitemap-1.xml`, `/sitemap-2.xml` ..., each with the
 * newest `<lastmod>` of its records, the indexed pages in the first.
 */

/** Addresses in one sitemap file (sitemaps.org's limit). */
export const SITEMAP_MAX_URLS = 50_000;
/**
 * The limit the server applies: SITEMAP_MAX_URLS, which a test lowers (the API test builds an index
 * from a few dozen records rather than 25,000); the server's cached sitemap is made again when it changes.
 */
export const sitemapLimits = { maxUrls: SITEMAP_MAX_URLS };

export interface SitemapRecord {
  id: string;
  /** W3C date-time of the record's last change. */
  lastmod: string;
}

export interface SitemapDocuments {
  /** `/sitemap.xml`: the only sitemap, or the index of the parts. */
  main: string;
  /** `/sitemap-<n>.xml` for n = 1 ...; empty when `main` is the only sitemap. */
  parts: string[];
}

interface Entry {
  path: string;
  lastmod?: string;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** One urlset: each entry in each language, with its alternates. */
function urlset(publicUrl: string, entries: readonly Entry[]): string {
  const urls = entries.flatMap(({ path, lastmod }) => {
    const links = languageAlternates(publicUrl, path).map(({ hreflang, href }) => `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeMarkup(href)}"/>`);
    return LANGUAGES.map((language) =>
      [
        '  <url>',
        `    <loc>${escapeMarkup(canonicalUrl(publicUrl, language, path))}</loc>`,
        ...(lastmod ? [`    <lastmod>${escapeMarkup(lastmod)}</lastmod>`] : []),
        ...links,
        '  </url>',
      ].join('\n'),
    );
  });
  return [XML_DECLARATION, `<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">`, ...urls, '</urlset>', ''].join('\n');
}

/** The newest of W3C date-times (compared as instants). */
function newest(times: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const time of times) if (!best || Date.parse(time) > Date.parse(best)) best = time;
  return best;
}

/**
 * The sitemap of these records (in the order given): one urlset while everything fits in `maxUrls`
 * addresses, else an index and its parts, a record's addresses never split between two parts.
 * Without the characters XML cannot carry: one stored in a record's id would make a sitemap ill-formed.
 */
export function sitemapDocuments(publicUrl: string, records: readonly SitemapRecord[], maxUrls = sitemapLimits.maxUrls): SitemapDocuments {
  const entries: Entry[] = [
    ...INDEXED_PAGES.map((page) => ({ path: page.path })),
    ...records.map((record) => ({ path: landingPath(stripIllegalText(record.id)), lastmod: record.lastmod })),
  ];
  const perFile = Math.max(1, Math.floor(maxUrls / LANGUAGES.length));
  if (entries.length <= perFile) return { main: stripIllegalText(urlset(publicUrl, entries)), parts: [] };
  const parts: Entry[][] = [];
  for (let at = 0; at < entries.length; at += perFile) parts.push(entries.slice(at, at + perFile));
  const index = parts.map((part, n) => {
    const lastmod = newest(part.flatMap((entry) => (entry.lastmod ? [entry.lastmod] : [])));
    return [
      '  <sitemap>',
      `    <loc>${escapeMarkup(`${publicUrl}/sitemap-${n + 1}.xml`)}</loc>`,
      ...(lastmod ? [`    <lastmod>${escapeMarkup(lastmod)}</lastmod>`] : []),
      '  </sitemap>',
    ].join('\n');
  });
  return {
    main: stripIllegalText([XML_DECLARATION, `<sitemapindex xmlns="${SITEMAP_NS}">`, ...index, '</sitemapindex>', ''].join('\n')),
    parts: parts.map((part) => stripIllegalText(urlset(publicUrl, part))),
  };
}
