import { tokenHeader, type TestPortal } from './helpers.js';
import { multipart, type Part } from './metadata-builders.js';

/** Uploads one data file (`/metadata/upload-file/`) or document (`/metadata/upload-attachment`) to a record. */
export async function upload(
  portal: TestPortal,
  token: string,
  url: '/metadata/upload-file/' | '/metadata/upload-attachment',
  metadata: string,
  file: Part,
  headers: Record<string, string> = {},
) {
  const body = await multipart([
    ['metadata', metadata],
    ['file', file],
  ]);
  return portal.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...tokenHeader(token), ...headers } });
}
