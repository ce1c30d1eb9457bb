import { z } from 'zod';
import { AUTHOR_ROLES } from '../domain/metadata.js';
import { funderIdSchema, keywordTypeSchema, languageSchema, metadataI18nUpdateSchema, orcidSchema, rorSchema } from './metadata.js';

/**
 * The portal's own file of published records (`npm run portal -- export-records FILE`, read back by
 * `import-records`): a JSON array, one element per record, each as GET /api/metadata/metadata/{id}/
 * answers it (its own fields, `owner`, `fund` ids, `translations`) plus the shared entries linked to
 * it: `keywords`, `authors` (with the link's role, date and order) and `funds`. Written one record a
 * line. On import the record's own fields are checked by `metadataUpdateSchema`; what the importing
 * portal decides (owner, status, review facts, ids of the shared entries) is read from nowhere else.
 */
const name = (max: number) => z.string().trim().min(1).max(max);
const text = (max: number) => z.string().max(max).default('');

export const exportedKeywordSchema = z.object({
  name: name(100),
  type: keywordTypeSchema,
  language: languageSchema,
  /** Its name in the other language(s) (keyword-i18n). */
  translations: z.array(z.object({ language: languageSchema, name: name(100) })).default([]),
});

export const exportedAuthorSchema = z.object({
  name: name(200),
  email: text(254),
  affiliation: text(500),
  phone: text(200),
  address: text(500),
  country: text(200),
  province: text(200),
  city: text(200),
  zipcode: text(200),
  /** ORCID iD and the affiliation's ROR ID, checked and stored as the editor's (shared rules/identifiers.ts). */
  orcid: orcidSchema.default(''),
  affiliation_ror: rorSchema.default(''),
  /** The link to the record (meta-author). */
  role: z.enum(AUTHOR_ROLES),
  event_date: text(10),
  sort: z.number().int().min(0).default(0),
  translations: z.array(z.object({ language: languageSchema, name: name(200), affiliation: text(500), address: text(500) })).default([]),
});

export const exportedFundSchema = z.object({
  /** Kept only for the programme funds (`is_core`), which every portal has under the same ids. */
  id: z.string().max(100).default(''),
  name: name(200),
  name_en: text(200),
  serial_number: text(200),
  principal: text(200),
  phone: text(200),
  email: text(254),
  funder_identifier: funderIdSchema.default(''),
  is_core: z.union([z.boolean(), z.number()]).transform(Boolean).default(false),
});

/** One element of the file, less the record's own fields (those are checked by `metadataUpdateSchema`). */
export const exportedRecordSchema = z.object({
  /** The record's id where it came from: kept when the importing portal has no record with it. */
  id: z.string().max(100).optional(),
  language: languageSchema,
  published_at: z.string().max(40).nullable().optional(),
  embargo_until: z.string().max(40).nullable().optional(),
  translations: z.array(metadataI18nUpdateSchema.extend({ language: languageSchema })).default([]),
  keywords: z.array(exportedKeywordSchema).default([]),
  authors: z.array(exportedAuthorSchema).default([]),
  funds: z.array(exportedFundSchema).default([]),
});

export type ExportedKeyword = z.input<typeof exportedKeywordSchema>;
export type ExportedAuthor = z.input<typeof exportedAuthorSchema>;
export type ExportedFund = z.input<typeof exportedFundSchema>;
