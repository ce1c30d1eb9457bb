import { metadataUpdateSchema, translate, type Language, type MetadataUpdate } from '@portal/shared';
import { exportedAuthorSchema, exportedFundSchema, exportedKeywordSchema, exportedRecordSchema } from '@portal/shared/contracts/records-file';
import type { z } from 'zod';

/** The records of a file to import, each checked before anything is written. */

/** The import cannot start (the file cannot be read, the owner is not an operator): nothing is written. */
export class ImportRefusal extends Error {}

/** One record of a file, by its position (1 = the first): its raw fields, or why it is left out. */
export type Candidate = { position: number } & ({ value: unknown } | { skipped: string } | { error: string });

/** A record ready to be written: checked by the same rules as the editor's fields. */
export interface ImportedRecord {
  position: number;
  /** The id it had in the portal it was exported from; null from DataCite. */
  id: string | null;
  language: Language;
  fields: MetadataUpdate & { title: string };
  publishedAt: string;
  embargoUntil: string | null;
  /** Its versions in the other language (metadata-i18n), at most one per language. */
  translations: z.output<typeof exportedRecordSchema>['translations'][number][];
  keywords: z.output<typeof exportedKeywordSchema>[];
  authors: z.output<typeof exportedAuthorSchema>[];
  funds: z.output<typeof exportedFundSchema>[];
}

/** The first problem of a zod result, in English, with where it is. */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.join('.');
  const message = /^[\w]+(\.[\w]+)+$/.test(issue.message) ? translate('en', issue.message) : issue.message;
  return where ? `${where}: ${message}` : message;
}

/** ISO time of a date or date-time text; null when it is none. */
function isoTimeOf(value: string): string | null {
  const time = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** The record a candidate makes, or why it cannot be imported. */
export function checkCandidate(position: number, value: unknown, now: string): ImportedRecord | { error: string } {
  const envelope = exportedRecordSchema.safeParse(value);
  if (!envelope.success) return { error: reasonOf(envelope.error) };
  const fields = metadataUpdateSchema.safeParse(value);
  if (!fields.success) return { error: reasonOf(fields.error) };
  const title = fields.data.title?.trim();
  if (!title) return { error: 'title: a record needs a title' };
  const { id, language, published_at, embargo_until, translations, keywords, authors, funds } = envelope.data;
  const publishedAt = published_at ? isoTimeOf(published_at) : now;
  if (!publishedAt) return { error: `published_at: "${published_at}" is not a date` };
  const embargoUntil = embargo_until ? isoTimeOf(embargo_until) : null;
  if (embargo_until && !embargoUntil) return { error: `embargo_until: "${embargo_until}" is not a date` };
  const others = translations.filter((t, i) => t.language !== language && translations.findIndex((u) => u.language === t.language) === i);
  return {
    position,
    id: id || null,
    language,
    fields: { ...fields.data, title },
    publishedAt,
    // An embargo that ended before publication is none.
    embargoUntil: embargoUntil && embargoUntil > publishedAt ? embargoUntil : null,
    translations: others,
    keywords,
    authors,
    funds,
  };
}
