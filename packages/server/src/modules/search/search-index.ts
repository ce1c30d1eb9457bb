import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { PROGRAM_CODES, type Language } from '@portal/shared';
import type { Db, Dialect } from '../../db/index.js';
import type { MetadataTable, SearchEntryTable } from '../../db/schema.js';
import { readAttached, type AttachedRows } from '../metadata/index.js';
import { documentTokens } from './tokenize.js';
import { catalogueChanged } from './catalogue-changes.js';

/**
 * Keeps the public catalogue's index in step with the records: `sync` (in the transaction that
 * changed them) indexes the published ones among the ids it is given and removes the others;
 * `rebuild` does it for every record. The only SQL that writes the index.
 */

type Texts = { zh: string; en: string };
interface FacetRow {
  facet: string;
  value: string;
  label_zh: string;
  label_en: string;
}

/** The index's view of one record: its filters and sort keys, facets and weighted texts. */
export interface SearchDocument {
  /** The entry's columns, as search_entries stores them (without its number, version and tokens). */
  entry: Omit<Selectable<SearchEntryTable>, 'doc' | 'version'>;
  facets: FacetRow[];
  /** Weighted texts: the titles (A), keywords, authors, DOI and programme (B), the abstracts and the rest (C). */
  texts: { title: string; keys: string; body: string };
}

const ZH: Language = 'zh-hans';

/** A record's version in each language: its own fields in its language, metadata-i18n in the other. */
function bilingual(record: { language: string; title: string; description: string }, translations: { language: string; title: string; description: string }[]) {
  const own = { title: record.title, description: record.description };
  const other = (language: string) => translations.find((t) => t.language === language);
  const zh = record.language === ZH ? own : other(ZH);
  const en = record.language === 'en' ? own : other('en');
  return {
    title: { zh: zh?.title || en?.title || '', en: en?.title || zh?.title || '' } satisfies Texts,
    description: { zh: zh?.description ?? '', en: en?.description ?? '' } satisfies Texts,
  };
}

/** Lower-cased canonical key of a keyword pair: the English name when there is one, else the Chinese. */
const keywordKey = (zh: string, en: string) => (en || zh).trim().toLowerCase();

/** Ids per `in (...)` list, and rows per multi-row insert (within both databases' parameter limits). */
const READ_CHUNK = 500;
const WRITE_CHUNK = 200;
const FACET_CHUNK = 2000;

type PublishedRecord = Selectable<MetadataTable> & { published_at: string };

/** What `documents` reads beside the record itself. */
interface RelatedRows extends Pick<AttachedRows, 'translations' | 'keywords' | 'authors' | 'funds'> {
  standards: { code: string; name: string; name_en: string }[];
  programs: { code: string; name: string; name_en: string }[];
}

/** The index's view of a published record and the rows attached to it. */
function documentOf(record: PublishedRecord, { translations, keywords, authors, funds, standards, programs }: RelatedRows): SearchDocument {
  const texts = bilingual(record, translations);
  const facets = new Map<string, FacetRow>();
  const facet = (name: string, value: string, zh: string, en: string) => {
    if (value) facets.set(`${name}\u0000${value}`, { facet: name, value, label_zh: zh || en, label_en: en || zh });
  };
  const keywordWords: string[] = [];
  for (const k of keywords) {
    const nameIn = (language: string) => (k.language === language ? k.name : (k.translations.find((t) => t.language === language)?.name ?? ''));
    const [zh, en] = [nameIn(ZH), nameIn('en')];
    keywordWords.push(k.name, ...k.translations.map((t) => t.name));
    if (k.type === 'theme' || k.type === 'place' || k.type === 'discipline') facet(k.type, keywordKey(zh, en), zh, en);
  }
  for (const s of standards) facet('discipline', keywordKey(s.name, s.name_en), s.name, s.name_en);
  for (const f of funds) facet('fund', f.id, f.name, f.name_en);
  const subtopics = [record.subtopic_three_pole, record.subtopic_third_pole].filter(Boolean);
  for (const code of PROGRAM_CODES.filter((c) => subtopics.some((s) => s.toUpperCase().startsWith(c)))) {
    const program = programs.find((p) => p.code === code);
    facet('program', code, program?.name || code, program?.name_en || code);
  }
  const people = authors.flatMap((a) => [a.name, a.affiliation, ...a.translations.flatMap((t) => [t.name, t.affiliation])]);
  const other = translations.flatMap((t) => [t.data_source, t.usage_method]);
  return {
    entry: {
      metadata_id: record.id,
      title_zh: texts.title.zh,
      title_en: texts.title.en,
      language: record.language,
      license: record.license,
      sharing: record.sharing_policy,
      temporal_resolution: record.temporal_resolution,
      year: record.published_at.slice(0, 4),
      published_at: record.published_at,
      time_start: record.time_start,
      time_end: record.time_end,
      west: record.west,
      south: record.south,
      east: record.east,
      north: record.north,
      hit_count: Number(record.hit_count),
      download_count: Number(record.download_count),
    },
    facets: [...facets.values()],
    texts: {
      title: [texts.title.zh, texts.title.en].join(' \n '),
      keys: [...keywordWords, ...people, record.doi, ...subtopics, ...funds.flatMap((f) => [f.name, f.name_en])].join(' \n '),
      body: [texts.description.zh, texts.description.en, record.data_source, record.usage_method, ...other].join(' \n '),
    },
  };
}

