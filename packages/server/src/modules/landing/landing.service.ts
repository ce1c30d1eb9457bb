import type { Language, Tombstone } from '@portal/shared';
import { AppError } from '../../errors.js';
import type { FirstScreenInput } from './first-screen.js';
import type { LandingRepo, LandingRow } from './landing.repo.js';

/**
 * What the server says of `/{lang}/data/{id}/` before the web app takes over: a published record's
 * title and abstract in the page's language; a record that was published and is no longer
 * (NotPublished) a tombstone, gone (410); anything else, however it exists, not found (404), the
 * reply to an unknown id, so that drafts do not show through.
 */
export type LandingHead = { kind: 'published'; title: string; description: string; firstScreen: FirstScreenTexts } | { kind: 'unpublished'; title: string } | { kind: 'missing' };

/** The record's title and abstract in each language, for the page's first screen (first-screen.ts). */
export type FirstScreenTexts = Pick<FirstScreenInput, 'versions' | 'texts' | 'recordLanguage'>;

/** Ids are random UUIDs; anything longer is never looked up. */
const MAX_ID_LENGTH = 100;

function inLanguage(row: LandingRow, language: Language): { title: string; description: string } {
  const own = { title: row.title, description: row.description };
  if (row.language === language || row.other_language !== language) return own;
  // The other language's version, field by field where it was written.
  return { title: row.other_title || row.title, description: row.other_description || row.description };
}

/** Its own fields in the record's language, its translation in the other (as the landing page's textVersions). */
function firstScreenTexts(row: LandingRow): FirstScreenTexts {
  const own = row.language === 'en' ? 'en' : 'zh-hans';
  const other = own === 'en' ? 'zh-hans' : 'en';
  const translated = row.other_language === other;
  return {
    versions: [own, other],
    recordLanguage: own,
    texts: {
      [own]: { title: row.title, description: row.description },
      [other]: { title: translated ? (row.other_title ?? '') : '', description: translated ? (row.other_description ?? '') : '' },
    } as FirstScreenTexts['texts'],
  };
}

export class LandingService {
  constructor(private readonly repo: LandingRepo) {}

  async head(id: string, language: Language): Promise<LandingHead> {
    if (id.length === 0 || id.length > MAX_ID_LENGTH) return { kind: 'missing' };
    const row = await this.repo.find(id);
    if (row?.status === 'published') return { kind: 'published', ...inLanguage(row, language), firstScreen: firstScreenTexts(row) };
    if (row?.status === 'NotPublished') return { kind: 'unpublished', title: inLanguage(row, language).title };
    return { kind: 'missing' };
  }

  /** GET /api/metadata/metadata/{id}/tombstone/: what stays public of an unpublished record; 404 for any other. */
  async tombstone(id: string): Promise<Omit<Tombstone, 'citation'>> {
    const row = id.length <= MAX_ID_LENGTH ? await this.repo.find(id) : undefined;
    if (row?.status !== 'NotPublished') throw new AppError('NOT_FOUND', 'metadata.notFound');
    return {
      id: row.id,
      language: row.language as Language,
      title: row.title,
      translation_title: row.other_title ?? '',
      doi: row.doi,
      published_at: row.published_at,
      unpublished_at: await this.repo.unpublishedAt(row.id),
      reason: row.unpublish_reason,
    };
  }

  sitemapRecords(): Promise<{ id: string; lastmod: string }[]> {
    return this.repo.sitemapRecords();
  }

  /** Changes whenever the sitemap would: the catalogue's version and the feed's newest datestamp. */
  async sitemapVersion(): Promise<string> {
    const [version, lastChange] = await Promise.all([this.repo.catalogueVersion(), this.repo.lastChange()]);
    return `${version}|${lastChange}`;
  }
}
