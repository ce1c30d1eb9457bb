import { AUTHOR_ROLES, type AuthorRole } from '../domain/metadata.js';

/**
 * Who a dataset's citation names (issue 16): the one rule behind every citation and export format
 * (GB/T 7714, APA, RIS, BibTeX, CSL-JSON, DataCite creators, ISO 19139 cited parties, schema.org and
 * DCAT creators, citation_author tags, the voucher) and the landing page's "Authors" list.
 *
 * A person linked to the record in one of CREATOR_ROLES is a creator: the party that made the data,
 * as DataCite's creator ("the main researchers involved in producing the data") and ISO 19115's
 * CI_RoleCode originator, principalInvestigator and owner read:
 * - resourceProvider: the data resource providers the editor asks for first (ISO originator);
 * - principalInvestigator: ISO principalInvestigator, "key party responsible for gathering
 *   information and conducting research" (DataCite ProjectLeader);
 * - producer: the party that produced the data (ISO originator);
 * - owner: the party that owns the data (ISO owner, DataCite RightsHolder).
 * Every other role looks after, hands out or describes data someone else made, and is a contributor:
 * manager (ISO custodian, DataCite DataManager), distributor, contactParty (pointOfContact,
 * ContactPerson), processor (DataCurator), publisher (the data centre publishes) and metadataAuthor
 * (the author of the metadata record, not of the data).
 *
 * Creators are cited in the record's author order (its links by sort number, then by link), each
 * person once, where their first link stands. A person with a creator role and other roles is a
 * creator; the formats that name roles (DataCite contributorType, ISO CI_RoleCode) give the other
 * roles too.
 *
 * A record with no one in a creator role (submission requires a data resource provider, so only a
 * record imported or kept from before that rule) is cited with the data centre, its publisher, as
 * the author, an organisation: never a contact or a metadata author passed off as one. Its people
 * stay contributors.
 */
export const CREATOR_ROLES = ['resourceProvider', 'principalInvestigator', 'producer', 'owner'] as const satisfies readonly AuthorRole[];

export const isCreatorRole = (role: string): boolean => (CREATOR_ROLES as readonly string[]).includes(role);

export const isAuthorRole = (role: string): role is AuthorRole => (AUTHOR_ROLES as readonly string[]).includes(role);

/** One person of a record with their roles on it, from their links. */
export interface Credit<L> {
  /** The person's first link in the record's order (it names them). */
  link: L;
  /** Their roles in the order of their links, each once. */
  roles: AuthorRole[];
}

export interface Credits<L> {
  /** Everyone linked, each once, in the record's author order. */
  people: Credit<L>[];
  /** Those with a creator role, in the record's author order: the cited authors. */
  creators: Credit<L>[];
  /** Those with no creator role, in the record's author order: the contributors. */
  contributors: Credit<L>[];
}

/**
 * The record's creators and contributors from its author links, given in the record's order
 * (sort, then link id). `personOf` says whose link it is; a role the portal does not know is left out.
 */
export function creditsOf<L>(links: readonly L[], personOf: (link: L) => string, roleOf: (link: L) => string): Credits<L> {
  const byPerson = new Map<string, Credit<L>>();
  for (const link of links) {
    const key = personOf(link);
    let credit = byPerson.get(key);
    if (!credit) {
      credit = { link, roles: [] };
      byPerson.set(key, credit);
    }
    const role = roleOf(link);
    if (isAuthorRole(role) && !credit.roles.includes(role)) credit.roles.push(role);
  }
  const people = [...byPerson.values()];
  const creator = (credit: Credit<L>) => credit.roles.some(isCreatorRole);
  return { people, creators: people.filter(creator), contributors: people.filter((credit) => !creator(credit)) };
}
