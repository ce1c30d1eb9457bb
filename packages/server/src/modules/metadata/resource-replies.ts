import type { AuthenticatedUser } from '../account/index.js';
import { isCreatorOrStaff } from './record-policy.js';
import type { ResourceDef } from './resource-def.js';
import { TRANSLATIONS, type ResourceTable, type ResourcesRepo, type Row } from './resources.repo.js';

/** Link tables whose rows show the linked entity in full (`author_detail`, `literature_detail`). */
const DETAILS: Partial<Record<ResourceTable, { column: string; table: ResourceTable; as: string }>> = {
  meta_author: { column: 'author_id', table: 'authors', as: 'author_detail' },
  citations: { column: 'literature_id', table: 'literature', as: 'literature_detail' },
  meta_keyword: { column: 'keyword_id', table: 'keywords', as: 'keyword_detail' },
  meta_fund: { column: 'fund_id', table: 'funds', as: 'fund_detail' },
  meta_keyword_standard: { column: 'keyword_standard_id', table: 'keyword_standards', as: 'keyword_standard_detail' },
  meta_discipline: { column: 'keyword_standard_id', table: 'keyword_standards', as: 'keyword_standard_detail' },
  meta_special: { column: 'special_id', table: 'specials', as: 'special_detail' },
};

/**
 * How to reach a fund named in a record: for its creator and staff. Everyone else who reads a
 * record's attached rows (anyone, once it is published; its reviewers) sees the fund's names,
 * never these (they are blank in the reply). Authors have their own rule (`contactableAuthors`).
 */
const FUND_CONTACTS = ['phone', 'email'] as const;

/** An author's personal data: blank in a reply to whoever may not read it (`contactableAuthors`). */
const AUTHOR_CONTACTS = ['email', 'phone', 'address', 'zipcode'] as const;
/** The same in an author's translations. */
export const AUTHOR_TRANSLATED_CONTACTS = ['address'] as const;

export function blank(row: Row, fields: readonly string[]): Row {
  for (const field of fields) if (field in row) row[field] = '';
  return row;
}

/** An author row (or a copy of one) without its personal data, its translations included. */
export function withoutAuthorContacts(author: Row): Row {
  blank(author, AUTHOR_CONTACTS);
  if (Array.isArray(author.translations)) for (const version of author.translations as Row[]) blank(version, AUTHOR_TRANSLATED_CONTACTS);
  return author;
}

/** A stored row's numbers as numbers (bigint is text on PostgreSQL) and its 0 / 1 flags as booleans. */
function typed(row: Row): Row {
  const shown: Row = { ...row };
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && (key === 'size' || key === 'sort' || key === 'number') && /^\d+$/.test(value)) shown[key] = Number(value);
  }
  if ('is_core' in row) shown.is_core = Number(row.is_core) === 1;
  return shown;
}

/** The attached entities' rows as the API shows them, and as the caller may read them. */
export class ResourceReplies {
  constructor(private readonly repo: ResourcesRepo) {}

  /**
   * Who may read how to reach an author (e-mail, phone, address, postcode): staff; whoever created the
   * author row (they typed them in); and the owner of records linking it while no other owner's record
   * does (an author the data centre entered for them). An author found through like_author on someone
   * else's record and linked to one's own draft shows its name, affiliation and roles, not these:
   * linking is no way to collect people's addresses. Nobody signed out reads them.
   */
  async contactableAuthors(user: AuthenticatedUser | null, ids: readonly string[], repo: ResourcesRepo = this.repo): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (!user || unique.length === 0) return new Set();
    if (user.is_staff) return new Set(unique);
    const creators = await repo.rowsWhere('authors', 'id', unique);
    const contactable = new Set(creators.filter((row) => row.created_by === user.id).map((row) => String(row.id)));
    const others = unique.filter((id) => !contactable.has(id));
    if (!others.length) return contactable;
    const links = await repo.authorLinkOwners(others);
    const owners = new Map<string, Set<string>>();
    for (const link of links) owners.set(link.author_id, (owners.get(link.author_id) ?? new Set()).add(link.owner_id));
    for (const [authorId, ownerIds] of owners) if (ownerIds.size === 1 && ownerIds.has(user.id)) contactable.add(authorId);
    return contactable;
  }

  /**
   * Rows as the caller may read them: authors' personal data (author rows, their translations, a
   * link's `author_detail`) by `contactableAuthors`; a fund's contacts for its record's owner and
   * staff (`record`: the record a list or row belongs to; a signed-in user's own lists otherwise).
   */
  async asCallerMaySee(def: ResourceDef, user: AuthenticatedUser | null, rows: Row[], record?: { owner_id: string }): Promise<Row[]> {
    const mayContactFunds = !!user && (!record || isCreatorOrStaff(user, record));
    const authors: { id: string; row: Row; fields: readonly string[] }[] = [];
    for (const row of rows) {
      const fund = row.fund_detail as Row | null | undefined;
      if (fund && !mayContactFunds) blank(fund, FUND_CONTACTS);
      const author = row.author_detail as Row | null | undefined;
      if (author) authors.push({ id: String(author.id), row: author, fields: AUTHOR_CONTACTS });
      if (def.table === 'authors') authors.push({ id: String(row.id), row, fields: AUTHOR_CONTACTS });
      if (def.table === 'author_i18n') authors.push({ id: String(row.author_id), row, fields: AUTHOR_TRANSLATED_CONTACTS });
    }
    if (!authors.length) return rows;
    const contactable = await this.contactableAuthors(
      user,
      authors.map((author) => author.id),
    );
    for (const author of authors) {
      if (contactable.has(author.id)) continue;
      if (author.fields === AUTHOR_CONTACTS) withoutAuthorContacts(author.row);
      else blank(author.row, author.fields);
    }
    return rows;
  }

  /**
   * Rows as the API shows them: `x` beside each `x_id`, numbers as numbers, the linked entity (its
   * columns as numbers and flags too) and translations. The routes serialize them through the
   * resource's reply schema, which keeps only the fields it names.
   */
  async present(def: ResourceDef, rows: Row[]): Promise<Row[]> {
    const out = rows.map((row) => {
      const shown = typed(row);
      for (const [key, value] of Object.entries(row)) if (key.endsWith('_id') && key !== 'id') shown[key.slice(0, -3)] = value;
      return shown;
    });
    const translations = TRANSLATIONS[def.table];
    if (translations) await this.attachTranslations(out, translations);
    const detail = DETAILS[def.table];
    if (detail && out.length) {
      const ids = [...new Set(out.map((row) => row[detail.column] as string))];
      const linked = (await this.repo.rowsWhere(detail.table, 'id', ids)).map(typed);
      const linkedTranslations = TRANSLATIONS[detail.table];
      if (linkedTranslations) await this.attachTranslations(linked, linkedTranslations);
      const byId = new Map(linked.map((row) => [row.id, row]));
      for (const row of out) row[detail.as] = byId.get(row[detail.column]) ?? null;
    }
    return out;
  }

  private async attachTranslations(rows: Row[], translations: { table: ResourceTable; column: string }) {
    if (!rows.length) return;
    const found = await this.repo.rowsWhere(
      translations.table,
      translations.column,
      rows.map((row) => row.id),
      ['language'],
    );
    const byParent = new Map<unknown, Row[]>();
    for (const translation of found) byParent.set(translation[translations.column], [...(byParent.get(translation[translations.column]) ?? []), translation]);
    for (const row of rows) row.translations = byParent.get(row.id) ?? [];
  }
}