export class SearchIndex {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** Everything the index holds of one record, read in `trx`; null when it is not published. */
  async document(trx: Db, id: string): Promise<SearchDocument | null> {
    return (await this.documents(trx, [id])).get(id) ?? null;
  }

  /**
   * The documents of the published records among `ids`, read in `trx` with one query per table
   * whatever their number (the rebuild and the import read hundreds at a time).
   */
  async documents(trx: Db, ids: readonly string[]): Promise<Map<string, SearchDocument>> {
    const documents = new Map<string, SearchDocument>();
    for (let at = 0; at < ids.length; at += READ_CHUNK) {
      const chunk = ids.slice(at, at + READ_CHUNK);
      const records = await trx.selectFrom('metadata').selectAll().where('id', 'in', chunk).where('status', '=', 'published').where('published_at', 'is not', null).execute();
      if (!records.length) continue;
      const found = records.map((r) => r.id);
      const [attached, standards] = await Promise.all([
        readAttached(trx, found),
        trx
          .selectFrom('meta_discipline')
          .innerJoin('keyword_standards', 'keyword_standards.id', 'meta_discipline.keyword_standard_id')
          .select(['meta_discipline.metadata_id', 'keyword_standards.code', 'keyword_standards.name', 'keyword_standards.name_en'])
          .where('meta_discipline.metadata_id', 'in', found)
          .execute(),
      ]);
      const standardsOf = new Map<string, typeof standards>();
      for (const standard of standards) standardsOf.set(standard.metadata_id, [...(standardsOf.get(standard.metadata_id) ?? []), standard]);
      const programs = await trx
        .selectFrom('programs')
        .select(['code', 'name', 'name_en'])
        .where('code', 'in', [...PROGRAM_CODES])
        .execute();
      for (const record of records) {
        documents.set(
          record.id,
          documentOf(record as PublishedRecord, {
            ...attached.get(record.id)!,
            standards: standardsOf.get(record.id) ?? [],
            programs,
          }),
        );
      }
    }
    return documents;
  }

  /** Brings the index in step with these records, in the caller's transaction. */
  async sync(trx: Db, ids: readonly string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const documents = await this.documents(trx, unique);
    const version = await this.nextVersion(trx);
    await this.removeMany(trx, unique, version);
    await this.writeMany(trx, [...documents.values()], version);
  }

  /**
   * The index's next version, taken in the writing transaction. On PostgreSQL the row stays locked
   * until commit, so versions become visible in their order (what facet-cache.ts relies on).
   */
  private async nextVersion(trx: Db): Promise<number> {
    catalogueChanged('index');
    const row = await trx
      .updateTable('search_state')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow();
    return Number(row.version);
  }

  /**
   * Drops these records from the index, before they are deleted: the deletion would take their
   * entries with it and leave their SQLite tokens behind, to be found under the next entry that
   * reuses the number.
   */
  async forget(trx: Db, ids: readonly string[]): Promise<void> {
    for (const id of new Set(ids)) await this.remove(trx, id);
  }

  /** Writes a document (the record must have no entry yet). */
  async write(trx: Db, document: SearchDocument): Promise<void> {
    await this.writeMany(trx, [document], await this.nextVersion(trx));
  }

