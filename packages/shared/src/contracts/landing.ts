import { z } from 'zod';
import { LANGUAGES } from '../domain/constants.js';

/**
 * The dataset landing page (issue 9, `/{lang}/data/{id}/`): what the public may read of a record
 * that was published and then unpublished (status NotPublished), for its tombstone. Decision: the
 * title in both languages, the DOI, when it was published and unpublished, and the reason the data
 * centre gave, which the review desk tells its writer is shown to the public, and its citation (which
 * names its authors: a withdrawn dataset must stay citable). Nothing else of the record (abstract,
 * files) stays public.
 */
export const tombstoneSchema = z.object({
  id: z.string(),
  language: z.enum(LANGUAGES),
  title: z.string(),
  /** The title in the record's other language ('' when it has none). */
  translation_title: z.string(),
  doi: z.string(),
  published_at: z.string().nullable(),
  unpublished_at: z.string().nullable(),
  reason: z.string(),
  /** How to cite it still, in the caller's language (GB/T 7714 in Chinese, APA in English). */
  citation: z.string(),
});
export type Tombstone = z.infer<typeof tombstoneSchema>;
