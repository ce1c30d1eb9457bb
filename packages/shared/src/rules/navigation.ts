/**
 * First segments of the personal centre's hash routes (spec section 2: personal, metadata, data
 * area, review, analysis). The account screens (`/login`, `/register` ...) are not among them.
 */
const PERSONAL_SECTIONS = ['personal', 'metadata', 'data', 'review', 'invited', 'analyze', 'apply-list', 'application', 'offline'];

/** Pages of the public site that ask for a login; they are returned to with a full page load. */
export const SITE_RETURN_PAGES = ['/admin/', '/admin/review'] as const;

/**
 * Where to go after logging in: back to the page the visitor asked for when it is a page of the
 * personal centre (its dashboard `/` included) or a site page of SITE_RETURN_PAGES, otherwise the
 * site root. Spec section 2 names metadata pages only; issue 6 asks for every page that sent the
 * visitor to the login screen. The return address only ever points inside the site: anything
 * absolute, protocol-relative or odd is dropped.
 */
export function safeReturnAddress(next: string | null | undefined): string | undefined {
  if (!next || next.length > 2000) return undefined;
  if ((SITE_RETURN_PAGES as readonly string[]).includes(next)) return next;
  // Only a hash route of the personal centre, optionally with a query.
  if (!/^\/[A-Za-z0-9/_\-?=&%.]*$/.test(next)) return undefined;
  if (next.includes('//') || next.includes('\\') || next.includes('..')) return undefined;
  if (next !== '/' && !PERSONAL_SECTIONS.includes(next.split(/[/?]/)[1] ?? '')) return undefined;
  return next;
}

/** Whether a return address is a site page (a full page load) rather than a personal-centre route. */
export const isSiteReturnPage = (next: string) => (SITE_RETURN_PAGES as readonly string[]).includes(next);
