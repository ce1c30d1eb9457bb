import { ORDER_LIMITS } from '@portal/shared';

/** What the browser may fetch at once (spec section 9): at most 50 files, 100 MB together; more goes by FTP. Names the `orders.*` message. */
export function checkSelection(files: { size: number }[]): 'noFiles' | 'tooManyFiles' | 'tooLarge' | undefined {
  if (!files.length) return 'noFiles';
  if (files.length > ORDER_LIMITS.downloadFilesMax) return 'tooManyFiles';
  if (files.reduce((sum, file) => sum + file.size, 0) > ORDER_LIMITS.browserDownloadMaxBytes) return 'tooLarge';
  return undefined;
}

/** Whether a basket line's dataset is still in its protection period (the server refuses to order it). */
export const isEmbargoed = (line: { embargo_until: string | null }, now = new Date()) => Boolean(line.embargo_until && line.embargo_until > now.toISOString());
