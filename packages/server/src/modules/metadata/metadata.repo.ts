import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/index.js';
import type { MetadataRow } from './metadata-access.js';

/**
 * The title of a record's version in the language it is not written in (null without one), read in the
 * query that reads the record: `.select(translationTitle.as('translation_title'))` where `metadata` is in scope.
 */
export const translationTitle = sql<
  string | null
>`(select metadata_i18n.title from metadata_i18n where metadata_i18n.metadata_id = metadata.id and metadata_i18n.language <> metadata.language order by metadata_i18n.language limit 1)`;

/**
 * A condition on `metadata`: its title, or the title of one of its language versions, holds
 * `search` as literal text (any case). For every list that searches records by title.
 */
export function titleMatches(search: string) {
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`(lower(metadata.title) like ${pattern} escape '\\' or exists (select 1 from metadata_i18n where metadata_i18n.metadata_id = metadata.id and lower(metadata_i18n.title) like ${pattern} escape '\\'))`;
}

export interface MetadataListFilter {
  ownerId?: string;
  /** Records of this owner, plus every published one (a signed-in user browsing). */
  ownerOrPublished?: string;
  statuses?: string[];
  search?: string;
  ids?: string[];
}

/** The record's own SQL; the attached resources have theirs in resources.ts. */
export class MetadataRepo {
  constructor(readonly db: Db) {}

