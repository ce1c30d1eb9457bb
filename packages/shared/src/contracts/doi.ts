import { z } from 'zod';
import { pageOf } from './page.js';

/**
 * DOI registration with DataCite as staff read it (issue 17): `GET /api/metadata/doi-registrations/`,
 * `GET /api/metadata/metadata/{id}/doi-registration/` and its `retry/`.
 */

export const DOI_REGISTRATION_STATUSES = ['pending', 'done', 'failed'] as const;

/** One entry of DataCite's `errors[]`, as DataCite wrote it (English). */
export const dataciteProblemSchema = z.object({ status: z.string().optional(), source: z.string().optional(), title: z.string() });

export const doiRegistrationSchema = z.object({
  doi: z.string(),
  metadata_id: z.string(),
  /** The record's title in the caller's language (its translation's when it has one), else its own; null once the record is deleted. */
  title: z.string().nullable(),
  /** What DataCite should hold: findable (published) or registered (withdrawn). */
  wanted: z.enum(['findable', 'registered']),
  /** What DataCite last answered: '' never registered, findable, registered. */
  state: z.string(),
  status: z.enum(DOI_REGISTRATION_STATUSES),
  attempts: z.number(),
  /** The next try; null when done. */
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  registered_at: z.string().nullable(),
  /** The last failure's HTTP status; 0: no reply (or none failed). */
  last_status: z.number(),
  errors: z.array(dataciteProblemSchema),
  /** What went wrong in the caller's language; '' when the last try succeeded. */
  problem: z.string(),
});
export type DoiRegistration = z.infer<typeof doiRegistrationSchema>;

export const doiRegistrationPageSchema = pageOf(doiRegistrationSchema);

export const doiRegistrationFilters = {
  status: z.enum(DOI_REGISTRATION_STATUSES, { error: 'metadata.validation.option' }).optional(),
  /** `true`: only those whose last try failed and that are not done (waiting for the next try, or given up). */
  failing: z.enum(['true', 'false'], { error: 'metadata.validation.option' }).optional(),
};

/** A record's DOI facts and its registrations. */
export const recordDoiSchema = z.object({
  id: z.string(),
  doi: z.string(),
  doi_category: z.string(),
  /** The published version; 0 never published. */
  version_number: z.number(),
  /** The COAR access right last exported: open, embargoed, restricted, metadataOnly ('' before). */
  access_right: z.string(),
  /** Whether a DataCite account is configured (DATACITE_*). */
  configured: z.boolean(),
  registrations: z.array(doiRegistrationSchema),
});
export type RecordDoi = z.infer<typeof recordDoiSchema>;
