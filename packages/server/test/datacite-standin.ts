import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A local stand-in for DataCite's REST API, for the tests only (DataCite cannot be reached from here).
 * A real HTTP server that speaks the documented contract of a repository account
 * (support.datacite.org "Creating DOIs with the REST API", the API reference, and the replies of
 * DataCite's own server, datacite/lupo, in its request specs):
 * - HTTP basic authentication with the repository's id and password: else 401
 *   `{"errors":[{"status":"401","title":"Bad credentials."}]}`; a DOI outside the repository's prefix
 *   403 "You are not authorized to access this resource.";
 * - JSON:API bodies `{data: {type: "dois", attributes: {...}}}`, else 400 "You need to provide a
 *   payload following the JSONAPI spec"; replies `{data: {id, type: "dois", attributes: {doi, state,
 *   url, xml, isActive, ...}}}`;
 * - `POST /dois` 201, or 422 `{source: "doi", title: "This DOI has already been taken", uid}`;
 *   `PUT /dois/{doi}` 200, or 201 when it creates; `GET /dois/{doi}` 200 or 404 "The resource you
 *   are looking for doesn't exist."; `DELETE /dois/{doi}` 204 for a draft, 405 "Method not allowed"
 *   otherwise;
 * - states draft, registered, findable, moved by `event` as DataCite's state machine does (register:
 *   draft -> registered; publish: draft or registered -> findable; hide: findable -> registered;
 *   another event in another state changes nothing); register and publish need a `url` (422 `{source:
 *   "url", title: "Can't be blank"}`) within the repository's domains (422 "URL ... is not allowed by
 *   repository ... domain settings.");
 * - `xml` must be base64 of DataCite XML: its identifier the DOI, valid against the official schema
 *   it names, checked by xmllint with ../shared/xsd when both are here (else well-formedness only,
 *   when xmllint is); each complaint one 422 entry `{source: element, title: "DOI ...: ... at line N,
 *   column 0", uid}`.
 * Tests make it fail on purpose: another password, other domains, the API moved (404 for every
 * address), the next replies a 5xx, or the next reply held past the client's timeout (and carried out
 * all the same, as a server that does not know its client gave up).
 */

const SHARED_XSD = path.resolve(import.meta.dirname, '../../../../shared/xsd');
const CATALOG = path.join(SHARED_XSD, 'catalog.xml');

export interface StandinDoi {
  doi: string;
  state: 'draft' | 'registered' | 'findable';
  url: string | null;
  /** The XML as sent (base64) and decoded. */
  xml: string | null;
  created: string;
  updated: string;
}

export interface StandinRequest {
  method: string;
  path: string;
  body: any;
  status: number;
}

interface Problem {
  status?: string;
  source?: string;
  title: string;
  uid?: string;
}

type Fault = { kind: 'status'; status: number } | { kind: 'stall'; ms: number };

export class DataciteStandin {
  readonly dois = new Map<string, StandinDoi>();
  readonly requests: StandinRequest[] = [];
  /** What a test changes to make it fail. */
  password: string;
  domains = '*';
  mountedAt: string;
  private readonly faults: Fault[] = [];
  private server: http.Server | undefined;
  private readonly pending = new Set<NodeJS.Timeout>();
  /** Whether XML is checked against the schema (xmllint and ../shared/xsd present), or for well-formedness only. */
  readonly checksSchema = fs.existsSync(CATALOG);

  constructor(
    readonly account: { user: string; password: string; prefix: string; repository?: string },
    mountedAt = '/api',
  ) {
    this.password = account.password;
    this.mountedAt = mountedAt;
  }

