import { parseBBox, SEARCH_FACETS, SEARCH_QUERY_MAX, SEARCH_SORTS, SEARCH_VALUES_MAX, type BBox, type SearchFacet, type SearchSort } from '@portal/shared/domain/search';

/**
 * The search page's address holds the whole search, with the parameter names of the API's query
 * (`searchQuerySchema`): `q`, one parameter per facet (repeated for several values), `start`, `end`,
 * `bbox`, `sort`, `page`; and `map`, the map view shown (the page's own, never sent to the API).
 * Reading is lenient: a value the catalogue cannot take is dropped, so an edited or old link still
 * shows a search.
 */

export const MAP_VIEWS = ['global', 'arctic', 'antarctic'] as const;
export type MapView = (typeof MAP_VIEWS)[number];

export interface SearchState {
  q: string;
  filters: Record<SearchFacet, string[]>;
  /** Time covered: YYYY, YYYY-MM or YYYY-MM-DD, '' when open. */
  start: string;
  end: string;
  bbox: BBox | null;
  /** null: the server's order (relevance with words, newest without). */
  sort: SearchSort | null;
  page: number;
  map: MapView | null;
}

export const PAGE_SIZE = 10;
const MAX_PAGE = 10_000;
const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

export function emptyFilters(): Record<SearchFacet, string[]> {
  return Object.fromEntries(SEARCH_FACETS.map((facet) => [facet, []])) as unknown as Record<SearchFacet, string[]>;
}

export function emptySearch(): SearchState {
  return { q: '', filters: emptyFilters(), start: '', end: '', bbox: null, sort: null, page: 1, map: null };
}

/** `a&a` or `a,b`, as the API reads lists; blanks and repeats dropped. */
function listOf(params: URLSearchParams, name: string): string[] {
  const values = params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '' && v.length <= 200);
  return [...new Set(values)].slice(0, SEARCH_VALUES_MAX);
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null => ((values as readonly string[]).includes(value ?? '') ? (value as T) : null);

export function parseSearch(params: URLSearchParams): SearchState {
  const filters = emptyFilters();
  for (const facet of SEARCH_FACETS) filters[facet] = listOf(params, facet);
  filters.year = filters.year.filter((y) => /^\d{4}$/.test(y));
  const date = (name: string) => {
    const value = (params.get(name) ?? '').trim();
    return DATE.test(value) ? value : '';
  };
  let start = date('start');
  let end = date('end');
  if (start && end && start > end) [start, end] = [end, start];
  const page = Number(params.get('page') ?? '1');
  return {
    q: (params.get('q') ?? '').trim().slice(0, SEARCH_QUERY_MAX),
    filters,
    start,
    end,
    bbox: parseBBox(params.get('bbox') ?? ''),
    sort: oneOf(SEARCH_SORTS, params.get('sort')),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
    map: oneOf(MAP_VIEWS, params.get('map')),
  };
}

/** Degrees to at most 4 decimals (about 10 m): short addresses, no float noise. */
const degrees = (value: number) => String(Math.round(value * 1e4) / 1e4);
export const formatBBox = (box: BBox) => [box.west, box.south, box.east, box.north].map(degrees).join(',');

/** The API's parameters of a search (no `map`, no defaults). */
export function apiParams(state: SearchState): [string, string][] {
  const pairs: [string, string][] = [];
  if (state.q) pairs.push(['q', state.q]);
  for (const facet of SEARCH_FACETS) for (const value of state.filters[facet]) pairs.push([facet, value]);
  if (state.start) pairs.push(['start', state.start]);
  if (state.end) pairs.push(['end', state.end]);
  if (state.bbox) pairs.push(['bbox', formatBBox(state.bbox)]);
  if (state.sort) pairs.push(['sort', state.sort]);
  if (state.page > 1) pairs.push(['page', String(state.page)]);
  return pairs;
}

/** The page's address query: the API's parameters, then the map view. */
export function serializeSearch(state: SearchState): URLSearchParams {
  const params = new URLSearchParams(apiParams(state));
  if (state.map) params.set('map', state.map);
  return params;
}

/** How many filters narrow the search (facet values, the time range, the box). */
export function countFilters(state: SearchState): number {
  return SEARCH_FACETS.reduce((n, facet) => n + state.filters[facet].length, 0) + (state.start || state.end ? 1 : 0) + (state.bbox ? 1 : 0);
}

/** The same search with one facet value added or removed, from its first page. */
export function toggleFilter(state: SearchState, facet: SearchFacet, value: string): SearchState {
  const values = state.filters[facet];
  const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value].slice(0, SEARCH_VALUES_MAX);
  return { ...state, filters: { ...state.filters, [facet]: next }, page: 1 };
}

/** A search narrowed to nothing but its words: every filter removed, the view kept. */
export function withoutFilters(state: SearchState): SearchState {
  return { ...state, filters: emptyFilters(), start: '', end: '', bbox: null, page: 1 };
}

/** Pages shown around the current one; the first and last are always shown. */
const AROUND = 2;

/** Page numbers to offer, with null where some are left out. */
export function pageWindow(page: number, last: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - page) <= AROUND) pages.push(p);
    else if (pages.at(-1) !== null) pages.push(null);
  }
  return pages;
}
