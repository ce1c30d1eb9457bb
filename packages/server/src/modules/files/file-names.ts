import path from 'node:path';
import { FILE_NAME_MAX, stripIllegalText } from '@portal/shared';
import { fieldError } from '../../errors.js';
import type { BlobStore } from '../../storage/index.js';

/** C0 and C1 controls, and the bidirectional overrides that make 'gpj.exe' read as 'exe.jpg'. */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The type a client declared when it is a well-formed media type, else application/octet-stream. */
export function declaredMime(declared: string | undefined): string {
  const mime = (declared ?? '').toLowerCase();
  return MIME.test(mime) ? mime : 'application/octet-stream';
}

/** '200 MB': the limits are whole MiB. */
export function formatLimit(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/**
 * The name shown for an uploaded file: its last path segment, without control characters (nor lone
 * surrogates and U+FFFE/FFFF, which no XML or zip name may carry), trimmed.
 * It is only ever displayed and offered as a download name; the disk sees the random key.
 */
export function displayName(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  const name = stripIllegalText(base).normalize('NFC').replace(UNSAFE_CHARACTERS, '').trim();
  if (name === '' || name === '.' || name === '..' || [...name].length > FILE_NAME_MAX) {
    throw fieldError('file', 'metadata.files.badName');
  }
  return name;
}

export function extensionOf(name: string): string {
  return path.extname(name).slice(1).toLowerCase();
}

interface Log {
  warn(details: object, message: string): void;
}

/** Blob deletion never undoes a database change: a failure is logged and leaves an orphan blob. */
export async function deleteBlobs(storage: BlobStore, keys: string[], log?: Log): Promise<void> {
  const present = keys.filter((key) => key !== '');
  const results = await Promise.allSettled(present.map((key) => storage.delete(key)));
  results.forEach((result, index) => {
    if (result.status === 'rejected') log?.warn({ key: present[index], err: result.reason }, 'could not delete a stored file');
  });
}
