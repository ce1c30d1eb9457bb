import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { KEYWORD_TYPES, type KeywordType } from '@portal/shared';
import { buildDataFile, buildThumbnail } from './factories.js';
import { form, FORM, tokenHeader, type TestPortal } from './helpers.js';

/**
 * Builders of the metadata API tests: records, attached entities and a complete, submittable record,
 * made through the API (except the stored files, which belong to the upload routes and are inserted).
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** JSON body (an object) or a url-encoded form (`asForm`). */
  body?: Record<string, unknown>;
  asForm?: boolean;
  headers?: Record<string, string>;
}

/** One request as the web client sends it: `Token` header when a token is given. */
export function call(portal: TestPortal, method: Method, url: string, token: string | null, options: CallOptions = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(token ? tokenHeader(token) : {}), ...options.headers };
  if (options.body === undefined) return portal.app.inject({ method, url, headers });
  if (options.asForm) {
    const fields = Object.fromEntries(Object.entries(options.body).map(([k, v]) => [k, String(v)]));
    return portal.app.inject({ method, url, headers: { ...FORM, ...headers }, payload: form(fields) });
  }
  return portal.app.inject({ method, url, headers, payload: options.body });
}

/** Reads a reply's JSON after checking its status, showing the body when it is not the expected one. */
export function expectStatus<T = any>(response: LightMyRequestResponse, status: number): T {
  if (response.statusCode !== status) throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  return (response.body ? response.json() : undefined) as T;
}

export const recordUrl = (id: string) => `/api/metadata/metadata/${id}/`;
export const resourceUrl = (name: string, id?: string) => (id ? `/api/metadata/${name}/${id}/` : `/api/metadata/${name}/`);

/** A new draft of the token's user, through the API. */
export async function createRecord(portal: TestPortal, token: string, fields: { language?: string; title?: string } = {}) {
  const response = await call(portal, 'POST', '/api/metadata/metadata/', token, { body: { language: 'zh-hans', title: '青藏高原冰川变化数据集', ...fields } });
  return expectStatus(response, 201);
}

export async function patchRecord(portal: TestPortal, token: string, id: string, fields: Record<string, unknown>) {
  return expectStatus(await call(portal, 'PATCH', recordUrl(id), token, { body: fields }), 200);
}

export async function getRecord(portal: TestPortal, token: string | null, id: string) {
  return expectStatus(await call(portal, 'GET', recordUrl(id), token), 200);
}

/** The status as stored, for checks that must not depend on who may read the record. */
export async function storedStatus(portal: TestPortal, id: string): Promise<string | undefined> {
  const row = await portal.database.db.selectFrom('metadata').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Sets a status without the workflow's call (the factories' setRecordStatus: the search index and OAI-PMH feed follow). */
export { setRecordStatus as setStatus } from './factories.js';

/** POSTs an attached resource and expects it created. */
export async function postResource(portal: TestPortal, token: string, name: string, body: Record<string, unknown>, asForm = false) {
  return expectStatus(await call(portal, 'POST', resourceUrl(name), token, { body, asForm }), 201);
}

let serial = 0;
const unique = () => `${++serial}-${randomUUID().slice(0, 8)}`;

/** The author form: Chinese and English name and affiliation, e-mail. */
export function authorForm(fields: Record<string, unknown> = {}) {
  const n = unique();
  return {
    name: `张冰川${n}`,
    name_en: `Zhang Bingchuan ${n}`,
    email: `author${n}@example.org`,
    affiliation: '中国科学院青藏高原研究所',
    affiliation_en: 'Institute of Tibetan Plateau Research, CAS',
    ...fields,
  };
}

/** Creates an author and links it to a record in a role; returns both. */
export async function addAuthor(portal: TestPortal, token: string, metadataId: string, options: { role?: string; author?: Record<string, unknown> } = {}) {
  const author = await postResource(portal, token, 'author', authorForm(options.author));
  const link = await postResource(portal, token, 'meta-author', {
    metadata: metadataId,
    author: author.id,
    role: options.role ?? 'resourceProvider',
    event_date: '2024-05-01',
  });
  return { author, link };
}

/** Adds a keyword of a type to a record (with a translation). */
export async function addKeyword(portal: TestPortal, token: string, metadataId: string, type: KeywordType, name = `关键词${unique()}`) {
  return postResource(portal, token, 'keyword', { name, type, metadata: metadataId, translation: `keyword ${name}` });
}

