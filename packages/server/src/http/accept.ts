/**
 * Content negotiation by the Accept header (RFC 9110 section 12.5.1), with the media types'
 * parameters kept: `application/ld+json; profile="https://schema.org"` and
 * `text/x-bibliography; style=apa; locale=en-US` name more than a type.
 */

export interface MediaRange {
  /** Lower case; `*` for a wildcard. */
  type: string;
  subtype: string;
  /** The media type's parameters (before `q`), names lower case, values unquoted. */
  params: Record<string, string>;
  q: number;
}

/** One representation a resource offers: its media type and the parameters that tell it apart from another of the same type. */
export interface Variant<T> {
  type: string;
  params?: Record<string, string>;
  value: T;
}

/** Splits at `separator` outside quoted strings. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\' && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** The media ranges of an Accept header, in their order; malformed ones are left out, as RFC 9110 lets a server do. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of splitOutsideQuotes(header, ',')) {
    const [range, ...parameters] = splitOutsideQuotes(element, ';').map((part) => part.trim());
    if (!range) continue;
    const [type, subtype, ...rest] = range.toLowerCase().split('/');
    if (!type || !subtype || rest.length || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    const params: Record<string, string> = {};
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      if (!parameter) continue;
      const at = parameter.indexOf('=');
      if (at <= 0) {
        valid = false;
        break;
      }
      const name = parameter.slice(0, at).trim().toLowerCase();
      const value = unquote(parameter.slice(at + 1).trim());
      if (name === 'q') {
        // The weight ends the media type's parameters; what follows is accept-ext, ignored.
        q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : NaN;
        if (Number.isNaN(q)) valid = false;
        break;
      }
      params[name] = value;
    }
    if (valid) ranges.push({ type, subtype, params, q });
  }
  return ranges;
}

/**
 * Which of a range's parameters take part in matching, and as what: the value to compare with the
 * variant's parameter of that name, or undefined to leave the parameter out of matching (`q` is never
 * passed). By default every parameter is left out.
 */
export type ParameterMatch = (name: string, value: string) => string | undefined;

/**
 * How well a range matches a variant: -1 not at all; else more for a more specific range (RFC 9110:
 * the most specific range that matches decides the variant's weight). The range's parameters that
 * take part in matching must all be the variant's.
 */
function specificity(range: MediaRange, variant: Variant<unknown>, match: ParameterMatch): number {
  const [type, subtype] = variant.type.split('/') as [string, string];
  if (range.type === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  if (range.subtype !== subtype) return -1;
  const own = variant.params ?? {};
  let matched = 0;
  for (const [name, value] of Object.entries(range.params)) {
    const compared = match(name, value);
    if (compared === undefined) continue;
    if (own[name] !== compared) return -1;
    matched++;
  }
  return 2 + matched;
}

export interface Acceptable<T> {
  variant: Variant<T>;
  q: number;
  /** The parameters of the range that accepted it, as sent (a variant whose parameters choose how it is made reads them). */
  params: Record<string, string>;
}

/**
 * The variants the header accepts (weight above 0), best first: by weight, then by how specific the
 * range that accepted it is, then in the server's order of `variants`. No header accepts everything.
 */
export function acceptableVariants<T>(header: string | undefined, variants: readonly Variant<T>[], match: ParameterMatch = () => undefined): Acceptable<T>[] {
  const ranges = header?.trim() ? parseAccept(header) : [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const chosen: (Acceptable<T> & { specificity: number; order: number })[] = [];
  variants.forEach((variant, order) => {
    let best: { range: MediaRange; specificity: number } | undefined;
    for (const range of ranges) {
      const score = specificity(range, variant, match);
      if (score >= 0 && (!best || score > best.specificity)) best = { range, specificity: score };
    }
    if (best && best.range.q > 0) chosen.push({ variant, q: best.range.q, params: best.range.params, specificity: best.specificity, order });
  });
  chosen.sort((a, b) => b.q - a.q || b.specificity - a.specificity || a.order - b.order);
  return chosen.map(({ variant, q, params }) => ({ variant, q, params }));
}
