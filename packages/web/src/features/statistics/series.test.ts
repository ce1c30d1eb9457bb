import { describe, expect, it } from 'vitest';
import { fillSeries } from './series';

const point = (period: string, views = 0, downloads = 0, orders = 0) => ({ period, views, downloads, orders });

describe('fillSeries', () => {
  it('gives nothing for an empty series', () => {
    expect(fillSeries([], 'day')).toEqual([]);
  });

  it('fills the days between the first and the last with zeros, across a month and a leap day', () => {
    const filled = fillSeries([point('2024-02-27', 3), point('2024-03-02', 0, 1, 1)], 'day');
    expect(filled.map((p) => p.period)).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02']);
    expect(filled[0]).toEqual(point('2024-02-27', 3));
    expect(filled[2]).toEqual(point('2024-02-29'));
    expect(filled[4]).toEqual(point('2024-03-02', 0, 1, 1));
  });

  it('fills the months across a year end', () => {
    const filled = fillSeries([point('2023-11', 2), point('2024-02', 5)], 'month');
    expect(filled.map((p) => p.period)).toEqual(['2023-11', '2023-12', '2024-01', '2024-02']);
    expect(filled[1]).toEqual(point('2023-12'));
  });

  it('keeps a single period as it is', () => {
    expect(fillSeries([point('2025-06-30', 1, 2, 3)], 'day')).toEqual([point('2025-06-30', 1, 2, 3)]);
  });
});
