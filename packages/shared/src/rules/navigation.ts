/**
 * Where to go after logging in (spec section 2): back to the referring page when it is a
 * metadata page of the personal centre, otherwise the site root. The return address only ever
 * points inside the site: anything absolute, protocol-relative or odd is dropped.
 */
export function safeReturnAddress(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2000) return undefined;
  // Only a hash route of the personal centre: `/metadata/...`, optionally with a query.
  if (!/^\/metadata\/[A-Za-z0-9/_\-?=&%.]*$/.test(next)) return undefined;
  if (next.includes('//') || next.includes('\\') || next.includes('..')) return undefined;
  return next;
}
