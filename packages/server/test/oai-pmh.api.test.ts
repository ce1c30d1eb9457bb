import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { xmllintErrors } from './exports-builders.js';
import { buildUser, type Person, buildCatalogue, type CatalogueEntry } from './factories.js';
import { createTestPortal, FORM, type TestPortal } from './helpers.js';
import { call, expectStatus, recordUrl, resourceUrl } from './metadata-builders.js';
import { decide } from './review-builders.js';

/**
 * The OAI-PMH feed at /oai (issue 9): the six verbs, every error of the protocol, sets, selective
 * harvesting, resumption tokens without server state, deleted records, and a whole harvest by
 * Debian's HTTP::OAI. Every reply is validated against the OAI-PMH 2.0 schema (test/xsd/oai-pmh/,
 * see its README) and every oai_dc payload against oai_dc.xsd.
 */

const XSD = path.join(import.meta.dirname, 'xsd/oai-pmh');
const SECRET = 'a-test-secret-of-the-installation-0123456789';
const PAGE = 3;
const HOST = 'portal.test';

let portal: TestPortal;
let staff: Person;
const ids: Record<string, string> = {};
/** Datestamps the records were written at (the fake clock's time). */
const JANUARY = '2024-01-10T10:00:00Z';
const MARCH = '2024-03-05T12:30:45Z';
const APRIL = '2024-04-01T00:00:00Z';
const MAY = '2024-05-02T08:15:00Z';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  isArray: (name) => ['record', 'header', 'setSpec', 'set', 'metadataFormat', 'dc:title', 'dc:identifier', 'dc:subject', 'dc:creator', 'dc:description'].includes(name),
});

const identifier = (id: string) => `oai:${HOST}:${id}`;

/** Asks /oai (GET) and checks what every reply must be: 200, text/xml, valid against the schema. */
async function oai(params: Record<string, string> | string, target: TestPortal = portal) {
  const query = typeof params === 'string' ? params : new URLSearchParams(params).toString();
  const response = await target.app.inject({ method: 'GET', url: `/oai?${query}` });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
  expect(xmllintErrors(response.body, path.join(XSD, 'harvest.xsd'))).toBe('');
  return { xml: response.body, reply: parser.parse(response.body)['OAI-PMH'] };
}

/** The error code of a reply (and that the request element names the base URL only where it must). */
async function errorOf(params: Record<string, string> | string, target: TestPortal = portal) {
  const { reply } = await oai(params, target);
  expect(reply.error, JSON.stringify(reply)).toBeDefined();
  return { code: reply.error['@code'] as string, request: reply.request };
}

/** Every page of a list: the items in order and the resumption tokens' attributes. */
async function walk(verb: 'ListRecords' | 'ListIdentifiers', params: Record<string, string>) {
  const items: any[] = [];
  const tokens: any[] = [];
  let { reply } = await oai({ verb, ...params });
  for (;;) {
    const list = reply[verb];
    items.push(...(verb === 'ListRecords' ? list.record : list.header));
    const token = list.resumptionToken;
    if (token !== undefined) tokens.push(token);
    const value = typeof token === 'object' ? token['#text'] : undefined;
    if (!value) break;
    ({ reply } = await oai({ verb, resumptionToken: value }));
  }
  return { items, tokens };
}

const headerOf = (item: any) => item.header?.[0] ?? item;
const idsOf = (items: any[]) => items.map((item) => headerOf(item).identifier);

function entry(key: string, fields: Partial<CatalogueEntry> = {}): CatalogueEntry {
  return {
    key,
    language: 'zh-hans',
    zh: { title: `冰川数据集 ${key}`, abstract: `青藏高原冰川数据 ${key}。` },
    en: { title: `Glacier dataset ${key}`, abstract: `Glaciers of the Tibetan Plateau, ${key}.` },
    authors: [['张冰川', 'Zhang Bingchuan']],
    published: '2024-01-10',
    ...fields,
  };
}

