import { z } from 'zod';
import { LANGUAGES, SITE_VARIANTS } from '../domain/constants.js';
import { hasIllegalText } from '../rules/text.js';
import { normalizeFunderId, normalizeOrcid, normalizeRor } from '../rules/identifiers.js';
import {
  AUTHOR_ROLES,
  DOI_CATEGORIES,
  KEYWORD_TYPES,
  LICENSES,
  LITERATURE_TYPES,
  PROGRAM_CODES,
  PROJECTIONS,
  PROTECTION_PERIODS,
  SHARING_POLICIES,
  SUBMITTING_TYPES,
  TEMPORAL_RESOLUTIONS,
} from '../domain/metadata.js';

/**
 * Metadata payloads (spec sections 3, 5, 7). Messages are catalogue keys: the server translates
 * them into the caller's language and the editor's forms reuse the same schemas as rules.
 * Form posts carry everything as text, so numbers are coerced and '' means "empty".
 */

/** Lengths of text fields; the spec gives none, these keep a record printable and indexable. */
export const METADATA_TEXT_LIMITS = { short: 200, title: 500, long: 20_000, url: 2000 } as const;

// The server's text guard refuses such characters before validation; the forms show it at the field.
const text = (max: number) =>
  z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(max, 'metadata.validation.tooLong')
    .refine((v) => !hasIllegalText(v), 'validation.illegalText');
const shortText = text(METADATA_TEXT_LIMITS.short);
const required = (key: string, max: number = METADATA_TEXT_LIMITS.short) =>
  z
    .string({ error: key })
    .trim()
    .min(1, key)
    .max(max, 'metadata.validation.tooLong')
    .refine((v) => !hasIllegalText(v), 'validation.illegalText');
/** One of a list, or '' to clear it. */
const option = <T extends readonly [string, ...string[]]>(values: T) =>
  z.union([z.enum(values, { error: 'metadata.validation.option' }), z.literal('')], { error: 'metadata.validation.option' });
/** A number from a form or JSON; '' or null clears it. */
const optionalNumber = (schema: z.ZodNumber) =>
  z.preprocess((v) => (v === '' || v === null ? null : typeof v === 'string' ? Number(v) : v), z.union([schema, z.null()], { error: 'metadata.validation.number' }));
const isoDate = z
  .string()
  .trim()
  // Date.parse accepts days a month does not have (2021-02-30): the date must read back the same.
  .refine((v) => v === '' || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().slice(0, 10) === v), 'metadata.validation.date');
const optionalEmail = z
  .string()
  .trim()
  .max(254, 'validation.email.invalid')
  .refine((v) => v === '' || z.email().safeParse(v).success, 'validation.email.invalid');
const url = z
  .string()
  .trim()
  .max(METADATA_TEXT_LIMITS.url, 'metadata.validation.tooLong')
  .refine((v) => v === '' || /^(https?|ftp):\/\/[^\s]+$/i.test(v), 'metadata.validation.url');

/**
 * An identifier typed or pasted in any of its written forms (rules/identifiers.ts), stored in its one
 * form; '' clears it. The message says what the identifier looks like, in the caller's language.
 */
const identifier = (normalize: (value: string) => string | null, key: string) =>
  z
    .string({ error: key })
    .trim()
    .max(100, key)
    .refine((v) => v === '' || normalize(v) !== null, key)
    .transform((v) => (v === '' ? '' : normalize(v)!));
/** An author's ORCID iD, stored as `0000-0002-1825-0097`. */
export const orcidSchema = identifier(normalizeOrcid, 'identifiers.orcidInvalid');
/** An organisation's ROR ID, stored bare (`03yrm5c26`). */
export const rorSchema = identifier(normalizeRor, 'identifiers.rorInvalid');
/** A funder's Crossref Funder ID (`10.13039/…`) or ROR ID. */
export const funderIdSchema = identifier(normalizeFunderId, 'identifiers.funderInvalid');

export const languageSchema = z.enum(LANGUAGES, { error: 'metadata.validation.language' });

/** POST /api/metadata/metadata/: the language comes first (spec section 5). */
export const metadataCreateSchema = z.object({
  language: languageSchema,
  title: text(METADATA_TEXT_LIMITS.title).optional(),
});

const longitude = z.number().min(-180, 'metadata.validation.longitude').max(180, 'metadata.validation.longitude');
const latitude = z.number().min(-90, 'metadata.validation.latitude').max(90, 'metadata.validation.latitude');

