import { createHash } from 'node:crypto';
import type { CitableRecord } from '../exports/index.js';
import type { MetadataRow } from '../metadata/index.js';

/**
 * A published record's version. Decision: the workflow republishes a record under the same id and
 * DOI (published -> unpublish -> NotPublished -> publish; staff may change it while it is withdrawn, and
 * in place while published), so a version is a number of that one record, not a record of its own:
 * - the first publication is version 1;
 * - a republication (a new `published_at`) whose content differs from what was last published adds
 *   one; republished unchanged, it keeps its number;
 * - staff's changes to a published record in place are corrections of the version shown (as Zenodo's
 *   metadata edits): the number stays, DataCite is updated, and they count as published content.
 * Content is what the exports show (the CitableRecord without dates, counters, access right and
 * identifiers) and the data files' names and SHA-256, so a file replaced by another of the same size
 * is a change. Exports carry the number (DataCite `version`, schema.org `version`, DCAT `dcat:version`,
 * ISO 19139 `edition`); no IsNewVersionOf / IsPreviousVersionOf, since no version has an identifier
 * of its own.
 */

/** The record's published content as one hash. */
export function contentFingerprint(record: CitableRecord, files: readonly { name: string; sha256: string }[]): string {
  const {
    publishedAt: _publishedAt,
    updatedAt: _updatedAt,
    availableFrom: _availableFrom,
    accessRight: _accessRight,
    version: _version,
    doi: _doi,
    url: _url,
    catalogueUrl: _catalogueUrl,
    publisher: _publisher,
    files: _files,
    ...content
  } = record;
  const fileList = files.map((file) => `${file.sha256} ${file.name}`).sort();
  return createHash('sha256')
    .update(JSON.stringify({ content, files: fileList }))
    .digest('hex');
}

export interface VersionFacts {
  version_number: number;
  version_fingerprint: string;
  version_published_at: string | null;
}

/** The version facts of a published record whose content hashes to `fingerprint` now. */
export function versionOf(record: Pick<MetadataRow, 'published_at' | 'version_number' | 'version_fingerprint' | 'version_published_at'>, fingerprint: string): VersionFacts {
  const current = Number(record.version_number ?? 0);
  if (current < 1) return { version_number: 1, version_fingerprint: fingerprint, version_published_at: record.published_at };
  const republished = record.published_at !== record.version_published_at;
  // A version counted before its content was kept (migration 0013 gave records published before it 1) is not compared.
  const changed = republished && !!record.version_fingerprint && record.version_fingerprint !== fingerprint;
  return { version_number: changed ? current + 1 : current, version_fingerprint: fingerprint, version_published_at: record.published_at };
}
