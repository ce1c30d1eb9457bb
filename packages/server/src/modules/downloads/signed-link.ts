import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Download links that work from a command line (curl, wget, a browser without the portal's
 * cookie): the link names the order and the file and carries its expiry and an HMAC-SHA-256 of
 * the three under a key derived from the installation's secret. Nothing is stored: any instance
 * that shares the secret checks any link. The link proves only that the portal issued it for this
 * order and file until then; whether the order still allows the download is the caller's check.
 *
 * Query form: `order=<id>&file=<id>&expires=<seconds since the epoch>&signature=<base64url>`.
 */

export interface DownloadLink {
  orderId: string;
  fileId: string;
  expiresAt: Date;
}

export interface SignedLinkParams {
  order: string;
  file: string;
  expires: string;
  signature: string;
}

/** Why a link is refused: not one of ours in form, changed or made with another key, or too old. */
export type LinkRefusal = 'malformed' | 'forged' | 'expired';

export type LinkCheck = { ok: true; link: DownloadLink } | { ok: false; reason: LinkRefusal };

/** The links' key, derived from the installation's secret for this use only (the OAI tokens have their own). */
export function downloadLinkKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('three-poles-portal/downloads/signed-link/v1').digest();
}

/** JSON keeps the fields apart whatever characters the ids hold; the first names what is signed (a file, an order's index). */
const mac = (key: Buffer, ...fields: string[]) => createHmac('sha256', key).update(JSON.stringify(fields)).digest();
const fileMac = (key: Buffer, order: string, file: string, expires: string) => mac(key, 'download-link/v1', order, file, expires);

export function signDownloadLink(link: DownloadLink, key: Buffer): SignedLinkParams {
  const expires = String(Math.floor(link.expiresAt.getTime() / 1000));
  return { order: link.orderId, file: link.fileId, expires, signature: fileMac(key, link.orderId, link.fileId, expires).toString('base64url') };
}

/** The same as a query string, to append after `?`. */
export function downloadLinkQuery(link: DownloadLink, key: Buffer): string {
  return new URLSearchParams({ ...signDownloadLink(link, key) }).toString();
}

/**
 * Checks a link's query parameters (as Fastify parses them: a repeated parameter is a list, and is
 * refused). The signature is compared in constant time, before the expiry is read, so that a changed
 * expiry is 'forged', not 'expired'.
 */
export function verifyDownloadLink(params: { [Name in keyof SignedLinkParams]?: unknown }, key: Buffer, now = new Date()): LinkCheck {
  const { order, file, expires, signature } = params;
  if (typeof order !== 'string' || typeof file !== 'string') return { ok: false, reason: 'malformed' };
  const check = checkSignature(expires, signature, now, (at) => fileMac(key, order, file, at));
  return check.ok ? { ok: true, link: { orderId: order, fileId: file, expiresAt: check.expiresAt } } : check;
}

/** The signature checked in constant time, then the expiry (a changed expiry is 'forged', not 'expired'). */
function checkSignature(
  expires: unknown,
  signature: unknown,
  now: Date,
  expected: (expires: string) => Buffer,
): { ok: true; expiresAt: Date } | { ok: false; reason: LinkRefusal } {
  if (typeof expires !== 'string' || typeof signature !== 'string') return { ok: false, reason: 'malformed' };
  if (!/^\d{1,15}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return { ok: false, reason: 'malformed' };
  const wanted = expected(expires);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, reason: 'forged' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt };
}

/**
 * An order's HTTP index (issue 19): one signature for every folder and file of the order's datasets,
 * `/…/<order>/<expires>/<signature>/` followed by a path in them. Signed apart from file links (its
 * own first field), so neither kind of signature opens the other.
 */
export interface IndexLink {
  orderId: string;
  expiresAt: Date;
}

export type IndexLinkCheck = { ok: true; link: IndexLink } | { ok: false; reason: LinkRefusal };

const indexMac = (key: Buffer, order: string, expires: string) => mac(key, 'download-index/v1', order, expires);

export function signIndexLink(link: IndexLink, key: Buffer): { order: string; expires: string; signature: string } {
  const expires = String(Math.floor(link.expiresAt.getTime() / 1000));
  return { order: link.orderId, expires, signature: indexMac(key, link.orderId, expires).toString('base64url') };
}

export function verifyIndexLink(params: { order?: unknown; expires?: unknown; signature?: unknown }, key: Buffer, now = new Date()): IndexLinkCheck {
  const { order } = params;
  if (typeof order !== 'string') return { ok: false, reason: 'malformed' };
  const check = checkSignature(params.expires, params.signature, now, (at) => indexMac(key, order, at));
  return check.ok ? { ok: true, link: { orderId: order, expiresAt: check.expiresAt } } : check;
}
