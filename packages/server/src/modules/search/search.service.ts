import {
  licenseLabelKey,
  SEARCH_FACETS,
  translate,
  type CatalogueStats,
  type FacetValue,
  type HotItem,
  type Language,
  type SearchFacet,
  type SearchHit,
  type SearchQuery,
  type SuggestReply,
} from '@portal/shared';
import { KeptJson } from '../../plugins/static-files.js';
import { catalogueChangesSoFar, indexChangesSoFar } from './catalogue-changes.js';
import type { SearchRepo } from './search.repo.js';
import { fold, parseQuery, snippetOf, highlightRanges } from './tokenize.js';

/** Labels of the facets whose values are the spec's option lists. */
const OPTION_LABELS: Partial<Record<SearchFacet, (value: string) => string>> = {
  license: licenseLabelKey,
  sharing: (v) => `metadata.options.sharingPolicy.${v}`,
  temporal_resolution: (v) => `metadata.options.temporalResolution.${v}`,
  language: (v) => `metadata.options.language.${v}`,
};

const titleIn = (language: Language, row: { title_zh: string; title_en: string }) => (language === 'en' ? row.title_en || row.title_zh : row.title_zh || row.title_en);

/**
 * A search asked again finds its reply here, as sent, while this process has not written the index
 * since, for at most as long as the reply's Cache-Control lets any browser or proxy keep it (so its
 * views and downloads, and another instance's index writes, reach it at most that late). Replies sorted by views or downloads are not kept: their
 * order is the counts'.
 */
const REPLY_TTL_MS = 30_000;
const REPLIES_KEPT = 500;
/** What browsers and proxies may do with a catalogue reply: keep it for as long as this process does. */
export const CATALOGUE_CACHE_CONTROL = `public, max-age=${REPLY_TTL_MS / 1000}`;

type SearchReplyData = { count: number; results: SearchHit[]; facets: Record<SearchFacet, FacetValue[]> };

export class SearchService {
  private readonly replies = new Map<string, { at: number; changes: number; reply: KeptJson }>();
  /** The home page's replies (hot list, counts) per language, as sent, with the change they follow. */
  private readonly lists = new Map<string, { at: number; changes: number; reply: KeptJson }>();

  constructor(private readonly repo: SearchRepo) {}

  /**
   * The reply to a search as sent: `render` writes it from the results; `key` names the request
   * (its language and address: the reply's page links are made from the address).
   */
  async searchReply(query: SearchQuery, language: Language, key: string, render: (data: SearchReplyData) => string): Promise<KeptJson> {
    if (query.sort === 'views' || query.sort === 'downloads') return new KeptJson(render(await this.search(query, language)), CATALOGUE_CACHE_CONTROL);
    const changes = indexChangesSoFar();
    const kept = this.keptReply(key);
    if (kept !== undefined) return kept;
    const reply = new KeptJson(render(await this.search(query, language)), CATALOGUE_CACHE_CONTROL);
    // An index write while it was read: the reply may predate it, so it is sent but not kept.
    if (indexChangesSoFar() === changes) this.replies.set(key, { at: Date.now(), changes, reply });
    if (this.replies.size > REPLIES_KEPT) this.replies.delete(this.replies.keys().next().value!);
    return reply;
  }

  /**
   * The reply kept for `key`, while this process has not written the index since it was made
   * (catalogue-changes.ts) and within REPLY_TTL_MS: no read at all.
   */
  keptReply(key: string): KeptJson | undefined {
    const kept = this.replies.get(key);
    if (!kept || kept.changes !== indexChangesSoFar() || Date.now() - kept.at >= REPLY_TTL_MS) return undefined;
    this.replies.delete(key);
    this.replies.set(key, kept);
    return kept.reply;
  }

