import { hasIllegalText, translate, type SiteVariant } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { readAttached } from '../metadata/index.js';
import { citableRecordOf, type CitableRecord } from '../exports/index.js';
import { datestampOf } from './oai-index.js';
import { escapeXml, formatsOf, METADATA_FORMATS, tag, type MetadataFormat } from './oai-formats.js';
import type { ItemQuery, OaiItem, OaiRepo, Position } from './oai.repo.js';
import { readToken, signToken, TOKEN_LIFETIME_SECONDS, type TokenState } from './resumption-token.js';

/**
 * The OAI-PMH 2.0 data provider (http://www.openarchives.org/OAI/openarchivesprotocol.html): the
 * six verbs over the feed's items (oai-index.ts), answered as the protocol's XML. No HTTP here:
 * the routes hand over the request's arguments and send what comes back; every protocol error is
 * an `<error>` element in a normal reply, as the protocol has it.
 */

const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd';
const GRANULARITY = 'YYYY-MM-DDThh:mm:ssZ';

type Verb = 'Identify' | 'ListMetadataFormats' | 'ListSets' | 'ListIdentifiers' | 'ListRecords' | 'GetRecord';

/** Each verb's arguments: required, optional, exclusive (resumptionToken, alone with the verb). */
const ARGUMENTS: Record<Verb, { required: string[]; optional: string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
};
const VERBS = Object.keys(ARGUMENTS) as Verb[];

export type OaiErrorCode =
  'badArgument' | 'badResumptionToken' | 'badVerb' | 'cannotDisseminateFormat' | 'idDoesNotExist' | 'noRecordsMatch' | 'noMetadataFormats' | 'noSetHierarchy';

class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A from / until argument as an inclusive bound to the second; null when it is no date of either granularity. */
function boundOf(value: string, end: 'from' | 'until'): { bound: string; granularity: 'day' | 'second' } | null {
  const granularity = DAY.test(value) ? 'day' : SECOND.test(value) ? 'second' : null;
  if (!granularity) return null;
  const full = granularity === 'day' ? `${value}T${end === 'from' ? '00:00:00' : '23:59:59'}Z` : value;
  const date = new Date(full);
  // The round trip refuses days and times that do not exist (2023-02-30, 24:00:00).
  if (Number.isNaN(date.getTime()) || datestampOf(date) !== full) return null;
  return { bound: full, granularity };
}

export interface OaiSite {
  publicUrl: string;
  siteVariant: SiteVariant;
  adminEmail: string;
  pageSize: number;
  /**
   * oai_datacite's datacentreSymbol: the DataCite repository's symbol (its account, DATACITE_USER);
   * without one, the repository's host name, upper-cased.
   */
  datacentreSymbol?: string;
  /** The resumption tokens' HMAC key. */
  tokenKey: Buffer;
}

/** Rendered metadata kept, in characters (about 32 MB of strings): a few hundred ISO 19139 records. */
const KEPT_CHARACTERS = 16_000_000;

export class OaiService {
  private readonly baseUrl: string;
  private readonly namespace: string;
  private readonly datacentreSymbol: string;
  /**
   * A record's metadata as rendered in one format, keyed by the item's datestamp, which every change
   * of a published record moves on (oai-index.ts, in the change's transaction): a kept rendering is
   * the record as it was at that datestamp. Rendering a page of 100 ISO 19139 records cost about
   * 300 ms of CPU; a harvest asked again, or by a second harvester, now costs the reads of the items.
   * Least recently used first out.
   */
  private readonly rendered = new Map<string, string>();
  private renderedCharacters = 0;

  constructor(
    private readonly db: Db,
    private readonly repo: OaiRepo,
    private readonly site: OaiSite,
  ) {
    this.baseUrl = `${site.publicUrl}/oai`;
    this.namespace = new URL(site.publicUrl).hostname;
    this.datacentreSymbol = (site.datacentreSymbol || this.namespace).toUpperCase();
  }

  /** The OAI identifier of a record. */
  identifierOf(id: string): string {
    return `oai:${this.namespace}:${id}`;
  }