/** PUT / PATCH /api/metadata/metadata/{id}/: any subset of the record's own fields. */
export const metadataUpdateSchema = z
  .object({
    title: text(METADATA_TEXT_LIMITS.title),
    article_name: text(METADATA_TEXT_LIMITS.title),
    article_publication: text(METADATA_TEXT_LIMITS.title),
    category: shortText,
    platform: option(SITE_VARIANTS),
    source_project: shortText,
    data_series: shortText,
    description: text(METADATA_TEXT_LIMITS.long),
    data_source: text(METADATA_TEXT_LIMITS.long),
    use_term: text(METADATA_TEXT_LIMITS.long),
    usage_method: text(METADATA_TEXT_LIMITS.long),
    citation: text(METADATA_TEXT_LIMITS.long),
    doi: shortText,
    doi_category: option(DOI_CATEGORIES),
    protection_period: option(PROTECTION_PERIODS),
    protection_description: text(METADATA_TEXT_LIMITS.long),
    time_start: isoDate,
    time_end: isoDate,
    time_description: text(METADATA_TEXT_LIMITS.long),
    coordinate_system: shortText,
    projection: option(PROJECTIONS),
    license: option(LICENSES),
    temporal_resolution: option(TEMPORAL_RESOLUTIONS),
    spatial_resolution: shortText,
    subtopic_three_pole: shortText,
    subtopic_third_pole: shortText,
    dist_unit: shortText,
    dist_country: shortText,
    dist_province: shortText,
    dist_city: shortText,
    dist_address: text(METADATA_TEXT_LIMITS.title),
    dist_phone: shortText,
    dist_email: optionalEmail,
    sharing_policy: option(SHARING_POLICIES),
    submitting_type: option(SUBMITTING_TYPES),
    file_size: optionalNumber(z.number().min(0, 'metadata.validation.fileSize').max(1e12, 'metadata.validation.fileSize')),
    east: optionalNumber(longitude),
    west: optionalNumber(longitude),
    south: optionalNumber(latitude),
    north: optionalNumber(latitude),
    // Not .int(): zod reports it as a wrong type, which the union answers with its 'number' message.
    scale: optionalNumber(z.number().multipleOf(1, 'metadata.validation.scale').min(1, 'metadata.validation.scale').max(1e12, 'metadata.validation.scale')),
  })
  .partial()
  .superRefine((value, ctx) => {
    if (value.time_start && value.time_end && value.time_start > value.time_end) {
      ctx.addIssue({ code: 'custom', path: ['time_end'], message: 'metadata.validation.timeOrder' });
    }
    if (typeof value.south === 'number' && typeof value.north === 'number' && value.south > value.north) {
      ctx.addIssue({ code: 'custom', path: ['north'], message: 'metadata.validation.latitudeOrder' });
    }
  });
export type MetadataUpdate = z.infer<typeof metadataUpdateSchema>;

/** metadata-i18n/: the record's text in another language. */
export const metadataI18nFields = {
  title: text(METADATA_TEXT_LIMITS.title),
  description: text(METADATA_TEXT_LIMITS.long),
  data_source: text(METADATA_TEXT_LIMITS.long),
  use_term: text(METADATA_TEXT_LIMITS.long),
  usage_method: text(METADATA_TEXT_LIMITS.long),
  citation: text(METADATA_TEXT_LIMITS.long),
  time_description: text(METADATA_TEXT_LIMITS.long),
  dist_unit: shortText,
  dist_address: text(METADATA_TEXT_LIMITS.title),
  dist_city: shortText,
  dist_province: shortText,
  dist_country: shortText,
};
export const metadataI18nCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  language: languageSchema,
  ...Object.fromEntries(Object.entries(metadataI18nFields).map(([k, v]) => [k, v.optional()])),
}) as z.ZodObject<
  {
    metadata: z.ZodString;
    language: typeof languageSchema;
  } & { [K in keyof typeof metadataI18nFields]: z.ZodOptional<(typeof metadataI18nFields)[K]> }
>;
export const metadataI18nUpdateSchema = z.object(metadataI18nFields).partial();

