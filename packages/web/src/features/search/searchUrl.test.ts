import { describe, expect, it } from 'vitest';
import { apiParams, countFilters, emptySearch, pageWindow, parseSearch, serializeSearch, toggleFilter, withoutFilters } from './searchUrl';

const parse = (query: string) => parseSearch(new URLSearchParams(query));

describe("the search page's address", () => {
  it('is empty for an empty search', () => {
    expect(serializeSearch(emptySearch()).toString()).toBe('');
    expect(parse('')).toEqual(emptySearch());
  });

  it("reads every parameter of the API's query, and the map view", () => {
    const state = parse('q=glacier&theme=ice&theme=snow&place=antarctica&year=2024&start=1990&end=2020-12&bbox=170,-80,-170,-70&sort=newest&page=3&map=antarctic');
    expect(state).toMatchObject({
      q: 'glacier',
      start: '1990',
      end: '2020-12',
      bbox: { west: 170, south: -80, east: -170, north: -70 },
      sort: 'newest',
      page: 3,
      map: 'antarctic',
    });
    expect(state.filters.theme).toEqual(['ice', 'snow']);
    expect(state.filters.place).toEqual(['antarctica']);
    expect(state.filters.year).toEqual(['2024']);
  });

  it('takes lists as the API does: repeated or comma-separated, without blanks or repeats', () => {
    expect(parse('theme=ice,snow&theme=ice&theme=').filters.theme).toEqual(['ice', 'snow']);
  });

  it('drops what the catalogue cannot take, and keeps the rest', () => {
    const state = parse('q=%20glacier%20&sort=best&page=-2&bbox=1,2,3&year=recent&map=moon&start=yesterday');
    expect(state).toMatchObject({ q: 'glacier', sort: null, page: 1, bbox: null, map: null, start: '' });
    expect(state.filters.year).toEqual([]);
  });

  it("writes back what it read, map view last and outside the API's parameters", () => {
    const query = 'q=%E5%86%B0%E5%B7%9D&place=antarctica&bbox=-180%2C-90%2C180%2C-60&sort=views&page=2&map=antarctic';
    expect(serializeSearch(parse(query)).toString()).toBe(query);
    expect(apiParams(parse(query))).toEqual([
      ['q', '冰川'],
      ['place', 'antarctica'],
      ['bbox', '-180,-90,180,-60'],
      ['sort', 'views'],
      ['page', '2'],
    ]);
  });

  it('rounds a drawn box to four decimals', () => {
    const state = { ...emptySearch(), bbox: { west: 12.345678, south: -89.99999, east: -170.00001, north: 10 } };
    expect(apiParams(state)).toEqual([['bbox', '12.3457,-90,-170,10']]);
  });
});

describe('changing the search', () => {
  it('adds and removes a facet value, back to the first page', () => {
    const state = { ...parse('q=glacier&page=4'), page: 4 };
    const narrowed = toggleFilter(state, 'place', 'antarctica');
    expect(narrowed.filters.place).toEqual(['antarctica']);
    expect(narrowed.page).toBe(1);
    expect(toggleFilter(narrowed, 'place', 'antarctica').filters.place).toEqual([]);
  });

  it('counts and clears the filters, keeping the words and the map', () => {
    const state = parse('q=glacier&place=a&theme=b&start=2000&bbox=0,0,10,10&map=global');
    expect(countFilters(state)).toBe(4);
    const cleared = withoutFilters(state);
    expect(countFilters(cleared)).toBe(0);
    expect(cleared).toMatchObject({ q: 'glacier', map: 'global' });
  });
});

describe('pageWindow', () => {
  it('offers the first, the last and two pages either side, with gaps', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pageWindow(2, 20)).toEqual([1, 2, 3, 4, null, 20]);
  });
});
