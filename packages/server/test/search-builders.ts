import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestPortal } from './helpers.js';
import { expectStatus } from './metadata-builders.js';

/**
 * Builders of the public catalogue's API tests: a bilingual catalogue written straight into the
 * database and indexed in the same transaction (as the writing calls do), and the search calls.
 */

/** A name in both languages: [Chinese, English]. */
export type Pair = [zh: string, en: string];

/** One record of a test catalogue, described by what the catalogue shows of it. */
export interface CatalogueEntry {
  key: string;
  /** 'published' unless given. */
  status?: string;
  /** The record's own language; the other version goes to metadata_i18n. */
  language: 'zh-hans' | 'en';
  zh: { title: string; abstract?: string };
  en: { title: string; abstract?: string };
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
  /** Day of publication, YYYY-MM-DD (also given to unpublished records, which must still never show). */
  published?: string;
  time?: [string, string];
  /** west, south, east, north. */
  box?: [number, number, number, number];
  doi?: string;
  hits?: number;
  /** Sizes of its data files. */
  files?: number[];
}

/**
 * Writes the entries (records, their other-language version, keywords, standards, authors, funds,
 * data files) owned by `ownerId`, and brings the index in step in the same transaction. Keywords,
 * standards and authors with the same Chinese name are shared between entries. Returns key -> id.
 */
export async function insertCatalogue(portal: TestPortal, ownerId: string, entries: CatalogueEntry[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const now = new Date().toISOString();
  await portal.database.db.transaction().execute(async (trx) => {
    const shared = new Map<string, string>();
    /** The id of a shared row, inserting it the first time its key is seen. */
    const once = async (key: string, insert: (id: string) => Promise<unknown>) => {
      let id = shared.get(key);
      if (!id) {
        id = randomUUID();
        shared.set(key, id);
        await insert(id);
      }
      return id;
    };
    for (const entry of entries) {
      const id = randomUUID();
      ids[entry.key] = id;
      const english = entry.language === 'en';
      const own = english ? entry.en : entry.zh;
      const other = english ? entry.zh : entry.en;
      const status = entry.status ?? 'published';
      const [west, south, east, north] = entry.box ?? [null, null, null, null];
      await trx
        .insertInto('metadata')
        .values({
          id,
          owner_id: ownerId,
          status,
          language: entry.language,
          title: own.title,
          description: own.abstract ?? '',
          license: entry.license ?? '',
          sharing_policy: entry.sharing ?? '',
          temporal_resolution: entry.resolution ?? '',
          subtopic_three_pole: entry.threePole ?? '',
          subtopic_third_pole: entry.thirdPole ?? '',
          doi: entry.doi ?? '',
          time_start: entry.time?.[0] ?? '',
          time_end: entry.time?.[1] ?? '',
          west,
          south,
          east,
          north,
          hit_count: entry.hits ?? 0,
          submitting_type: 'general',
          created_at: now,
          updated_at: now,
          submitted_at: status === 'draft' ? null : now,
          published_at: entry.published ? `${entry.published}T08:00:00.000Z` : null,
        } as never)
        .execute();
      await trx
        .insertInto('metadata_i18n')
        .values({ id: randomUUID(), metadata_id: id, language: english ? 'zh-hans' : 'en', title: other.title, description: other.abstract ?? '' } as never)
        .execute();
      const keywords: [string, Pair[] | undefined][] = [
        ['theme', entry.themes],
        ['place', entry.places],
        ['discipline', entry.disciplines],
      ];
      for (const [type, pairs] of keywords) {
        for (const [zh, en] of pairs ?? []) {
          // A keyword is written in the language of the record that first used it, translated into the other.
          const keywordId = await once(`keyword|${type}|${zh}`, async (kid) => {
            await trx.insertInto('keywords').values({ id: kid, name: english ? en : zh, type, language: entry.language, created_by: ownerId, created_at: now }).execute();
            await trx.insertInto('keyword_i18n').values({ id: randomUUID(), keyword_id: kid, language: english ? 'zh-hans' : 'en', name: english ? zh : en }).execute();
          });
          await trx.insertInto('meta_keyword').values({ id: randomUUID(), metadata_id: id, keyword_id: keywordId }).execute();
        }
      }
      for (const [zh, en] of entry.standards ?? []) {
        const standardId = await once(`standard|${zh}`, (sid) =>
          trx.insertInto('keyword_standards').values({ id: sid, parent_id: null, code: '', name: zh, name_en: en, sort: 0 }).execute(),
        );
        await trx.insertInto('meta_discipline').values({ id: randomUUID(), metadata_id: id, keyword_standard_id: standardId, number: 1 } as never).execute();
      }
      for (const [sort, [zh, en]] of (entry.authors ?? []).entries()) {
        const authorId = await once(`author|${zh}`, async (aid) => {
          await trx.insertInto('authors').values({ id: aid, name: zh, email: `${aid}@example.org`, created_by: ownerId, created_at: now } as never).execute();
          await trx.insertInto('author_i18n').values({ id: randomUUID(), author_id: aid, language: 'en', name: en } as never).execute();
        });
        await trx.insertInto('meta_author').values({ id: randomUUID(), metadata_id: id, author_id: authorId, role: 'resourceProvider', sort } as never).execute();
      }
      for (const fund of entry.funds ?? []) await trx.insertInto('meta_fund').values({ id: randomUUID(), metadata_id: id, fund_id: fund }).execute();
      for (const size of entry.files ?? []) {
        await trx
          .insertInto('meta_file')
          .values({ id: randomUUID(), metadata_id: id, name: 'data.nc', mime: 'application/x-netcdf', storage_key: `test/${randomUUID()}`, sha256: '', size, created_by: ownerId, created_at: now })
          .execute();
      }
    }
    // As the writing calls do: every derived view (search index, OAI-PMH feed) follows in the transaction.
    await portal.metadataAccess.changed(trx, Object.values(ids));
  });
  return ids;
}

export type Params = Record<string, string | number | string[]>;

/** The query string of a search: arrays as repeated parameters. */
export function queryString(params: Params): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  return search.toString();
}

export function searchCall(portal: TestPortal, params: Params, language: 'en' | 'zh-hans' = 'en'): Promise<LightMyRequestResponse> {
  return portal.app.inject({ method: 'GET', url: `/api/metadata/search/?${queryString(params)}`, headers: { 'accept-language': language } });
}

/** A search that must answer 200, as its JSON. */
export async function search(portal: TestPortal, params: Params, language: 'en' | 'zh-hans' = 'en') {
  return expectStatus(await searchCall(portal, params, language), 200);
}

/** The ids a search finds, every page of it (page size 100). */
export async function foundIds(portal: TestPortal, params: Params): Promise<string[]> {
  const reply = await search(portal, { pageSize: 100, ...params });
  return reply.results.map((r: { id: string }) => r.id);
}

/** A public GET that must answer 200, as its JSON. */
export async function getOk(portal: TestPortal, url: string, language: 'en' | 'zh-hans' = 'en') {
  return expectStatus(await portal.app.inject({ method: 'GET', url, headers: { 'accept-language': language } }), 200);
}