  /** The base address to configure as DATACITE_API. */
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.pending) clearTimeout(timer);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next `count` calls answer `status` with DataCite's error body. */
  failNext(status: number, count = 1): void {
    for (let i = 0; i < count; i += 1) this.faults.push({ kind: 'status', status });
  }

  /** The next call is held `ms` before it is answered (past the client's timeout). */
  stallNext(ms: number): void {
    this.faults.push({ kind: 'stall', ms });
  }

  get(doi: string): StandinDoi | undefined {
    return this.dois.get(doi.toLowerCase());
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const fault = this.faults.shift();
    if (fault?.kind === 'stall') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          resolve();
        }, fault.ms);
        this.pending.add(timer);
      });
      // Like a server that does not know its client gave up: the call is carried out all the same.
    }
    const send = (status: number, payload?: unknown) => {
      this.requests.push({ method: request.method ?? '', path: request.url ?? '', body, status });
      if (response.destroyed) return;
      response.writeHead(status, payload === undefined ? {} : { 'content-type': 'application/vnd.api+json; charset=utf-8' });
      response.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    const errors = (status: number, problems: Problem[]) => send(status, { errors: problems });
    if (fault?.kind === 'status') return errors(fault.status, [{ status: String(fault.status), title: fault.status === 503 ? 'Service Unavailable' : 'Internal server error' }]);

    const url = new URL(request.url ?? '/', 'http://standin');
    const route = url.pathname.startsWith(`${this.mountedAt}/`) ? url.pathname.slice(this.mountedAt.length) : null;
    const match = route === null ? null : /^\/dois(?:\/(.+))?$/.exec(route);
    if (!match) return errors(404, [{ status: '404', title: "The resource you are looking for doesn't exist." }]);
    if (!this.authorized(request.headers.authorization)) return errors(401, [{ status: '401', title: 'Bad credentials.' }]);
    const id = match[1] ? decodeURIComponent(match[1]).toLowerCase() : undefined;
    const method = request.method ?? 'GET';

    if (method === 'GET' && id) {
      const found = this.dois.get(id);
      return found ? send(200, this.reply(found)) : errors(404, [{ status: '404', title: "The resource you are looking for doesn't exist." }]);
    }
    if (method === 'DELETE' && id) {
      const found = this.dois.get(id);
      if (!found) return errors(404, [{ status: '404', title: "The resource you are looking for doesn't exist." }]);
      if (found.state !== 'draft') return errors(405, [{ status: '405', title: 'Method not allowed' }]);
      this.dois.delete(id);
      return send(204);
    }
    if ((method === 'POST' && !id) || (method === 'PUT' && id)) {
      const attributes = body?.data?.attributes;
      if (!attributes || typeof attributes !== 'object' || body?.data?.type !== 'dois') {
        return errors(400, [{ status: '400', title: 'You need to provide a payload following the JSONAPI spec' }]);
      }
      const doi = String(id ?? attributes.doi ?? '').toLowerCase();
      if (!/^10\.\d{4,9}\/\S+$/.test(doi))
        return method === 'PUT'
          ? errors(404, [{ status: '404', title: "The resource you are looking for doesn't exist." }])
          : errors(422, [{ source: 'doi', title: 'Is invalid', uid: doi }]);
      if (!doi.startsWith(`${this.account.prefix}/`)) return errors(403, [{ status: '403', title: 'You are not authorized to access this resource.' }]);
      const existing = this.dois.get(doi);
      if (method === 'POST' && existing) return errors(422, [{ source: 'doi', title: 'This DOI has already been taken', uid: doi }]);
      const problems = await this.check(doi, attributes, existing);
      if (problems.length) return errors(422, problems);
      const now = new Date().toISOString();
      const record: StandinDoi = existing ?? { doi, state: 'draft', url: null, xml: null, created: now, updated: now };
      if (typeof attributes.url === 'string') record.url = attributes.url;
      if (typeof attributes.xml === 'string') record.xml = Buffer.from(attributes.xml, 'base64').toString('utf8');
      record.state = nextState(record.state, attributes.event);
      record.updated = now;
      this.dois.set(doi, record);
      return send(existing ? 200 : 201, this.reply(record));
    }
    return errors(405, [{ status: '405', title: 'Method not allowed' }]);
  }

  private authorized(header: string | undefined): boolean {
    const match = /^Basic (.+)$/.exec(header ?? '');
    if (!match) return false;
    return Buffer.from(match[1]!, 'base64').toString('utf8') === `${this.account.user}:${this.password}`;
  }

  /** What DataCite refuses of a create or update (422 entries). */
  private async check(doi: string, attributes: any, existing: StandinDoi | undefined): Promise<Problem[]> {
    const problems: Problem[] = [];
    const event = attributes.event;
    if (event !== undefined && !['publish', 'register', 'hide', 'show'].includes(event)) problems.push({ source: 'event', title: `Event ${event} is not supported`, uid: doi });
    const url = typeof attributes.url === 'string' ? attributes.url : existing?.url;
    if ((event === 'publish' || event === 'register') && !url) problems.push({ source: 'url', title: "Can't be blank", uid: doi });
    if (typeof attributes.url === 'string') {
      let host = '';
      try {
        host = new URL(attributes.url).hostname;
      } catch {
        problems.push({ source: 'url', title: 'Is invalid', uid: doi });
      }
      const allowed = this.domains === '*' || this.domains.split(',').some((domain) => host === domain.trim() || host.endsWith(`.${domain.trim()}`));
      if (host && !allowed)
        problems.push({ source: 'url', title: `URL ${attributes.url} is not allowed by repository ${this.account.repository ?? this.account.user} domain settings.`, uid: doi });
    }
    if (typeof attributes.xml === 'string') {
      const xml = Buffer.from(attributes.xml, 'base64').toString('utf8');
      if (Buffer.from(xml, 'utf8').toString('base64').replace(/=+$/, '') !== attributes.xml.replace(/\s/g, '').replace(/=+$/, '')) {
        problems.push({ source: 'xml', title: `DOI ${doi}: the xml attribute is not base64`, uid: doi });
      } else {
        problems.push(...(await validateDatacite(doi, xml, this.checksSchema)));
      }
    } else if ((event === 'publish' || event === 'register') && !existing?.xml) {
      problems.push({ source: 'xml', title: `DOI ${doi}: Missing metadata`, uid: doi });
    }
    return problems;
  }

  private reply(record: StandinDoi) {
    const [prefix, ...suffix] = record.doi.split('/');
    return {
      data: {
        id: record.doi,
        type: 'dois',
        attributes: {
          doi: record.doi,
          prefix,
          suffix: suffix.join('/'),
          identifiers: [],
          url: record.url,
          xml: record.xml === null ? null : Buffer.from(record.xml, 'utf8').toString('base64'),
          state: record.state,
          isActive: record.state === 'findable',
          created: record.created,
          updated: record.updated,
        },
      },
    };
  }
}

