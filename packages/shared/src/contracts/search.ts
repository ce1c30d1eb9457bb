import { z } from 'zod';
import { LANGUAGES } from '../domain/constants.js';
import { LICENSES, PROGRAM_CODES, SHARING_POLICIES, TEMPORAL_RESOLUTIONS } from '../domain/metadata.js';
import { parseBBox, SEARCH_PAGE_SIZE_MAX, SEARCH_QUERY_MAX, SEARCH_SORTS, SEARCH_VALUES_MAX, SEARCH_FACETS } from '../domain/search.js';

export * from '../domain/search.js';

/**
 * The public catalogue (issue "Find data"): GET /api/metadata/search/, GET /api/metadata/hot/ and
 * the home page's counts. The server validates the query and serializes its replies through these
 * schemas; the web reads and writes the same parameters in the page's address, so a search is a
 * link. Messages are catalogue keys.
 */

/** `a` or `a,b` or repeated `a&a`: a list of values; empty items are dropped. */
const list = <T extends z.ZodType<string>>(item: T) =>
  z.preprocess(
    (v) =>
      v === undefined
        ? []
        : (Array.isArray(v) ? v : [v])
            .flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]))
            .map((s) => (typeof s === 'string' ? s.trim() : s))
            .filter((s) => s !== ''),
    z.array(item).max(SEARCH_VALUES_MAX, 'search.validation.tooManyValues'),
  );
const freeValue = z.string().max(200, 'search.validation.value');
const isoDate = z
  .string()
  .trim()
  .refine((v) => /^\d{4}(-\d{2}(-\d{2})?)?$/.test(v), 'search.validation.date');

/** `bbox=west,south,east,north` in degrees (see `BBox`). */
export const bboxSchema = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const box = parseBBox(v);
    if (!box) {
      ctx.addIssue({ code: 'custom', message: 'search.validation.bbox' });
      return z.NEVER;
    }
    return box;
  });

export const searchQuerySchema = z
  .object({
    q: z.string().trim().max(SEARCH_QUERY_MAX, 'search.validation.query').default(''),
    theme: list(freeValue),
    discipline: list(freeValue),
    place: list(freeValue),
    program: list(z.enum(PROGRAM_CODES, { error: 'search.validation.value' })),
    fund: list(freeValue),
    license: list(z.enum(LICENSES, { error: 'search.validation.value' })),
    sharing: list(z.enum(SHARING_POLICIES, { error: 'search.validation.value' })),
    temporal_resolution: list(z.enum(TEMPORAL_RESOLUTIONS, { error: 'search.validation.value' })),
    language: list(z.enum(LANGUAGES, { error: 'search.validation.value' })),
    year: list(z.string().regex(/^\d{4}$/, 'search.validation.value')),
    /** Records whose temporal coverage overlaps [start, end]; either end may be left open. */
    start: isoDate.optional(),
    end: isoDate.optional(),
    bbox: bboxSchema.optional(),
    sort: z.enum(SEARCH_SORTS, { error: 'search.validation.sort' }).optional(),
    page: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').max(10_000, 'validation.invalid').default(1),
    pageSize: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').max(SEARCH_PAGE_SIZE_MAX, 'validation.invalid').default(10),
  })
  .superRefine((value, ctx) => {
    if (value.start && value.end && value.start > value.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'search.validation.timeOrder' });
  });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** `[start, end)` character offsets of matched words in a text the reply carries. */
const ranges = z.array(z.tuple([z.number().int(), z.number().int()]));

export const searchHitSchema = z.object({
  id: z.string(),
  /** Title and abstract line in the language asked for (the record's other version when it has none in it). */
  title: z.string(),
  snippet: z.string(),
  highlights: z.object({ title: ranges, snippet: ranges }),
  language: z.enum(LANGUAGES),
  authors: z.array(z.string()),
  time_start: z.string(),
  time_end: z.string(),
  published_at: z.string().nullable(),
  doi: z.string(),
  /** The thumbnail's address, or null. */
  thumbnail: z.string().nullable(),
  west: z.number().nullable(),
  south: z.number().nullable(),
  east: z.number().nullable(),
  north: z.number().nullable(),
  hit_count: z.number(),
  download_count: z.number(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const facetValueSchema = z.object({ value: z.string(), label: z.string(), count: z.number() });
export type FacetValue = z.infer<typeof facetValueSchema>;

export const searchReplySchema = z.object({
  count: z.number(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(searchHitSchema),
  facets: z.record(z.enum(SEARCH_FACETS), z.array(facetValueSchema)),
});
export type SearchReply = z.infer<typeof searchReplySchema>;

/** GET /api/metadata/search/suggest/?q=: titles and keywords that start with what was typed. */
export const suggestReplySchema = z.object({ results: z.array(z.object({ text: z.string(), kind: z.enum(['title', 'keyword']), id: z.string().nullable() })) });
export type SuggestReply = z.infer<typeof suggestReplySchema>;

/**
 * GET /api/metadata/hot/ (spec sections 1 and 7): published records by downloads, then views.
 * `lineitem_set` and `comment_set` are counts (the spec's client shows their lengths; we send the
 * numbers it shows).
 */
export const hotItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  lineitem_set: z.number(),
  hit_count: z.number(),
  comment_set: z.number(),
  published_at: z.string().nullable(),
});
export const hotReplySchema = z.object({ results: z.array(hotItemSchema) });
export type HotItem = z.infer<typeof hotItemSchema>;

/** GET /api/metadata/catalogue-stats/ (ours): the home page's counts, all from the database. */
export const catalogueStatsSchema = z.object({
  datasets: z.number(),
  files: z.number(),
  bytes: z.number(),
  /** The newest publications, newest first (title in the language asked for). */
  newest: z.array(z.object({ id: z.string(), title: z.string(), published_at: z.string().nullable() })),
  /** The most viewed, most first. */
  most_viewed: z.array(z.object({ id: z.string(), title: z.string(), hit_count: z.number() })),
});
export type CatalogueStats = z.infer<typeof catalogueStatsSchema>;
