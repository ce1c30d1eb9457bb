import { CSRF_HEADER, languageFromPath } from '@portal/shared';
import { readCookie } from './cookies';

/**
 * The one HTTP client (spec section 7). The login token is an HttpOnly cookie the server sets (no
 * script reads it): every request goes with credentials, the `Personal` header (false on admin
 * paths) and the page's language; every request but a GET repeats the `csrftoken` cookie in the
 * CSRF header, which the server asks of a request authenticated by the cookie.
 * GET adds a random `_r` and sends arrays as `name[]`. Replies: 204 gives undefined; 4xx JSON gets
 * `request_error: {status}`; 5xx gives the text plus `request_error`. Only JSON and HTML are read.
 * Paths come from api/routes.ts; in development builds replies are checked against their contracts.
 */
export interface RequestError {
  request_error: { status: number };
}

export type Reply<T> = (T & Partial<RequestError>) | undefined;

export class UnsupportedContentTypeError extends Error {
  constructor(readonly contentType: string) {
    super(`Unsupported content type: ${contentType || 'none'}`);
    this.name = 'UnsupportedContentTypeError';
  }
}

type Params = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

export interface RequestOptions {
  params?: Params;
  json?: unknown;
  form?: Record<string, string | number | boolean | undefined>;
  /** Overrides the Personal header. */
  personal?: boolean;
}

export function buildQuery(params: Params = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(`${key}[]`, String(item));
    else search.append(key, String(value));
  }
  search.append('_r', String(Math.random()));
  return search.toString();
}

export function isRequestError(reply: unknown): reply is RequestError & Record<string, unknown> {
  return typeof reply === 'object' && reply !== null && 'request_error' in reply;
}

export async function request<T = Record<string, unknown>>(method: string, url: string, options: RequestOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json, text/html',
    'Accept-Language': languageFromPath(location.pathname),
    Personal: String(options.personal ?? !location.pathname.split('/').includes('admin')),
  };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const fields = new URLSearchParams();
    for (const [key, value] of Object.entries(options.form)) if (value !== undefined) fields.append(key, String(value));
    body = fields.toString();
  }
  const csrf = readCookie('csrftoken');
  if (method !== 'GET' && csrf) headers[CSRF_HEADER] = csrf;
  const target = method === 'GET' ? `${url}${url.includes('?') ? '&' : '?'}${buildQuery(options.params)}` : url;

  const response = await fetch(target, { method, headers, body, credentials: 'include' });
  if (response.status === 204) return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status >= 500) {
    const text = await response.text();
    let detail: string | undefined;
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail;
    } catch {
      detail = undefined;
    }
    return { text, detail, request_error: { status: response.status } } as unknown as Reply<T>;
  }
  if (contentType.includes('application/json')) {
    const data = (await response.json()) as T & Partial<RequestError>;
    if (response.status >= 400) return { ...data, request_error: { status: response.status } };
    // Development builds check the reply against its route's contract; production builds drop this line and the module.
    if (import.meta.env.DEV) (await import('./replyContracts')).checkReply(method, url, data);
    return data;
  }
  if (contentType.includes('text/html')) {
    const text = await response.text();
    return (response.status >= 400 ? { text, request_error: { status: response.status } } : { text }) as unknown as Reply<T>;
  }
  throw new UnsupportedContentTypeError(contentType);
}

export const api = {
  get: <T>(url: string, params?: Params, options: Omit<RequestOptions, 'params'> = {}) => request<T>('GET', url, { ...options, params }),
  postJson: <T>(url: string, json: unknown) => request<T>('POST', url, { json }),
  postForm: <T>(url: string, form: RequestOptions['form']) => request<T>('POST', url, { form }),
  put: <T>(url: string, json: unknown) => request<T>('PUT', url, { json }),
  patch: <T>(url: string, json: unknown) => request<T>('PATCH', url, { json }),
  delete: <T>(url: string) => request<T>('DELETE', url),
};

/** A failed reply as an Error carrying the server's text, so that queries and mutations can show it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reply: Record<string, unknown>,
  ) {
    super(typeof reply.detail === 'string' ? reply.detail : `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** The reply, or an ApiError thrown for a 4xx / 5xx one. */
export function ok<T>(reply: unknown): T {
  if (isRequestError(reply)) throw new ApiError(reply.request_error.status, reply);
  return reply as T;
}
