import { sql, type RawBuilder, type Selectable } from 'kysely';
import { CREATOR_ROLES, type BBox, type Language, type SearchQuery } from '@portal/shared';
import type { Db, Dialect } from '../../db/index.js';
import type { SearchEntryTable } from '../../db/schema.js';
import { COLUMN_FACETS, FacetCache, type FacetCountRow } from './facet-cache.js';
import type { QueryTerm } from './tokenize.js';

/** The catalogue's reads: the search with its facet counts, the hot list, the home page's counts. */

/** What a result row reads of its entry. */
export type EntryRow = Pick<
  Selectable<SearchEntryTable>,
  'doc' | 'metadata_id' | 'title_zh' | 'title_en' | 'language' | 'published_at' | 'time_start' | 'time_end' | 'west' | 'south' | 'east' | 'north' | 'hit_count' | 'download_count'
>;

/** Multi-valued facets live in search_facets; the others are columns of the entry. */
const LISTED_FACETS = ['theme', 'discipline', 'place', 'program', 'fund'] as const;
/** Keyword facets are keyed by their lower-cased name. */
const KEYWORD_FACETS = new Set(['theme', 'discipline', 'place']);

/** FTS5 query text: every term quoted (tokens hold only letters and digits), prefix terms starred. */
const ftsTerm = (t: QueryTerm) => `"${t.token}"${t.prefix ? '*' : ''}`;
const ftsMatch = (terms: QueryTerm[]) => terms.map(ftsTerm).join(' AND ');
/** tsquery input text, read without a parser: the tokens are already the index's lexemes. */
const tsTerm = (t: QueryTerm) => `'${t.token.replace(/['\\]/g, '\\$&')}'${t.prefix ? ':*' : ''}`;
const tsQuery = (terms: QueryTerm[]) => terms.map((t) => tsTerm(t)).join(' & ');

/**
 * Relevance: each word of the query counts by the best place a record holds it, its title above its
 * keywords above the rest of its text (abstract, authors, DOI...); equal scores go newest first.
 * A catalogue's words are few and repeated, so where a word is found says more than how often.
 */
const FIELD_WEIGHTS = { title: 10, keys: 4 } as const;
const BODY_WEIGHT = 1;
/** The FTS5 columns and the tsvector columns of the weighted places (search-index.ts writes them). */
const FTS_COLUMNS = { title: 'title', keys: 'keys' } as const;
const TS_COLUMNS = { title: 'title_tokens', keys: 'keys_tokens' } as const;

/** Entry numbers from the comma-separated text one statement aggregated them into (no array of strings in between). */
function docList(text: string | null): number[] {
  const docs: number[] = [];
  if (!text) return docs;
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      docs.push(n);
      n = 0;
    } else n = n * 10 + (c - 48);
  }
  docs.push(n);
  return docs;
}

/** The longitude intervals of a box: two when it crosses the 180th meridian. */
function longitudeIntervals(box: BBox): [number, number][] {
  return box.west <= box.east
    ? [[box.west, box.east]]
    : [
        [box.west, 180],
        [-180, box.east],
      ];
}

/** The last day a partial date (YYYY or YYYY-MM) can mean, for the end of a range. */
const endOfDate = (value: string) => (value.length === 4 ? `${value}-12-31` : value.length === 7 ? `${value}-31` : value);

export class SearchRepo {
  private readonly facetCache: FacetCache;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {
    this.facetCache = new FacetCache(db, dialect);
  }

  /** `from ... where ...` of the entries a query finds, and the relevance expression when it has words. */
  /** The facet filters of a query: each facet with the values asked for, as the index keys them. */
  private facetFilters(query: SearchQuery): { facet: string; values: string[] }[] {
    return [
      ...LISTED_FACETS.map((facet) => ({ facet, values: query[facet].map((v) => (KEYWORD_FACETS.has(facet) ? v.toLowerCase() : v)) })),
      ...Object.keys(COLUMN_FACETS).map((facet) => ({ facet, values: [...query[facet as keyof typeof COLUMN_FACETS]] })),
    ].filter((f) => f.values.length > 0);
  }

