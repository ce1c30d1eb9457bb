import { ORDER_LIMITS } from './orders.js';

/**
 * What both sides check of a download (spec section 9): the browser fetches at most 50 files, 100 MB
 * together, at once (more goes by FTP); a record's files wait out its protection period. The server
 * refuses what breaks them; the web offers only what keeps them.
 */

/** What is wrong with a selection of files for one browser download, naming the `orders.*` message; undefined when nothing is. */
export function checkSelection(files: readonly { size: number }[]): 'noFiles' | 'tooManyFiles' | 'tooLarge' | undefined {
  if (!files.length) return 'noFiles';
  if (files.length > ORDER_LIMITS.downloadFilesMax) return 'tooManyFiles';
  if (files.reduce((sum, file) => sum + file.size, 0) > ORDER_LIMITS.browserDownloadMaxBytes) return 'tooLarge';
  return undefined;
}

/** Whether the protection period still runs on this day: the files are the creator's and staff's until then (nobody may order them). */
export function isEmbargoed(record: { embargo_until: string | null }, now = new Date()): boolean {
  return !!record.embargo_until && record.embargo_until > now.toISOString();
}