/** The author form of spec section 5, with its prompts. The English name and affiliation go to author-i18n. */
export const authorFields = {
  name: required('metadata.author.nameRequired'),
  email: required('metadata.author.emailRequired', 254).pipe(z.email('validation.email.invalid')),
  affiliation: required('metadata.author.affiliationRequired', METADATA_TEXT_LIMITS.title),
  phone: shortText.optional(),
  address: text(METADATA_TEXT_LIMITS.title).optional(),
  country: shortText.optional(),
  province: shortText.optional(),
  city: shortText.optional(),
  zipcode: shortText.optional(),
  orcid: orcidSchema.optional(),
  /** The ROR ID of the affiliation (the author's `affiliation`, in both languages). */
  affiliation_ror: rorSchema.optional(),
};
export const authorCreateSchema = z.object({
  ...authorFields,
  /** English translation, stored as the author's `en` author-i18n. */
  name_en: required('metadata.author.nameEnRequired'),
  affiliation_en: required('metadata.author.affiliationEnRequired', METADATA_TEXT_LIMITS.title),
});
/**
 * Writes to a shared entry (author, literature, keyword, fund) or its translations may name the
 * caller's draft the change is for: when the entry may not change in place (another's or a
 * non-draft record uses it), the caller's copy is linked from that draft only (without it, from
 * every draft of the caller's that uses the entry).
 */
const forRecord = { metadata: z.string().min(1).max(100).optional() };

export const authorUpdateSchema = z.object({ ...authorFields, ...forRecord }).partial();

export const authorI18nCreateSchema = z.object({
  author: z.string({ error: 'metadata.validation.author' }).min(1, 'metadata.validation.author'),
  language: languageSchema,
  name: required('metadata.author.nameEnRequired'),
  affiliation: text(METADATA_TEXT_LIMITS.title).optional(),
  address: text(METADATA_TEXT_LIMITS.title).optional(),
  ...forRecord,
});
export const authorI18nUpdateSchema = authorI18nCreateSchema.omit({ author: true, language: true }).partial();

const roleSchema = z.enum(AUTHOR_ROLES, { error: 'metadata.author.roleRequired' });
const eventDate = z.string({ error: 'metadata.author.eventDateRequired' }).trim().min(1, 'metadata.author.eventDateRequired').pipe(isoDate);
const sort = z.coerce
  .number({ error: 'metadata.validation.number' })
  .int('metadata.validation.number')
  .min(0, 'metadata.validation.number')
  .max(1_000_000, 'metadata.validation.number');

export const metaAuthorCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  author: z.string({ error: 'metadata.validation.author' }).min(1, 'metadata.validation.author'),
  role: roleSchema,
  event_date: eventDate,
  sort: sort.optional(),
});
export const metaAuthorUpdateSchema = z.object({ role: roleSchema, event_date: eventDate, sort }).partial();

export const literatureFields = {
  title: required('metadata.literature.titleRequired', METADATA_TEXT_LIMITS.title),
  title_en: text(METADATA_TEXT_LIMITS.title).optional(),
  type: z.enum(LITERATURE_TYPES, { error: 'metadata.literature.typeRequired' }),
  year: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{4}$/.test(v), 'metadata.literature.year')
    .optional(),
  publisher: text(METADATA_TEXT_LIMITS.title).optional(),
  link: url.optional(),
  language: option(LANGUAGES).optional(),
  doi: shortText.optional(),
  ris: text(METADATA_TEXT_LIMITS.long).optional(),
  abstract: text(METADATA_TEXT_LIMITS.long).optional(),
  comment: text(METADATA_TEXT_LIMITS.long).optional(),
  reference_type: shortText.optional(),
  sort: sort.optional(),
};
/** A literature entry; with `metadata` it is cited by that record at once. */
export const literatureCreateSchema = z.object({ ...literatureFields, metadata: z.string().min(1).optional() });
export const literatureUpdateSchema = z.object({ ...literatureFields, ...forRecord }).partial();

export const literatureI18nCreateSchema = z.object({
  literature: z.string({ error: 'metadata.validation.literature' }).min(1, 'metadata.validation.literature'),
  language: languageSchema,
  title: required('metadata.literature.titleRequired', METADATA_TEXT_LIMITS.title),
  publisher: text(METADATA_TEXT_LIMITS.title).optional(),
  abstract: text(METADATA_TEXT_LIMITS.long).optional(),
  ...forRecord,
});
export const literatureI18nUpdateSchema = literatureI18nCreateSchema.omit({ literature: true, language: true }).partial();

export const citationCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  literature: z.string({ error: 'metadata.validation.literature' }).min(1, 'metadata.validation.literature'),
  sort: sort.optional(),
});
export const citationUpdateSchema = z.object({ sort });

