/**
 * Identifiers of people, organisations and funders, one rule for the server and the editor's forms.
 * Each `normalize…` takes what a person types or a DataCite record holds (the bare id or its
 * address) and gives the form the portal stores, or null when it is no such identifier:
 * - ORCID iD: 16 characters, four groups of four joined by hyphens (`0000-0002-1825-0097`), the
 *   last the check character of ISO 7064 MOD 11-2 over the first 15 digits (`X` for 10), as ORCID
 *   documents it ("Structure of the ORCID Identifier"). Stored as ORCID's API writes its path,
 *   without `https://orcid.org/`.
 * - ROR ID: 9 characters, `0`, six of Crockford's base 32 (digits and lower-case letters without
 *   i, l, o, u) and two decimal digits checking them: 98 - (100 * n mod 97), n the number the six
 *   characters write (ROR's `generate_ror_id`, after DataCite's base32-url). Stored bare, lower case.
 * - Funder: a Crossref Funder ID (the DOI `10.13039/<digits>`, stored so) or a ROR ID (stored bare,
 *   as above): DataCite's funderIdentifierType "Crossref Funder ID" and "ROR".
 */

export const ORCID_URL = 'https://orcid.org/';
export const ROR_URL = 'https://ror.org/';
export const CROSSREF_FUNDER_PREFIX = '10.13039/';

/** The ISO 7064 MOD 11-2 check character of a string of digits. */
export function mod11_2(digits: string): string {
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/** An ORCID iD as `0000-0002-1825-0097`, from that, from its 16 characters without hyphens or from its address; null if it is none. */
export function normalizeOrcid(input: string): string | null {
  const bare = input
    .trim()
    .replace(/^(https?:\/\/)?(www\.)?(sandbox\.)?orcid\.org\//i, '')
    .replace(/\/$/, '');
  const match = /^(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dXx])$/.exec(bare);
  if (!match) return null;
  const id = match.slice(1).join('').toUpperCase();
  if (mod11_2(id.slice(0, 15)) !== id[15]) return null;
  return `${id.slice(0, 4)}-${id.slice(4, 8)}-${id.slice(8, 12)}-${id.slice(12)}`;
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** The two check digits of a ROR ID's six base-32 characters. */
export function rorChecksum(characters: string): string {
  let number = 0;
  for (const character of characters) number = number * 32 + CROCKFORD.indexOf(character);
  return String(98 - ((number * 100) % 97)).padStart(2, '0');
}

/** A ROR ID as `03yrm5c26`, from that or its address (`https://ror.org/03yrm5c26`); null if it is none. */
export function normalizeRor(input: string): string | null {
  const bare = input
    .trim()
    .replace(/^(https?:\/\/)?(www\.)?ror\.org\//i, '')
    .replace(/\/$/, '')
    .toLowerCase();
  const match = /^0([0-9a-hjkmnp-tv-z]{6})(\d{2})$/.exec(bare);
  if (!match || rorChecksum(match[1]!) !== match[2]) return null;
  return bare;
}

/** A Crossref Funder ID as `10.13039/501100001809`, from that, `doi:…` or its DOI address; null if it is none. */
export function normalizeCrossrefFunderId(input: string): string | null {
  const bare = input
    .trim()
    .replace(/^(https?:\/\/)?(dx\.)?doi\.org\/|^doi:\s*/i, '')
    .replace(/\/$/, '');
  const match = /^10\.13039\/(\d{5,15})$/.exec(bare);
  return match ? `${CROSSREF_FUNDER_PREFIX}${match[1]}` : null;
}

/** A funder identifier as stored: a Crossref Funder ID, else a ROR ID; null if it is neither. */
export function normalizeFunderId(input: string): string | null {
  return normalizeCrossrefFunderId(input) ?? normalizeRor(input);
}

export type FunderIdentifierType = 'Crossref Funder ID' | 'ROR';

/** A stored funder identifier as DataCite and schema.org give it: its type and its address. */
export function funderIdentifierOf(stored: string): { type: FunderIdentifierType; url: string } | null {
  if (!stored) return null;
  if (stored.startsWith(CROSSREF_FUNDER_PREFIX)) return { type: 'Crossref Funder ID', url: `https://doi.org/${stored}` };
  return { type: 'ROR', url: `${ROR_URL}${stored}` };
}
