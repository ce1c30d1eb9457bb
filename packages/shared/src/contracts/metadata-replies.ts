import { z } from 'zod';
import { LANGUAGES } from '../domain/constants.js';
import { SUBMISSION_REASONS } from '../rules/submission.js';
import { metadataI18nFields, metadataUpdateSchema, type MetadataUpdate } from './metadata.js';
import { pageOf } from './page.js';

/**
 * Replies of the metadata calls (spec section 7): the record, the entities attached to it, the
 * stored files and the submission check. The server serializes every reply through these schemas,
 * which drop whatever key they do not name (zod's default), so a column leaves the server only when
 * it is listed here; the web infers its types from them.
 *
 * The entity schemas describe a row as stored, the way it is nested in another reply (`author_detail`,
 * `translations`); `resourceReply` gives the shape the generic `/api/metadata/<name>/` routes answer.
 */

const language = z.enum(LANGUAGES);
const nullableText = z.string().nullable();

/** Text fields, by name. */
const texts = <const K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, z.string()])) as { [P in K]: z.ZodString };

/** Shared entries and the other rows users create carry who created them and when. */
const created = { created_by: nullableText, created_at: z.string() };

type Aliases<S extends z.ZodRawShape> = { [K in keyof S as K extends `${infer Name}_id` ? Name : never]: S[K] };
type ResourceReplyShape<S extends z.ZodRawShape> = S & Aliases<S> & { copied_from: z.ZodOptional<z.ZodString> };

/**
 * A row as the generic resources answer it: `x` beside each `x_id` (the spec's field names), and
 * `copied_from` when a write to a shared entry went to the caller's own copy (it names the original).
 */
export function resourceReply<S extends z.ZodRawShape>(row: z.ZodObject<S>): z.ZodObject<ResourceReplyShape<S>> {
  const aliases = Object.fromEntries(
    Object.entries(row.shape)
      .filter(([key]) => key.endsWith('_id'))
      .map(([key, value]) => [key.slice(0, -3), value]),
  );
  return row.extend({ ...aliases, copied_from: z.string().optional() }) as unknown as z.ZodObject<ResourceReplyShape<S>>;
}

// ---- The record ----

/** The record's numeric fields: null when empty. Every other field PUT / PATCH take is text. */
const RECORD_NUMBERS = ['file_size', 'east', 'west', 'south', 'north', 'scale'] as const;
type RecordNumber = (typeof RECORD_NUMBERS)[number];
type RecordText = Exclude<keyof MetadataUpdate, RecordNumber>;
const recordTexts = Object.keys(metadataUpdateSchema.shape).filter((key) => !(RECORD_NUMBERS as readonly string[]).includes(key)) as RecordText[];

/** A record's version in its other language (metadata-i18n), as stored. */
export const metadataTranslationSchema = z.object({
  id: z.string(),
  metadata_id: z.string(),
  language,
  ...texts(Object.keys(metadataI18nFields) as (keyof typeof metadataI18nFields)[]),
});
export type MetadataTranslation = z.infer<typeof metadataTranslationSchema>;

/**
 * A record as GET /api/metadata/metadata/{id}/ answers it (and the list, create, update, duplication
 * calls): its own fields, owner, dates, fund ids and translations. The review's facts (leaders' step,
 * pre-review, round, unpublish reason) are not in it: the review state answers them to who may know.
 */
export const metadataRecordSchema = z.object({
  id: z.string(),
  ...texts(recordTexts),
  ...(Object.fromEntries(RECORD_NUMBERS.map((key) => [key, z.number().nullable()])) as { [K in RecordNumber]: z.ZodNullable<z.ZodNumber> }),
  owner_id: z.string(),
  /** The owner's id again, under the spec's name. */
  owner: z.string(),
  owner_name: z.string(),
  status: z.string(),
  language,
  hit_count: z.number(),
  /** In the reply of one published record: its downloads as the public catalogue counts them. */
  download_count: z.number().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  submitted_at: nullableText,
  published_at: nullableText,
  /** When the data files become available (published_at plus the protection period); null at once. */
  embargo_until: nullableText,
  fund: z.array(z.string()),
  /** In the reply of one record. */
  translations: z.array(metadataTranslationSchema).optional(),
  /** In lists: the title of the record's version in its other language (null when it has none). */
  translation_title: nullableText.optional(),
  /** In the personal centre's lists: the record's review label (`review.labels.<key>`), null when it has none. */
  review_label: nullableText.optional(),
});
export type MetadataRecord = z.infer<typeof metadataRecordSchema>;
export const metadataRecordPageSchema = pageOf(metadataRecordSchema);

// ---- Submission ----

/** GET /metadata/metadata-submit/, and the POST's 400: 'true', or 'false' with every reason in the caller's language. */
export const submitCheckSchema = z.object({
  status: z.enum(['true', 'false']),
  reasons: z.array(z.enum(SUBMISSION_REASONS)),
  msg: z.array(z.string()),
});
export type SubmitCheck = z.infer<typeof submitCheckSchema>;

/** POST /metadata/metadata-submit/ when the record was submitted. */
export const submitDoneSchema = submitCheckSchema.extend({ status: z.literal('true'), msg: z.string(), metadata: metadataRecordSchema });
export type SubmitDone = z.infer<typeof submitDoneSchema>;

/** POST /metadata/return-draft/. */
export const returnToDraftSchema = z.object({ status: z.literal('true'), msg: z.string(), metadata: metadataRecordSchema });
/** GET /metadata/metadata-is-null/. */
export const isEmptySchema = z.object({ is_null: z.boolean() });
/** POST /metadata/drop-empty-draft/. */
export const droppedSchema = z.object({ deleted: z.boolean() });
/** GET /metadata/projections/. */
export const projectionsSchema = z.object({ count: z.number(), results: z.array(z.string()) });

