import { PROGRAM_CODES } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { readAttached, type AttachedRows } from '../metadata/index.js';
import type { RecordChangeListener } from '../metadata/index.js';

/**
 * Keeps the OAI-PMH feed's items in step with the records, in the transaction that changed them (a
 * `MetadataAccess.onChange` listener, like the search index). The only SQL that writes `oai_items`,
 * `oai_item_sets` and `oai_sets`.
 *
 * - A published record among the changed ids gets the datestamp now (UTC seconds), `deleted` 0, and
 *   its sets anew. The listeners are told of every change of what the exports show: the record, its
 *   translations, its attached rows and the shared entries it uses (resources.service.ts names every
 *   record that shows a changed entry), publication, unpublication and deletion.
 * - A record that has an item and is no longer published (unpublished, returned to another state,
 *   about to be deleted) becomes a deleted item with the datestamp now, once; its sets stay those of
 *   its last publication. Records never published get no item: drafts and records in review never
 *   appear in the feed.
 */

export interface OaiSet {
  spec: string;
  name: { zh: string; en: string };
}

/** The top sets and their names. */
export const TOP_SETS: Record<'program' | 'fund' | 'theme', OaiSet['name']> = {
  program: { zh: '科研计划', en: 'Research programmes' },
  fund: { zh: '数据中心资助项目', en: "Data centre's funding projects" },
  theme: { zh: '主题', en: 'Themes' },
};

/** An OAI-PMH datestamp: UTC to the second. */
export const datestampOf = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;

/**
 * A setSpec part for any text: OAI-PMH allows `[A-Za-z0-9\-_.!~*'()]`, which is what
 * encodeURIComponent leaves alone; whitespace becomes `-`, `~` is the escape (`~7E` itself) and every
 * other byte is `~XX`. Lower-cased first, as the search facets key keywords.
 */
export function setSpecPart(text: string): string {
  return encodeURIComponent(text.trim().toLowerCase().replace(/\s+/g, '-')).replace(/~/g, '~7E').replace(/%/g, '~');
}

interface SetFacts {
  record: { subtopic_three_pole: string; subtopic_third_pole: string };
  attached: Pick<AttachedRows, 'keywords' | 'funds'>;
  programs: { code: string; name: string; name_en: string }[];
}

/**
 * The sets of a record: `program:<code>` for the programmes its sub-topic numbers belong to (as the
 * search facet `program`), `fund:<id>` for the data centre's funds it is linked to (`is_core`: the
 * two programme funds and any other the data centre keeps), `theme:<keyword>` for its theme
 * keywords (by the English name, else the Chinese, as the search facet `theme`). A record in a
 * subset is in its top set too.
 */
export function setsOf({ record, attached, programs }: SetFacts): OaiSet[] {
  const sets = new Map<string, OaiSet>();
  const add = (top: keyof typeof TOP_SETS, part: string, name: OaiSet['name']) => {
    sets.set(top, { spec: top, name: TOP_SETS[top] });
    sets.set(`${top}:${part}`, { spec: `${top}:${part}`, name: { zh: name.zh || name.en, en: name.en || name.zh } });
  };
  const subtopics = [record.subtopic_three_pole, record.subtopic_third_pole].map((s) => s.trim().toUpperCase()).filter(Boolean);
  for (const code of PROGRAM_CODES.filter((c) => subtopics.some((s) => s.startsWith(c)))) {
    const program = programs.find((p) => p.code === code);
    add('program', code, { zh: program?.name || code, en: program?.name_en || code });
  }
  for (const fund of attached.funds.filter((f) => Number(f.is_core) === 1)) add('fund', setSpecPart(fund.id), { zh: fund.name, en: fund.name_en });
  for (const keyword of attached.keywords.filter((k) => k.type === 'theme')) {
    const nameIn = (language: string) => (keyword.language === language ? keyword.name : (keyword.translations.find((t) => t.language === language)?.name ?? ''));
    const [zh, en] = [nameIn('zh-hans').trim(), nameIn('en').trim()];
    if (zh || en) add('theme', setSpecPart(en || zh), { zh, en });
  }
  return [...sets.values()];
}

/** Ids per `in (...)` list, within both databases' parameter limits. */
const CHUNK = 500;
/** Rows in one insert: well under SQLite's 32,766 bound parameters (four a row). */
const WRITE_ROWS = 500;

export class OaiIndex implements RecordChangeListener {
  constructor(private readonly db: Db) {}

  async sync(trx: Db, ids: readonly string[]): Promise<void> {
    const datestamp = datestampOf(new Date());
    const unique = [...new Set(ids)];
    for (let at = 0; at < unique.length; at += CHUNK) {
      const chunk = unique.slice(at, at + CHUNK);
      const published = await trx
        .selectFrom('metadata')
        .select(['id', 'doi', 'subtopic_three_pole', 'subtopic_third_pole'])
        .where('id', 'in', chunk)
        .where('status', '=', 'published')
        .execute();
      await this.writePublished(
        trx,
        published.map((record) => ({ ...record, datestamp })),
      );
      const publishedIds = new Set(published.map((r) => r.id));
      await this.markDeleted(
        trx,
        chunk.filter((id) => !publishedIds.has(id)),
        datestamp,
      );
    }
  }