function nextState(state: StandinDoi['state'], event: string | undefined): StandinDoi['state'] {
  if (event === 'register' && state === 'draft') return 'registered';
  if (event === 'publish' && (state === 'draft' || state === 'registered')) return 'findable';
  if (event === 'show' && state === 'registered') return 'findable';
  if (event === 'hide' && state === 'findable') return 'registered';
  return state;
}

/** xmllint's complaints about a DataCite document as DataCite words them; none when xmllint is absent. */
async function validateDatacite(doi: string, xml: string, withSchema: boolean): Promise<Problem[]> {
  const identifier = /<identifier\b[^>]*>([^<]*)<\/identifier>/.exec(xml)?.[1]?.trim().toLowerCase();
  const problems: Problem[] = [];
  if (identifier !== undefined && identifier !== doi) problems.push({ source: 'identifier', title: `DOI ${doi}: the identifier ${identifier} is not the DOI`, uid: doi });
  const location = /schemaLocation="\s*\S+\s+(\S+)\s*"/.exec(xml)?.[1]?.replace(/^https:/, 'http:');
  const schema = withSchema && location && /^http:\/\/schema\.datacite\.org\/meta\/kernel-4(\.\d)?\/metadata\.xsd$/.test(location) ? location : undefined;
  const output = await new Promise<string | null>((resolve) => {
    const child = execFile(
      'xmllint',
      ['--noout', '--nonet', ...(schema ? ['--schema', schema] : []), '-'],
      { env: { ...process.env, XML_CATALOG_FILES: CATALOG } },
      (error, _stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') resolve(null);
        else resolve(error ? String(stderr) : '');
      },
    );
    child.stdin?.end(xml);
  });
  if (output === null) return problems;
  for (const line of output.split('\n')) {
    const found = /^-:(\d+): (?:element (\S+): )?(?:Schemas validity error|parser error) : (.*)$/.exec(line);
    if (!found) continue;
    const element = /Element '(?:\{[^}]*\})?([^']+)'/.exec(found[3]!)?.[1] ?? found[2] ?? 'xml';
    problems.push({ source: element, title: `DOI ${doi}: ${found[3]!.replace(/\{[^}]*\}/g, '')} at line ${found[1]}, column 0`, uid: doi });
  }
  return problems;
}
