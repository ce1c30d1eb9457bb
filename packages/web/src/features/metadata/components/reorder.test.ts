import { describe, expect, it } from 'vitest';
import { renumberAfterMove } from './reorder';

const rows = (...sorts: number[]) => sorts.map((sort, i) => ({ id: String.fromCharCode(97 + i), sort }));

describe('renumberAfterMove', () => {
  it('swaps two neighbours of a list numbered 0..n-1, writing only those two', () => {
    expect(renumberAfterMove(rows(0, 1, 2, 3), 2, -1)).toEqual([
      { id: 'c', sort: 1 },
      { id: 'b', sort: 2 },
    ]);
  });

  it('numbers the whole list when sort values are equal', () => {
    expect(renumberAfterMove(rows(0, 0, 0), 2, -1)).toEqual([
      { id: 'c', sort: 1 },
      { id: 'b', sort: 2 },
    ]);
  });

  it('numbers the whole list when sort values have gaps', () => {
    expect(renumberAfterMove(rows(0, 5, 9, 12), 0, 1)).toEqual([
      { id: 'b', sort: 0 },
      { id: 'a', sort: 1 },
      { id: 'c', sort: 2 },
      { id: 'd', sort: 3 },
    ]);
  });

  it('moves nothing past either end', () => {
    expect(renumberAfterMove(rows(0, 1), 0, -1)).toEqual([]);
    expect(renumberAfterMove(rows(0, 1), 1, 1)).toEqual([]);
  });
});
