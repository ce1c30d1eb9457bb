import type { z } from 'zod';
import type { ApplyRole, applyStatisticsSchema } from '@portal/shared/contracts/orders';
import { api, ok } from '../../api/client';
import { path } from '../../api/routes';

/**
 * The Apply Statistics call (its shape inferred from the shared contract). A record's own statistics
 * are `ordersApi.statistics`, declared with the other order calls.
 */

export type ApplyStatistics = z.infer<typeof applyStatisticsSchema>;
export type ApplyDataset = ApplyStatistics['results'][number];
export type RoleCounts = ApplyStatistics['roles'][number];

export interface ApplyQuery {
  role: ApplyRole;
  page: number;
  pageSize: number;
}

export const statisticsApi = {
  applyStatistics: async (query: ApplyQuery) => ok<ApplyStatistics>(await api.get(path('applyStatistics'), { ...query })),
};

export const statisticsKeys = {
  apply: (query: ApplyQuery) => ['statistics', 'apply', query] as const,
};
