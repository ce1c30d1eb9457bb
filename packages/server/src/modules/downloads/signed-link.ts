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

/** JSON keeps the fields apart whatever characters the ids hold. */
const mac = (key: Buffer, order: string, file: string, expires: string) =>
  createHmac('sha256', key)
    .update(JSON.stringify(['download-link/v1', order, file, expires]))
    .digest();

export function signDownloadLink(link: DownloadLink, key: Buffer): SignedLinkParams {
  const expires = String(Math.floor(link.expiresAt.getTime() / 1000));
  return { order: link.orderId, file: link.fileId, expires, signature: mac(key, link.orderId, link.fileId, expires).toString('base64url') };
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
  if (typeof order !== 'string' || typeof file !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') {
    return { ok: false, reason: 'malformed' };
  }
  if (!/^\d{1,15}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return { ok: false, reason: 'malformed' };
  const expected = mac(key, order, file, expires);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, link: { orderId: order, fileId: file, expiresAt } };
}
