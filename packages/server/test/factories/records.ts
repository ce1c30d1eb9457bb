import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Tx } from '../../src/db/index.js';
import type { AuthorI18nTable, AuthorTable, MetaAuthorTable, MetaDisciplineTable, MetadataI18nTable, MetadataTable } from '../../src/db/schema.js';
import type { TestPortal } from '../helpers.js';
import { extraColumns, writeExtras, type RecordExtras } from './extras.js';
import { FileWriter, type FileSpec } from './files.js';

/** A name in both languages: [Chinese, English]. */
export type Pair = [zh: string, en: string];

/** What a record holds, described by what the portal shows of it; everything but its owner is optional. */
export interface RecordSpec {
  owner: string | { id: string };
  /** 'draft' unless given; any other status is submitted now. */
  status?: string;
  /** The record's own language ('zh-hans'); its other version goes to metadata_i18n. */
  language?: 'zh-hans' | 'en';
  /** Its own language's title (`冰川记录 <id>` unless given) and abstract. */
  title?: string;
  abstract?: string;
  /** The other language's version (empty unless given, as a new draft's). */
  translation?: { title: string; abstract?: string };
  themes?: Pair[];
  places?: Pair[];
  /** Keywords of type discipline. */
  disciplines?: Pair[];
  /** Discipline standards linked through meta_discipline. */
  standards?: Pair[];
  authors?: Pair[];
  /** Fund ids. */
  funds?: string[];
  threePole?: string;
  thirdPole?: string;
  license?: string;
  sharing?: string;
  resolution?: string;
  /** Day of publication, YYYY-MM-DD (none unless given, whatever the status). */
  published?: string;
  time?: [string, string];
  /** west, south, east, north. */
  box?: [number, number, number, number];
  doi?: string;
  hits?: number;
  /** Sizes of its data files (that many bytes of a repeated line each, in the portal's store). */
  files?: number[];
  /** Data files of given names or bytes, after those of `files`. */
  dataFiles?: FileSpec[];
  /** A thumbnail (a small PNG in the store). */
  thumbnail?: boolean;
  /** What only the exports, landing pages and feeds show (the authors' private details are written whenever this is given). */
  extras?: RecordExtras;
  /** Any other column as stored (review_round, topic_review_status, submitting_type ('general' unless given), ...). */
  columns?: Partial<Insertable<MetadataTable>>;
}

/** A record written as the portal holds it in its status; returns its id. */
export async function buildRecord(portal: TestPortal, spec: RecordSpec): Promise<string> {
  const [id] = await buildRecords(portal, [spec]);
  return id!;
}

/**
 * Records written in one transaction, in order; keywords, standards and authors with the same Chinese
 * name are shared between them. The search index and the OAI-PMH feed follow in the transaction.
 */
export async function buildRecords(portal: TestPortal, specs: RecordSpec[]): Promise<string[]> {
  return portal.database.db.transaction().execute(async (trx) => {
    const writer = new RecordWriter(portal, trx);
    const ids: string[] = [];
    for (const spec of specs) ids.push(await writer.write(spec));
    // As the writing calls do: every derived view (search index, OAI-PMH feed) follows in the transaction.
    await portal.metadataAccess.changed(trx, ids);
    return ids;
  });
}

/**
 * Moves a record to a status without its workflow's call (for the tests of what a status allows), with
 * the derived views in step in the same transaction, as the workflow's calls keep them.
 */
export async function setRecordStatus(portal: TestPortal, id: string, status: string): Promise<void> {
  await portal.database.db.transaction().execute(async (trx) => {
    await trx.updateTable('metadata').set({ status }).where('id', '=', id).execute();
    await portal.metadataAccess.changed(trx, [id]);
  });
}

/** Writes records and their attached rows in one transaction, inserting a shared row the first time its key is seen. */
class RecordWriter {
  private readonly shared = new Map<string, string>();
  private readonly now = new Date().toISOString();
  private readonly files: FileWriter;

  constructor(
    portal: TestPortal,
    private readonly trx: Tx,
  ) {
    this.files = new FileWriter(portal, trx);
  }

  private async once(key: string, insert: (id: string) => Promise<unknown>): Promise<string> {
    let id = this.shared.get(key);
    if (!id) {
      id = randomUUID();
      this.shared.set(key, id);
      await insert(id);
    }
    return id;
  }

  async write(spec: RecordSpec): Promise<string> {
    const { trx, now } = this;
    const id = randomUUID();
    const ownerId = typeof spec.owner === 'string' ? spec.owner : spec.owner.id;
    const language = spec.language ?? 'zh-hans';
    const english = language === 'en';
    const status = spec.status ?? 'draft';
    const [west, south, east, north] = spec.box ?? [null, null, null, null];
    const extras = spec.extras && extraColumns(spec.extras, english, spec.published, now);
    const row = {
      id,
      owner_id: ownerId,
      status,
      language,
      title: spec.title ?? `冰川记录 ${id.slice(0, 8)}`,
      description: spec.abstract ?? '',
      license: spec.license ?? '',
      sharing_policy: spec.sharing ?? '',
      temporal_resolution: spec.resolution ?? '',
      subtopic_three_pole: spec.threePole ?? '',
      subtopic_third_pole: spec.thirdPole ?? '',
      doi: spec.doi ?? '',
      time_start: spec.time?.[0] ?? '',
      time_end: spec.time?.[1] ?? '',
      west,
      south,
      east,
      north,
      hit_count: spec.hits ?? 0,
      submitting_type: 'general',
      created_at: now,
      updated_at: now,
      submitted_at: status === 'draft' ? null : now,
      published_at: spec.published ? `${spec.published}T08:00:00.000Z` : null,
      ...extras?.record,
      ...spec.columns,
    };
    // The other columns take the defaults of their migrations.
    await trx
      .insertInto('metadata')
      .values(row as Insertable<MetadataTable>)
      .execute();
    await trx
      .insertInto('metadata_i18n')
      .values({
        id: randomUUID(),
        metadata_id: id,
        language: english ? 'zh-hans' : 'en',
        title: spec.translation?.title ?? '',
        description: spec.translation?.abstract ?? '',
        ...extras?.translation,
      } as Insertable<MetadataI18nTable>)
      .execute();
    await this.attach(id, ownerId, language, spec);
    return id;
  }

