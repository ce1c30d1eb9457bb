import type { Db } from '../../db/index.js';

/**
 * The OAI-PMH feed's reads: a page of items is one range read of an index in (datestamp, id) order
 * (`oai_items_datestamp`, `oai_items_doi_datestamp`, or `oai_item_sets_datestamp` for a set), from
 * the position after the last item of the page before (keyset), never an offset.
 */

export interface OaiItem {
  metadata_id: string;
  datestamp: string;
  deleted: number;
  has_doi: number;
}

export interface ItemQuery {
  /** Inclusive bounds, `YYYY-MM-DDThh:mm:ssZ`; '' for none. */
  from: string;
  until: string;
  set: string;
  /** Only items with a DOI (oai_datacite). */
  doiOnly: boolean;
}

/** The last item of the page before: its datestamp and id. */
export type Position = [datestamp: string, id: string];

export class OaiRepo {
  constructor(private readonly db: Db) {}

  private items(query: ItemQuery) {
    // With a set, the set's own (spec, datestamp, id) index carries the order and the range.
    let select = query.set
      ? this.db.selectFrom('oai_item_sets as s').innerJoin('oai_items as i', 'i.metadata_id', 's.metadata_id').where('s.spec', '=', query.set)
      : this.db.selectFrom('oai_items as i');
    const datestamp = query.set ? ('s.datestamp' as const) : ('i.datestamp' as const);
    if (query.from) select = select.where(datestamp, '>=', query.from);
    if (query.until) select = select.where(datestamp, '<=', query.until);
    if (query.doiOnly) select = select.where('i.has_doi', '=', 1);
    return { select, datestamp, id: query.set ? ('s.metadata_id' as const) : ('i.metadata_id' as const) };
  }

  /** Up to `limit` items after `after`, in (datestamp, id) order. */
  async page(query: ItemQuery, after: Position | null, limit: number): Promise<OaiItem[]> {
    const { select, datestamp, id } = this.items(query);
    let page = select.select(['i.metadata_id', 'i.datestamp', 'i.deleted', 'i.has_doi']);
    if (after) page = page.where((eb) => eb.or([eb(datestamp, '>', after[0]), eb.and([eb(datestamp, '=', after[0]), eb(id, '>', after[1])])]));
    const rows = await page.orderBy(datestamp).orderBy(id).limit(limit).execute();
    return rows.map((r) => ({ ...r, deleted: Number(r.deleted), has_doi: Number(r.has_doi) }));
  }

  async count(query: ItemQuery): Promise<number> {
    const { select } = this.items(query);
    const row = await select.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async item(id: string): Promise<OaiItem | undefined> {
    const row = await this.db.selectFrom('oai_items').selectAll().where('metadata_id', '=', id).executeTakeFirst();
    return row && { ...row, deleted: Number(row.deleted), has_doi: Number(row.has_doi) };
  }

  /** The sets of these items, by item. */
  async setsOf(ids: readonly string[]): Promise<Map<string, string[]>> {
    const sets = new Map<string, string[]>();
    if (!ids.length) return sets;
    const rows = await this.db.selectFrom('oai_item_sets').select(['metadata_id', 'spec']).where('metadata_id', 'in', ids).orderBy('spec').execute();
    for (const row of rows) sets.set(row.metadata_id, [...(sets.get(row.metadata_id) ?? []), row.spec]);
    return sets;
  }

  /** The rows of the published records among these ids. */
  publishedRecords(ids: readonly string[]) {
    return this.db.selectFrom('metadata').selectAll().where('id', 'in', ids).where('status', '=', 'published').execute();
  }

  async earliestDatestamp(): Promise<string | null> {
    const row = await this.db
      .selectFrom('oai_items')
      .select((eb) => eb.fn.min('datestamp').as('earliest'))
      .executeTakeFirst();
    return (row?.earliest as string | null | undefined) ?? null;
  }

  /** Sets that hold at least one item, after `after` in spec order. */
  private liveSets() {
    return this.db
      .selectFrom('oai_sets')
      .where(({ exists, selectFrom }) => exists(selectFrom('oai_item_sets').select('oai_item_sets.spec').whereRef('oai_item_sets.spec', '=', 'oai_sets.spec')));
  }

  async sets(after: string, limit: number): Promise<{ spec: string; name_zh: string; name_en: string }[]> {
    let select = this.liveSets().select(['spec', 'name_zh', 'name_en']);
    if (after) select = select.where('spec', '>', after);
    return select.orderBy('spec').limit(limit).execute();
  }

  async setCount(): Promise<number> {
    const row = await this.liveSets()
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async setExists(spec: string): Promise<boolean> {
    return !!(await this.db.selectFrom('oai_item_sets').select('spec').where('spec', '=', spec).limit(1).executeTakeFirst());
  }
}