  /** `facets: false` leaves the facet filters out (the facet cache applies them). */
  private scope(query: SearchQuery, terms: QueryTerm[], facets = true): { from: RawBuilder<unknown>; where: RawBuilder<unknown>; filtered: boolean; textOnly: boolean } {
    const conditions: RawBuilder<unknown>[] = [];
    const from = sql`search_entries e`;
    if (terms.length) {
      conditions.push(
        this.dialect === 'sqlite'
          ? sql`e.doc in (select rowid from search_fts where search_fts match ${ftsMatch(terms)})`
          : sql`e.doc in (select w.doc from search_words w where w.tokens @@ ${tsQuery(terms)}::tsquery)`,
      );
    }
    for (const { facet, values } of facets ? this.facetFilters(query) : []) {
      const column = COLUMN_FACETS[facet as keyof typeof COLUMN_FACETS];
      conditions.push(
        column
          ? sql`${sql.ref(`e.${column}`)} in (${sql.join(values)})`
          : // Read from the facets' primary key (facet, value, doc): the entries holding a value, not every entry's values.
            sql`e.doc in (select f.doc from search_facets f where f.facet = ${facet} and f.value in (${sql.join(values)}))`,
      );
    }
    if (query.start) conditions.push(sql`e.time_end <> '' and e.time_end >= ${query.start}`);
    if (query.end) conditions.push(sql`e.time_start <> '' and e.time_start <= ${endOfDate(query.end)}`);
    if (query.bbox) {
      const box = query.bbox;
      const intervals = longitudeIntervals(box);
      const plain = sql.join(
        intervals.map(([a, b]) => sql`(e.west <= ${b} and e.east >= ${a})`),
        sql` or `,
      );
      // A record's own box may cross the 180th meridian too: it is then [west, 180] and [-180, east].
      const crossing = sql.join(
        intervals.map(([a, b]) => sql`(e.west <= ${b} or e.east >= ${a})`),
        sql` or `,
      );
      conditions.push(
        sql`e.south is not null and e.north is not null and e.west is not null and e.east is not null and e.south <= ${box.north} and e.north >= ${box.south} and ((e.west <= e.east and (${plain})) or (e.west > e.east and (${crossing})))`,
      );
    }
    const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    // A words-only query reads its entries from the words alone (the FTS table, search_words).
    const textOnly = terms.length > 0 && conditions.length === 1;
    return { from, where, filtered: conditions.length > 0, textOnly };
  }

  /** The entries holding `term` in `field`, as one list read in one statement. */
  private async fieldDocs(term: QueryTerm, field: keyof typeof FIELD_WEIGHTS): Promise<number[]> {
    const query =
      this.dialect === 'sqlite'
        ? sql<{ docs: string | null }>`select group_concat(rowid) as docs from search_fts where search_fts match ${`{${FTS_COLUMNS[field]}} : ${ftsTerm(term)}`}`
        : sql<{ docs: string | null }>`select string_agg(doc::text, ',') as docs from search_words where ${sql.ref(TS_COLUMNS[field])} @@ ${tsTerm(term)}::tsquery`;
    return docList((await query.execute(this.db)).rows[0]?.docs ?? null);
  }

  /**
   * The relevance of each found entry (FIELD_WEIGHTS), indexed by entry number: two short reads per
   * word of the query.
   */
  private async relevance(docs: readonly number[], terms: QueryTerm[], firstTitle?: number[]): Promise<Uint16Array> {
    let last = 0;
    for (let i = 0; i < docs.length; i += 1) if (docs[i]! > last) last = docs[i]!;
    const score = new Uint16Array(last + 1);
    const best = new Uint8Array(last + 1);
    for (const [i, term] of terms.entries()) {
      const [title, keys] = await Promise.all([i === 0 && firstTitle ? firstTitle : this.fieldDocs(term, 'title'), this.fieldDocs(term, 'keys')]);
      best.fill(BODY_WEIGHT);
      for (const doc of keys) if (doc <= last) best[doc] = FIELD_WEIGHTS.keys;
      for (const doc of title) if (doc <= last) best[doc] = FIELD_WEIGHTS.title;
      for (let i = 0; i < docs.length; i += 1) score[docs[i]!]! += best[docs[i]!]!;
    }
    return score;
  }

