import type { ApplyRole, Statistics } from '@portal/shared';
import type { AuthenticatedUser } from '../account/index.js';
import type { UsageRepo } from './usage.repo.js';

/** A dataset's titles and language, as the orders show them (the Apply Statistics page lists them). */
export type DatasetTitles = (ids: string[]) => Promise<Map<string, { title: string; title_en: string; language: string }>>;

/** Views, downloads and orders of a record by day or month, and downloads and orders by country. */
export async function recordStatistics(repo: UsageRepo, metadataId: string, by: 'day' | 'month'): Promise<Omit<Statistics, 'title' | 'title_en'>> {
  const series = await repo.series(metadataId, by);
  const periods = new Map<string, { period: string; views: number; downloads: number; orders: number }>();
  for (const row of series) {
    const entry = periods.get(row.period) ?? { period: row.period, views: 0, downloads: 0, orders: 0 };
    entry[row.kind === 'view' ? 'views' : row.kind === 'download' ? 'downloads' : 'orders'] += Number(row.count);
    periods.set(row.period, entry);
  }
  const countries = await repo.countries(metadataId);
  const byCountry = new Map<string, { country: string; downloads: number; orders: number }>();
  for (const row of countries) {
    const entry = byCountry.get(row.country) ?? { country: row.country, downloads: 0, orders: 0 };
    entry[row.kind === 'download' ? 'downloads' : 'orders'] += Number(row.count);
    byCountry.set(row.country, entry);
  }
  const record = await repo.counters(metadataId);
  const orders = await repo.orderCount(metadataId);
  return {
    metadata_id: metadataId,
    by,
    // The record's counters hold what was counted before the daily counts existed too.
    totals: { views: Number(record?.hit_count ?? 0), downloads: Number(record?.download_count ?? 0), orders },
    series: [...periods.values()].sort((a, b) => a.period.localeCompare(b.period)),
    countries: [...byCountry.values()].sort((a, b) => b.downloads + b.orders - (a.downloads + a.orders) || a.country.localeCompare(b.country)),
  };
}

/** The Apply Statistics page: each role's totals, and one role's datasets, most downloaded first. */
export async function applyStatistics(repo: UsageRepo, user: AuthenticatedUser, role: ApplyRole, slice: { offset: number; limit: number }, titles: DatasetTitles) {
  const roles = [];
  for (const each of ['provider', 'author', 'assessor'] as const) roles.push(await repo.roleTotals(user, each));
  const rows = await repo.roleDatasets(user, role, slice);
  const facts = await titles(rows.map((r) => r.id));
  return {
    count: roles.find((r) => r.role === role)!.datasets,
    roles,
    results: rows.map((row) => {
      const dataset = facts.get(row.id);
      return {
        metadata_id: row.id,
        title: dataset?.title ?? '',
        title_en: dataset?.title_en ?? '',
        language: dataset?.language ?? '',
        views: Number(row.hit_count),
        downloads: Number(row.download_count),
        orders: Number(row.orders ?? 0),
        waiting: Number(row.waiting ?? 0),
      };
    }),
  };
}