  /** A record deleted after publication stays in the feed as a deleted item. */
  async forget(trx: Db, ids: readonly string[]): Promise<void> {
    await this.markDeleted(trx, [...new Set(ids)], datestampOf(new Date()));
  }

  /**
   * Items for the records published (or unpublished) before the feed existed, or written without
   * the listeners: datestamp their last update. Idempotent; run at start and by `reindex`.
   * Returns how many items it wrote.
   */
  async fillMissing(): Promise<number> {
    let written = 0;
    for (;;) {
      const missing = await this.db
        .selectFrom('metadata as record')
        .select(['record.id', 'record.status', 'record.doi', 'record.subtopic_three_pole', 'record.subtopic_third_pole', 'record.updated_at'])
        .where('record.status', 'in', ['published', 'NotPublished'])
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('oai_items').select('oai_items.metadata_id').whereRef('oai_items.metadata_id', '=', 'record.id'))))
        .orderBy('record.id')
        .limit(CHUNK)
        .execute();
      if (!missing.length) return written;
      await this.db.transaction().execute(async (trx) => {
        const items = missing.map((record) => ({ ...record, datestamp: datestampOf(new Date(record.updated_at)) }));
        await this.writePublished(trx, items);
        // Unpublished before the feed existed: a deleted item.
        const unpublished = missing.filter((r) => r.status !== 'published').map((r) => r.id);
        if (unpublished.length) await trx.updateTable('oai_items').set({ deleted: 1 }).where('metadata_id', 'in', unpublished).execute();
      });
      written += missing.length;
    }
  }

  /** Writes the items and sets of these records, not deleted, with their datestamps. */
  private async writePublished(trx: Db, records: { id: string; doi: string; subtopic_three_pole: string; subtopic_third_pole: string; datestamp: string }[]): Promise<void> {
    if (!records.length) return;
    const ids = records.map((r) => r.id);
    const [attached, programs] = await Promise.all([
      readAttached(trx, ids),
      trx
        .selectFrom('programs')
        .select(['code', 'name', 'name_en'])
        .where('code', 'in', [...PROGRAM_CODES])
        .execute(),
    ]);
    await trx.deleteFrom('oai_item_sets').where('metadata_id', 'in', ids).execute();
    const names = new Map<string, OaiSet['name']>();
    const memberships: { spec: string; metadata_id: string; datestamp: string }[] = [];
    for (const record of records) {
      for (const set of setsOf({ record, attached: attached.get(record.id)!, programs })) {
        memberships.push({ spec: set.spec, metadata_id: record.id, datestamp: record.datestamp });
        names.set(set.spec, set.name);
      }
    }
    // A few statements for many records (a first start on a catalogue of 100,000 imported records
    // wrote them one by one for a quarter of an hour).
    for (let at = 0; at < records.length; at += WRITE_ROWS) {
      await trx
        .insertInto('oai_items')
        .values(records.slice(at, at + WRITE_ROWS).map((record) => ({ metadata_id: record.id, datestamp: record.datestamp, deleted: 0, has_doi: record.doi.trim() ? 1 : 0 })))
        .onConflict((oc) =>
          oc.column('metadata_id').doUpdateSet((eb) => ({ datestamp: eb.ref('excluded.datestamp'), deleted: eb.ref('excluded.deleted'), has_doi: eb.ref('excluded.has_doi') })),
        )
        .execute();
    }
    for (let at = 0; at < memberships.length; at += WRITE_ROWS)
      await trx
        .insertInto('oai_item_sets')
        .values(memberships.slice(at, at + WRITE_ROWS))
        .execute();
    for (const [spec, name] of names) {
      await trx
        .insertInto('oai_sets')
        .values({ spec, name_zh: name.zh, name_en: name.en })
        .onConflict((oc) => oc.column('spec').doUpdateSet({ name_zh: name.zh, name_en: name.en }))
        .execute();
    }
  }

  /** Items of these records that are not deleted yet become deleted, datestamped now. */
  private async markDeleted(trx: Db, ids: readonly string[], datestamp: string): Promise<void> {
    if (!ids.length) return;
    const live = (await trx.selectFrom('oai_items').select('metadata_id').where('metadata_id', 'in', ids).where('deleted', '=', 0).execute()).map((r) => r.metadata_id);
    if (!live.length) return;
    await trx.updateTable('oai_items').set({ deleted: 1, datestamp }).where('metadata_id', 'in', live).execute();
    await trx.updateTable('oai_item_sets').set({ datestamp }).where('metadata_id', 'in', live).execute();
  }
}