export const keywordTypeSchema = z.enum(KEYWORD_TYPES, { error: 'metadata.keyword.typeRequired' });
/** POST keyword/: with `metadata`, the new keyword is added to that record (the same name and type twice on one record is refused). */
export const keywordCreateSchema = z.object({
  name: required('metadata.keyword.required', 100),
  type: keywordTypeSchema,
  language: languageSchema.optional(),
  metadata: z.string().min(1).optional(),
  /** Its translation into the other language, required with a new keyword (spec section 5). */
  translation: required('metadata.keyword.translationRequired', 100),
});
/** meta-keyword/ (and /metadata/metadata-keyword/): an existing keyword added to a record. */
export const metaKeywordCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  keyword: z.string({ error: 'metadata.validation.keyword' }).min(1, 'metadata.validation.keyword'),
});
/** author_sort/: the record's author links in their new order. */
export const authorSortSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata').max(100, 'metadata.validation.metadata'),
  ids: z.array(z.string().min(1).max(100), { error: 'metadata.validation.author' }).min(1, 'metadata.validation.author').max(1000, 'metadata.validation.author'),
});
export const keywordUpdateSchema = z.object({ name: required('metadata.keyword.required', 100), type: keywordTypeSchema, ...forRecord }).partial();
export const keywordI18nCreateSchema = z.object({
  keyword: z.string({ error: 'metadata.validation.keyword' }).min(1, 'metadata.validation.keyword'),
  language: languageSchema,
  name: required('metadata.keyword.translationRequired', 100),
  ...forRecord,
});
export const keywordI18nUpdateSchema = z.object({ name: required('metadata.keyword.translationRequired', 100), ...forRecord });

export const keywordStandardCreateSchema = z.object({
  parent: z.string().min(1).nullable().optional(),
  code: shortText.optional(),
  name: required('metadata.keyword.required'),
  name_en: shortText.optional(),
  sort: sort.optional(),
});
export const metaKeywordStandardCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  keyword_standard: z.string({ error: 'metadata.validation.keywordStandard' }).min(1, 'metadata.validation.keywordStandard'),
});
export const metaDisciplineCreateSchema = metaKeywordStandardCreateSchema.extend({
  number: z.coerce.number().int().min(1, 'metadata.validation.level').max(3, 'metadata.validation.level').optional(),
  theme1: shortText.optional(),
  theme2: shortText.optional(),
  theme3: shortText.optional(),
  element1: shortText.optional(),
  element2: shortText.optional(),
  element3: shortText.optional(),
});

/** The funding form: Chinese and English names required. */
export const fundCreateSchema = z.object({
  name: required('metadata.fund.nameRequired'),
  name_en: required('metadata.fund.nameEnRequired'),
  serial_number: shortText.optional(),
  principal: shortText.optional(),
  phone: shortText.optional(),
  email: optionalEmail.optional(),
  funder_identifier: funderIdSchema.optional(),
  is_core: z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', ''])]).optional(),
  /** With `metadata`, the new fund is linked to that record at once. */
  metadata: z.string().min(1).optional(),
});
export const metaFundCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  fund: z.string({ error: 'metadata.validation.fund' }).min(1, 'metadata.validation.fund'),
});

/** The project form: Chinese name, English name and abbreviation required. */
export const projectCreateSchema = z.object({
  name: required('metadata.project.nameRequired'),
  name_en: required('metadata.project.nameEnRequired'),
  abbreviation: required('metadata.project.abbreviationRequired', 50),
});
export const programCreateSchema = z.object({
  code: z.enum(PROGRAM_CODES, { error: 'metadata.validation.option' }),
  name: required('metadata.project.nameRequired'),
  name_en: shortText.optional(),
});
export const specialCreateSchema = z.object({
  name: required('metadata.project.nameRequired'),
  name_en: shortText.optional(),
  description: text(METADATA_TEXT_LIMITS.long).optional(),
});
export const specialManageCreateSchema = z.object({
  special: z.string().min(1, 'metadata.validation.special'),
  user: z.string().min(1, 'metadata.validation.user'),
});
export const metaSpecialCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  special: z.string({ error: 'metadata.validation.special' }).min(1, 'metadata.validation.special'),
});
export const affiliationCreateSchema = z.object({
  name: required('validation.affiliation.required'),
  name_en: shortText.optional(),
  ror: rorSchema.optional(),
});
export const onlineResourceCreateSchema = z.object({
  metadata: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata'),
  name: required('metadata.onlineResource.nameRequired'),
  url: required('metadata.validation.url', METADATA_TEXT_LIMITS.url).pipe(url),
  description: text(METADATA_TEXT_LIMITS.long).optional(),
});
export const onlineResourceUpdateSchema = onlineResourceCreateSchema.omit({ metadata: true }).partial();

/** /api/metadata/applications/: records a user takes part in, by role. */
export const APPLICATION_USER_TYPES = ['owner', 'author', 'provider'] as const;
