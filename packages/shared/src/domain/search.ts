/**
 * The public catalogue's names and limits (issue "Find data"), without zod: the contract
 * (`contracts/search.ts`) validates with them and the search page reads and writes its address
 * with them, so that the page does not load the schema library for a list of names.
 */

/** Facets the reply counts, in the order the page shows them. */
export const SEARCH_FACETS = ['theme', 'discipline', 'place', 'program', 'fund', 'license', 'sharing', 'temporal_resolution', 'language', 'year'] as const;
export type SearchFacet = (typeof SEARCH_FACETS)[number];

export const SEARCH_SORTS = ['relevance', 'newest', 'downloads', 'views', 'title'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Longest free text a search takes; longer queries are refused, not cut. */
export const SEARCH_QUERY_MAX = 200;
/** Values a facet lists at most (the most frequent first). */
export const FACET_VALUES_MAX = 20;
export const SEARCH_PAGE_SIZE_MAX = 100;
/** Values of one filter a query may name at most. */
export const SEARCH_VALUES_MAX = 20;

/**
 * `bbox=west,south,east,north` in degrees. West greater than east means the box crosses the 180th
 * meridian; a box from -180 to 180 up to latitude 90 (or down to -90) holds a pole.
 */
export type BBox = { west: number; south: number; east: number; north: number };

/** The box `bbox=` names, or null when it is not four numbers in range with south not above north. */
export function parseBBox(value: string): BBox | null {
  const parts = value.split(',').map((p) => (p.trim() === '' ? NaN : Number(p.trim())));
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [west, south, east, north] = parts as [number, number, number, number];
  if ([west, east].some((x) => x < -180 || x > 180) || [south, north].some((y) => y < -90 || y > 90) || south > north) return null;
  return { west, south, east, north };
}
