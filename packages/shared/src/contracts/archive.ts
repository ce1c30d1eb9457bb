import { z } from 'zod';

/**
 * Whole datasets (issue 19). An archive's state: `pending` (to be built), `building`, `ready` (its
 * size, SHA-256 and download address given), `failed` (tried again later), `too_large` (the record
 * holds more data than one archive may: its folders through the HTTP index or FTP instead).
 */
export const ARCHIVE_STATES = ['pending', 'building', 'ready', 'failed', 'too_large'] as const;
export type ArchiveState = (typeof ARCHIVE_STATES)[number];

/** GET /api/archive/archives/{id}/: a published record's whole-dataset archive. */
export const archiveSchema = z.object({
  metadata_id: z.string(),
  state: z.enum(ARCHIVE_STATES),
  /** The zip's bytes, once ready (its data files stored, not compressed, with two manifests). */
  size: z.number().nullable(),
  /** The zip's SHA-256 (hex), once ready; also its download's ETag. */
  sha256: z.string().nullable(),
  /** The record's data files and their bytes, as last compared with the archive. */
  file_count: z.number(),
  data_bytes: z.number(),
  built_at: z.string().nullable(),
  /** Range-capable (resumes with `curl -C -`, `wget -c`), once ready. */
  download_url: z.string().nullable(),
  /** The most bytes of data a record's archive holds (ARCHIVE_MAX_GB). */
  max_bytes: z.number(),
  /** Why it is not ready, in the caller's language (failed, too large). */
  detail: z.string().optional(),
});
export type Archive = z.infer<typeof archiveSchema>;

/** GET /api/account/order/{id}/index-link/: the signed HTTP index of an approved order's datasets, beside its links.txt. */
export const orderIndexLinkSchema = z.object({
  /** A folder listing (HTML) of the order's datasets, each a folder of its tree; every file a signed download. */
  url: z.string(),
  expires_at: z.string(),
  /** wget's --cut-dirs for this address: the folders of the address before the datasets' own. */
  cut_dirs: z.number(),
  /** The whole command that fetches every dataset's tree into the current folder. */
  wget: z.string(),
});
export type OrderIndexLink = z.infer<typeof orderIndexLinkSchema>;