  /**
   * Entries `offset` to `offset + limit` of `docs` by relevance. A query of one word scores an entry
   * with the word in its title above any other: when those fill the page, they are the page, newest
   * first, and the other entries need no score (a read and a pass over the result less).
   */
  private async relevantPage(docs: readonly number[], terms: QueryTerm[], offset: number, limit: number): Promise<number[]> {
    let title: number[] | undefined;
    if (terms.length === 1) {
      title = await this.fieldDocs(terms[0]!, 'title');
      let last = 0;
      for (const doc of title) if (doc > last) last = doc;
      const found = new Uint8Array(last + 1);
      for (const doc of title) found[doc] = 1;
      const titled = docs.filter((doc) => found[doc] === 1);
      if (titled.length >= offset + limit) return this.facetCache.page(titled, offset, limit);
    }
    return this.facetCache.page(docs, offset, limit, await this.relevance(docs, terms, title));
  }

  /**
   * The entries a query finds, as one list read in one statement with the index version it saw
   * (a single text of numbers: rows one by one cost far more than the query itself).
   */
  private async matching(scope: ReturnType<SearchRepo['scope']>, terms: QueryTerm[]): Promise<{ docs: number[]; version: number; epoch: string }> {
    const state = sql`(select version from search_state where id = 1) as version, (select epoch from search_state where id = 1) as epoch`;
    const query =
      this.dialect === 'sqlite'
        ? scope.textOnly
          ? sql<{ docs: string | null; version: number; epoch: string }>`select group_concat(rowid) as docs, ${state} from search_fts where search_fts match ${ftsMatch(terms)}`
          : sql<{ docs: string | null; version: number; epoch: string }>`select group_concat(e.doc) as docs, ${state} from ${scope.from} ${scope.where}`
        : scope.textOnly
          ? sql<{
              docs: string | null;
              version: number;
              epoch: string;
            }>`select string_agg(doc::text, ',') as docs, ${state} from search_words where tokens @@ ${tsQuery(terms)}::tsquery`
          : sql<{ docs: string | null; version: number; epoch: string }>`select string_agg(e.doc::text, ',') as docs, ${state} from ${scope.from} ${scope.where}`;
    const row = (await query.execute(this.db)).rows[0]!;
    return { docs: docList(row.docs), version: Number(row.version), epoch: row.epoch };
  }

  async search(query: SearchQuery, terms: QueryTerm[], language: Language): Promise<{ count: number; rows: EntryRow[]; facets: FacetCountRow[] }> {
    const title = language === 'en' ? sql`e.title_en` : sql`e.title_zh`;
    const sort = query.sort === 'relevance' && !terms.length ? 'newest' : (query.sort ?? (terms.length ? 'relevance' : 'newest'));
    // Relevance and date pages are chosen in memory (facet-cache.ts), and so are the facet filters
    // then; other sorts read their page in SQL order, with every filter in SQL.
    const inMemory = sort === 'relevance' || sort === 'newest';
    const facetFilters = this.facetFilters(query);
    const scope = this.scope(query, terms, !inMemory);
    const { from, where } = scope;
    const order = {
      relevance: sql`e.published_at desc, e.doc desc`,
      newest: sql`e.published_at desc, e.doc desc`,
      downloads: sql`e.download_count desc, e.published_at desc, e.doc desc`,
      views: sql`e.hit_count desc, e.published_at desc, e.doc desc`,
      title: sql`${title}, e.doc`,
    }[sort];
    const offset = (query.page - 1) * query.pageSize;

    // The count and the facet counts: of the whole catalogue, or of the entries the query finds.
    let count: number;
    let facets: FacetCountRow[];
    // A filtered result sorted by relevance or date: its page chosen from the entries found, in memory.
    let chosen: number[] | null = null;
    if (scope.filtered || (inMemory && facetFilters.length)) {
      let docs: number[] | null = null;
      if (scope.filtered) {
        const found = await this.matching(scope, terms);
        await this.facetCache.reach(found);
        docs = found.docs;
      } else {
        await this.facetCache.reach(await this.facetCache.current());
      }
      if (inMemory && facetFilters.length) docs = this.facetCache.withFacets(docs, facetFilters);
      const result = docs ?? [];
      count = result.length;
      facets = this.facetCache.countsOf(result);
      if (inMemory) {
        chosen = sort === 'relevance' ? await this.relevantPage(result, terms, offset, query.pageSize) : this.facetCache.page(result, offset, query.pageSize);
      }
    } else {
      await this.facetCache.reach(await this.facetCache.current());
      count = this.facetCache.size;
      facets = this.facetCache.totalCounts();
    }
    const columns = sql`e.doc, e.metadata_id, e.title_zh, e.title_en, e.language, e.published_at, e.time_start, e.time_end,
      e.west, e.south, e.east, e.north, e.hit_count, e.download_count`;
    let rows: EntryRow[] = [];
    if (chosen) {
      if (chosen.length) {
        const read = (await sql<EntryRow>`select ${columns} from search_entries e where e.doc in (${sql.join(chosen)})`.execute(this.db)).rows;
        const byDoc = new Map(read.map((r) => [Number(r.doc), r]));
        rows = chosen.map((doc) => byDoc.get(doc)).filter((r): r is EntryRow => r !== undefined);
      }
    } else if (offset < count) {
      rows = (await sql<EntryRow>`select ${columns} from ${from} ${where} order by ${order} limit ${query.pageSize} offset ${offset}`.execute(this.db)).rows;
    }
    return {
      count,
      rows: rows.map((r) => ({ ...r, doc: Number(r.doc), hit_count: Number(r.hit_count), download_count: Number(r.download_count) })),
      facets,
    };
  }

