import type { Statistics } from '../orders/api';

export type Period = Statistics['by'];
export type UsagePoint = Statistics['series'][number];

/** The period after `period` ('YYYY-MM-DD' by day, 'YYYY-MM' by month), reckoned in UTC as the server's days are. */
function nextPeriod(period: string, by: Period): string {
  if (by === 'month') {
    const [year, month] = period.split('-').map(Number) as [number, number];
    return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
  }
  const day = new Date(`${period}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/**
 * The server's series (only the periods something was counted in, in order) with every period between
 * the first and the last filled in with zeros, so that the time axis is true to the calendar.
 */
export function fillSeries(series: UsagePoint[], by: Period): UsagePoint[] {
  if (series.length === 0) return [];
  const counted = new Map(series.map((point) => [point.period, point]));
  const last = series[series.length - 1]!.period;
  const filled: UsagePoint[] = [];
  for (let period = series[0]!.period; period <= last; period = nextPeriod(period, by)) {
    filled.push(counted.get(period) ?? { period, views: 0, downloads: 0, orders: 0 });
  }
  return filled;
}
