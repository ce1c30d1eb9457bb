import type { z } from 'zod';
import {
  CSRF_HEADER,
  languageFromPath,
  type Author,
  type droppedSchema,
  type Language,
  type MetadataRecord,
  type MetadataTranslation as Translation,
  type Page,
  type projectionsSchema,
  type returnToDraftSchema,
  type SubmitCheck,
  type SubmitDone,
} from '@portal/shared';
import { ApiError, api, isRequestError, ok, request } from '../../api/client';
import { path } from '../../api/routes';
import { readCookie } from '../../api/cookies';

/**
 * Calls of the metadata editor and lists (spec section 7), on the one client of api/client.ts. The
 * shapes of their replies are the shared contracts' (`contracts/metadata-replies.ts`).
 */

export type {
  Author,
  AuthorI18n,
  Citation,
  Fund,
  Keyword,
  KeywordStandard,
  Literature,
  Media,
  MetaAuthor,
  MetadataRecord,
  MetadataTranslation as Translation,
  MetaFund,
  MetaKeywordStandard,
  Page,
  StoredFile,
  SubmitCheck,
} from '@portal/shared';

// The reply checks moved to the one HTTP client; the editor and review screens import them from here too.
export { ApiError, ok };

export const base = (name: string) => path('resources', { name });

export const metadataApi = {
  list: async (params: Record<string, string | number | string[]>) => ok<Page<MetadataRecord>>(await api.get(base('metadata'), params)),
  get: async (id: string) => ok<MetadataRecord>(await api.get(path('record', { id }))),
  create: async (language: Language) => ok<MetadataRecord>(await api.postJson(base('metadata'), { language })),
  update: async (id: string, changes: Record<string, unknown>) => ok<MetadataRecord>(await api.put(path('record', { id }), changes)),
  remove: async (id: string) => ok<undefined>(await api.delete(path('record', { id }))),
  checkSubmit: async (id: string) => ok<SubmitCheck>(await api.get(path('submit'), { id })),
  /** The POST answers 400 with the same shape as the check when something is missing. */
  submit: async (id: string) => {
    const reply = await api.postJson<SubmitDone>(path('submit'), { id });
    if (isRequestError(reply) && reply.request_error.status === 400 && Array.isArray(reply.msg)) return reply as unknown as SubmitCheck;
    return ok<SubmitDone>(reply);
  },
  returnToDraft: async (id: string) => ok<z.infer<typeof returnToDraftSchema>>(await api.postJson(path('returnToDraft'), { id })),
  /** Deletes the draft when the server finds it empty and never changed (the editor being left). */
  dropIfEmpty: async (id: string) => ok<z.infer<typeof droppedSchema>>(await api.postJson(path('dropEmptyDraft'), { id })),
  /** The record's versions in other languages (metadata-i18n), read afresh: the Overview and the Translations tab both edit them. */
  translations: async (id: string) => ok<Page<Translation>>(await api.get(base('metadata-i18n'), { metadata__id: id, pageSize: 100 })),
  projections: async () => ok<z.infer<typeof projectionsSchema>>(await api.get(path('projections'))),
};

/** The generic attached resources: /api/metadata/<name>/ and <name>/<id>/. */
export const resource = {
  list: async <T>(name: string, params: Record<string, string | number> = {}) => ok<Page<T>>(await api.get(base(name), { pageSize: 100, ...params })),
  create: async <T>(name: string, body: Record<string, unknown>) => ok<T>(await api.postJson(base(name), body)),
  update: async <T>(name: string, id: string, body: Record<string, unknown>) => ok<T>(await request('PATCH', path('resourceItem', { name, id }), { json: body })),
  remove: async (name: string, id: string) => ok<undefined>(await api.delete(path('resourceItem', { name, id }))),
};

export const likeAuthor = async (text: string) => ok<Page<Author>>(await api.get(path('likeAuthor'), { like_author: text, pageSize: 20 }));
export const unlinkKeyword = async (metadata: string, keyword: string) =>
  ok<undefined>(await request('DELETE', `${path('unlinkKeyword')}?${new URLSearchParams({ metadata, keyword })}`));

/** The headers api/client.ts sends, for the calls it cannot make (multipart uploads, text replies). */
function plainHeaders(state: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json, text/plain, text/html',
    'Accept-Language': languageFromPath(location.pathname),
    Personal: 'true',
  };
  const csrf = readCookie('csrftoken');
  if (state && csrf) headers[CSRF_HEADER] = csrf;
  return headers;
}

/**
 * A JSON write that outlives the page (`keepalive`), for the moment the page is being closed:
 * nothing can wait for its answer. False when the browser refused to send it (a body over 64 KB).
 */
export function sendOnUnload(method: 'PUT' | 'PATCH', url: string, json: unknown): boolean {
  try {
    void fetch(url, {
      method,
      headers: { ...plainHeaders(true), Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
      credentials: 'include',
      keepalive: true,
    }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/** The server's text of a failed reply, if it gave one. */
async function errorText(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as Record<string, unknown>;
    if (typeof body.detail === 'string') return body.detail;
    const first = Object.values(body).find((v) => Array.isArray(v) && typeof v[0] === 'string') as string[] | undefined;
    return first?.[0];
  } catch {
    return undefined;
  }
}

/** A multipart upload (`metadata` first, then the other fields, `file` last). Throws with the server's text. */
export async function uploadFile(url: string, metadata: string, file: File, fields: Record<string, string> = {}): Promise<unknown> {
  const body = new FormData();
  body.append('metadata', metadata);
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append('file', file);
  const response = await fetch(url, { method: 'POST', headers: plainHeaders(true), body, credentials: 'include' });
  if (!response.ok) throw new Error((await errorText(response)) ?? '');
  return response.headers.get('content-type')?.includes('application/json') ? response.json() : undefined;
}

/** Deleting a stored file counts as done only when the server answers the text `ok` (spec section 5). */
export async function deleteStored(name: string, id: string): Promise<boolean> {
  try {
    const response = await fetch(path('resourceItem', { name, id }), { method: 'DELETE', headers: plainHeaders(true), credentials: 'include' });
    return response.ok && (await response.text()).trim() === 'ok';
  } catch {
    return false;
  }
}

export const recordKey = (id: string) => ['metadata', 'record', id] as const;
/** The record's metadata-i18n rows; one cache entry for the Overview and the Translations tab. */
export const translationsKey = (id: string) => ['metadata', 'translations', id] as const;

/** What every editor tab gets. */
export interface EditorTabProps {
  record: MetadataRecord;
  readOnly: boolean;
}