  /** A reply to a request with these arguments (name, value pairs as sent, repeats kept). */
  async respond(args: [string, string][], now = new Date()): Promise<string> {
    const responseDate = datestampOf(now);
    let checked: Record<string, string> | null = null;
    try {
      const verbs = args.filter(([name]) => name === 'verb').map(([, value]) => value);
      if (verbs.length !== 1 || !VERBS.includes(verbs[0] as Verb)) {
        throw new OaiError('badVerb', verbs.length > 1 ? 'The verb argument is repeated.' : verbs.length ? `${verbs[0]} is not an OAI-PMH verb.` : 'The verb argument is missing.');
      }
      const verb = verbs[0] as Verb;
      const values = this.checkArguments(verb, args);
      checked = { verb, ...values };
      const body = await this.answer(verb, values, now);
      return this.envelope(responseDate, checked, body);
    } catch (error) {
      if (!(error instanceof OaiError)) throw error;
      // badVerb and badArgument replies name the base URL only: the request was not understood.
      const request = error.code === 'badVerb' || error.code === 'badArgument' ? null : checked;
      return this.envelope(responseDate, request, `<error code="${error.code}">${escapeXml(error.message)}</error>`);
    }
  }

  /** The arguments, once each, all known to the verb, the required ones given, the exclusive one alone. */
  private checkArguments(verb: Verb, args: [string, string][]): Record<string, string> {
    const rules = ARGUMENTS[verb];
    const values: Record<string, string> = {};
    for (const [name, value] of args) {
      // Checked before anything reads it (PostgreSQL refuses NUL in a query); the reply names it without the character.
      if (hasIllegalText(name) || hasIllegalText(value)) throw new OaiError('badArgument', `The argument ${name} holds a character that XML cannot carry.`);
      if (name === 'verb') continue;
      if (![...rules.required, ...rules.optional, rules.exclusive].includes(name)) throw new OaiError('badArgument', `${verb} takes no argument ${name}.`);
      if (name in values) throw new OaiError('badArgument', `The argument ${name} is repeated.`);
      values[name] = value;
    }
    if (rules.exclusive && rules.exclusive in values) {
      if (Object.keys(values).length > 1) throw new OaiError('badArgument', `${rules.exclusive} is an exclusive argument: no other may come with it.`);
      return values;
    }
    for (const name of rules.required) if (!values[name]) throw new OaiError('badArgument', `${verb} needs the argument ${name}.`);
    return values;
  }

  private answer(verb: Verb, values: Record<string, string>, now: Date): Promise<string> {
    switch (verb) {
      case 'Identify':
        return this.identify();
      case 'ListMetadataFormats':
        return this.listMetadataFormats(values.identifier);
      case 'ListSets':
        return this.listSets(values.resumptionToken, now);
      case 'GetRecord':
        return this.getRecord(values.identifier!, values.metadataPrefix!);
      default:
        return this.listItems(verb, values, now);
    }
  }

