import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasIllegalText } from '@portal/shared';
import { SITEMAP_MAX_URLS, sitemapDocuments } from './sitemap.js';

const SCHEMAS = path.resolve(import.meta.dirname, '../../test/xsd');
/** xmllint's verdict against a schema of test/xsd: '' when valid. */
function invalid(xml: string, schema: string): string {
  try {
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', path.join(SCHEMAS, schema), '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

const records = (count: number) => Array.from({ length: count }, (_, n) => ({ id: `r${n}`, lastmod: `2024-01-${String((n % 28) + 1).padStart(2, '0')}T08:00:00Z` }));
const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe('the sitemap', () => {
  it('leaves out the characters XML cannot carry, wherever they come from', () => {
    const { main } = sitemapDocuments('http://portal.test', [{ id: 'a\u0001b\u000B\uFFFEc\uD800', lastmod: '2024-01-01T00:00:00Z' }]);
    expect(hasIllegalText(main)).toBe(false);
    expect(main).toContain('<loc>http://portal.test/data/abc/</loc>');
  });

  it('gives every record address its last change, in both languages, and stays one urlset up to the limit', () => {
    const { main, parts } = sitemapDocuments('http://portal.test', records(3));
    expect(parts).toEqual([]);
    const entry = main.slice(main.indexOf('<loc>http://portal.test/en/data/r1/</loc>'));
    expect(entry.slice(0, entry.indexOf('</url>'))).toContain('<lastmod>2024-01-02T08:00:00Z</lastmod>');
    // Every record address has one, the site's pages none.
    const urls = main.split('<url>').slice(1);
    expect(urls.filter((url) => url.includes('/data/r')).every((url) => url.includes('<lastmod>'))).toBe(true);
    expect(urls).toHaveLength((4 + 3) * 2);
    expect(invalid(main, 'sitemap-with-alternates.xsd')).toBe('');
    // 4 pages and 3 records in 2 languages: 14 addresses fit in 14.
    expect(sitemapDocuments('http://portal.test', records(3), 14).parts).toEqual([]);
  });

  it('past the limit is an index of parts, each within the limit, a record never split, the newest lastmod of each part', () => {
    // 50,000 addresses a file: 25,000 entries of two languages; 4 pages and 24,996 records fit, one more does not.
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    expect(sitemapDocuments('http://portal.test', records(24_996)).parts).toHaveLength(0);
    expect(sitemapDocuments('http://portal.test', records(24_997)).parts).toHaveLength(2);
    const { main, parts } = sitemapDocuments('http://portal.test', records(23), 20);
    expect(parts).toHaveLength(3);
    expect(main).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(locations(main)).toEqual(['http://portal.test/sitemap-1.xml', 'http://portal.test/sitemap-2.xml', 'http://portal.test/sitemap-3.xml']);
    expect([...main.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1])).toEqual(['2024-01-06T08:00:00Z', '2024-01-16T08:00:00Z', '2024-01-23T08:00:00Z']);
    expect(invalid(main, 'siteindex.xsd')).toBe('');
    const all = parts.flatMap((part) => {
      expect(invalid(part, 'sitemap-with-alternates.xsd')).toBe('');
      expect(locations(part).filter((loc) => !loc.includes('xhtml')).length).toBeLessThanOrEqual(20);
      return locations(part);
    });
    // Every address once, both languages of a record in the same part.
    expect(all).toHaveLength((4 + 23) * 2);
    expect(new Set(all).size).toBe(all.length);
    for (const part of parts) for (const loc of locations(part).filter((l) => l.includes('/en/'))) expect(locations(part)).toContain(loc.replace('/en/', '/'));
  });
});
