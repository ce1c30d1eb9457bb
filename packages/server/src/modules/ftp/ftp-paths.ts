import path from 'node:path';

/** A refusal the FTP server answers with its code and message (550: not done, 553: bad name). */
export class FtpRefusal extends Error {
  constructor(
    message: string,
    readonly code = 550,
  ) {
    super(message);
    this.name = 'FtpRefusal';
  }
}

/** C0 and C1 controls (NUL among them) and the bidirectional overrides: never in a name the FTP server takes. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\\]/;

/**
 * An FTP client's path as an absolute path within the account's root: relative paths from the
 * working folder, `..` stopping at the root (as a chroot does), `//` and `.` removed. Names with
 * control characters or backslashes are refused.
 */
export function virtualPath(cwd: string, requested = '.'): string {
  if (UNSAFE.test(requested)) throw new FtpRefusal('Bad file name', 553);
  const joined = requested.startsWith('/') ? requested : `${cwd}/${requested}`;
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The folder and the last name of a virtual path ('/' has no name). */
export function splitPath(virtual: string): { folder: string; name: string } {
  const at = virtual.lastIndexOf('/');
  return { folder: at <= 0 ? '/' : virtual.slice(0, at), name: virtual.slice(at + 1) };
}

/** A virtual path under a folder on the disk; the result never leaves `root`. */
export function diskPath(root: string, virtual: string): string {
  const resolved = path.resolve(root, `.${virtual}`);
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) throw new FtpRefusal('Permission denied', 550);
  return resolved;
}
