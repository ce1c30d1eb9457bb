import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from '@portal/shared';
import type { FastifyRequest } from 'fastify';

/** DRF-style paging parameters: `page` from 1, `pageSize` up to MAX_PAGE_SIZE. */
export const pagingQuery = z.object({
  page: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').default(DEFAULT_PAGE),
  pageSize: z.coerce
    .number({ error: 'validation.invalid' })
    .int('validation.invalid')
    .min(1, 'validation.invalid')
    .max(MAX_PAGE_SIZE, 'validation.invalid')
    .default(DEFAULT_PAGE_SIZE),
});
export type Paging = z.infer<typeof pagingQuery>;

/** Builds `{count, next, previous, results}` with links that keep the caller's other parameters. */
export function toPage<T>(request: FastifyRequest, paging: Paging, count: number, results: T[]): Page<T> {
  return toPageAt(request.url, paging, count, results);
}

/** The same, for the address `address` (a path with its query), whose links the page's are. */
export function toPageAt<T>(address: string, paging: Paging, count: number, results: T[]): Page<T> {
  const link = (page: number) => {
    const url = new URL(address, 'http://portal.invalid');
    url.searchParams.delete('_r');
    url.searchParams.set('page', String(page));
    return `${url.pathname}${url.search}`;
  };
  const lastPage = Math.max(1, Math.ceil(count / paging.pageSize));
  return {
    count,
    next: paging.page < lastPage ? link(paging.page + 1) : null,
    previous: paging.page > 1 ? link(Math.min(paging.page - 1, lastPage)) : null,
    results,
  };
}
