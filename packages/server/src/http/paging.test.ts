import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pagingQuery, toPage } from './paging.js';

const request = (url: string) => ({ url }) as FastifyRequest;

describe('pagingQuery', () => {
  it('defaults to page 1 of 10', () => {
    expect(pagingQuery.parse({})).toEqual({ page: 1, pageSize: 10 });
  });

  it('reads numbers from query text', () => {
    expect(pagingQuery.parse({ page: '3', pageSize: '50' })).toEqual({ page: 3, pageSize: 50 });
  });

  it('refuses values out of range or not whole numbers', () => {
    for (const query of [{ page: '0' }, { page: '-1' }, { page: '1.5' }, { page: 'x' }, { pageSize: '0' }, { pageSize: '1001' }]) {
      const result = pagingQuery.safeParse(query);
      expect(result.success, JSON.stringify(query)).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('validation.invalid');
    }
    expect(pagingQuery.safeParse({ pageSize: '1000' }).success).toBe(true);
  });
});

describe('toPage', () => {
  it('has no links when everything fits on one page', () => {
    expect(toPage(request('/api/x/'), { page: 1, pageSize: 10 }, 3, ['a', 'b', 'c'])).toEqual({
      count: 3,
      next: null,
      previous: null,
      results: ['a', 'b', 'c'],
    });
  });

  it('links the neighbouring pages, keeping the other parameters and dropping _r', () => {
    const page = toPage(request('/api/x/?search=ice&_r=0.5&page=2&pageSize=2'), { page: 2, pageSize: 2 }, 5, []);
    expect(page.next).toBe('/api/x/?search=ice&page=3&pageSize=2');
    expect(page.previous).toBe('/api/x/?search=ice&page=1&pageSize=2');
  });

  it('has no next link on the last page', () => {
    const page = toPage(request('/api/x/?page=3&pageSize=2'), { page: 3, pageSize: 2 }, 5, []);
    expect(page.next).toBeNull();
    expect(page.previous).toBe('/api/x/?page=2&pageSize=2');
  });

  it('points back to the last page from past the end', () => {
    const page = toPage(request('/api/x/?page=7&pageSize=2'), { page: 7, pageSize: 2 }, 5, []);
    expect(page.next).toBeNull();
    expect(page.previous).toBe('/api/x/?page=3&pageSize=2');
  });

  it('has no links for an empty list', () => {
    const page = toPage(request('/api/x/'), { page: 1, pageSize: 10 }, 0, []);
    expect(page).toEqual({ count: 0, next: null, previous: null, results: [] });
  });
});