async function at(time: string, work: () => Promise<unknown>) {
  vi.setSystemTime(new Date(time));
  try {
    await work();
  } finally {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date());
  }
}

/** Answers of the empty repository, asked before any record exists. */
const empty: Record<string, { code: string } | string> = {};

beforeAll(async () => {
  portal = await createTestPortal({ env: { OAI_PAGE_SIZE: String(PAGE), SECRET_KEY: SECRET, ADMIN_EMAIL: 'oai-admin@tpdc.example.org' } });
  staff = await buildUser(portal, { staff: true });
  empty.listSets = await errorOf({ verb: 'ListSets' });
  empty.listRecords = await errorOf({ verb: 'ListRecords', metadataPrefix: 'oai_dc' });
  empty.earliest = (await oai({ verb: 'Identify' })).reply.Identify.earliestDatestamp;

  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  await at(JANUARY, async () => {
    Object.assign(
      ids,
      await buildCatalogue(portal, staff.id, [
        entry('doi', {
          doi: '10.11888/Glacio.tpdc.270001',
          themes: [['冰川', 'glacier']],
          funds: ['5'],
          threePole: 'XDA20-01',
          box: [73, 26, 105, 40],
          time: ['1990-01-01', '2020-12-31'],
          license: 'CC BY 4.0',
        }),
        entry('plain', {
          themes: [
            ['冰川', 'glacier'],
            ['积雪', 'snow cover'],
          ],
        }),
        entry('english', { language: 'en', themes: [['海冰', 'sea ice']], funds: ['6'], thirdPole: 'XDA19-2' }),
        entry('zkk', { threePole: 'ZKK-7', authors: [['李雪', 'Li Xue']] }),
        entry('draft', { status: 'draft' }),
        entry('submitted', { status: 'submitted' }),
      ]),
    );
  });
  await at(MARCH, async () => {
    Object.assign(
      ids,
      await buildCatalogue(portal, staff.id, [
        entry('march1', { published: '2024-03-05' }),
        entry('march2', { published: '2024-03-05' }),
        entry('march3', { published: '2024-03-05', doi: '10.11888/Glacio.tpdc.270002' }),
      ]),
    );
  });
  // Unpublished through the review desk: a deleted record from then on.
  await at(APRIL, async () => {
    expectStatus(await decide(portal, staff.token, ids.march2!, { review_status: 'unpublish', content: 'Licence dispute with the data owner.' }), 200);
  });
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await portal?.close();
});

describe('the schema check', () => {
  it('refuses what a harvester would refuse, in the envelope and in an oai_dc payload', async () => {
    const schema = path.join(XSD, 'harvest.xsd');
    const identify = (await oai({ verb: 'Identify' })).xml;
    expect(xmllintErrors(identify.replace(/<granularity>[^<]*<\/granularity>/, ''), schema)).toContain('fails to validate');
    expect(xmllintErrors(identify.replace('persistent', 'forever'), schema)).toContain('fails to validate');
    const record = (await oai({ verb: 'GetRecord', identifier: identifier(ids.doi!), metadataPrefix: 'oai_dc' })).xml;
    expect(xmllintErrors(record.replace('<dc:type>', '<dc:kind>').replace('</dc:type>', '</dc:kind>'), schema)).toContain('fails to validate');
    const iso = (await oai({ verb: 'GetRecord', identifier: identifier(ids.doi!), metadataPrefix: 'iso19139' })).xml;
    expect(xmllintErrors(iso.replace(/gmd:MD_Metadata/g, 'gmd:MD_Other'), schema)).toContain('fails to validate');
  });
});

