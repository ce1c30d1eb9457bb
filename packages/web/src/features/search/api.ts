import type { SearchReply, SuggestReply } from '@portal/shared/contracts/search';
import { api, isRequestError, type Reply } from '../../api/client';
import { path } from '../../api/routes';
import { takeEmbedded } from '../../app/embedded';

/** The search page's calls. Types only from the contract: the page does not load zod. */

/** A refused or failed call, with the server's message in the page's language when it gave one. */
export class SearchError extends Error {
  constructor(readonly detail: string | undefined) {
    super(detail ?? 'search failed');
    this.name = 'SearchError';
  }
}

function unwrap<T>(reply: Reply<T>): T {
  if (!reply || isRequestError(reply)) {
    const fields = reply as Record<string, unknown> | undefined;
    // DRF style: `detail`, or `{field: [message]}` for a refused parameter.
    const fieldMessage = Object.values(fields ?? {})
      .filter(Array.isArray)
      .flat()
      .find((v): v is string => typeof v === 'string');
    const detail = typeof fields?.detail === 'string' ? fields.detail : fieldMessage;
    throw new SearchError(detail);
  }
  return reply;
}

/** Repeated parameters (`theme=a&theme=b`) as the client's arrays (`theme[]`), which the server reads alike. */
function paramsOf(pairs: [string, string][]): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const existing = params[name];
    params[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return params;
}

export async function fetchSearch(pairs: [string, string][]): Promise<SearchReply> {
  return unwrap(await api.get<SearchReply>(path('search'), paramsOf(pairs)));
}

export async function fetchSuggestions(q: string): Promise<SuggestReply['results']> {
  return unwrap(await api.get<SuggestReply>(path('suggest'), { q })).results;
}

/** The first results the server wrote into the search page (plugins/web.ts), for this very address. */
export function embeddedSearch(): SearchReply | undefined {
  return takeEmbedded<SearchReply>('portal-search', 'reply', (data) => data.search === location.search);
}
