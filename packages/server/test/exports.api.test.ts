import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import jsonld from 'jsonld';
import { Cite, plugins as citationPlugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { readDataCite } from '../src/modules/records-io/datacite.js';
import { buildUser, type Person, buildExportRecord, PRIVATE_AUTHOR } from './factories.js';
import { createTestPortal, tokenHeader, type TestPortal } from './helpers.js';
import { localDocumentLoader, xmllintErrors } from './exports-builders.js';

/**
 * The exports of a published record (issue 9): each format for a record with both languages and
 * every field, one across the 180th meridian with three authors and no DOI, a polar one; the 404 of
 * records that are not published; the 400 of a bad format; content negotiation on the landing page.
 */
let portal: TestPortal;
let webDist: string;
let owner: Person;
const ids = {} as Record<'full' | 'antimeridian' | 'pacific' | 'polar' | 'submitted' | 'unpublished', string>;

const DOI = '10.11888/Glacio.tpdc.270001';
const POLAR_DOI = '10.11888/Polar.tpdc.300002';

beforeAll(async () => {
  // A built web app, so that a landing page request the exports do not answer reaches the page handling.
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  owner = await buildUser(portal);
  ids.full = await buildExportRecord(
    portal,
    owner.id,
    {
      key: 'full',
      language: 'zh-hans',
      zh: { title: '青藏高原冰川面积变化数据集（1990-2020）', abstract: '本数据集记录了青藏高原冰川面积与物质平衡的长期变化，基于Landsat影像逐年解译。' },
      en: {
        title: 'Glacier area changes of the Tibetan Plateau (1990-2020)',
        abstract: 'Annual glacier outlines of the Tibetan Plateau derived from Landsat imagery, 1990 to 2020.',
      },
      themes: [['冰川', 'glacier']],
      places: [['青藏高原', 'Tibetan Plateau']],
      disciplines: [['冰川学', 'glaciology']],
      authors: [
        ['张冰川', 'Zhang Bingchuan'],
        ['李雪', 'Li Xue'],
        ['王高原', 'Wang Gaoyuan'],
        ['欧阳冰', 'Ouyang Bing'],
      ],
      funds: ['5'],
      threePole: 'XDA20-01',
      license: 'CC BY-NC-SA 4.0',
      sharing: 'online',
      published: '2021-05-01',
      time: ['1990-01-01', '2020-12-31'],
      box: [73, 26, 105, 40],
      doi: DOI,
      files: [1_000_000, 2_500_000],
    },
    {
      affiliation: ['中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
      extraRoles: ['principalInvestigator', 'metadataAuthor'],
      fund: ['国家自然科学基金冰川项目', 'NSFC glacier project', '41930000'],
      literature: [
        { title: '青藏高原冰川变化', title_en: 'Glacier changes on the Tibetan Plateau', doi: '10.1038/nclimate1580', type: 'citation', year: '2012' },
        { title: '冰川编目方法', title_en: 'Glacier inventory methods', link: 'https://example.org/inventory', type: 'reference', year: '2015' },
      ],
      distributor: {
        unit: '国家青藏高原科学数据中心',
        email: 'data@tpdc.example.org',
        phone: '+86 10 8409 7000',
        address: '北京市朝阳区林萃路16号',
        city: '北京',
        country: '中国',
      },
      embargoUntil: '2022-05-01',
      dataSource: ['Landsat TM/ETM+/OLI 影像目视解译。', 'Visual interpretation of Landsat TM/ETM+/OLI scenes.'],
      updated: '2021-06-15',
    },
  );
  ids.antimeridian = await buildExportRecord(
    portal,
    owner.id,
    {
      key: 'antimeridian',
      language: 'en',
      zh: { title: '白令海海冰范围数据集', abstract: '白令海海冰。' },
      en: { title: 'Sea ice extent of the Bering Sea', abstract: 'Bering Sea ice.' },
      themes: [['海冰', 'sea ice']],
      authors: [
        ['Anna Karlsson', 'Anna Karlsson'],
        ['陈极地', 'Chen Jidi'],
        ['刘海冰', 'Liu Haibing'],
      ],
      license: 'CC BY 4.0',
      published: '2022-03-10',
      time: ['2000-01-01', '2019-12-31'],
      box: [170, 50, -170, 65],
    },
    { affiliation: ['斯德哥尔摩大学', 'Stockholm University'] },
  );
  ids.pacific = await buildExportRecord(portal, owner.id, {
    key: 'pacific',
    language: 'en',
    zh: { title: '太平洋浮标观测' },
    en: { title: 'Pacific buoy observations' },
    authors: [['Mere Tane', 'Mere Tane']],
    published: '2023-07-01',
    box: [160, -30, -150, 10],
    doi: '10.11888/Ocean.tpdc.300003',
  });
  ids.polar = await buildExportRecord(portal, owner.id, {
    key: 'polar',
    language: 'en',
    zh: { title: '北极海冰厚度', abstract: '北极海冰厚度的卫星测高反演结果。' },
    en: { title: 'Arctic sea ice thickness', abstract: 'Sea ice thickness of the Arctic Ocean retrieved from satellite altimetry.' },
    authors: [['赵北极', 'Zhao Beiji']],
    license: 'CC BY 4.0',
    published: '2023-01-20',
    box: [-180, 60, 180, 90],
    doi: POLAR_DOI,
  });
  for (const status of ['submitted', 'unpublished'] as const) {
    ids[status] = await buildExportRecord(portal, owner.id, {
      key: status,
      status: status === 'submitted' ? 'submitted' : 'NotPublished',
      language: 'zh-hans',
      zh: { title: `未发布的数据集 ${status}` },
      en: { title: `Unpublished dataset ${status}` },
      doi: `10.11888/Hidden.${status}`,
      published: '2021-01-01',
    });
  }
});

afterAll(async () => {
  await portal.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** The day a citation is made (UTC): GB/T 7714 gives it as the access date. */
const accessDay = () => new Date().toISOString().slice(0, 10);
const exportUrl = (id: string, format: string, lang?: string) => `/api/metadata/metadata/${id}/export/?format=${format}${lang ? `&lang=${lang}` : ''}`;
const get = (url: string, headers: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url, headers });
async function exported(id: string, format: string, lang?: string) {
  const response = await get(exportUrl(id, format, lang));
  if (response.statusCode !== 200) throw new Error(`${format} of ${id}: ${response.statusCode} ${response.body}`);
  return response;
}

/** Elements as lists, attributes `@name`, text `#text`: one reading for one or many. */
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, isArray: (_n, _p, _l, isAttribute) => !isAttribute });
/* eslint-disable @typescript-eslint/no-explicit-any */
const at = (node: any, ...names: string[]): any[] => names.reduce<any[]>((nodes, name) => nodes.flatMap((n) => n?.[name] ?? []), [node]);
const textOf = (node: any): string => (typeof node === 'string' ? node : (node?.['#text'] ?? ''));
/** west, east, south, north of a DataCite geoLocationBox or (with 'Decimal') an ISO EX_GeographicBoundingBox. */
const boxSides = (box: any, ...inner: string[]) =>
  ['westBoundLongitude', 'eastBoundLongitude', 'southBoundLatitude', 'northBoundLatitude'].map((side) => Number(textOf(at(box, side, ...inner)[0])));

function noPrivateDetails(body: string) {
  for (const value of Object.values(PRIVATE_AUTHOR)) expect(body).not.toContain(value);
}

describe('who may export', () => {
  it('answers 404 for records never published, in the caller language, whatever the format', async () => {
    for (const id of [ids.submitted, 'no-such-record']) {
      for (const format of ['datacite', 'schemaorg', 'apa']) {
        const en = await get(exportUrl(id, format), { 'accept-language': 'en' });
        expect(en.statusCode).toBe(404);
        expect(en.json()).toEqual({ detail: 'The metadata was not found' });
        const zh = await get(exportUrl(id, format), { 'accept-language': 'zh-hans' });
        expect(zh.json()).toEqual({ detail: '未找到该元数据' });
      }
    }
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await portal.app.inject({ method, url: exportUrl(ids.submitted, 'ris') });
      expect(response.statusCode, method).toBe(404);
    }
    // Not to its creator either: an export is the published record's.
    const { token } = await buildUser(portal);
    expect((await get(exportUrl(ids.submitted, 'ris'), { authorization: `Token ${token}` })).statusCode).toBe(404);
  });

  it("answers 410 with the tombstone's facts for a withdrawn record, GET and HEAD, as its page and negotiation do", async () => {
    for (const language of ['en', 'zh-hans'] as const) {
      const tombstone = (await get(`/api/metadata/metadata/${ids.unpublished}/tombstone/`, { 'accept-language': language })).json();
      for (const format of ['datacite', 'schemaorg', 'ris', 'apa']) {
        const response = await get(exportUrl(ids.unpublished, format), { 'accept-language': language });
        expect(response.statusCode, format).toBe(410);
        expect(response.json(), format).toEqual({ detail: translate(language, 'metadata.exports.withdrawn'), ...tombstone });
        expect(response.json()).toMatchObject({ doi: '10.11888/Hidden.unpublished', title: '未发布的数据集 unpublished' });
        expect(response.headers['content-disposition']).toBeUndefined();
        // lang= names the language of the reply as of the export.
        expect((await get(exportUrl(ids.unpublished, format, language), { 'accept-language': language === 'en' ? 'zh-hans' : 'en' })).json().detail).toBe(
          translate(language, 'metadata.exports.withdrawn'),
        );
      }
      const head = await portal.app.inject({ method: 'HEAD', url: exportUrl(ids.unpublished, 'ris'), headers: { 'accept-language': language } });
      expect(head.statusCode).toBe(410);
      expect(head.body).toBe('');
    }
  });

  it('says the reply varies with Accept-Language when no lang= chose the language, and names the page it describes', async () => {
    const byHeader = await get(exportUrl(ids.full, 'ris'), { 'accept-language': 'en' });
    expect(byHeader.headers.vary).toBe('Accept-Language');
    expect(byHeader.headers.link).toBe(`<http://portal.test/en/data/${ids.full}/> ; rel="describes" ; type="text/html"`);
    const chosen = await get(exportUrl(ids.full, 'ris', 'zh-hans'), { 'accept-language': 'en' });
    expect(chosen.headers.vary).toBeUndefined();
    expect(chosen.headers.link).toBe(`<http://portal.test/data/${ids.full}/> ; rel="describes" ; type="text/html"`);
  });

  it('refuses a missing or unknown format with 400 and a message in both languages', async () => {
    for (const url of [exportUrl(ids.full, 'marc21'), `/api/metadata/metadata/${ids.full}/export/`, exportUrl(ids.full, 'DataCite')]) {
      const en = await get(url, { 'accept-language': 'en' });
      expect(en.statusCode).toBe(400);
      expect(en.json().format).toEqual(['Choose one of the export formats: datacite, iso19139, dcat, turtle, rdfxml, schemaorg, ris, bibtex, csl, apa or gbt7714.']);
      const zh = await get(url, { 'accept-language': 'zh-hans' });
      expect(zh.statusCode).toBe(400);
      expect(zh.json().detail).toBe('请选择一种导出格式：datacite、iso19139、dcat、turtle、rdfxml、schemaorg、ris、bibtex、csl、apa 或 gbt7714。');
    }
  });

  it('sends each format as a download with its media type and a file name', async () => {
    const expected: Record<string, [string, string]> = {
      datacite: ['application/vnd.datacite.datacite+xml; charset=utf-8', 'datacite.xml'],
      iso19139: ['application/xml; charset=utf-8', 'iso19139.xml'],
      dcat: ['application/ld+json; charset=utf-8', 'dcat.jsonld'],
      schemaorg: ['application/ld+json; charset=utf-8', 'schemaorg.jsonld'],
      ris: ['application/x-research-info-systems; charset=utf-8', 'ris'],
      bibtex: ['application/x-bibtex; charset=utf-8', 'bib'],
      csl: ['application/vnd.citationstyles.csl+json; charset=utf-8', 'csl.json'],
      apa: ['text/plain; charset=utf-8', 'apa.txt'],
      gbt7714: ['text/plain; charset=utf-8', 'gbt7714.txt'],
    };
    for (const [format, [type, ending]] of Object.entries(expected)) {
      const response = await exported(ids.full, format);
      expect(response.headers['content-type'], format).toBe(type);
      expect(response.headers['content-disposition'], format).toBe(`attachment; filename="${ids.full}.${ending}"`);
      noPrivateDetails(response.body);
    }
  });
});