  /** Keywords, standards, authors, funds, data files, thumbnail and the extras. */
  private async attach(id: string, ownerId: string, language: 'zh-hans' | 'en', spec: RecordSpec): Promise<void> {
    const { trx, now } = this;
    const english = language === 'en';
    const keywords: [string, Pair[] | undefined][] = [
      ['theme', spec.themes],
      ['place', spec.places],
      ['discipline', spec.disciplines],
    ];
    for (const [type, pairs] of keywords) {
      for (const [zh, en] of pairs ?? []) {
        // A keyword is written in the language of the record that first used it, translated into the other.
        const keywordId = await this.once(`keyword|${type}|${zh}`, async (kid) => {
          await trx
            .insertInto('keywords')
            .values({ id: kid, name: english ? en : zh, type, language, created_by: ownerId, created_at: now })
            .execute();
          await trx
            .insertInto('keyword_i18n')
            .values({ id: randomUUID(), keyword_id: kid, language: english ? 'zh-hans' : 'en', name: english ? zh : en })
            .execute();
        });
        await trx.insertInto('meta_keyword').values({ id: randomUUID(), metadata_id: id, keyword_id: keywordId }).execute();
      }
    }
    for (const [zh, en] of spec.standards ?? []) {
      const standardId = await this.once(`standard|${zh}`, (sid) =>
        trx.insertInto('keyword_standards').values({ id: sid, parent_id: null, code: '', name: zh, name_en: en, sort: 0 }).execute(),
      );
      await trx
        .insertInto('meta_discipline')
        .values({ id: randomUUID(), metadata_id: id, keyword_standard_id: standardId, number: 1 } as Insertable<MetaDisciplineTable>)
        .execute();
    }
    for (const [sort, [zh, en]] of (spec.authors ?? []).entries()) {
      const authorId = await this.once(`author|${zh}`, async (aid) => {
        await trx
          .insertInto('authors')
          .values({ id: aid, name: zh, email: `${aid}@example.org`, created_by: ownerId, created_at: now } as Insertable<AuthorTable>)
          .execute();
        await trx
          .insertInto('author_i18n')
          .values({ id: randomUUID(), author_id: aid, language: 'en', name: en } as Insertable<AuthorI18nTable>)
          .execute();
      });
      await trx
        .insertInto('meta_author')
        .values({ id: randomUUID(), metadata_id: id, author_id: authorId, role: 'resourceProvider', sort } as Insertable<MetaAuthorTable>)
        .execute();
    }
    for (const fund of spec.funds ?? []) await trx.insertInto('meta_fund').values({ id: randomUUID(), metadata_id: id, fund_id: fund }).execute();
    await this.files.dataFiles(id, ownerId, [...(spec.files ?? []), ...(spec.dataFiles ?? [])], now);
    if (spec.thumbnail) await this.files.thumbnail(id, ownerId, now);
    if (spec.extras) await writeExtras(trx, id, ownerId, spec.extras, now);
  }
}

/** One record of a test catalogue, described by what the catalogue shows of it (a RecordSpec by language). */
export interface CatalogueEntry extends Omit<RecordSpec, 'owner' | 'language' | 'title' | 'abstract' | 'translation' | 'columns'> {
  key: string;
  /** 'published' unless given. */
  status?: string;
  /** The record's own language; the other version goes to metadata_i18n. */
  language: 'zh-hans' | 'en';
  zh: { title: string; abstract?: string };
  en: { title: string; abstract?: string };
}

/** Writes the entries owned by `ownerId` in one transaction ('published' unless given), with the derived views in step. Returns key -> id. */
export async function buildCatalogue(portal: TestPortal, owner: string | { id: string }, entries: CatalogueEntry[]): Promise<Record<string, string>> {
  const specs = entries.map(({ key: _key, zh, en, status, ...entry }): RecordSpec => {
    const [own, other] = entry.language === 'en' ? [en, zh] : [zh, en];
    return { ...entry, owner, status: status ?? 'published', title: own.title, abstract: own.abstract, translation: other };
  });
  const ids = await buildRecords(portal, specs);
  return Object.fromEntries(entries.map((entry, i) => [entry.key, ids[i]!]));
}

/** One catalogue record with the parts only the exports show (the authors' private details always); its id. */
export async function buildExportRecord(portal: TestPortal, owner: string | { id: string }, entry: CatalogueEntry, extras: RecordExtras = {}): Promise<string> {
  const { [entry.key]: id } = await buildCatalogue(portal, owner, [{ ...entry, extras: { ...entry.extras, ...extras } }]);
  return id!;
}
