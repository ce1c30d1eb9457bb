import type { LightMyRequestResponse } from 'fastify';
import type { TestPortal } from './helpers.js';
import { expectStatus } from './metadata-builders.js';

/** The public catalogue's search calls (its records are written by the factories' buildCatalogue). */

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