describe('a record with only a title, an author, a box and a DOI', () => {
  it('answers every format, the XML well-formed and the JSON-LD expandable', async () => {
    for (const format of ['datacite', 'iso19139']) expect(xmllintErrors((await exported(ids.pacific, format)).body), format).toBe('');
    for (const format of ['dcat', 'schemaorg']) expect((await expand((await exported(ids.pacific, format)).json()))['@type']).toHaveLength(1);
    expect((await exported(ids.pacific, 'apa', 'en')).body).toBe(
      'Tane, M. (2023). Pacific buoy observations [Data set]. Three Poles Data Portal. https://doi.org/10.11888/Ocean.tpdc.300003\n',
    );
    expect((await exported(ids.pacific, 'gbt7714', 'zh-hans')).body).toBe(
      `TANE M. 太平洋浮标观测[DS/OL]. 三极科学数据门户, 2023[${accessDay()}]. http://portal.test/data/${ids.pacific}/. DOI:10.11888/Ocean.tpdc.300003.\n`,
    );
    const schemaorg = (await exported(ids.pacific, 'schemaorg', 'en')).json();
    expect(schemaorg.license).toBeUndefined();
    // No abstract: the first fact of the record is already 50 characters or more.
    expect(schemaorg.description).toBe('Dataset “Pacific buoy observations”, published by Three Poles Data Portal in 2023.');
  });
});