  find(id: string): Promise<MetadataRow | undefined> {
    return this.db.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user's review rows of the record as an expert (every round): whether one stands is record-policy.ts's rule. */
  invitations(metadataId: string, userId: string): Promise<{ status: string; round: number }[]> {
    return this.db.selectFrom('reviews').select(['status', 'round']).where('metadata_id', '=', metadataId).where('expert_id', '=', userId).execute();
  }

  /** Whether the user manages a topic the record is linked to. */
  async managesTopicOf(metadataId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('meta_special')
      .innerJoin('special_managers', 'special_managers.special_id', 'meta_special.special_id')
      .select('meta_special.id')
      .where('meta_special.metadata_id', '=', metadataId)
      .where('special_managers.user_id', '=', userId)
      .executeTakeFirst();
    return !!row;
  }

  /** Records linked as `resourceProvider` / other author roles to an author entry with this e-mail (any case). */
  async idsLinkedByEmail(email: string, userType: 'author' | 'provider' | 'owner', authorId: string | undefined): Promise<string[]> {
    let query = this.db
      .selectFrom('meta_author')
      .innerJoin('authors', 'authors.id', 'meta_author.author_id')
      .select('meta_author.metadata_id')
      .distinct()
      .where((eb) => eb(eb.fn('lower', [eb.ref('authors.email')]), '=', email.toLowerCase()));
    if (userType === 'provider') query = query.where('meta_author.role', '=', 'resourceProvider');
    if (userType === 'author') query = query.where('meta_author.role', '<>', 'resourceProvider');
    if (authorId) query = query.where('authors.id', '=', authorId);
    return (await query.execute()).map((row) => row.metadata_id);
  }

  private filtered(filter: MetadataListFilter) {
    let query = this.db.selectFrom('metadata');
    if (filter.ownerId) query = query.where('metadata.owner_id', '=', filter.ownerId);
    if (filter.ownerOrPublished) {
      const owner = filter.ownerOrPublished;
      query = query.where((eb) => eb.or([eb('metadata.owner_id', '=', owner), eb('metadata.status', '=', 'published')]));
    }
    if (filter.statuses?.length) query = query.where('metadata.status', 'in', filter.statuses);
    if (filter.ids) query = query.where('metadata.id', 'in', filter.ids.length ? filter.ids : ['']);
    if (filter.search) query = query.where(titleMatches(filter.search));
    return query;
  }

  /**
   * A page of records, each with `translation_title`: the title of its version in the other language
   * (the list shows it when the page is in that language), read in the same query.
   */
  async list(filter: MetadataListFilter, offset: number, limit: number): Promise<{ count: number; rows: (MetadataRow & { translation_title: string | null })[] }> {
    const [{ count }] = (await this.filtered(filter)
      .select((eb) => eb.fn.countAll().as('count'))
      .execute()) as [{ count: number | string }];
    const rows = await this.filtered(filter)
      .selectAll('metadata')
      .select(translationTitle.as('translation_title'))
      .orderBy('metadata.updated_at', 'desc')
      .orderBy('metadata.id')
      .offset(offset)
      .limit(limit)
      .execute();
    return { count: Number(count), rows };
  }

  async fundIds(metadataIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (!metadataIds.length) return map;
    const rows = await this.db.selectFrom('meta_fund').select(['metadata_id', 'fund_id']).where('metadata_id', 'in', metadataIds).orderBy('fund_id').execute();
    for (const row of rows) map.set(row.metadata_id, [...(map.get(row.metadata_id) ?? []), row.fund_id]);
    return map;
  }

  async translations(metadataId: string) {
    return this.db.selectFrom('metadata_i18n').selectAll().where('metadata_id', '=', metadataId).orderBy('language').execute();
  }

  /** Everything the submission checklist looks at, in a fixed number of queries whatever the record's size. */
  async submissionCounts(metadataId: string) {
    const thumbnails = await this.db
      .selectFrom('meta_media')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('meta_media.metadata_id', '=', metadataId)
      .where('meta_media.type', '=', 'thumbnail')
      .executeTakeFirst();
    const dataFiles = await this.db
      .selectFrom('meta_file')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('meta_file.metadata_id', '=', metadataId)
      .executeTakeFirst();
    const keywordRows = await this.db
      .selectFrom('meta_keyword')
      .innerJoin('keywords', 'keywords.id', 'meta_keyword.keyword_id')
      .select(['keywords.type', (eb) => eb.fn.countAll().as('count')])
      .where('meta_keyword.metadata_id', '=', metadataId)
      .groupBy('keywords.type')
      .execute();
    const authors = await this.db
      .selectFrom('meta_author')
      .select([
        (eb) => eb.fn.count('meta_author.author_id').distinct().as('authors'),
        (eb) =>
          eb.fn
            .count('meta_author.author_id')
            .distinct()
            .filterWhere((inner) =>
              inner.not(
                inner.exists(
                  inner
                    .selectFrom('author_i18n')
                    .select('author_i18n.id')
                    .whereRef('author_i18n.author_id', '=', 'meta_author.author_id')
                    .where('author_i18n.language', '=', 'en')
                    .where('author_i18n.name', '<>', ''),
                ),
              ),
            )
            .as('without_english'),
        (eb) => eb.fn.count('meta_author.id').filterWhere('meta_author.role', '=', 'resourceProvider').as('providers'),
      ])
      .where('meta_author.metadata_id', '=', metadataId)
      .executeTakeFirstOrThrow();
    return {
      keywordCounts: Object.fromEntries(keywordRows.map((row) => [row.type, Number(row.count)])),
      thumbnails: Number(thumbnails?.count ?? 0),
      dataFiles: Number(dataFiles?.count ?? 0),
      authors: Number(authors.authors),
      authorsWithoutEnglish: Number(authors.without_english),
      providers: Number(authors.providers),
    };
  }

  /** How many records of the owner's were created at or after `since` (the hourly creation limit). */
  async countCreatedSince(ownerId: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('metadata')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('owner_id', '=', ownerId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Deletes a draft that holds nothing, deciding from what is stored, under locks: the record's row
   * and its translations' rows are locked first (a concurrent write to either waits, then finds the
   * record gone), the `rule` is part of the locking UPDATE, and emptiness is judged after it. True
   * when the draft was deleted. An empty record has no stored files, so no blob is left behind.
   */
  async deleteDraftIfEmpty(id: string, rule: { ownerId?: string; neverChanged?: boolean; untouchedBefore?: string }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx
        .updateTable('metadata')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .where('status', '=', 'draft');
      if (rule.ownerId) lock = lock.where('owner_id', '=', rule.ownerId);
      if (rule.neverChanged) lock = lock.whereRef('updated_at', '=', 'created_at');
      if (rule.untouchedBefore) lock = lock.where('updated_at', '<', rule.untouchedBefore);
      if (Number((await lock.executeTakeFirst()).numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('metadata_i18n')
        .set((eb) => ({ language: eb.ref('language') }))
        .where('metadata_id', '=', id)
        .execute();
      const record = await trx.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (!(await new MetadataRepo(trx).isEmpty(record))) return false;
      await trx.deleteFrom('metadata').where('id', '=', id).execute();
      return true;
    });
  }

  /** Drafts without a title untouched since `before`: the candidates of the abandoned-draft clean-up. */
  async untitledDraftsUntouchedSince(before: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('metadata')
      .select('id')
      .where('status', '=', 'draft')
      .where('updated_at', '<', before)
      .where(sql<string>`trim(title)`, '=', '')
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Whether anything at all has been entered: an empty record left behind by the editor may go. */
  async isEmpty(record: MetadataRow): Promise<boolean> {
    // Every field of its own at its default: '' for texts, null for numbers.
    const bookkeeping = new Set([
      'id',
      'owner_id',
      'status',
      'language',
      'hit_count',
      'download_count',
      'created_at',
      'updated_at',
      'submitted_at',
      'published_at',
      // The review's facts, not the author's input.
      'topic_review_status',
      'is_pre_review',
      'review_round',
      'published_without_review',
      'unpublish_reason',
      'embargo_until',
      // The publication's facts (modules/doi): the version counted and the access right shown.
      'version_number',
      'version_fingerprint',
      'version_published_at',
      'access_right',
    ]);
    for (const [field, value] of Object.entries(record)) {
      if (bookkeeping.has(field)) continue;
      if (value !== null && String(value).trim() !== '') return false;
    }
    const tables = [
      'meta_author',
      'citations',
      'meta_keyword',
      'meta_keyword_standard',
      'meta_discipline',
      'meta_fund',
      'meta_special',
      'meta_media',
      'meta_file',
      'meta_attach',
      'online_resources',
    ] as const;
    for (const table of tables) {
      const row = await this.db.selectFrom(table).select('id').where('metadata_id', '=', record.id).limit(1).executeTakeFirst();
      if (row) return false;
    }
    const translations = await this.db.selectFrom('metadata_i18n').selectAll().where('metadata_id', '=', record.id).execute();
    return translations.every((row) => Object.entries(row).every(([field, value]) => ['id', 'metadata_id', 'language'].includes(field) || String(value ?? '').trim() === ''));
  }
}
