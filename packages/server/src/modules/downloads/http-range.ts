/**
 * HTTP range requests (RFC 9110 section 14) for one stored file: what a `Range` and an `If-Range`
 * header ask of a representation of `size` bytes whose strong validator is `etag`.
 *
 * Decisions:
 * - Only GET has ranges; any other method (HEAD) is answered as if there were none.
 * - A `Range` that is not a valid `bytes` range set is ignored (200, the whole file), as the RFC says.
 * - Several ranges are answered with the whole file (200): multipart/byteranges is not worth its
 *   cost for data files, and clients that resume (curl -C -, wget -c, browsers) ask for one range.
 * - `If-Range` with our strong ETag, or with the exact `Last-Modified` date, lets the range through;
 *   a weak or different tag, or another date, turns the request into one for the whole file.
 */

export interface RangeTarget {
  size: number;
  /** A strong entity tag, quotes included: `"<sha256 hex>"`. */
  etag: string;
  /** The `Last-Modified` value, as sent (an IMF-fixdate). */
  lastModified: string;
}

export interface RangeRequest {
  method: string;
  range?: string;
  ifRange?: string;
}

export type RangeDecision =
  | { status: 200 }
  /** Bytes `start` to `end`, both included. */
  | { status: 206; start: number; end: number }
  /** No range of the set is within the file: answer with `Content-Range: bytes *\/size`. */
  | { status: 416 };

const WHOLE: RangeDecision = { status: 200 };

/** `first-last`, `first-` or `-suffix`, with optional whitespace around the commas of a set. */
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

export function decideRange(request: RangeRequest, target: RangeTarget): RangeDecision {
  if (request.method !== 'GET' || request.range === undefined) return WHOLE;
  const specs = parseByteRanges(request.range);
  if (!specs) return WHOLE;
  if (request.ifRange !== undefined && !ifRangeHolds(request.ifRange, target)) return WHOLE;
  const satisfiable = specs.map((spec) => resolve(spec, target.size)).filter((range) => range !== null);
  if (satisfiable.length === 0) return { status: 416 };
  if (specs.length > 1) return WHOLE;
  return { status: 206, ...satisfiable[0]! };
}

type RangeSpec = { first: number; last: number | null } | { suffix: number };

/** The range specs of a `bytes=` header, or null when the header is not one (and so is ignored). */
export function parseByteRanges(header: string): RangeSpec[] | null {
  const equals = header.indexOf('=');
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== 'bytes') return null;
  const specs: RangeSpec[] = [];
  for (const part of header.slice(equals + 1).split(',')) {
    const text = part.trim();
    // The RFC lets a list carry empty elements; a set needs at least one range.
    if (text === '') continue;
    const match = RANGE_SPEC.exec(text);
    if (!match) return null;
    if (match[3] !== undefined) {
      specs.push({ suffix: Number(match[3]) });
      continue;
    }
    const first = Number(match[1]);
    const last = match[2] === '' ? null : Number(match[2]);
    if (last !== null && last < first) return null;
    specs.push({ first, last });
  }
  return specs.length ? specs : null;
}

function resolve(spec: RangeSpec, size: number): { start: number; end: number } | null {
  if ('suffix' in spec) {
    if (spec.suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - spec.suffix), end: size - 1 };
  }
  if (spec.first >= size) return null;
  return { start: spec.first, end: spec.last === null ? size - 1 : Math.min(spec.last, size - 1) };
}

/** Strong comparison for a tag (a weak one never matches); an exact match for a date. */
function ifRangeHolds(value: string, target: RangeTarget): boolean {
  const text = value.trim();
  if (text.startsWith('W/')) return false;
  if (text.startsWith('"')) return text === target.etag;
  const date = Date.parse(text);
  return !Number.isNaN(date) && date === Date.parse(target.lastModified);
}
