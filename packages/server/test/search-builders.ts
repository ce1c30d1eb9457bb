import type { LightMyRequestResponse } from 'fastify';
import { buildRecords, type RecordSpec } from './factories.js';
import type { TestPortal } from './helpers.js';
import { expectStatus } from './metadata-builders.js';

/**
 * Builders of the public catalogue's API tests: a bilingual catalogue (written by the factories,
 * indexed in the same transaction as the writing calls do), and the search calls.
 */

export type { Pair } from './factories.js';

/** One record of a test catalogue, described by what the catalogue shows of it (the factories' RecordSpec by language). */
export interface CatalogueEntry extends Omit<RecordSpec, 'owner' | 'language' | 'title' | 'abstract' | 'translation' | 'columns'> {
  key: string;
  /** 'published' unless given. */
  status?: string;
  /** The record's own language; the other version goes to metadata_i18n. */
  language: 'zh-hans' | 'en';
  zh: { title: string; abstract?: string };
  en: { title: string; abstract?: string };
}

/**
 * Writes the entries owned by `ownerId` in one transaction (the factories' buildRecords, 'published'
 * unless given, submitted as 'general'), with the index in step. Returns key -> id.
 */
export async function insertCatalogue(portal: TestPortal, ownerId: string, entries: CatalogueEntry[]): Promise<Record<string, string>> {
  const specs = entries.map(({ key: _key, zh, en, status, ...entry }): RecordSpec => {
    const [own, other] = entry.language === 'en' ? [en, zh] : [zh, en];
    return { ...entry, owner: ownerId, status: status ?? 'published', title: own.title, abstract: own.abstract, translation: other };
  });
  const ids = await buildRecords(portal, specs);
  return Object.fromEntries(entries.map((entry, i) => [entry.key, ids[i]!]));
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