describe('DataCite 4.5 XML', () => {
  it('holds the mandatory properties and the others, in both languages', async () => {
    const body = (await exported(ids.full, 'datacite')).body;
    expect(xmllintErrors(body)).toBe('');
    const resource = at(xml.parse(body), 'resource')[0];
    expect(resource['@schemaLocation']).toBe('http://datacite.org/schema/kernel-4 https://schema.datacite.org/meta/kernel-4.5/metadata.xsd');
    expect(at(resource, 'identifier').map((n) => [n['@identifierType'], textOf(n)])).toEqual([['DOI', DOI]]);
    expect(at(resource, 'titles', 'title').map((n) => [n['@lang'], n['@titleType'], textOf(n)])).toEqual([
      ['zh-Hans', undefined, '青藏高原冰川面积变化数据集（1990-2020）'],
      ['en', 'TranslatedTitle', 'Glacier area changes of the Tibetan Plateau (1990-2020)'],
    ]);
    expect(textOf(at(resource, 'publisher')[0])).toBe('Three Poles Data Portal');
    expect(textOf(at(resource, 'publicationYear')[0])).toBe('2021');
    expect(at(resource, 'resourceType')[0]['@resourceTypeGeneral']).toBe('Dataset');
    const creators = at(resource, 'creators', 'creator');
    expect(creators.map((c) => [textOf(at(c, 'creatorName')[0]), textOf(at(c, 'familyName')[0]), textOf(at(c, 'givenName')[0])])).toEqual([
      ['张冰川', 'Zhang', 'Bingchuan'],
      ['李雪', 'Li', 'Xue'],
      ['王高原', 'Wang', 'Gaoyuan'],
      ['欧阳冰', 'Ouyang', 'Bing'],
    ]);
    expect(at(creators[0], 'affiliation').map(textOf)).toEqual(['中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS']);
    // The principal investigator maps; the metadata author has no DataCite type and stays out.
    expect(at(resource, 'contributors', 'contributor').map((c) => [c['@contributorType'], textOf(at(c, 'contributorName')[0])])).toEqual([['ProjectLeader', '张冰川']]);
    expect(at(resource, 'descriptions', 'description').map((d) => [d['@descriptionType'], d['@lang']])).toEqual([
      ['Abstract', 'zh-Hans'],
      ['Abstract', 'en'],
      ['Methods', 'zh-Hans'],
      ['Methods', 'en'],
    ]);
    expect(at(resource, 'subjects', 'subject').map((s) => [s['@lang'], s['@subjectScheme'], textOf(s)])).toEqual(
      expect.arrayContaining([
        ['zh-Hans', 'theme', '冰川'],
        ['en', 'theme', 'glacier'],
        ['zh-Hans', 'place', '青藏高原'],
        ['en', 'discipline', 'glaciology'],
      ]),
    );
    expect(Object.fromEntries(at(resource, 'dates', 'date').map((d) => [d['@dateType'], textOf(d)]))).toEqual({
      Issued: '2021-05-01',
      Updated: '2021-06-15',
      Available: '2022-05-01',
      Collected: '1990-01-01/2020-12-31',
    });
    expect(textOf(at(resource, 'language')[0])).toBe('zh-Hans');
    const rights = at(resource, 'rightsList', 'rights')[0];
    expect([rights['@rightsURI'], rights['@rightsIdentifier'], rights['@rightsIdentifierScheme'], textOf(rights)]).toEqual([
      'https://creativecommons.org/licenses/by-nc-sa/4.0/legalcode',
      'cc-by-nc-sa-4.0',
      'SPDX',
      'Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International',
    ]);
    const box = at(resource, 'geoLocations', 'geoLocation', 'geoLocationBox');
    expect(box.map((b) => boxSides(b))).toEqual([[73, 105, 26, 40]]);
    expect(at(resource, 'fundingReferences', 'fundingReference').map((f) => [textOf(at(f, 'funderName')[0]), textOf(at(f, 'awardNumber')[0])])).toEqual(
      expect.arrayContaining([
        ['三极平台', 'XDA20-01'],
        ['NSFC glacier project', '41930000'],
      ]),
    );
    expect(at(resource, 'relatedIdentifiers', 'relatedIdentifier').map((r) => [r['@relatedIdentifierType'], r['@relationType'], textOf(r)])).toEqual([
      ['DOI', 'IsDescribedBy', '10.1038/nclimate1580'],
      ['URL', 'References', 'https://example.org/inventory'],
    ]);
    expect(at(resource, 'sizes', 'size').map(textOf)).toEqual(['2 files', '3500000 bytes']);
    expect(at(resource, 'formats', 'format').map(textOf)).toEqual(['application/x-netcdf']);
  });

  it('reads back through the DataCite importer to the same record', async () => {
    const [candidate] = readDataCite((await exported(ids.full, 'datacite')).body);
    const value = (candidate as { value: any }).value;
    expect(value).toMatchObject({
      language: 'zh-hans',
      doi: DOI,
      title: '青藏高原冰川面积变化数据集（1990-2020）',
      description: '本数据集记录了青藏高原冰川面积与物质平衡的长期变化，基于Landsat影像逐年解译。',
      data_source: 'Landsat TM/ETM+/OLI 影像目视解译。',
      license: 'CC BY-NC-SA 4.0',
      time_start: '1990-01-01',
      time_end: '2020-12-31',
      west: 73,
      south: 26,
      east: 105,
      north: 40,
      subtopic_three_pole: 'XDA20-01',
      embargo_until: '2022-05-01T00:00:00.000Z',
      published_at: '2021-05-01T00:00:00.000Z',
    });
    expect(value.translations[0]).toMatchObject({
      language: 'en',
      title: 'Glacier area changes of the Tibetan Plateau (1990-2020)',
      data_source: 'Visual interpretation of Landsat TM/ETM+/OLI scenes.',
    });
    expect(value.authors.filter((a: any) => a.role === 'resourceProvider').map((a: any) => [a.name, a.affiliation, a.translations[0].affiliation])).toEqual([
      ['张冰川', '中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
      ['李雪', '中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
      ['王高原', '中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
      ['欧阳冰', '中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
    ]);
    expect(value.authors.find((a: any) => a.role === 'principalInvestigator')?.name).toBe('张冰川');
    expect(value.keywords.map((k: any) => [k.type, k.name, k.translations[0]?.name])).toEqual(
      expect.arrayContaining([
        ['theme', '冰川', 'glacier'],
        ['place', '青藏高原', 'Tibetan Plateau'],
        ['discipline', '冰川学', 'glaciology'],
      ]),
    );
    expect(value.funds).toEqual(
      expect.arrayContaining([{ id: '5', name: '三极平台', is_core: true }, expect.objectContaining({ name: '国家自然科学基金冰川项目', serial_number: '41930000' })]),
    );
  });

  it('splits a box across the 180th meridian into two boxes, and keeps a polar box whole', async () => {
    const boxesOf = async (id: string) => at(xml.parse((await exported(id, 'datacite')).body), 'resource', 'geoLocations', 'geoLocation', 'geoLocationBox').map((b) => boxSides(b));
    expect(await boxesOf(ids.pacific)).toEqual([
      [160, 180, -30, 10],
      [-180, -150, -30, 10],
    ]);
    expect(await boxesOf(ids.polar)).toEqual([[-180, 180, 60, 90]]);
    // The importer reads the two boxes back as the one box across the meridian the portal keeps.
    const [candidate] = readDataCite((await exported(ids.pacific, 'datacite')).body);
    expect((candidate as { value: any }).value).toMatchObject({ west: 160, east: -150, south: -30, north: 10 });
  });

  it('is refused for a record without a DOI (DataCite identifiers are DOIs), in both languages', async () => {
    const en = await get(exportUrl(ids.antimeridian, 'datacite'), { 'accept-language': 'en' });
    expect(en.statusCode).toBe(409);
    expect(en.json().detail).toBe('This dataset has no DOI: DataCite metadata cannot be made without one. Choose another format.');
    const zh = await get(exportUrl(ids.antimeridian, 'datacite'), { 'accept-language': 'zh-hans' });
    expect(zh.json().detail).toBe('该数据集没有 DOI，无法生成 DataCite 元数据。请选择其他格式。');
  });
});

describe('ISO 19139 XML', () => {
  // The schemas.opengis.net tree (iso/19139/20070417, gml/3.2.1, xlink/1.0.0), so that its relative imports hold.

  it('describes the dataset as GeoNetwork reads it: identifier, languages, citation, keywords, licence, extent', async () => {
    const body = (await exported(ids.full, 'iso19139')).body;
    expect(xmllintErrors(body)).toBe('');
    const metadata = at(xml.parse(body), 'MD_Metadata')[0];
    expect(textOf(at(metadata, 'fileIdentifier', 'CharacterString')[0])).toBe(ids.full);
    expect(at(metadata, 'language', 'LanguageCode')[0]['@codeListValue']).toBe('chi');
    expect(at(metadata, 'hierarchyLevel', 'MD_ScopeCode')[0]['@codeListValue']).toBe('dataset');
    expect(textOf(at(metadata, 'contact', 'CI_ResponsibleParty', 'organisationName', 'CharacterString')[0])).toBe('国家青藏高原科学数据中心');
    expect(textOf(at(metadata, 'dateStamp', 'DateTime')[0])).toBe('2021-06-15T09:30:00Z');
    const locale = at(metadata, 'locale', 'PT_Locale')[0];
    expect([locale['@id'], at(locale, 'languageCode', 'LanguageCode')[0]['@codeListValue']]).toEqual([`locale-en-${ids.full}`, 'eng']);
    const identification = at(metadata, 'identificationInfo', 'MD_DataIdentification')[0];
    const citation = at(identification, 'citation', 'CI_Citation')[0];
    const title = at(citation, 'title')[0];
    expect(title['@type']).toBe('gmd:PT_FreeText_PropertyType');
    expect(textOf(at(title, 'CharacterString')[0])).toBe('青藏高原冰川面积变化数据集（1990-2020）');
    const translated = at(title, 'PT_FreeText', 'textGroup', 'LocalisedCharacterString')[0];
    expect([translated['@locale'], textOf(translated)]).toEqual([`#locale-en-${ids.full}`, 'Glacier area changes of the Tibetan Plateau (1990-2020)']);
    expect(at(citation, 'date', 'CI_Date').map((d) => [textOf(at(d, 'date', 'Date')[0]), at(d, 'dateType', 'CI_DateTypeCode')[0]['@codeListValue']])).toEqual([
      ['2021-05-01', 'publication'],
      ['2021-06-15', 'revision'],
    ]);
    expect(textOf(at(citation, 'identifier', 'MD_Identifier', 'code', 'CharacterString')[0])).toBe(`https://doi.org/${DOI}`);
    const parties = at(citation, 'citedResponsibleParty', 'CI_ResponsibleParty');
    expect(parties.map((p) => [textOf(at(p, 'individualName', 'CharacterString')[0]), at(p, 'role', 'CI_RoleCode')[0]['@codeListValue']])).toEqual([
      // The creators in their order, each once per role (shared rules/creators.ts).
      ['张冰川', 'originator'],
      ['张冰川', 'principalInvestigator'],
      ['李雪', 'originator'],
      ['王高原', 'originator'],
      ['欧阳冰', 'originator'],
    ]);
    // 张冰川 also wrote the metadata: a contact of the metadata, not an author of the data.
    expect(
      at(metadata, 'contact', 'CI_ResponsibleParty').map((p) => [
        textOf(at(p, 'individualName', 'CharacterString')[0]) || textOf(at(p, 'organisationName', 'CharacterString')[0]),
        at(p, 'role', 'CI_RoleCode')[0]['@codeListValue'],
      ]),
    ).toEqual([
      ['国家青藏高原科学数据中心', 'pointOfContact'],
      ['张冰川', 'author'],
    ]);
    expect(textOf(at(identification, 'abstract', 'PT_FreeText', 'textGroup', 'LocalisedCharacterString')[0])).toContain('Annual glacier outlines');
    const keywordTypes = at(identification, 'descriptiveKeywords', 'MD_Keywords').map((k) => [
      at(k, 'type', 'MD_KeywordTypeCode')[0]['@codeListValue'],
      textOf(at(k, 'keyword', 'CharacterString')[0]),
    ]);
    expect(keywordTypes).toEqual([
      ['theme', '冰川'],
      ['place', '青藏高原'],
      ['discipline', '冰川学'],
    ]);
    const constraints = at(identification, 'resourceConstraints', 'MD_LegalConstraints')[0];
    expect(at(constraints, 'otherConstraints').map((c) => textOf(at(c, 'CharacterString')[0]))).toEqual(['https://creativecommons.org/licenses/by-nc-sa/4.0/', '在线开放获取']);
    expect(at(constraints, 'accessConstraints', 'MD_RestrictionCode')[0]['@codeListValue']).toBe('otherRestrictions');
    expect(textOf(at(constraints, 'otherConstraints', 'PT_FreeText', 'textGroup', 'LocalisedCharacterString')[0])).toBe('Online open access');
    const extent = at(identification, 'extent', 'EX_Extent')[0];
    const boxes = at(extent, 'geographicElement', 'EX_GeographicBoundingBox');
    expect(boxes.map((b) => boxSides(b, 'Decimal'))).toEqual([[73, 105, 26, 40]]);
    const period = at(extent, 'temporalElement', 'EX_TemporalExtent', 'extent', 'TimePeriod')[0];
    expect([period['@id'], textOf(at(period, 'beginPosition')[0]), textOf(at(period, 'endPosition')[0])]).toEqual([`temporal-extent-${ids.full}`, '1990-01-01', '2020-12-31']);
    const online = at(metadata, 'distributionInfo', 'MD_Distribution', 'transferOptions', 'MD_DigitalTransferOptions', 'onLine', 'CI_OnlineResource');
    expect(online.map((o) => textOf(at(o, 'linkage', 'URL')[0]))).toEqual([
      `http://portal.test/data/${ids.full}/`,
      `http://portal.test/en/data/${ids.full}/`,
      `https://doi.org/${DOI}`,
    ]);
  });

  it('gives a box across the 180th meridian as two bounding boxes', async () => {
    const metadata = at(xml.parse((await exported(ids.antimeridian, 'iso19139')).body), 'MD_Metadata')[0];
    const boxes = at(metadata, 'identificationInfo', 'MD_DataIdentification', 'extent', 'EX_Extent', 'geographicElement', 'EX_GeographicBoundingBox');
    expect(boxes.map((b) => boxSides(b, 'Decimal'))).toEqual([
      [170, 180, 50, 65],
      [-180, -170, 50, 65],
    ]);
    expect(at(metadata, 'language', 'LanguageCode')[0]['@codeListValue']).toBe('eng');
  });
});

/** The expanded JSON-LD document's values of a property (full IRI), on the first node. */
async function expand(document: unknown) {
  const expanded = await jsonld.expand(document as jsonld.JsonLdDocument, { documentLoader: localDocumentLoader as never });
  expect(expanded).toHaveLength(1);
  return expanded[0] as Record<string, any[]>;
}
const SDO = 'https://schema.org/';

describe('schema.org Dataset JSON-LD', () => {
  it('expands, with a JSON-LD processor, to the Dataset Google reads', async () => {
    const response = await exported(ids.full, 'schemaorg', 'en');
    const document = response.json();
    expect(document['@context']).toBe('https://schema.org/');
    const node = await expand(document);
    expect(node['@type']).toEqual([`${SDO}Dataset`]);
    expect(node['@id']).toBe(`http://portal.test/en/data/${ids.full}/`);
    expect(node[`${SDO}name`]).toEqual([{ '@value': 'Glacier area changes of the Tibetan Plateau (1990-2020)' }]);
    expect(node[`${SDO}alternateName`]).toEqual([{ '@value': '青藏高原冰川面积变化数据集（1990-2020）' }]);
    expect(node[`${SDO}inLanguage`]).toEqual([{ '@value': 'en' }]);
    expect(node[`${SDO}url`]).toEqual([{ '@id': `http://portal.test/en/data/${ids.full}/` }]);
    expect(node[`${SDO}sameAs`]).toEqual([{ '@id': `https://doi.org/${DOI}` }]);
    const identifier = node[`${SDO}identifier`]![0];
    expect(identifier['@type']).toEqual([`${SDO}PropertyValue`]);
    expect(identifier[`${SDO}value`]).toEqual([{ '@value': `doi:${DOI}` }]);
    expect(node[`${SDO}license`]).toEqual([{ '@id': 'https://creativecommons.org/licenses/by-nc-sa/4.0/' }]);
    expect(node[`${SDO}temporalCoverage`]).toEqual([{ '@value': '1990-01-01/2020-12-31' }]);
    const geo = node[`${SDO}spatialCoverage`]![0][`${SDO}geo`][0];
    expect(geo['@type']).toEqual([`${SDO}GeoShape`]);
    // south west north east
    expect(geo[`${SDO}box`]).toEqual([{ '@value': '26 73 40 105' }]);
    const creators = node[`${SDO}creator`]!;
    expect(creators.map((c) => [c['@type'][0], c[`${SDO}name`][0]['@value'], c[`${SDO}affiliation`][0][`${SDO}name`][0]['@value']])).toEqual(
      ['Zhang Bingchuan', 'Li Xue', 'Wang Gaoyuan', 'Ouyang Bing'].map((name) => [`${SDO}Person`, name, 'Institute of Tibetan Plateau Research, CAS']),
    );
    expect(node[`${SDO}isAccessibleForFree`]).toEqual([{ '@value': true }]);
    expect(node[`${SDO}conditionsOfAccess`]).toEqual([{ '@value': 'Online open access' }]);
    expect(node[`${SDO}datePublished`]).toEqual([{ '@value': '2021-05-01' }]);
    expect(node[`${SDO}dateModified`]).toEqual([{ '@value': '2021-06-15' }]);
    expect(node[`${SDO}keywords`]!.map((k) => k['@value'])).toEqual(expect.arrayContaining(['glacier', 'Tibetan Plateau', 'glaciology']));
    expect(node[`${SDO}funder`]!.map((f) => f[`${SDO}name`][0]['@value'])).toEqual(expect.arrayContaining(['Three Poles platform', 'NSFC glacier project']));
    const distribution = node[`${SDO}distribution`]![0];
    expect(distribution['@type']).toEqual([`${SDO}DataDownload`]);
    expect(distribution[`${SDO}encodingFormat`]).toEqual([{ '@value': 'application/x-netcdf' }]);
    const description = node[`${SDO}description`]![0]['@value'] as string;
    expect(description.length).toBeGreaterThanOrEqual(50);
    expect(description.startsWith('Annual glacier outlines of the Tibetan Plateau')).toBe(true);
    noPrivateDetails(response.body);
  });

  it('is in the language asked for, with a short abstract made up to 50 characters from the record', async () => {
    const zh = (await exported(ids.full, 'schemaorg', 'zh-hans')).json();
    expect([zh.name, zh.inLanguage, zh.url]).toEqual(['青藏高原冰川面积变化数据集（1990-2020）', 'zh-Hans', `http://portal.test/data/${ids.full}/`]);
    const short = (await exported(ids.antimeridian, 'schemaorg', 'en')).json();
    expect(short.description).toBe('Bering Sea ice. Dataset “Sea ice extent of the Bering Sea”, published by Three Poles Data Portal in 2022.');
    expect(short.identifier).toBe(`http://portal.test/en/data/${ids.antimeridian}/`);
    const shortZh = (await exported(ids.antimeridian, 'schemaorg', 'zh-hans')).json();
    expect(shortZh.description).toBe('白令海海冰。数据集“白令海海冰范围数据集”，三极科学数据门户于2022年发布。关键词：海冰。时间范围：2000-01-01至2019-12-31。');
    expect(Array.from(shortZh.description as string).length).toBeGreaterThanOrEqual(50);
  });

  it('draws a box across the 180th meridian and a polar box as polygons, anticlockwise and closed', async () => {
    const antimeridian = (await exported(ids.antimeridian, 'schemaorg')).json().spatialCoverage.geo;
    expect(antimeridian.box).toBeUndefined();
    expect(antimeridian.polygon).toBe('50 170 50 -170 65 -170 65 170 50 170');
    const polar = (await exported(ids.polar, 'schemaorg')).json().spatialCoverage.geo;
    expect(polar.polygon).toBe('60 -180 60 -90 60 0 60 90 60 180 90 180 90 90 90 0 90 -90 90 -180 60 -180');
  });
});

describe('DCAT JSON-LD', () => {
  const DCAT = 'http://www.w3.org/ns/dcat#';
  const DCT = 'http://purl.org/dc/terms/';

  it('expands with its own context to a dcat:Dataset in both languages', async () => {
    const response = await exported(ids.full, 'dcat');
    const node = await expand(response.json());
    expect(node['@type']).toEqual([`${DCAT}Dataset`]);
    expect(node['@id']).toBe(`https://doi.org/${DOI}`);
    expect(node[`${DCT}title`]).toEqual([
      // The processor lower-cases language tags (they are case-insensitive); the document says zh-Hans.
      { '@value': '青藏高原冰川面积变化数据集（1990-2020）', '@language': 'zh-hans' },
      { '@value': 'Glacier area changes of the Tibetan Plateau (1990-2020)', '@language': 'en' },
    ]);
    expect(response.json()['dct:title'][0]['@language']).toBe('zh-Hans');
    expect(node[`${DCT}description`]!.map((d) => d['@language'])).toEqual(['zh-hans', 'en']);
    expect(node[`${DCT}identifier`]).toEqual([{ '@value': `https://doi.org/${DOI}` }]);
    expect(node[`${DCAT}keyword`]).toEqual(
      expect.arrayContaining([
        { '@value': '冰川', '@language': 'zh-hans' },
        { '@value': 'glacier', '@language': 'en' },
      ]),
    );
    expect(node[`${DCT}license`]).toEqual([{ '@id': 'https://creativecommons.org/licenses/by-nc-sa/4.0/' }]);
    expect(node[`${DCT}accessRights`]![0]['http://www.w3.org/2000/01/rdf-schema#label']).toEqual([
      { '@value': '在线开放获取', '@language': 'zh-hans' },
      { '@value': 'Online open access', '@language': 'en' },
    ]);
    const temporal = node[`${DCT}temporal`]![0];
    expect(temporal[`${DCAT}startDate`]).toEqual([{ '@value': '1990-01-01', '@type': 'http://www.w3.org/2001/XMLSchema#date' }]);
    expect(temporal[`${DCAT}endDate`]).toEqual([{ '@value': '2020-12-31', '@type': 'http://www.w3.org/2001/XMLSchema#date' }]);
    expect(node[`${DCT}spatial`]![0][`${DCAT}bbox`]).toEqual([
      { '@value': 'POLYGON((73 26, 105 26, 105 40, 73 40, 73 26))', '@type': 'http://www.opengis.net/ont/geosparql#wktLiteral' },
    ]);
    expect(node[`${DCT}publisher`]![0]['http://xmlns.com/foaf/0.1/name']).toEqual(expect.arrayContaining([{ '@value': 'Three Poles Data Portal', '@language': 'en' }]));
    const contact = node[`${DCAT}contactPoint`]![0];
    expect(contact['http://www.w3.org/2006/vcard/ns#hasEmail']).toEqual([{ '@id': 'mailto:data@tpdc.example.org' }]);
    // One distribution per data file, each with its download address (exports-negotiation.api.test.ts checks them).
    const distributions = node[`${DCAT}distribution`]!;
    // In the files' order (uploaded first, first; two made in the same millisecond, by id): compared as a set.
    expect(distributions.map((d) => d[`${DCAT}byteSize`]).sort((a, b) => Number(a![0]!['@value']) - Number(b![0]!['@value']))).toEqual(
      ['1000000', '2500000'].map((bytes) => [{ '@value': bytes, '@type': 'http://www.w3.org/2001/XMLSchema#nonNegativeInteger' }]),
    );
    for (const distribution of distributions) {
      expect(distribution[`${DCAT}accessURL`]).toEqual([{ '@id': `http://portal.test/data/${ids.full}/` }]);
      expect(distribution[`${DCAT}downloadURL`]).toEqual([{ '@id': expect.stringMatching(/^http:\/\/portal\.test\/api\/metadata\/meta-file\/[\w-]+\/download\/$/) }]);
      expect(distribution[`${DCT}issued`]).toEqual([{ '@value': '2022-05-01', '@type': 'http://www.w3.org/2001/XMLSchema#date' }]);
    }
    expect(node[`${DCT}isReferencedBy`]).toEqual([{ '@id': 'https://doi.org/10.1038/nclimate1580' }]);
    noPrivateDetails(response.body);
  });

  it('gives a box across the 180th meridian as a multipolygon', async () => {
    const node = await expand((await exported(ids.antimeridian, 'dcat')).json());
    expect(node[`${DCT}spatial`]![0][`${DCAT}bbox`]![0]['@value']).toBe(
      'MULTIPOLYGON(((170 50, 180 50, 180 65, 170 65, 170 50)), ((-180 50, -170 50, -170 65, -180 65, -180 50)))',
    );
    // No DOI: the landing page in the record's own language (English) names it.
    expect(node['@id']).toBe(`http://portal.test/en/data/${ids.antimeridian}/`);
  });
});

describe('citations', () => {
  const landing = (id: string, language: 'en' | 'zh-hans') => `http://portal.test${language === 'en' ? '/en' : ''}/data/${id}/`;

  it('GB/T 7714-2015: [DS/OL], the first three authors then 等 in Chinese, et al. in English, the access date', async () => {
    expect((await exported(ids.full, 'gbt7714', 'zh-hans')).body).toBe(
      `张冰川, 李雪, 王高原, 等. 青藏高原冰川面积变化数据集（1990-2020）[DS/OL]. 三极科学数据门户, 2021[${accessDay()}]. ${landing(ids.full, 'zh-hans')}. DOI:${DOI}.\n`,
    );
    expect((await exported(ids.full, 'gbt7714', 'en')).body).toBe(
      `ZHANG B, LI X, WANG G, et al. Glacier area changes of the Tibetan Plateau (1990-2020)[DS/OL]. Three Poles Data Portal, 2021[${accessDay()}]. ${landing(ids.full, 'en')}. DOI:${DOI}.\n`,
    );
    // Three authors: all of them, no 等 / et al.; no DOI, no DOI part.
    expect((await exported(ids.antimeridian, 'gbt7714', 'en')).body).toBe(
      `KARLSSON A, CHEN J, LIU H. Sea ice extent of the Bering Sea[DS/OL]. Three Poles Data Portal, 2022[${accessDay()}]. ${landing(ids.antimeridian, 'en')}.\n`,
    );
    expect((await exported(ids.antimeridian, 'gbt7714', 'zh-hans')).body).toBe(
      `KARLSSON A, 陈极地, 刘海冰. 白令海海冰范围数据集[DS/OL]. 三极科学数据门户, 2022[${accessDay()}]. ${landing(ids.antimeridian, 'zh-hans')}.\n`,
    );
  });

  it('APA 7: authors, year, title [Data set], publisher, DOI link', async () => {
    expect((await exported(ids.full, 'apa', 'en')).body).toBe(
      `Zhang, B., Li, X., Wang, G., & Ouyang, B. (2021). Glacier area changes of the Tibetan Plateau (1990-2020) [Data set]. Three Poles Data Portal. https://doi.org/${DOI}\n`,
    );
    expect((await exported(ids.full, 'apa', 'zh-hans')).body).toBe(
      `张冰川, 李雪, 王高原, & 欧阳冰. (2021). 青藏高原冰川面积变化数据集（1990-2020） [Data set]. 三极科学数据门户. https://doi.org/${DOI}\n`,
    );
    expect((await exported(ids.antimeridian, 'apa', 'en')).body).toBe(
      `Karlsson, A., Chen, J., & Liu, H. (2022). Sea ice extent of the Bering Sea [Data set]. Three Poles Data Portal. ${landing(ids.antimeridian, 'en')}\n`,
    );
  });

  it('RIS, BibTeX and CSL-JSON carry the same reference', async () => {
    const ris = (await exported(ids.full, 'ris', 'en')).body;
    expect(ris).toMatch(/^TY {2}- DATA$/m);
    expect(ris.match(/^AU {2}- .+$/gm)).toEqual(['AU  - Zhang, Bingchuan', 'AU  - Li, Xue', 'AU  - Wang, Gaoyuan', 'AU  - Ouyang, Bing']);
    expect(ris).toMatch(/^TI {2}- Glacier area changes of the Tibetan Plateau \(1990-2020\)$/m);
    expect(ris).toMatch(new RegExp(`^DO {2}- ${DOI.replace(/\./g, '\\.')}$`, 'm'));
    expect(ris).toMatch(/^PY {2}- 2021$/m);
    expect(ris).toMatch(/^ER {2}- /m);
    const bibtex = (await exported(ids.full, 'bibtex', 'zh-hans')).body;
    expect(bibtex).toMatch(new RegExp(`^@dataset\\{zhang2021glacier-${ids.full.slice(0, 8)},$`, 'm'));
    expect(bibtex).toContain('author = {张, 冰川 and 李, 雪 and 王, 高原 and 欧阳, 冰}');
    expect(bibtex).toContain('title = {青藏高原冰川面积变化数据集（1990-2020）}');
    expect(bibtex).toContain(`doi = {${DOI}}`);
    const [item] = (await exported(ids.full, 'csl', 'en')).json();
    expect(item).toMatchObject({
      id: ids.full,
      type: 'dataset',
      title: 'Glacier area changes of the Tibetan Plateau (1990-2020)',
      author: [
        { family: 'Zhang', given: 'Bingchuan' },
        { family: 'Li', given: 'Xue' },
        { family: 'Wang', given: 'Gaoyuan' },
        { family: 'Ouyang', given: 'Bing' },
      ],
      issued: { 'date-parts': [[2021, 5, 1]] },
      publisher: 'Three Poles Data Portal',
      DOI,
      URL: landing(ids.full, 'en'),
    });
  });
});

describe('RIS and BibTeX of texts that hold their own syntax', () => {
  // What a provider may type (or paste): BibTeX's braces, LaTeX's specials, an entry start, and an
  // abstract whose lines would each be an RIS tag.
  const title = 'Close}, note = {INJECTED} 50% of \\LaTeX & #1 $x_1$ ~ ^ @misc{evil,';
  const abstract = 'First line.\nTY  - JOUR\nTI  - Injected record\nER  - \n@misc{evil, title = {x}}\r\nLast line: 100% {done}.';
  const zhTitle = '注入}测试{数据集';
  const zhAbstract = '第一行。\nTY  - JOUR\n第二行 %';
  let id: string;
  /** The stored text as RIS and BibTeX give it back: on one line, any run of white space one space. */
  const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();

  beforeAll(async () => {
    id = await buildExportRecord(portal, owner.id, {
      key: 'injection',
      language: 'en',
      zh: { title: zhTitle, abstract: zhAbstract },
      en: { title, abstract },
      themes: [['注入', 'brace } and % keyword']],
      authors: [['李}雪', 'Li} Xue']],
      published: '2024-02-02',
      doi: '10.11888/Evil}.x_1',
    });
  });

  it('BibTeX: one entry whose title and abstract read back as stored, and no field the text tried to add', async () => {
    for (const [language, expectedTitle, expectedAbstract] of [
      ['en', title, abstract],
      ['zh-hans', zhTitle, zhAbstract],
    ] as const) {
      const bibtex = (await exported(id, 'bibtex', language)).body;
      // Every value on one line: only the entry's own lines start a line.
      expect(
        bibtex
          .split('\n')
          .filter(Boolean)
          .every((line) => /^(@dataset\{[a-z0-9]+-[a-z0-9]+,|\t[a-z]+ = .*,|\})$/.test(line)),
        bibtex,
      ).toBe(true);
      // The entries and their fields as a BibTeX parser finds them (citation-js's, values as written).
      const entries = citationPlugins.input.chain(bibtex, { forceType: '@bibtex/text', target: '@bibtex/entries+list', generateGraph: false }) as {
        label: string;
        properties: Record<string, string>;
      }[];
      expect(entries, bibtex).toHaveLength(1);
      expect(entries[0]!.label).toMatch(/^[a-z0-9]+-[a-z0-9]+$/);
      expect(Object.keys(entries[0]!.properties).sort()).toEqual(['abstract', 'author', 'date', 'doi', 'keywords', 'publisher', 'title', 'url', 'urldate']);
      // The values decoded, as a reference manager reads them (biblatex's mapping, which keeps the abstract).
      const [item] = (await Cite.async(bibtex, { forceType: '@biblatex/text' })).data as Record<string, unknown>[];
      expect(item!.title).toBe(expectedTitle);
      expect(item!.abstract).toBe(spaced(expectedAbstract));
      expect(item!.keyword).toBe(language === 'en' ? 'brace } and % keyword' : '注入');
      // (A Chinese name's surname is its first character: the brace goes with the given name.)
      expect(item!.author).toEqual([language === 'en' ? { family: 'Li}', given: 'Xue' } : { family: '李', given: '}雪' }]);
      // The DOI is printed verbatim: its brace is percent-encoded, as in an address.
      expect(item!.DOI).toBe('10.11888/Evil%7D.x_1');
      expect(item!.issued).toEqual({ 'date-parts': [[2024, 2, 2]] });
    }
  });

  it('BibTeX: LaTeX specials are escaped, so that pdflatex prints them', async () => {
    const bibtex = (await exported(id, 'bibtex', 'en')).body;
    const titleLine = bibtex.split('\n').find((line) => line.startsWith('\ttitle = '))!;
    expect(titleLine).toContain('50\\%');
    expect(titleLine).toContain('\\textbackslash{}');
    expect(titleLine).toContain('\\$x\\_1\\$');
    expect(titleLine).toContain('\\textasciitilde{}');
    expect(titleLine).toContain('\\textasciicircum{}');
    expect(titleLine).toContain('\\&');
    expect(titleLine).toContain('\\#1');
    expect(titleLine).toContain('{@}misc');
    expect(titleLine).not.toMatch(/[^\\]%/);
  });

  it('RIS: one record, each tag on one line, the title and abstract as stored with their line breaks as spaces', async () => {
    for (const [language, expectedTitle, expectedAbstract] of [
      ['en', title, abstract],
      ['zh-hans', zhTitle, zhAbstract],
    ] as const) {
      const ris = (await exported(id, 'ris', language)).body;
      const lines = ris.split(/\r?\n/).filter(Boolean);
      expect(
        lines.every((line) => /^[A-Z][A-Z0-9] {2}- /.test(line) || line === 'ER  -'),
        ris,
      ).toBe(true);
      expect(lines.filter((line) => line.startsWith('TY  - '))).toEqual(['TY  - DATA']);
      expect(lines.filter((line) => line.startsWith('ER  -'))).toHaveLength(1);
      // Read as RIS: guessing the type, citation-js takes the title's "@misc{" for BibTeX.
      const records = (await Cite.async(ris, { forceType: '@ris/file' })).data as Record<string, unknown>[];
      expect(records, ris).toHaveLength(1);
      expect(records[0]!.title).toBe(expectedTitle);
      expect(records[0]!.abstract).toBe(spaced(expectedAbstract));
    }
  });
});

describe("a published record's authors as the public reads them", () => {
  it('name them with their affiliations, and give their e-mail, phone and address only to the creator', async () => {
    const url = `/api/metadata/meta-author/?metadata__id=${ids.full}`;
    const anonymous = await get(url);
    expect(anonymous.statusCode).toBe(200);
    const authors = anonymous.json().results as { author_detail: Record<string, unknown> }[];
    expect(authors.length).toBeGreaterThan(1);
    expect(authors.every((a) => a.author_detail.name && a.author_detail.affiliation)).toBe(true);
    noPrivateDetails(anonymous.body);
    const one = await get(`/api/metadata/meta-author/${(anonymous.json().results[0] as { id: string }).id}/`);
    noPrivateDetails(one.body);
    // Another signed-in user is the public too.
    const stranger = await buildUser(portal);
    noPrivateDetails((await get(url, tokenHeader(stranger.token))).body);
    const own = await get(url, tokenHeader(owner.token));
    for (const value of Object.values(PRIVATE_AUTHOR)) expect(own.body).toContain(value);
  });
});

describe('the landing page as a crawler reads it (no script run)', () => {
  /** The head's JSON-LD, and its tags by name. */
  function headOf(html: string) {
    const script = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
    const tags = [...html.matchAll(/<meta name="([^"]+)" content="([^"]*)" \/>/g)].map(([, name, content]) => [name!, decodeEntities(content!)] as const);
    return { jsonLd: script ? JSON.parse(script[1]!) : null, tag: (name: string) => tags.filter(([n]) => n === name).map(([, c]) => c) };
  }
  const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

  it('holds the schema.org Dataset and the citation in the page language, as the exports give them', async () => {
    for (const [path, language, style] of [
      [`/en/data/${ids.full}/`, 'en', 'apa'],
      [`/data/${ids.full}/`, 'zh-hans', 'gbt7714'],
    ] as const) {
      const page = await get(path, { accept: 'text/html' });
      expect(page.statusCode).toBe(200);
      const head = headOf(page.body);
      expect(head.jsonLd, path).toEqual((await exported(ids.full, 'schemaorg', language)).json());
      expect(await expand(head.jsonLd)).toHaveProperty('@type', [`${SDO}Dataset`]);
      expect(head.tag('dcterms.bibliographicCitation'), path).toEqual([(await exported(ids.full, style, language)).body.trim()]);
      expect(head.tag('citation_doi')).toEqual([DOI]);
      expect(head.tag('citation_author').length).toBeGreaterThan(1);
      expect(head.tag('citation_title')).toEqual([head.jsonLd.name]);
    }
  });
});

describe('content negotiation on the landing page address', () => {
  it('answers the export a client asks for by its media type, in the language of the path', async () => {
    const datacite = await get(`/en/data/${ids.full}/`, { accept: 'application/vnd.datacite.datacite+xml' });
    expect(datacite.statusCode).toBe(200);
    expect(datacite.headers['content-type']).toBe('application/vnd.datacite.datacite+xml; charset=utf-8');
    expect(datacite.headers.vary).toBe('Accept');
    expect(datacite.headers['content-disposition']).toBeUndefined();
    // Signposting: the negotiated export names the page it describes, as a download does.
    expect(datacite.headers.link).toBe(`<http://portal.test/en/data/${ids.full}/> ; rel="describes" ; type="text/html"`);
    expect(datacite.body).toContain(`<identifier identifierType="DOI">${DOI}</identifier>`);
    const schemaorg = await get(`/data/${ids.full}/`, { accept: 'application/ld+json' });
    expect(schemaorg.json()).toMatchObject({ '@type': 'Dataset', name: '青藏高原冰川面积变化数据集（1990-2020）' });
    const english = await get(`/en/data/${ids.full}/`, { accept: 'application/ld+json' });
    expect(english.json().name).toBe('Glacier area changes of the Tibetan Plateau (1990-2020)');
    expect((await get(`/zh-hans/data/${ids.full}/`, { accept: 'application/x-research-info-systems' })).body).toMatch(/^TI {2}- 青藏高原冰川面积变化数据集/m);
    expect((await get(`/en/data/${ids.full}/`, { accept: 'application/x-bibtex' })).body).toMatch(/^@dataset\{zhang2021glacier-/);
    expect((await get(`/en/data/${ids.full}/`, { accept: 'application/vnd.citationstyles.csl+json' })).json()[0].type).toBe('dataset');
    // q-values: the preferred one wins.
    const preferred = await get(`/en/data/${ids.full}/`, { accept: 'text/html;q=0.5, application/x-bibtex;q=0.9' });
    expect(preferred.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
  });

  it('leaves browsers and everything else to the page handling, and answers 404 for a record that is not published', async () => {
    const browser = await get(`/en/data/${ids.full}/`, { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-encoding': 'gzip' });
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(browser.headers.vary).toBe('Accept, Accept-Encoding');
    const html = await get(`/en/data/${ids.full}/`, { accept: 'text/html' });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<html lang="en"');
    const hidden = await get(`/en/data/${ids.submitted}/`, { accept: 'application/ld+json', 'accept-language': 'en' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ detail: 'The metadata was not found' });
    // The data search page itself is untouched.
    expect((await get('/en/data/', { accept: 'application/ld+json' })).headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