  /** Writes documents of records that have no entry yet, a few statements for many records. */
  async writeMany(trx: Db, documents: readonly SearchDocument[], version: number): Promise<void> {
    for (let at = 0; at < documents.length; at += WRITE_CHUNK) {
      const chunk = documents.slice(at, at + WRITE_CHUNK);
      const tokens = chunk.map((d) => ({ title: documentTokens(d.texts.title), keys: documentTokens(d.texts.keys), body: documentTokens(d.texts.body) }));
      let docs: number[];
      if (this.dialect === 'postgres') {
        const rows = await trx
          .insertInto('search_entries')
          .values(chunk.map((d) => ({ ...d.entry, version })))
          .returning(['doc', 'metadata_id'])
          .execute();
        const byRecord = new Map(rows.map((r) => [r.metadata_id, Number(r.doc)]));
        docs = chunk.map((d) => byRecord.get(d.entry.metadata_id)!);
        await trx
          .insertInto('search_words')
          .values(
            chunk.map((_d, i) => ({
              doc: docs[i]!,
              tokens: sql`${lexemesText([...tokens[i]!.title, ...tokens[i]!.keys, ...tokens[i]!.body])}::tsvector`,
              title_tokens: sql`${lexemesText(tokens[i]!.title)}::tsvector`,
              keys_tokens: sql`${lexemesText(tokens[i]!.keys)}::tsvector`,
            })),
          )
          .execute();
      } else {
        // SQLite: one prepared insert per entry (cheap in process) gives each its rowid.
        docs = [];
        for (const [i, d] of chunk.entries()) {
          const result = await trx
            .insertInto('search_entries')
            .values({ ...d.entry, version })
            .executeTakeFirstOrThrow();
          const doc = Number(result.insertId);
          docs.push(doc);
          const t = tokens[i]!;
          await sql`insert into search_fts (rowid, title, keys, body) values (${doc}, ${t.title.join(' ')}, ${t.keys.join(' ')}, ${t.body.join(' ')})`.execute(trx);
        }
      }
      const facets = chunk.flatMap((d, i) => d.facets.map((f) => ({ ...f, doc: docs[i]! })));
      for (let f = 0; f < facets.length; f += FACET_CHUNK)
        await trx
          .insertInto('search_facets')
          .values(facets.slice(f, f + FACET_CHUNK))
          .execute();
    }
  }

  async remove(trx: Db, id: string): Promise<void> {
    await this.removeMany(trx, [id], await this.nextVersion(trx));
  }

  /** Removes the entries of these records, leaving a note of each (search_removed) for the facet caches. */
  async removeMany(trx: Db, ids: readonly string[], version: number): Promise<void> {
    for (let at = 0; at < ids.length; at += READ_CHUNK) {
      const entries = await trx
        .selectFrom('search_entries')
        .select('doc')
        .where('metadata_id', 'in', ids.slice(at, at + READ_CHUNK))
        .execute();
      if (!entries.length) continue;
      const docs = entries.map((e) => e.doc);
      await trx.deleteFrom('search_facets').where('doc', 'in', docs).execute();
      if (this.dialect === 'sqlite') for (const doc of docs) await sql`delete from search_fts where rowid = ${doc}`.execute(trx);
      else await trx.deleteFrom('search_words').where('doc', 'in', docs).execute();
      await trx.deleteFrom('search_entries').where('doc', 'in', docs).execute();
      await trx
        .insertInto('search_removed')
        .values(docs.map((doc) => ({ doc, version })))
        .execute();
    }
  }

  /** Rebuilds the whole index from the records (`npm run portal -- reindex`); returns how many are indexed. */
  async rebuild(batch = 500): Promise<number> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('search_facets').execute();
      if (this.dialect === 'sqlite') await sql`delete from search_fts`.execute(trx);
      else await trx.deleteFrom('search_words').execute();
      await trx.deleteFrom('search_entries').execute();
      await trx.deleteFrom('search_removed').execute();
      // A new epoch: facet caches read the index anew.
      await trx.updateTable('search_state').set({ epoch: randomUUID() }).where('id', '=', 1).execute();
    });
    catalogueChanged('index');
    let indexed = 0;
    let after = '';
    for (;;) {
      const ids = (await this.db.selectFrom('metadata').select('id').where('status', '=', 'published').where('id', '>', after).orderBy('id').limit(batch).execute()).map(
        (r) => r.id,
      );
      if (!ids.length) break;
      await this.db.transaction().execute(async (trx) => {
        const documents = await this.documents(trx, ids);
        await this.writeMany(trx, [...documents.values()], await this.nextVersion(trx));
        indexed += documents.size;
      });
      after = ids.at(-1)!;
    }
    return indexed;
  }
}

/** tsvector input text of tokens without positions (each once). */
function lexemesText(tokens: readonly string[]): string {
  return [...new Set(tokens)].map((token) => `'${token.replace(/['\\]/g, '\\$&')}'`).join(' ');
}
