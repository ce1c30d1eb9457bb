import type { DataciteConfig } from '../../config.js';

/**
 * DataCite's REST API for a repository account (https://support.datacite.org/docs/api-create-dois):
 * JSON:API bodies (`application/vnd.api+json`), HTTP basic authentication with the repository's id
 * and password. What the portal uses of it:
 * - `POST /dois` with `{data: {type: "dois", attributes: {doi, event, url, xml}}}` creates a DOI
 *   (201); `event: "publish"` makes it findable at once, `xml` is the DataCite XML in base64;
 * - `PUT /dois/{doi}` updates it (200), or creates it when DataCite has none (201); `event: "hide"`
 *   turns a findable DOI into a registered one (a findable DOI cannot be deleted), `"publish"` back;
 * - failures answer `{errors: [{status?, source?, title}]}`: 401 "Bad credentials.", 404, 422 with
 *   one entry per problem (an XML schema error names its element in `source`), 5xx.
 */

export type DataciteEvent = 'publish' | 'register' | 'hide';

export interface DoiAttributes {
  doi?: string;
  event?: DataciteEvent;
  url?: string;
  /** The DataCite XML, which this client encodes in base64. */
  xml?: string;
}

/** One entry of DataCite's `errors[]`. */
export interface DataciteProblem {
  status?: string;
  source?: string;
  title: string;
}

/** A call DataCite refused (status 4xx / 5xx) or did not answer (status 0: timeout, network). */
export class DataciteError extends Error {
  constructor(
    readonly status: number,
    readonly problems: DataciteProblem[],
  ) {
    super(`DataCite ${status || 'no reply'}: ${problems.map((p) => (p.source ? `${p.source}: ${p.title}` : p.title)).join('; ')}`);
  }

  /** DataCite says the DOI exists already (a POST of a DOI an earlier try created). */
  get isTaken(): boolean {
    return this.status === 422 && this.problems.some((p) => /already been taken/i.test(p.title));
  }
}

/** What DataCite holds after a call: the DOI (lower-cased by DataCite) and its state. */
export interface DoiReply {
  status: number;
  doi: string;
  /** draft, registered or findable. */
  state: string;
}

const JSON_API = 'application/vnd.api+json';

export class DataciteClient {
  constructor(private readonly config: DataciteConfig) {}

  create(attributes: DoiAttributes): Promise<DoiReply> {
    return this.call('POST', '/dois', attributes);
  }

  update(doi: string, attributes: DoiAttributes): Promise<DoiReply> {
    // A DOI's suffix may hold characters a path must escape; its one slash stays a slash, as DataCite's examples write it.
    return this.call('PUT', `/dois/${doi.split('/').map(encodeURIComponent).join('/')}`, attributes);
  }

  private async call(method: 'POST' | 'PUT', path: string, attributes: DoiAttributes): Promise<DoiReply> {
    const { xml, ...rest } = attributes;
    const body = JSON.stringify({ data: { type: 'dois', attributes: { ...rest, ...(xml === undefined ? {} : { xml: Buffer.from(xml, 'utf8').toString('base64') }) } } });
    let response: Response;
    try {
      response = await fetch(`${this.config.api}${path}`, {
        method,
        headers: {
          'content-type': JSON_API,
          accept: JSON_API,
          authorization: `Basic ${Buffer.from(`${this.config.user}:${this.config.password}`, 'utf8').toString('base64')}`,
        },
        body,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error)?.name === 'TimeoutError';
      throw new DataciteError(0, [
        { title: timedOut ? `no reply within ${this.config.timeoutMs} ms` : `no reply: ${String((error as Error)?.cause ?? (error as Error)?.message ?? error)}` },
      ]);
    }
    const text = await response.text().catch(() => '');
    /** DataCite's JSON:API reply, as far as it is read (every part checked before use). */
    let json: { errors?: unknown; data?: { attributes?: { doi?: unknown; state?: unknown } } } | undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const problems: DataciteProblem[] = Array.isArray(json?.errors)
        ? json.errors.map((e: { status?: unknown; source?: unknown; title?: unknown; detail?: unknown } | null) => ({
            ...(e?.status !== undefined ? { status: String(e.status) } : {}),
            ...(typeof e?.source === 'string' ? { source: e.source } : {}),
            title: String(e?.title ?? e?.detail ?? ''),
          }))
        : [{ title: text.slice(0, 500) || response.statusText }];
      throw new DataciteError(response.status, problems);
    }
    const reply = json?.data?.attributes;
    if (typeof reply?.doi !== 'string' || typeof reply?.state !== 'string') {
      throw new DataciteError(response.status, [{ title: `a ${response.status} reply without data.attributes.doi and state` }]);
    }
    return { status: response.status, doi: reply.doi, state: reply.state };
  }
}