// ---- Attached entities, as stored (nested in other replies) ----

export const authorI18nSchema = z.object({ id: z.string(), author_id: z.string(), language, ...texts(['name', 'affiliation', 'address']) });
export type AuthorI18n = z.infer<typeof authorI18nSchema>;

export const authorSchema = z.object({
  id: z.string(),
  ...texts(['name', 'email', 'affiliation', 'phone', 'address', 'country', 'province', 'city', 'zipcode']),
  /** ORCID iD (`0000-0002-1825-0097`) and the affiliation's ROR ID (`03yrm5c26`), '' when not given. */
  ...texts(['orcid', 'affiliation_ror']),
  ...created,
  translations: z.array(authorI18nSchema),
});
export type Author = z.infer<typeof authorSchema>;

export const metaAuthorSchema = z.object({
  ...texts(['id', 'metadata_id', 'author_id', 'role', 'event_date']),
  sort: z.number(),
  author_detail: authorSchema.nullable(),
});
export type MetaAuthor = z.infer<typeof metaAuthorSchema>;

export const literatureI18nSchema = z.object({ id: z.string(), literature_id: z.string(), language, ...texts(['title', 'publisher', 'abstract']) });

export const literatureSchema = z.object({
  id: z.string(),
  ...texts(['title', 'title_en', 'type', 'year', 'publisher', 'link', 'doi', 'ris', 'abstract', 'comment', 'reference_type']),
  /** '' or a language. */
  language: z.string(),
  sort: z.number(),
  ...created,
  translations: z.array(literatureI18nSchema),
});
export type Literature = z.infer<typeof literatureSchema>;

export const citationSchema = z.object({
  ...texts(['id', 'metadata_id', 'literature_id']),
  sort: z.number(),
  literature_detail: literatureSchema.nullable(),
});
export type Citation = z.infer<typeof citationSchema>;

export const keywordI18nSchema = z.object({ id: z.string(), keyword_id: z.string(), language, name: z.string() });

export const keywordSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  language,
  ...created,
  translations: z.array(keywordI18nSchema),
});
export type Keyword = z.infer<typeof keywordSchema>;

export const metaKeywordSchema = z.object({ ...texts(['id', 'metadata_id', 'keyword_id']), keyword_detail: keywordSchema.nullable() });

export const keywordStandardSchema = z.object({ id: z.string(), parent_id: nullableText, ...texts(['code', 'name', 'name_en']), sort: z.number() });
export type KeywordStandard = z.infer<typeof keywordStandardSchema>;

export const metaKeywordStandardSchema = z.object({
  ...texts(['id', 'metadata_id', 'keyword_standard_id']),
  keyword_standard_detail: keywordStandardSchema.nullable(),
});
export type MetaKeywordStandard = z.infer<typeof metaKeywordStandardSchema>;

export const metaDisciplineSchema = metaKeywordStandardSchema.extend({
  number: z.number(),
  ...texts(['theme1', 'theme2', 'theme3', 'element1', 'element2', 'element3']),
});

export const fundSchema = z.object({
  id: z.string(),
  ...texts(['name', 'name_en', 'serial_number', 'principal', 'phone', 'email']),
  /** The funder's Crossref Funder ID (`10.13039/…`) or ROR ID, '' when not given. */
  funder_identifier: z.string(),
  /** A programme fund of the data centre's (spec section 9). */
  is_core: z.boolean(),
  ...created,
});
export type Fund = z.infer<typeof fundSchema>;

export const metaFundSchema = z.object({ ...texts(['id', 'metadata_id', 'fund_id']), fund_detail: fundSchema.nullable() });
export type MetaFund = z.infer<typeof metaFundSchema>;

export const projectSchema = z.object({ id: z.string(), ...texts(['name', 'name_en', 'abbreviation']), ...created });
export const programSchema = z.object({ id: z.string(), ...texts(['code', 'name', 'name_en']), ...created });
export const specialSchema = z.object({ id: z.string(), ...texts(['name', 'name_en', 'description']), ...created });
export const specialManagerSchema = z.object(texts(['id', 'special_id', 'user_id']));
export const metaSpecialSchema = z.object({ ...texts(['id', 'metadata_id', 'special_id']), special_detail: specialSchema.nullable() });
/** An affiliation of the shared list (affiliation/). */
export const affiliationEntrySchema = z.object({ id: z.string(), ...texts(['name', 'name_en', 'ror']), ...created });
export const onlineResourceSchema = z.object({ id: z.string(), metadata_id: z.string(), ...texts(['name', 'url', 'description']), ...created });

// ---- Stored files ----

/**
 * A data file (meta-file/, /metadata/upload-file/) or a specification document (meta-attach/,
 * /metadata/upload-attachment): where its bytes are stored is not part of it.
 */
export const storedFileSchema = z.object({
  ...texts(['id', 'metadata', 'name', 'mime', 'sha256', 'created_at']),
  size: z.number(),
});
export type StoredFile = z.infer<typeof storedFileSchema>;
/** A page of a record's data files or documents; `total_size` is the bytes of all of them, not of the page. */
export const storedFilePageSchema = pageOf(storedFileSchema).extend({ total_size: z.number() });

/** The record's thumbnail (meta-media/): the resized copy (longest side 400 px) and the image as uploaded. */
export const mediaSchema = storedFileSchema.extend({ type: z.string(), image: z.string(), original: z.string() });
export type Media = z.infer<typeof mediaSchema>;
export const mediaPageSchema = pageOf(mediaSchema);