  private envelope(responseDate: string, request: Record<string, string> | null, body: string): string {
    const attributes = Object.entries(request ?? {})
      .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
      .join('');
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<OAI-PMH xmlns="${OAI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${OAI_NS} ${OAI_SCHEMA}">\n` +
      `${tag('responseDate', responseDate)}\n<request${attributes}>${escapeXml(this.baseUrl)}</request>\n${body}\n</OAI-PMH>\n`
    );
  }

  private async identify(): Promise<string> {
    const [zh, en] = [translate('zh-hans', `site.${this.site.siteVariant}.title`), translate('en', `site.${this.site.siteVariant}.title`)];
    // An empty repository has nothing earlier than now.
    const earliest = (await this.repo.earliestDatestamp()) ?? datestampOf(new Date());
    return [
      '<Identify>',
      tag('repositoryName', zh === en ? en : `${en} / ${zh}`),
      tag('baseURL', this.baseUrl),
      tag('protocolVersion', '2.0'),
      tag('adminEmail', this.site.adminEmail),
      tag('earliestDatestamp', earliest),
      tag('deletedRecord', 'persistent'),
      tag('granularity', GRANULARITY),
      '</Identify>',
    ].join('\n');
  }

  /** The record's item, or idDoesNotExist for anything else (never published, unknown, not ours). */
  private async itemOf(identifier: string): Promise<OaiItem> {
    const prefix = `oai:${this.namespace}:`;
    const item = identifier.startsWith(prefix) ? await this.repo.item(identifier.slice(prefix.length)) : undefined;
    if (!item) throw new OaiError('idDoesNotExist', `${identifier} is not an identifier of this repository.`);
    return item;
  }

  private async listMetadataFormats(identifier: string | undefined): Promise<string> {
    const prefixes = identifier ? formatsOf(await this.itemOf(identifier)) : Object.keys(METADATA_FORMATS);
    // Every item has oai_dc at least, so noMetadataFormats cannot arise; kept for the protocol's sake.
    if (!prefixes.length) throw new OaiError('noMetadataFormats', `${identifier} has no metadata format.`);
    const formats = prefixes.map((prefix) => {
      const format = METADATA_FORMATS[prefix]!;
      return `<metadataFormat>${tag('metadataPrefix', prefix)}${tag('schema', format.schema)}${tag('metadataNamespace', format.namespace)}</metadataFormat>`;
    });
    return `<ListMetadataFormats>\n${formats.join('\n')}\n</ListMetadataFormats>`;
  }

  private token(state: Omit<TokenState, 'expires'>, now: Date): { token: string; expires: string } {
    const expires = Math.floor(now.getTime() / 1000) + TOKEN_LIFETIME_SECONDS;
    return { token: signToken(this.site.tokenKey, { ...state, expires }), expires: datestampOf(new Date(expires * 1000)) };
  }

  /** The state a resumption token carries, or badResumptionToken. */
  private resume(token: string, verb: TokenState['verb'], now: Date): TokenState {
    const state = readToken(this.site.tokenKey, token, now);
    if (!state || state.verb !== verb) throw new OaiError('badResumptionToken', 'The resumption token is invalid or has expired.');
    return state;
  }

  private resumptionElement(more: Omit<TokenState, 'expires'> | null, completeListSize: number, cursor: number, now: Date): string {
    const counts = `completeListSize="${completeListSize}" cursor="${cursor}"`;
    if (!more) return `<resumptionToken ${counts}/>`;
    const { token, expires } = this.token(more, now);
    return `<resumptionToken expirationDate="${expires}" ${counts}>${escapeXml(token)}</resumptionToken>`;
  }

  private async listSets(resumptionToken: string | undefined, now: Date): Promise<string> {
    const state = resumptionToken ? this.resume(resumptionToken, 'ListSets', now) : null;
    const total = await this.repo.setCount();
    if (!total) throw new OaiError('noSetHierarchy', 'No record of this repository belongs to a set yet.');
    const cursor = state?.cursor ?? 0;
    const rows = await this.repo.sets(state?.after[0] ?? '', this.site.pageSize + 1);
    const page = rows.slice(0, this.site.pageSize);
    if (!page.length) throw new OaiError('badResumptionToken', 'The list this resumption token continues has ended.');
    const sets = page.map((set) => {
      const description = [
        `<oai_dc:dc xmlns:oai_dc="${METADATA_FORMATS.oai_dc!.namespace}" xmlns:dc="http://purl.org/dc/elements/1.1/" xsi:schemaLocation="${METADATA_FORMATS.oai_dc!.namespace} ${METADATA_FORMATS.oai_dc!.schema}">`,
        `<dc:title xml:lang="en">${escapeXml(set.name_en)}</dc:title>`,
        `<dc:title xml:lang="zh-Hans">${escapeXml(set.name_zh)}</dc:title>`,
        '</oai_dc:dc>',
      ].join('');
      return `<set>${tag('setSpec', set.spec)}${tag('setName', set.name_en)}<setDescription>${description}</setDescription></set>`;
    });
    const more = rows.length > page.length;
    const continued = more || state;
    const next = more ? { verb: 'ListSets' as const, metadataPrefix: '', set: '', from: '', until: '', after: [page.at(-1)!.spec], cursor: cursor + page.length } : null;
    return `<ListSets>\n${sets.join('\n')}\n${continued ? this.resumptionElement(next, total, cursor, now) : ''}</ListSets>`;
  }

  /** The list request of the arguments: its format, set and bounds checked. */
  private async listQuery(verb: 'ListIdentifiers' | 'ListRecords', values: Record<string, string>, now: Date): Promise<Omit<TokenState, 'expires'>> {
    const from = values.from === undefined ? null : boundOf(values.from, 'from');
    const until = values.until === undefined ? null : boundOf(values.until, 'until');
    if ((values.from !== undefined && !from) || (values.until !== undefined && !until)) {
      throw new OaiError('badArgument', `from and until are dates as YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ.`);
    }
    if (from && until && from.granularity !== until.granularity) throw new OaiError('badArgument', 'from and until must have the same granularity.');
    if (from && until && from.bound > until.bound) throw new OaiError('badArgument', 'from is later than until.');
    const metadataPrefix = values.metadataPrefix!;
    if (!METADATA_FORMATS[metadataPrefix]) throw new OaiError('cannotDisseminateFormat', `${metadataPrefix} is not a metadata format of this repository.`);
    const set = values.set ?? '';
    if (set && !(await this.repo.setCount())) throw new OaiError('noSetHierarchy', 'No record of this repository belongs to a set yet.');
    // Without until, the list ends at this first request: a record changed while it is harvested
    // moves past the end (to the next harvest from this responseDate) rather than coming twice.
    return { verb, metadataPrefix, set, from: from?.bound ?? '', until: until?.bound ?? datestampOf(now), after: [], cursor: 0 };
  }

  private async listItems(verb: 'ListIdentifiers' | 'ListRecords', values: Record<string, string>, now: Date): Promise<string> {
    const resumed = values.resumptionToken !== undefined;
    const state = resumed ? this.resume(values.resumptionToken!, verb, now) : await this.listQuery(verb, values, now);
    const format = METADATA_FORMATS[state.metadataPrefix];
    if (!format) throw new OaiError('badResumptionToken', 'The resumption token is invalid or has expired.');
    const query: ItemQuery = { from: state.from, until: state.until, set: state.set, doiOnly: format.needsDoi };
    const after = state.after.length === 2 ? (state.after as Position) : null;
    const rows = await this.repo.page(query, after, this.site.pageSize + 1);
    const page = rows.slice(0, this.site.pageSize);
    if (!page.length) {
      throw resumed
        ? new OaiError('badResumptionToken', 'The list this resumption token continues has ended.')
        : new OaiError('noRecordsMatch', 'No record matches these arguments.');
    }
    const [sets, rendered] = await Promise.all([
      this.repo.setsOf(page.map((item) => item.metadata_id)),
      verb === 'ListRecords' ? this.renderedMetadata(page, state.metadataPrefix, format) : new Map<string, string>(),
    ]);
    const parts: string[] = [];
    for (const item of page) {
      const header = this.header(item, sets.get(item.metadata_id) ?? [], rendered, verb === 'ListRecords');
      parts.push(verb === 'ListRecords' ? this.record(header, item, rendered) : header);
    }
    const more = rows.length > page.length;
    if (more || resumed) {
      const total = await this.repo.count(query);
      const last = page.at(-1)!;
      const next = more ? { ...state, after: [last.datestamp, last.metadata_id], cursor: state.cursor + page.length } : null;
      parts.push(this.resumptionElement(next, total, state.cursor, now));
    }
    return `<${verb}>\n${parts.join('\n')}\n</${verb}>`;
  }

  /**
   * An item's header; deleted when the item is, or when its record stopped being published between
   * reading the item and the record (`rendered` then lacks it).
   */
  private header(item: OaiItem, sets: string[], rendered: Map<string, string>, withRecords: boolean): string {
    const deleted = item.deleted || (withRecords && !rendered.has(item.metadata_id));
    return [
      `<header${deleted ? ' status="deleted"' : ''}>`,
      tag('identifier', this.identifierOf(item.metadata_id)),
      tag('datestamp', item.datestamp),
      ...sets.map((spec) => tag('setSpec', spec)),
      '</header>',
    ].join('');
  }

  private record(header: string, item: OaiItem, rendered: Map<string, string>): string {
    const metadata = rendered.get(item.metadata_id);
    if (item.deleted || metadata === undefined) return `<record>${header}</record>`;
    return `<record>${header}\n<metadata>\n${metadata}\n</metadata>\n</record>`;
  }

  /**
   * The metadata of the items still published, rendered in `prefix`: kept renderings of the same
   * datestamp, the others read (one read per table) and rendered now, then kept.
   */
  private async renderedMetadata(items: OaiItem[], prefix: string, format: MetadataFormat): Promise<Map<string, string>> {
    const rendered = new Map<string, string>();
    const missing: OaiItem[] = [];
    for (const item of items) {
      if (item.deleted) continue;
      const key = `${prefix}\u0000${item.metadata_id}\u0000${item.datestamp}`;
      const kept = this.rendered.get(key);
      if (kept === undefined) {
        missing.push(item);
        continue;
      }
      this.rendered.delete(key);
      this.rendered.set(key, kept);
      rendered.set(item.metadata_id, kept);
    }
    const records = await this.publishedRecords(missing.map((item) => item.metadata_id));
    for (const item of missing) {
      const record = records.get(item.metadata_id);
      if (!record) continue;
      const xml = await format.render(record, { datacentreSymbol: this.datacentreSymbol });
      rendered.set(item.metadata_id, xml);
      // A datestamp is to the second: a second change within it keeps the datestamp, so a rendering is
      // kept only once its datestamp's second is well past (two seconds for clocks and commits).
      if (Date.parse(item.datestamp) + 2000 <= Date.now()) this.keep(`${prefix}\u0000${item.metadata_id}\u0000${item.datestamp}`, xml);
    }
    return rendered;
  }

  private keep(key: string, xml: string): void {
    if (xml.length > KEPT_CHARACTERS / 4) return;
    const before = this.rendered.get(key);
    if (before !== undefined) this.renderedCharacters -= before.length;
    this.rendered.set(key, xml);
    this.renderedCharacters += xml.length;
    for (const [oldest, text] of this.rendered) {
      if (this.renderedCharacters <= KEPT_CHARACTERS) break;
      this.rendered.delete(oldest);
      this.renderedCharacters -= text.length;
    }
  }

  private async getRecord(identifier: string, metadataPrefix: string): Promise<string> {
    const item = await this.itemOf(identifier);
    const format = METADATA_FORMATS[metadataPrefix];
    if (!format || !formatsOf(item).includes(metadataPrefix)) {
      throw new OaiError(
        'cannotDisseminateFormat',
        format ? `${identifier} has no DOI: DataCite metadata identifies a resource by its DOI.` : `${metadataPrefix} is not a metadata format of this repository.`,
      );
    }
    const [sets, rendered] = await Promise.all([this.repo.setsOf([item.metadata_id]), this.renderedMetadata([item], metadataPrefix, format)]);
    const header = this.header(item, sets.get(item.metadata_id) ?? [], rendered, true);
    return `<GetRecord>\n${this.record(header, item, rendered)}\n</GetRecord>`;
  }

  /** The models of the published records among these ids: one read per table for the page. */
  private async publishedRecords(ids: string[]): Promise<Map<string, CitableRecord>> {
    const models = new Map<string, CitableRecord>();
    if (!ids.length) return models;
    const rows = await this.repo.publishedRecords(ids);
    const attached = await readAttached(
      this.db,
      rows.map((r) => r.id),
      { literature: true, files: true },
    );
    for (const row of rows) models.set(row.id, citableRecordOf(row, attached.get(row.id)!, this.site));
    return models;
  }
}
