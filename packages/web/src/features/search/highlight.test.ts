import { describe, expect, it } from 'vitest';
import { highlightParts } from './highlight';

describe('highlightParts', () => {
  it('marks the ranges and keeps the text between them', () => {
    expect(
      highlightParts('Glacier mass of glaciers', [
        [0, 7],
        [16, 24],
      ]),
    ).toEqual([
      { text: 'Glacier', marked: true },
      { text: ' mass of ', marked: false },
      { text: 'glaciers', marked: true },
    ]);
  });

  it('marks Chinese characters by their offsets', () => {
    expect(highlightParts('青藏高原冰川变化', [[4, 6]])).toEqual([
      { text: '青藏高原', marked: false },
      { text: '冰川', marked: true },
      { text: '变化', marked: false },
    ]);
  });

  it('is the whole text unmarked without ranges', () => {
    expect(highlightParts('Snow', [])).toEqual([{ text: 'Snow', marked: false }]);
    expect(highlightParts('', [[0, 3]])).toEqual([]);
  });

  it('survives unsorted, overlapping and out-of-range ranges', () => {
    expect(
      highlightParts('abcdef', [
        [4, 9],
        [1, 3],
        [2, 4],
        [5, 5],
      ]),
    ).toEqual([
      { text: 'a', marked: false },
      { text: 'bc', marked: true },
      { text: 'd', marked: true },
      { text: 'ef', marked: true },
    ]);
  });
});