describe('an empty repository', () => {
  it('has no sets and no records yet, and names now as its earliest datestamp', () => {
    expect(empty.listSets).toMatchObject({ code: 'noSetHierarchy' });
    expect(empty.listRecords).toMatchObject({ code: 'noRecordsMatch' });
    expect(empty.earliest).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe('Identify', () => {
  it('describes the repository: name, base URL, version, admin, earliest datestamp, deleted records, granularity', async () => {
    const { reply } = await oai({ verb: 'Identify' });
    expect(reply.request).toMatchObject({ '@verb': 'Identify', '#text': 'http://portal.test/oai' });
    expect(reply.responseDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(reply.Identify).toEqual({
      repositoryName: 'Three Poles Data Portal / 三极科学数据门户',
      baseURL: 'http://portal.test/oai',
      protocolVersion: '2.0',
      adminEmail: 'oai-admin@tpdc.example.org',
      earliestDatestamp: JANUARY,
      deletedRecord: 'persistent',
      granularity: 'YYYY-MM-DDThh:mm:ssZ',
    });
  });

  it('answers POST with a form body alike', async () => {
    const response = await portal.app.inject({ method: 'POST', url: '/oai', headers: FORM, payload: 'verb=Identify' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(xmllintErrors(response.body, path.join(XSD, 'harvest.xsd'))).toBe('');
    expect(parser.parse(response.body)['OAI-PMH'].Identify.baseURL).toBe('http://portal.test/oai');
  });
});

describe('ListMetadataFormats', () => {
  it('lists oai_dc, datacite, oai_datacite, iso19139 and dif10 for the repository', async () => {
    const { reply } = await oai({ verb: 'ListMetadataFormats' });
    expect(reply.ListMetadataFormats.metadataFormat).toEqual([
      { metadataPrefix: 'oai_dc', schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd', metadataNamespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/' },
      { metadataPrefix: 'datacite', schema: 'https://schema.datacite.org/meta/kernel-4.5/metadata.xsd', metadataNamespace: 'http://datacite.org/schema/kernel-4' },
      { metadataPrefix: 'oai_datacite', schema: 'http://schema.datacite.org/oai/oai-1.1/oai.xsd', metadataNamespace: 'http://schema.datacite.org/oai/oai-1.1/' },
      { metadataPrefix: 'iso19139', schema: 'http://www.isotc211.org/2005/gmd/gmd.xsd', metadataNamespace: 'http://www.isotc211.org/2005/gmd' },
      { metadataPrefix: 'dif10', schema: 'https://cdn.earthdata.nasa.gov/dif/10.x/dif_v10.2.xsd', metadataNamespace: 'http://gcmd.gsfc.nasa.gov/Aboutus/xml/dif/' },
    ]);
  });

  it('leaves datacite and oai_datacite out for a record without DOI', async () => {
    const prefixes = async (id: string) =>
      (await oai({ verb: 'ListMetadataFormats', identifier: identifier(id) })).reply.ListMetadataFormats.metadataFormat.map((f: any) => f.metadataPrefix);
    expect(await prefixes(ids.doi!)).toEqual(['oai_dc', 'datacite', 'oai_datacite', 'iso19139', 'dif10']);
    expect(await prefixes(ids.plain!)).toEqual(['oai_dc', 'iso19139', 'dif10']);
  });

  it('does not know drafts, records in review, unknown ids or identifiers of another repository', async () => {
    for (const id of [identifier(ids.draft!), identifier(ids.submitted!), identifier('no-such-record'), `oai:elsewhere.org:${ids.doi}`, ids.doi!]) {
      const { code, request } = await errorOf({ verb: 'ListMetadataFormats', identifier: id });
      expect(code).toBe('idDoesNotExist');
      expect(request['@identifier']).toBe(id);
    }
  });
});

describe('ListSets', () => {
  it('lists the programmes, the data centre funds and the themes, paged with resumption tokens', async () => {
    const sets: any[] = [];
    let { reply } = await oai({ verb: 'ListSets' });
    let pages = 1;
    for (;;) {
      sets.push(...reply.ListSets.set);
      const token = reply.ListSets.resumptionToken;
      if (!token?.['#text']) break;
      ({ reply } = await oai({ verb: 'ListSets', resumptionToken: token['#text'] }));
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(sets.length / PAGE));
    expect(Object.fromEntries(sets.map((s) => [s.setSpec[0], s.setName]))).toEqual({
      fund: "Data centre's funding projects",
      'fund:5': 'Three Poles platform',
      'fund:6': 'Third Pole (Tibetan Plateau) centres',
      program: 'Research programmes',
      'program:XDA19': 'XDA19',
      'program:XDA20': 'XDA20',
      'program:ZKK': 'ZKK',
      theme: 'Themes',
      'theme:glacier': 'glacier',
      'theme:sea-ice': 'sea ice',
      'theme:snow-cover': 'snow cover',
    });
    const glacier = sets.find((s) => s.setSpec[0] === 'theme:glacier');
    expect(glacier.setDescription['oai_dc:dc']['dc:title']).toEqual([
      { '#text': 'glacier', '@xml:lang': 'en' },
      { '#text': '冰川', '@xml:lang': 'zh-Hans' },
    ]);
  });
});

describe('ListRecords and ListIdentifiers', () => {
  it('walks every published record once in pages, the unpublished one as deleted, drafts never', async () => {
    const { items, tokens } = await walk('ListRecords', { metadataPrefix: 'oai_dc' });
    const published = ['doi', 'plain', 'english', 'zkk', 'march1', 'march3'].map((k) => identifier(ids[k]!));
    expect(idsOf(items).sort()).toEqual([...published, identifier(ids.march2!)].sort());
    expect(new Set(idsOf(items)).size).toBe(items.length);
    // Oldest first, then by id.
    expect(items.map((item) => headerOf(item).datestamp)).toEqual([JANUARY, JANUARY, JANUARY, JANUARY, MARCH, MARCH, APRIL]);
    const deleted = items.find((item) => headerOf(item).identifier === identifier(ids.march2!));
    expect(deleted.header[0]['@status']).toBe('deleted');
    expect(deleted.metadata).toBeUndefined();
    for (const item of items.filter((i) => i !== deleted)) expect(item.metadata['oai_dc:dc']).toBeDefined();
    // Pages of 3: two tokens to follow and the empty last one, with the list's size and the cursor.
    expect(tokens.map((t) => [t['@completeListSize'], t['@cursor'], !!t['#text']])).toEqual([
      ['7', '0', true],
      ['7', '3', true],
      ['7', '6', false],
    ]);
    for (const token of tokens.filter((t) => t['#text'])) {
      const expires = new Date(token['@expirationDate']).getTime();
      expect(expires - Date.now()).toBeGreaterThan(24 * 3600 * 1000);
    }
  });

  it('maps a record to Dublin Core, valid against oai_dc.xsd', async () => {
    const { xml, reply } = await oai({ verb: 'GetRecord', identifier: identifier(ids.doi!), metadataPrefix: 'oai_dc' });
    const payload = /<oai_dc:dc[\s\S]*<\/oai_dc:dc>/.exec(xml)![0];
    expect(xmllintErrors(`<?xml version="1.0" encoding="UTF-8"?>\n${payload}`, path.join(XSD, 'oai_dc.xsd'))).toBe('');
    const dc = reply.GetRecord.record[0].metadata['oai_dc:dc'];
    expect(dc['dc:title']).toEqual([
      { '#text': '冰川数据集 doi', '@xml:lang': 'zh-Hans' },
      { '#text': 'Glacier dataset doi', '@xml:lang': 'en' },
    ]);
    expect(dc['dc:creator']).toEqual([{ '#text': '张冰川', '@xml:lang': 'zh-Hans' }]);
    expect(dc['dc:subject']).toEqual([
      { '#text': '冰川', '@xml:lang': 'zh-Hans' },
      { '#text': 'glacier', '@xml:lang': 'en' },
    ]);
    expect(dc['dc:identifier']).toEqual(['https://doi.org/10.11888/Glacio.tpdc.270001', `http://portal.test/data/${ids.doi}/`]);
    expect(dc['dc:type']).toBe('Dataset');
    expect(dc['dc:date']).toBe('2024-01-10');
    expect(dc['dc:language']).toBe('zh-Hans');
    expect(dc['dc:coverage']).toEqual([
      'start=1990-01-01; end=2020-12-31; scheme=W3C-DTF',
      'northlimit=40; southlimit=26; westlimit=73; eastlimit=105; units=signed decimal degrees',
    ]);
    expect(dc['dc:rights']).toContainEqual({ '#text': 'Creative Commons Attribution 4.0 International', '@xml:lang': 'en' });
    expect(dc['dc:publisher']).toContainEqual({ '#text': 'Three Poles Data Portal', '@xml:lang': 'en' });
  });

  it('lists headers only with ListIdentifiers, with their sets', async () => {
    const { items } = await walk('ListIdentifiers', { metadataPrefix: 'oai_dc' });
    expect(items).toHaveLength(7);
    const doi = items.find((h) => h.identifier === identifier(ids.doi!));
    expect(doi.setSpec).toEqual(['fund', 'fund:5', 'program', 'program:XDA20', 'theme', 'theme:glacier']);
    expect(doi.metadata).toBeUndefined();
  });

  it('harvests a set', async () => {
    const { items } = await walk('ListIdentifiers', { metadataPrefix: 'oai_dc', set: 'theme:glacier' });
    expect(idsOf(items).sort()).toEqual([identifier(ids.doi!), identifier(ids.plain!)].sort());
    const programmes = await walk('ListIdentifiers', { metadataPrefix: 'oai_dc', set: 'program' });
    expect(idsOf(programmes.items).sort()).toEqual(['doi', 'english', 'zkk'].map((k) => identifier(ids[k]!)).sort());
    expect((await errorOf({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', set: 'program:NOPE' })).code).toBe('noRecordsMatch');
  });

  it('harvests by date, both granularities, until inclusive', async () => {
    const keys = async (params: Record<string, string>) => idsOf((await walk('ListIdentifiers', { metadataPrefix: 'oai_dc', ...params })).items).length;
    expect(await keys({ from: '2024-03-05', until: '2024-03-05' })).toBe(2);
    expect(await keys({ from: MARCH, until: MARCH })).toBe(2);
    expect(await keys({ from: '2024-03-05T12:30:46Z' })).toBe(1);
    expect(await keys({ until: '2024-03-05T12:30:44Z' })).toBe(4);
    expect(await keys({ until: '2024-01-10' })).toBe(4);
    expect(await keys({ from: '2024-01-11' })).toBe(3);
    expect((await errorOf({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc', from: '2025-01-01' })).code).toBe('noRecordsMatch');
  });

  it('lists only records with a DOI in datacite and oai_datacite', async () => {
    const { items } = await walk('ListRecords', { metadataPrefix: 'datacite' });
    expect(idsOf(items).sort()).toEqual([identifier(ids.doi!), identifier(ids.march3!)].sort());
    for (const item of items) expect(item.metadata.resource.identifier).toMatchObject({ '@identifierType': 'DOI' });
    const enveloped = await walk('ListRecords', { metadataPrefix: 'oai_datacite' });
    expect(idsOf(enveloped.items).sort()).toEqual([identifier(ids.doi!), identifier(ids.march3!)].sort());
    for (const item of enveloped.items) expect(item.metadata.oai_datacite.payload.resource.identifier).toMatchObject({ '@identifierType': 'DOI' });
  });
});

describe('GetRecord', () => {
  it('gives the DataCite resource, bare and in the envelope of DataCite, the ISO 19139 and the DIF 10 document of a record', async () => {
    const datacite = (await oai({ verb: 'GetRecord', identifier: identifier(ids.doi!), metadataPrefix: 'datacite' })).reply.GetRecord.record[0];
    expect(datacite.header[0]).toMatchObject({ identifier: identifier(ids.doi!), datestamp: JANUARY });
    expect(datacite.metadata.resource['@xmlns']).toBe('http://datacite.org/schema/kernel-4');
    expect(datacite.metadata.resource.identifier['#text']).toBe('10.11888/Glacio.tpdc.270001');
    // As DataCite's own provider: the DataCite kernel version, the repository's symbol (no DataCite account here: the host), the resource.
    const enveloped = (await oai({ verb: 'GetRecord', identifier: identifier(ids.doi!), metadataPrefix: 'oai_datacite' })).reply.GetRecord.record[0].metadata.oai_datacite;
    expect(enveloped).toMatchObject({ '@xmlns': 'http://schema.datacite.org/oai/oai-1.1/', schemaVersion: '4.5', datacentreSymbol: 'PORTAL.TEST' });
    expect(enveloped.payload.resource.identifier['#text']).toBe('10.11888/Glacio.tpdc.270001');
    const dif = (await oai({ verb: 'GetRecord', identifier: identifier(ids.doi!), metadataPrefix: 'dif10' })).reply.GetRecord.record[0].metadata.DIF;
    expect(dif['@xmlns']).toBe('http://gcmd.gsfc.nasa.gov/Aboutus/xml/dif/');
    expect(dif.Entry_ID.Short_Name).toBe(ids.doi);
    expect(dif.Dataset_Citation.Persistent_Identifier).toEqual({ Type: 'DOI', Identifier: '10.11888/Glacio.tpdc.270001' });
    const iso = (await oai({ verb: 'GetRecord', identifier: identifier(ids.english!), metadataPrefix: 'iso19139' })).reply.GetRecord.record[0];
    expect(iso.metadata['gmd:MD_Metadata']['gmd:fileIdentifier']['gco:CharacterString']).toBe(ids.english);
  });

  it('refuses datacite and oai_datacite for a record without DOI, and formats it does not know', async () => {
    expect((await errorOf({ verb: 'GetRecord', identifier: identifier(ids.plain!), metadataPrefix: 'oai_datacite' })).code).toBe('cannotDisseminateFormat');
    expect((await errorOf({ verb: 'GetRecord', identifier: identifier(ids.plain!), metadataPrefix: 'datacite' })).code).toBe('cannotDisseminateFormat');
    expect((await errorOf({ verb: 'GetRecord', identifier: identifier(ids.plain!), metadataPrefix: 'marc21' })).code).toBe('cannotDisseminateFormat');
  });

  it('gives an unpublished record as a deleted header without metadata', async () => {
    const record = (await oai({ verb: 'GetRecord', identifier: identifier(ids.march2!), metadataPrefix: 'oai_dc' })).reply.GetRecord.record[0];
    expect(record.header[0]).toMatchObject({ '@status': 'deleted', datestamp: APRIL });
    expect(record.metadata).toBeUndefined();
  });

  it('does not know drafts and records in review', async () => {
    for (const key of ['draft', 'submitted']) {
      expect((await errorOf({ verb: 'GetRecord', identifier: identifier(ids[key]!), metadataPrefix: 'oai_dc' })).code).toBe('idDoesNotExist');
    }
  });
});

describe('datestamps follow every change of what the feed exports', () => {
  it('moves a record when staff edit it or an author it shows, keeps it as deleted when deleted, and live again when republished', async () => {
    await at(MAY, async () => {
      expectStatus(await call(portal, 'PATCH', recordUrl(ids.zkk!), staff.token, { body: { temporal_resolution: 'daily' } }), 200);
    });
    const since = async (from: string) => idsOf((await walk('ListIdentifiers', { metadataPrefix: 'oai_dc', from })).items);
    expect(await since(MAY)).toEqual([identifier(ids.zkk!)]);

    const june = '2024-06-01T00:00:00Z';
    // The author the January records share (the March ones have their own of the same name).
    const author = await portal.database.db.selectFrom('meta_author').select('author_id as id').where('metadata_id', '=', ids.doi!).executeTakeFirstOrThrow();
    await at(june, async () => {
      expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), staff.token, { body: { affiliation: '中国科学院青藏高原研究所' } }), 200);
    });
    expect((await since(june)).sort()).toEqual(['doi', 'plain', 'english'].map((k) => identifier(ids[k]!)).sort());

    const july = '2024-07-01T00:00:00Z';
    await at(july, async () => {
      expectStatus(await call(portal, 'DELETE', recordUrl(ids.march1!), staff.token), 204);
    });
    const gone = (await oai({ verb: 'GetRecord', identifier: identifier(ids.march1!), metadataPrefix: 'oai_dc' })).reply.GetRecord.record[0];
    expect(gone.header[0]).toMatchObject({ '@status': 'deleted', datestamp: july });

    // Published again: live again, with its metadata.
    const august = '2024-08-01T00:00:00Z';
    await at(august, async () => {
      expectStatus(await decide(portal, staff.token, ids.march2!, { review_status: 'publish', content: '' }), 200);
    });
    const back = (await oai({ verb: 'GetRecord', identifier: identifier(ids.march2!), metadataPrefix: 'oai_dc' })).reply.GetRecord.record[0];
    expect(back.header[0]['@status']).toBeUndefined();
    expect(back.header[0].datestamp).toBe(august);
    expect(back.metadata['oai_dc:dc']['dc:title'][0]['#text']).toBe('冰川数据集 march2');
  });
});

describe('resumption tokens', () => {
  async function firstToken(target = portal): Promise<string> {
    const { reply } = await oai({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' }, target);
    return reply.ListIdentifiers.resumptionToken['#text'];
  }

  it('are honoured for more than 24 hours, refused after their expiry', async () => {
    const token = await firstToken();
    vi.setSystemTime(Date.now() + 25 * 3600 * 1000);
    expect((await oai({ verb: 'ListIdentifiers', resumptionToken: token })).reply.ListIdentifiers.header.length).toBeGreaterThan(0);
    vi.setSystemTime(Date.now() + 24 * 3600 * 1000);
    expect((await errorOf({ verb: 'ListIdentifiers', resumptionToken: token })).code).toBe('badResumptionToken');
    vi.setSystemTime(Date.now() - 49 * 3600 * 1000);
  });

  it('refuse a changed token, another verb, and garbage', async () => {
    const token = await firstToken();
    const [body, signature] = token.split('.');
    const state = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...state, cursor: 0, after: ['1970-01-01T00:00:00Z', ''] })).toString('base64url')}.${signature}`;
    // The signature changed in its first character (whatever it was) and in its last one's unused bits.
    const changed = `${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    const last = signature!.at(-1)!;
    const respelled = `${signature!.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) ^ 1)}`;
    for (const bad of [forged, `${body}.${changed}`, `${body}.${respelled}`, 'garbage', '']) {
      expect((await errorOf({ verb: 'ListIdentifiers', resumptionToken: bad })).code).toBe('badResumptionToken');
    }
    expect((await errorOf({ verb: 'ListRecords', resumptionToken: token })).code).toBe('badResumptionToken');
  });

  it('need no server state: another instance with the same secret continues, one with another secret refuses', async () => {
    const token = await firstToken();
    const expected = (await oai({ verb: 'ListIdentifiers', resumptionToken: token })).reply.ListIdentifiers.header;
    const twin = await buildApp({ ...portal.config }, { logger: false });
    const stranger = await buildApp({ ...portal.config, secretKey: `${SECRET}-other` }, { logger: false });
    try {
      const other = { ...portal, app: twin.app } as TestPortal;
      expect((await oai({ verb: 'ListIdentifiers', resumptionToken: token }, other)).reply.ListIdentifiers.header).toEqual(expected);
      expect((await errorOf({ verb: 'ListIdentifiers', resumptionToken: token }, { ...portal, app: stranger.app } as TestPortal)).code).toBe('badResumptionToken');
    } finally {
      await twin.app.close();
      await stranger.app.close();
    }
  });
});

describe('protocol errors', () => {
  it('badVerb: missing, unknown or repeated verb; the request element then has no attributes', async () => {
    for (const query of ['', 'verb=Explain', 'verb=Identify&verb=Identify', 'verb=identify']) {
      const { code, request } = await errorOf(query);
      expect(code).toBe('badVerb');
      expect(request).toBe('http://portal.test/oai');
    }
  });

  it('badArgument: unknown, repeated or missing arguments, a token with others, bad dates', async () => {
    const queries = [
      'verb=Identify&metadataPrefix=oai_dc',
      'verb=ListRecords',
      'verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc',
      'verb=ListRecords&metadataPrefix=oai_dc&sets=theme',
      'verb=GetRecord&metadataPrefix=oai_dc',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&resumptionToken=abc',
      'verb=ListSets&resumptionToken=abc&set=theme',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-10&until=2024-03-05T12:30:45Z',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2024-02-30',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-10T10:00:00',
      'verb=ListRecords&metadataPrefix=oai_dc&until=10-01-2024',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2024-03-01&until=2024-02-01',
    ];
    for (const query of queries) {
      const { code, request } = await errorOf(query);
      expect([query, code]).toEqual([query, 'badArgument']);
      expect(request).toBe('http://portal.test/oai');
    }
  });

  it('cannotDisseminateFormat for a list in a format it does not know', async () => {
    const { code, request } = await errorOf({ verb: 'ListRecords', metadataPrefix: 'marc21' });
    expect(code).toBe('cannotDisseminateFormat');
    expect(request['@metadataPrefix']).toBe('marc21');
  });
});

describe('a harvest by a real OAI-PMH client (Debian HTTP::OAI)', () => {
  // 7 items in pages of 3: the client has them all only by following two resumption tokens a list.
  it('gets every published record exactly once through the resumption tokens, deleted ones flagged', async () => {
    const address = await portal.app.listen({ port: 0, host: '127.0.0.1' });
    const { stdout } = await promisify(execFile)('perl', [path.join(import.meta.dirname, 'oai/harvest.pl'), `${address}/oai`, 'datacite', 'oai_datacite', 'iso19139', 'dif10'], {
      encoding: 'utf8',
    });
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    const live = ['doi', 'plain', 'english', 'zkk', 'march2', 'march3'].map((k) => identifier(ids[k]!));
    const deleted = [identifier(ids.march1!)];
    for (const verb of ['ListRecords', 'ListIdentifiers']) {
      const seen = lines.filter(([v]) => v === verb);
      expect(seen.map(([, id]) => id).sort()).toEqual([...live, ...deleted].sort());
      expect(
        seen
          .filter(([, , , status]) => status === 'deleted')
          .map(([, id]) => id)
          .sort(),
      ).toEqual(deleted.sort());
    }
    expect(
      lines
        .find(([verb, id]) => verb === 'ListRecords' && id === identifier(ids.english!))!
        .slice(4)
        .join(' '),
    ).toBe('Glacier dataset english');
    // The other formats, each root in its namespace, through the same client; DataCite only for records with a DOI.
    const withDoi = [ids.doi!, ids.march3!].map(identifier);
    const roots: Record<string, [string, string, string[]]> = {
      datacite: ['http://datacite.org/schema/kernel-4', 'resource', withDoi],
      oai_datacite: ['http://schema.datacite.org/oai/oai-1.1/', 'oai_datacite', withDoi],
      iso19139: ['http://www.isotc211.org/2005/gmd', 'MD_Metadata', live],
      dif10: ['http://gcmd.gsfc.nasa.gov/Aboutus/xml/dif/', 'DIF', live],
    };
    for (const [prefix, [namespace, root, expected]] of Object.entries(roots)) {
      const seen = lines.filter(([verb, , , status]) => verb === `ListRecords:${prefix}` && status === 'live');
      expect(seen.map(([, id]) => id).sort(), prefix).toEqual([...expected].sort());
      for (const line of seen) expect(line.slice(4, 6), prefix).toEqual([namespace, root]);
    }
    const english = (prefix: string) =>
      lines
        .find(([verb, id]) => verb === `ListRecords:${prefix}` && id === identifier(ids.english!))!
        .slice(6)
        .join(' ');
    expect(english('iso19139')).toBe(ids.english);
    expect(english('dif10')).toBe('Glacier dataset english');
  }, 60_000);
});
