import { useQuery } from '@tanstack/react-query';
import type { CatalogueStats, HotItem } from '@portal/shared';
import { api, ok } from '../../api/client';
import { path } from '../../api/routes';
import { takeEmbedded } from '../../app/embedded';

/** The hot data list of spec section 1: the top 10 published records by downloads, then views. */
export const HOT_LIST_LENGTH = 10;
/** The most viewed list of spec section 1: the top 5. */
export const MOST_VIEWED_LENGTH = 5;

/** GET /api/metadata/hot/ (`hotReplySchema`): the first 10 are shown, as the spec's client does. */
export function useHotData() {
  return useQuery({
    queryKey: ['home', 'hot'],
    queryFn: async () => ok<{ results: HotItem[] }>(await api.get(path('hot'))).results.slice(0, HOT_LIST_LENGTH),
    // The home page's HTML carries the list as the API gives it (plugins/web.ts).
    initialData: () => takeEmbedded<{ results: HotItem[] }>('portal-home', 'hot')?.results.slice(0, HOT_LIST_LENGTH),
    initialDataUpdatedAt: () => Date.now(),
    staleTime: 60_000,
  });
}

/** GET /api/metadata/catalogue-stats/ (`catalogueStatsSchema`): the counts, the newest and the most viewed. */
export function useCatalogueStats() {
  return useQuery({
    queryKey: ['home', 'catalogue-stats'],
    queryFn: async () => ok<CatalogueStats>(await api.get(path('catalogueStats'))),
    initialData: () => takeEmbedded<CatalogueStats>('portal-home', 'stats'),
    initialDataUpdatedAt: () => Date.now(),
    staleTime: 60_000,
  });
}