/** An abstract of exactly `length` characters as the checklist counts them. */
export function abstractOf(length: number): string {
  const sentence = '本数据集记录了青藏高原冰川面积与物质平衡的长期变化。';
  return sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
}

/** Base information of a complete record (with fund 5, so the subtopic number counts). */
export const COMPLETE_FIELDS = {
  title: '青藏高原冰川面积变化数据集（1990-2020）',
  description: abstractOf(200),
  file_size: 12.5,
  time_start: '1990-01-01',
  time_end: '2020-12-31',
  usage_method: '文件按年份命名：glacier_YYYY.nc',
  east: 105,
  west: 73,
  south: 26,
  north: 40,
  platform: 'portal',
  subtopic_three_pole: 'XDA20-01',
} as const;

export const COMPLETE_ENGLISH = {
  title: 'Glacier area changes of the Tibetan Plateau (1990-2020)',
  description: 'Annual glacier outlines of the Tibetan Plateau derived from Landsat imagery.',
};

export interface CompleteRecord {
  id: string;
  /** The English version (metadata-i18n). */
  englishId: string;
  provider: { author: any; link: any };
  /** The same person linked in another role (so removing the provider link keeps an author). */
  authorLink: any;
  keywords: Record<KeywordType, any[]>;
  thumbnailId: string;
  dataFileId: string;
}

/** A Chinese draft that passes every item of the submission checklist. */
export async function buildCompleteRecord(portal: TestPortal, user: { id: string; token: string }): Promise<CompleteRecord> {
  const record = await createRecord(portal, user.token);
  await patchRecord(portal, user.token, record.id, COMPLETE_FIELDS);
  const english = record.translations.find((t: { language: string }) => t.language === 'en');
  expectStatus(await call(portal, 'PATCH', resourceUrl('metadata-i18n', english.id), user.token, { body: COMPLETE_ENGLISH }), 200);
  await postResource(portal, user.token, 'meta-fund', { metadata: record.id, fund: '5' });
  const keywords = {} as Record<KeywordType, any[]>;
  for (const type of KEYWORD_TYPES) {
    keywords[type] = [];
    for (let i = 0; i < 3; i += 1) keywords[type].push(await addKeyword(portal, user.token, record.id, type));
  }
  const provider = await addAuthor(portal, user.token, record.id, { role: 'resourceProvider' });
  const authorLink = await postResource(portal, user.token, 'meta-author', {
    metadata: record.id,
    author: provider.author.id,
    role: 'principalInvestigator',
    event_date: '2024-05-01',
  });
  const thumbnailId = await buildThumbnail(portal, record.id, user);
  const dataFileId = await buildDataFile(portal, record.id, user);
  return { id: record.id, englishId: english.id, provider, authorLink, keywords, thumbnailId, dataFileId };
}

/** GET /metadata/metadata-submit/?id= */
export function checkSubmit(portal: TestPortal, token: string | null, id: string, headers: Record<string, string> = {}) {
  return call(portal, 'GET', `/metadata/metadata-submit/?id=${encodeURIComponent(id)}`, token, { headers });
}

/** POST /metadata/metadata-submit/ */
export function submit(portal: TestPortal, token: string | null, id: string, headers: Record<string, string> = {}) {
  return call(portal, 'POST', '/metadata/metadata-submit/', token, { body: { id }, headers });
}

/** POST /metadata/return-draft/ */
export function returnToDraft(portal: TestPortal, token: string | null, id: string, headers: Record<string, string> = {}) {
  return call(portal, 'POST', '/metadata/return-draft/', token, { body: { id }, headers });
}

/** Rows of a table, for checks that a refused write left nothing behind. */
export async function countRows(portal: TestPortal, table: string, where: Record<string, string> = {}): Promise<number> {
  let query = (portal.database.db as any).selectFrom(table).select((eb: any) => eb.fn.countAll().as('count'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

export type Part = string | { filename: string; content: Uint8Array | string; type?: string };

/** A multipart body built by the platform's own FormData, as a browser would send it. */
export async function multipart(parts: [string, Part][]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const data = new FormData();
  for (const [name, part] of parts) {
    if (typeof part === 'string') data.append(name, part);
    else {
      const content = typeof part.content === 'string' ? part.content : new Uint8Array(part.content);
      data.append(name, new Blob([content], { type: part.type ?? 'application/octet-stream' }), part.filename);
    }
  }
  const request = new Request('http://portal.invalid/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}
