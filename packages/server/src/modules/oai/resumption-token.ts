import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * OAI-PMH resumption tokens that need no state on the server: the token carries the whole list
 * request (verb, format, set, the from / until bounds), the position after which the next page
 * starts (the last item's datestamp and id, or the last set's spec), how many items came before
 * (the cursor) and its expiry, signed with HMAC-SHA-256 under a key derived from the installation's
 * secret. Any instance that shares the secret continues any token; a changed byte or a passed
 * expiry makes it a badResumptionToken.
 *
 * Form: base64url(JSON) "." base64url(MAC of the first part).
 */

export interface TokenState {
  verb: 'ListIdentifiers' | 'ListRecords' | 'ListSets';
  metadataPrefix: string;
  set: string;
  /** Inclusive bounds `YYYY-MM-DDThh:mm:ssZ` ('' for none). */
  from: string;
  until: string;
  /** Where the next page starts: after [datestamp, id] (lists of items) or after [spec] (ListSets). */
  after: string[];
  /** Items returned before the next page. */
  cursor: number;
  /** Seconds since the epoch after which the token is refused. */
  expires: number;
}

/** Tokens stay valid this long: more than the day the issue asks for, so a slow harvest resumes the next day. */
export const TOKEN_LIFETIME_SECONDS = 48 * 60 * 60;

/** The tokens' key, derived from the installation's secret for this use only. */
export function tokenKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('three-poles-portal/oai-pmh/resumption-token/v1').digest();
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

export function signToken(key: Buffer, state: TokenState): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The token's state, or null when it is not one of ours, was changed, or has expired. */
export function readToken(key: Buffer, token: string, now: Date): TokenState | null {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length) return null;
  // Compared as text: decoding would ignore the last character's unused bits, so two spellings would pass.
  const given = Buffer.from(signature);
  const expected = Buffer.from(mac(key, body).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let state: TokenState;
  try {
    state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenState;
  } catch {
    return null;
  }
  if (typeof state?.expires !== 'number' || state.expires * 1000 < now.getTime()) return null;
  return state;
}