  /**
   * What the result list shows beside the entry: abstracts, authors (the creators a citation names,
   * shared rules/creators.ts, in the record's author order), DOI and thumbnail of these records.
   */
  async details(ids: string[]) {
    if (!ids.length) return { records: [], translations: [], authors: [], thumbnails: [] };
    const [records, translations, authors, thumbnails] = await Promise.all([
      this.db.selectFrom('metadata').select(['id', 'language', 'description', 'doi']).where('id', 'in', ids).execute(),
      this.db.selectFrom('metadata_i18n').select(['metadata_id', 'language', 'description']).where('metadata_id', 'in', ids).execute(),
      this.db
        .selectFrom('meta_author')
        .innerJoin('authors', 'authors.id', 'meta_author.author_id')
        .leftJoin('author_i18n', 'author_i18n.author_id', 'authors.id')
        .select(['meta_author.metadata_id', 'meta_author.sort', 'authors.name', 'author_i18n.language as other_language', 'author_i18n.name as other_name'])
        .where('meta_author.metadata_id', 'in', ids)
        .where('meta_author.role', 'in', [...CREATOR_ROLES])
        .orderBy('meta_author.sort')
        .orderBy('meta_author.id')
        .execute(),
      this.db.selectFrom('meta_media').select(['id', 'metadata_id']).where('metadata_id', 'in', ids).where('type', '=', 'thumbnail').execute(),
    ]);
    return { records, translations, authors, thumbnails };
  }

  /** Published records by downloads, then views (spec section 1: the hot data list). */
  async hot(limit: number) {
    return this.db
      .selectFrom('search_entries')
      .select(['metadata_id', 'title_zh', 'title_en', 'hit_count', 'download_count', 'published_at'])
      .orderBy('download_count', 'desc')
      .orderBy('hit_count', 'desc')
      .orderBy('published_at', 'desc')
      .limit(limit)
      .execute();
  }

  async newest(limit: number) {
    return this.db
      .selectFrom('search_entries')
      .select(['metadata_id', 'title_zh', 'title_en', 'published_at'])
      .orderBy('published_at', 'desc')
      .orderBy('doc', 'desc')
      .limit(limit)
      .execute();
  }

  async mostViewed(limit: number) {
    return this.db
      .selectFrom('search_entries')
      .select(['metadata_id', 'title_zh', 'title_en', 'hit_count'])
      .where('hit_count', '>', 0)
      .orderBy('hit_count', 'desc')
      .orderBy('published_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Published datasets, their data files and the files' bytes. */
  async totals(): Promise<{ datasets: number; files: number; bytes: number }> {
    const [datasets, files] = await Promise.all([
      this.db
        .selectFrom('search_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
      this.db
        .selectFrom('meta_file')
        .innerJoin('search_entries', 'search_entries.metadata_id', 'meta_file.metadata_id')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('meta_file.size').as('bytes')])
        .executeTakeFirst(),
    ]);
    return { datasets: Number(datasets?.n ?? 0), files: Number(files?.n ?? 0), bytes: Number(files?.bytes ?? 0) };
  }

  /** Keyword labels beginning with what was typed. */
  async keywordLabels(prefix: string, limit: number) {
    const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<{ label_zh: string; label_en: string }>`select label_zh, label_en from search_facets
      where facet in ('theme', 'place', 'discipline') and (lower(label_zh) like ${like} escape '\\' or lower(label_en) like ${like} escape '\\')
      group by label_zh, label_en order by count(*) desc limit ${limit}`.execute(this.db);
  }
}
