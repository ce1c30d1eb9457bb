import { isEmbargoed as embargoed } from '@portal/shared';
import type { MetadataRow } from '../metadata/index.js';

/**
 * A published record's access right as a term of the COAR Access Right vocabulary, which the OpenAIRE
 * guidelines for data archives ask for in DataCite `rights` (rightsURI the concept, the label as text)
 * and oai_dc `dc:rights`. From the one download rule (orders/download-access.ts):
 * - embargoed: the protection period still runs (with its end, the day the files open);
 * - open: the sharing policy is online (anyone with a free account downloads; the spec calls it
 *   "online open access") and the record has data files;
 * - restricted: the files are had by an application the provider or the data centre approves (the
 *   offline policies, or no policy given), whether or not the files are stored here;
 * - metadata only: an online record without a data file, so nothing to download.
 */
export const ACCESS_RIGHTS = {
  open: { uri: 'http://purl.org/coar/access_right/c_abf2', label: 'open access' },
  embargoed: { uri: 'http://purl.org/coar/access_right/c_f1cf', label: 'embargoed access' },
  restricted: { uri: 'http://purl.org/coar/access_right/c_16ec', label: 'restricted access' },
  metadataOnly: { uri: 'http://purl.org/coar/access_right/c_14cb', label: 'metadata only access' },
} as const;
export type AccessRightTerm = keyof typeof ACCESS_RIGHTS;

export interface AccessRight {
  term: AccessRightTerm;
  uri: string;
  label: string;
  /** The day the protection period ends (YYYY-MM-DD), for `embargoed` only. */
  embargoEnd: string | null;
}

export function accessRightOf(record: Pick<MetadataRow, 'embargo_until' | 'sharing_policy'>, dataFiles: number, now = new Date()): AccessRight {
  const term: AccessRightTerm = embargoed(record, now) ? 'embargoed' : record.sharing_policy === 'online' ? (dataFiles > 0 ? 'open' : 'metadataOnly') : 'restricted';
  return { term, ...ACCESS_RIGHTS[term], embargoEnd: term === 'embargoed' ? record.embargo_until!.slice(0, 10) : null };
}
