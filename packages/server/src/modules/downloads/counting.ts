import type { FastifyRequest } from 'fastify';
import type { UsageService } from '../usage/index.js';

/** A GET of the whole file, or of a range from its first byte (a resumed download asks for a later one). */
export function startsDownload(request: FastifyRequest): boolean {
  const range = request.headers.range;
  return request.method === 'GET' && (!range || /^\s*bytes\s*=\s*0\s*-/i.test(range));
}

/**
 * Counts a data file's download for the record's statistics (after the access check passed). A
 * failure to count is logged and never stops the download.
 */
export async function countDownload(usage: UsageService, request: FastifyRequest, metadataId: string, fileId: string, order: string | null): Promise<void> {
  try {
    await usage.countDownloadOf(metadataId, fileId, { userId: request.user?.id, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }, order);
  } catch (error) {
    request.log.error({ err: error }, 'download not counted');
  }
}
