import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  MAX_PAGE_SIZE,
  type Citation,
  type Language,
  type Media,
  type MetadataRecord,
  type MetaAuthor,
  type MetaFund,
  type Page,
  type RecordTables,
  type StoredFile,
  type Tombstone,
} from '@portal/shared';
import type { metaKeywordSchema } from '@portal/shared/contracts/metadata-replies';
import { api, ApiError, ok } from '../../api/client';
import { path } from '../../api/routes';

/**
 * The landing page's calls, each public for a published record (types only from the contracts:
 * the page does not load zod). GET of the record counts the visit as a view (search.service's
 * countView: once per visitor in 30 seconds, never robots, never the record's own creator).
 */

export type MetaKeyword = z.infer<typeof metaKeywordSchema>;
export type FilePage = Page<StoredFile> & { total_size: number };

/** Data files shown at once; the server gives the count and the bytes of all of them. */
export const FILES_PAGE_SIZE = 20;

const byRecord = (id: string, extra: Record<string, string | number> = {}) => ({ metadata__id: id, pageSize: MAX_PAGE_SIZE, ...extra });
const list = async <T>(url: string, params: Record<string, string | number>) => ok<Page<T>>(await api.get(url, params)).results;

/** Not found is an answer here (the page then says so), not an error to retry. */
const notFoundIsNull =
  <T>(load: () => Promise<T>) =>
  async (): Promise<T | null> => {
    try {
      return await load();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  };

/** The record (counts the visit as a view, once: it is not fetched again while the page is open). */
const recordQuery = (id: string) => ({
  queryKey: ['landing', id, 'record'],
  queryFn: notFoundIsNull(async () => ok<MetadataRecord>(await api.get(path('record', { id })))),
  staleTime: Infinity,
  retry: (count: number, error: Error) => !(error instanceof ApiError && error.status < 500) && count < 2,
});

export function useRecord(id: string) {
  return useQuery(recordQuery(id));
}

/** What stays public of an unpublished record; null for any other. */
export function useTombstone(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['landing', id, 'tombstone'],
    queryFn: notFoundIsNull(async () => ok<Tombstone>(await api.get(path('tombstone', { id })))),
    enabled,
    staleTime: Infinity,
  });
}

// Not retried three times over seconds: the page waits for some of them before it is drawn.
const ATTACHED = { staleTime: 300_000, retry: 1 };
const authorsQuery = (id: string) => ({
  ...ATTACHED,
  queryKey: ['landing', id, 'authors'],
  queryFn: () => list<MetaAuthor>(path('resources', { name: 'meta-author' }), byRecord(id)),
});
const thumbnailQuery = (id: string) => ({
  ...ATTACHED,
  queryKey: ['landing', id, 'thumbnail'],
  queryFn: async () => (await list<Media>(path('resources', { name: 'meta-media' }), byRecord(id, { type: 'thumbnail', pageSize: 1 })))[0] ?? null,
});

/** The record's attached rows (public for a published record; empty or refused for any other). */
export function useAttached(id: string, enabled: boolean) {
  const options = { ...ATTACHED, enabled };
  return {
    authors: useQuery({ ...authorsQuery(id), enabled }),
    keywords: useQuery({ ...options, queryKey: ['landing', id, 'keywords'], queryFn: () => list<MetaKeyword>(path('resources', { name: 'meta-keyword' }), byRecord(id)) }),
    funds: useQuery({ ...options, queryKey: ['landing', id, 'funds'], queryFn: () => list<MetaFund>(path('resources', { name: 'meta-fund' }), byRecord(id)) }),
    literature: useQuery({ ...options, queryKey: ['landing', id, 'literature'], queryFn: () => list<Citation>(path('resources', { name: 'citation' }), byRecord(id)) }),
    documents: useQuery({ ...options, queryKey: ['landing', id, 'documents'], queryFn: () => list<StoredFile>(path('resources', { name: 'meta-attach' }), byRecord(id)) }),
    thumbnail: useQuery({ ...thumbnailQuery(id), enabled }),
  };
}

/**
 * What the landing page waits for before it is drawn (the record, the thumbnail, the people),
 * asked before the first render when the server wrote the page's first screen (publicRouter.tsx):
 * the app then draws the whole page over it at once, never a spinner in its place. A failure is
 * left to the page, which shows it.
 */
export async function prefetchLanding(client: QueryClient, id: string): Promise<void> {
  await Promise.all([client.prefetchQuery(recordQuery(id)), client.prefetchQuery(authorsQuery(id)), client.prefetchQuery(thumbnailQuery(id))]);
}

/** One page of the data files, with the count and total size of all of them. */
export function useFilePage(id: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['landing', id, 'files', page],
    queryFn: async () => ok<FilePage>(await api.get(path('recordFiles'), { metadata__id: id, page, pageSize: FILES_PAGE_SIZE })),
    enabled,
    staleTime: 300_000,
    placeholderData: keepPreviousData,
  });
}

/** A citation as text (the export call answers text/plain), in the page's language. */
export function useCitationText(id: string, style: 'apa' | 'gbt7714', language: Language) {
  return useQuery({
    queryKey: ['landing', id, 'cite', style, language],
    queryFn: async () => {
      const response = await fetch(exportUrl(id, style, language), { headers: { Accept: 'text/plain', 'Accept-Language': language } });
      if (!response.ok) throw new ApiError(response.status, {});
      return (await response.text()).trim();
    },
    staleTime: 300_000,
  });
}

/** The address of one of a published record's exports (a download). */
export const exportUrl = (id: string, format: string, language: Language) => `${path('recordExport', { id })}?format=${format}&lang=${language}`;

/** A published record's tables with their columns (issue 20); nothing for a record that has none. */
export function useRecordTables(id: string) {
  return useQuery({
    queryKey: ['landing', id, 'tables'],
    queryFn: async () => ok<RecordTables>(await api.get(path('recordTables', { id }))).results,
    staleTime: 300_000,
    retry: 1,
  });
}
