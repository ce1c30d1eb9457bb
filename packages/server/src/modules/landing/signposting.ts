/**
 * FAIR Signposting (signposting.org/FAIR): typed links that tell a machine on a landing page what the
 * dataset's identifier is (`cite-as`), what it is (`type`), where its metadata (`describedby`) and its
 * files (`item`) are, its licence and its authors; a file links back to its landing page
 * (`collection`), an export to what it describes (`describes`). Written as an HTTP Link header
 * (RFC 8288) and as a linkset (RFC 9264) in JSON and in the Link header's own text form.
 */

export interface TypedLink {
  /** The link's context: the resource the link is from. */
  anchor: string;
  rel: string;
  href: string;
  /** The media type of the target. */
  type?: string;
  /** The profile of the target's media type (schema.org or DCAT for application/ld+json). */
  profile?: string;
}

/**
 * A URI as a URI-Reference of a Link header or an HTML attribute: what may not stand in a URI
 * (space, `<>"{}|\^` and backquote, controls, anything beyond ASCII) percent-encoded as UTF-8. A DOI
 * may hold `<` and `>` (10.1002/(SICI)...<475::AID-JBM8>3.0.CO;2-E), which would end the reference.
 */
export function uriReference(uri: string): string {
  return uri.replace(/[^\x21-\x7e]|[<>"{}|\\^`]/gu, (c) => encodeURIComponent(c));
}

const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** One link-value of RFC 8288; with `anchor` when it is not the resource that carries it. */
function linkValue(link: TypedLink, withAnchor: boolean): string {
  return [
    `<${uriReference(link.href)}>`,
    `rel=${quoted(link.rel)}`,
    ...(link.type ? [`type=${quoted(link.type)}`] : []),
    ...(link.profile ? [`profile=${quoted(link.profile)}`] : []),
    ...(withAnchor ? [`anchor=${quoted(uriReference(link.anchor))}`] : []),
  ].join(' ; ');
}

/** The Link header of the resource the links are from (their anchor, not written). */
export function linkHeader(links: readonly TypedLink[]): string {
  return links.map((link) => linkValue(link, false)).join(', ');
}

/** application/linkset (RFC 9264 section 4.1): the Link header's form, every link with its anchor, one a line. */
export function linksetText(links: readonly TypedLink[]): string {
  return `${links.map((link) => linkValue(link, true)).join(',\n')}\n`;
}

/**
 * application/linkset+json (RFC 9264 section 4.2): one context object per anchor, its targets by
 * relation type; `profile`, not one of RFC 8288's target attributes, is an extension attribute and so
 * an array of strings (section 4.2.4.3).
 */
export function linksetJson(links: readonly TypedLink[]): { linkset: Record<string, unknown>[] } {
  const contexts = new Map<string, Record<string, { href: string; type?: string; profile?: string[] }[]>>();
  for (const link of links) {
    const anchor = uriReference(link.anchor);
    const context = contexts.get(anchor) ?? {};
    contexts.set(anchor, context);
    (context[link.rel] ??= []).push({ href: uriReference(link.href), ...(link.type ? { type: link.type } : {}), ...(link.profile ? { profile: [link.profile] } : {}) });
  }
  return { linkset: [...contexts].map(([anchor, relations]) => ({ anchor, ...relations })) };
}