  /** One page of results in `language`, with highlights and the facet counts of the whole result. */
  async search(query: SearchQuery, language: Language): Promise<SearchReplyData> {
    const parsed = parseQuery(query.q);
    // Words that make no token (only punctuation) find nothing rather than everything.
    if (query.q && !parsed.terms.length) return { count: 0, results: [], facets: emptyFacets() };
    const { count, rows, facets } = await this.repo.search(query, parsed.terms, language);
    const details = await this.repo.details(rows.map((r) => r.metadata_id));
    const results = rows.map((row): SearchHit => {
      const record = details.records.find((r) => r.id === row.metadata_id);
      const abstractIn = (l: string) =>
        record?.language === l ? record.description : (details.translations.find((t) => t.metadata_id === row.metadata_id && t.language === l)?.description ?? '');
      const other: Language = language === 'en' ? 'zh-hans' : 'en';
      const abstract = abstractIn(language) || abstractIn(other);
      const title = titleIn(language, row);
      const { snippet, ranges } = snippetOf(abstract, parsed.highlight);
      const names = details.authors
        .filter((a) => a.metadata_id === row.metadata_id)
        .map((a) => (language === 'en' && a.other_language === 'en' && a.other_name ? a.other_name : a.name));
      const thumbnail = details.thumbnails.find((t) => t.metadata_id === row.metadata_id);
      return {
        id: row.metadata_id,
        title,
        snippet,
        highlights: { title: highlightRanges(title, parsed.highlight), snippet: ranges },
        language: (record?.language ?? 'zh-hans') as Language,
        authors: [...new Set(names)].slice(0, 6),
        time_start: row.time_start,
        time_end: row.time_end,
        published_at: row.published_at,
        doi: record?.doi ?? '',
        thumbnail: thumbnail ? `/api/metadata/meta-media/${thumbnail.id}/image/` : null,
        west: row.west,
        south: row.south,
        east: row.east,
        north: row.north,
        hit_count: row.hit_count,
        download_count: row.download_count,
      };
    });
    const grouped = emptyFacets();
    for (const f of facets) {
      const facet = f.facet as SearchFacet;
      if (!grouped[facet]) continue;
      const labelKey = OPTION_LABELS[facet];
      const label = labelKey ? translate(language, labelKey(f.value)) : facet === 'year' ? f.value : language === 'en' ? f.label_en : f.label_zh;
      grouped[facet].push({ value: f.value, label, count: f.n });
    }
    for (const list of Object.values(grouped)) list.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
    grouped.year.sort((a, b) => b.value.localeCompare(a.value));
    return { count, results, facets: grouped };
  }

  /** Titles and keywords for the search box while typing. */
  async suggest(q: string, language: Language): Promise<SuggestReply> {
    const text = fold(q).trim();
    if (!text) return { results: [] };
    const [keywords, titles] = await Promise.all([this.repo.keywordLabels(text, 5), this.search({ ...emptyQuery(), q, pageSize: 5 }, language)]);
    const seen = new Set<string>();
    const results: SuggestReply['results'] = [];
    for (const k of keywords.rows) {
      const label = language === 'en' ? k.label_en : k.label_zh;
      if (!seen.has(label)) {
        seen.add(label);
        results.push({ text: label, kind: 'keyword', id: null });
      }
    }
    for (const hit of titles.results) results.push({ text: hit.title, kind: 'title', id: hit.id });
    return { results };
  }

  /**
   * A home-page reply as sent: kept while this process has changed nothing the lists show (index
   * writes, counted views and downloads) and for at most REPLY_TTL_MS, like the search's.
   */
  async listReply(key: string, render: () => Promise<string>): Promise<KeptJson> {
    const changes = catalogueChangesSoFar();
    const kept = this.lists.get(key);
    if (kept && kept.changes === changes && Date.now() - kept.at < REPLY_TTL_MS) return kept.reply;
    const reply = new KeptJson(await render(), CATALOGUE_CACHE_CONTROL);
    // A change while it was read: the reply may predate it, so it is sent but not kept.
    if (catalogueChangesSoFar() === changes) this.lists.set(key, { at: Date.now(), changes, reply });
    return reply;
  }

  async hot(language: Language, limit = 10): Promise<HotItem[]> {
    const rows = await this.repo.hot(limit);
    // The portal has no comments: comment_set is counted from nothing and is always 0.
    return rows.map((r) => ({
      id: r.metadata_id,
      title: titleIn(language, r),
      lineitem_set: Number(r.download_count),
      hit_count: Number(r.hit_count),
      comment_set: 0,
      published_at: r.published_at,
    }));
  }

  async stats(language: Language): Promise<CatalogueStats> {
    const [totals, newest, viewed] = await Promise.all([this.repo.totals(), this.repo.newest(5), this.repo.mostViewed(5)]);
    return {
      ...totals,
      newest: newest.map((r) => ({ id: r.metadata_id, title: titleIn(language, r), published_at: r.published_at })),
      most_viewed: viewed.map((r) => ({ id: r.metadata_id, title: titleIn(language, r), hit_count: Number(r.hit_count) })),
    };
  }
}

function emptyFacets(): Record<SearchFacet, FacetValue[]> {
  return Object.fromEntries(SEARCH_FACETS.map((f) => [f, [] as FacetValue[]])) as Record<SearchFacet, FacetValue[]>;
}

function emptyQuery(): SearchQuery {
  return {
    q: '',
    theme: [],
    discipline: [],
    place: [],
    program: [],
    fund: [],
    license: [],
    sharing: [],
    temporal_resolution: [],
    language: [],
    year: [],
    page: 1,
    pageSize: 10,
  };
}
