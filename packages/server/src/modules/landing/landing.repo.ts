import type { Db } from '../../db/index.js';

/** What the server needs of a record to answer its landing page: one row, the record with its other language's version. */
export interface LandingRow {
  id: string;
  status: string;
  language: string;
  title: string;
  description: string;
  doi: string;
  published_at: string | null;
  unpublish_reason: string;
  other_language: string | null;
  other_title: string | null;
  other_description: string | null;
}

/** The only SQL of the landing pages and the sitemap's list of them. */
export class LandingRepo {
  constructor(private readonly db: Db) {}

  /** The record and its version in the other language: one read by primary key and the translation's unique index. */
  find(id: string): Promise<LandingRow | undefined> {
    return this.db
      .selectFrom('metadata')
      .leftJoin('metadata_i18n', (join) => join.onRef('metadata_i18n.metadata_id', '=', 'metadata.id').onRef('metadata_i18n.language', '<>', 'metadata.language'))
      .select([
        'metadata.id',
        'metadata.status',
        'metadata.language',
        'metadata.title',
        'metadata.description',
        'metadata.doi',
        'metadata.published_at',
        'metadata.unpublish_reason',
        'metadata_i18n.language as other_language',
        'metadata_i18n.title as other_title',
        'metadata_i18n.description as other_description',
      ])
      .where('metadata.id', '=', id)
      .executeTakeFirst();
  }

  /** When the data centre last unpublished the record (its audit trail). */
  async unpublishedAt(id: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('review_events')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('metadata_id', '=', id)
      .where('action', '=', 'unpublish')
      .executeTakeFirst();
    return (row?.at as string | null | undefined) ?? null;
  }

  /**
   * The published records (the public catalogue's entries), oldest publication first, each with its
   * last change: the OAI-PMH feed's datestamp, which every change of what a published record shows
   * moves on (oai-index.ts), else its publication.
   */
  async sitemapRecords(): Promise<{ id: string; lastmod: string }[]> {
    const rows = await this.db
      .selectFrom('search_entries as e')
      .leftJoin('oai_items as i', 'i.metadata_id', 'e.metadata_id')
      .select(['e.metadata_id', 'e.published_at', 'i.datestamp'])
      .orderBy('e.published_at')
      .orderBy('e.doc')
      .execute();
    return rows.map((row) => ({ id: row.metadata_id, lastmod: row.datestamp ?? row.published_at }));
  }

  /** The feed's newest datestamp: with the catalogue's version, what the sitemap's lastmod values depend on. */
  async lastChange(): Promise<string> {
    const row = await this.db
      .selectFrom('oai_items')
      .select((eb) => eb.fn.max('datestamp').as('at'))
      .executeTakeFirst();
    return (row?.at as string | null | undefined) ?? '';
  }

  /** Changes whenever a record enters, changes in or leaves the public catalogue (and when it is rebuilt). */
  async catalogueVersion(): Promise<string> {
    const row = await this.db.selectFrom('search_state').select(['version', 'epoch']).where('id', '=', 1).executeTakeFirst();
    return row ? `${row.epoch}:${row.version}` : '';
  }
}
