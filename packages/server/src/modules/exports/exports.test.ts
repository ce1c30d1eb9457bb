import { describe, expect, it } from 'vitest';
import { LICENSES } from '@portal/shared';
import { AppError } from '../../errors.js';
import { readDataCite } from '../records-io/index.js';
import { licenseFacts, splitAtAntimeridian, type CitablePerson, type CitableRecord } from './citable-record.js';
import { dataciteXml } from './datacite.js';
import { negotiate } from './exports.routes.js';
import { iso19139Xml } from './iso19139.js';
import { boxOutline, datasetDescription, DESCRIPTION_MAX } from './json-ld.js';
import { nameParts } from './names.js';

/** A person with a name in each language ('' for none). */
const person = (zh: string, en: string): CitablePerson => ({ name: { 'zh-hans': zh, en }, affiliation: { 'zh-hans': '', en: '' }, roles: ['resourceProvider'] });

/** The smallest published record: an English title and abstract, nothing else. */
function buildRecord(fields: Partial<CitableRecord> = {}): CitableRecord {
  const none = { 'zh-hans': '', en: '' };
  return {
    id: 'rec-1',
    language: 'en',
    doi: '',
    url: { 'zh-hans': 'http://portal.test/data/rec-1/', en: 'http://portal.test/en/data/rec-1/' },
    title: { 'zh-hans': '', en: 'Permafrost temperature' },
    abstract: { 'zh-hans': '', en: 'Borehole temperatures.' },
    dataSource: none,
    usage: none,
    useTerm: none,
    citation: none,
    people: [],
    creators: [],
    contributors: [],
    keywords: [],
    funds: [],
    literature: [],
    license: null,
    sharingPolicy: '',
    conditionsOfAccess: none,
    protectionPeriod: '',
    availableFrom: null,
    accessRight: { term: 'restricted', uri: 'http://purl.org/coar/access_right/c_16ec', label: 'restricted access', embargoEnd: null },
    version: 1,
    temporal: { start: '', end: '', description: none },
    box: null,
    publishedAt: '2024-02-03T04:05:06.000Z',
    updatedAt: '2024-02-03T04:05:06.000Z',
    files: { count: 0, bytes: 0, mediaTypes: [] },
    publisher: { 'zh-hans': '三极科学数据门户', en: 'Three Poles Data Portal' },
    catalogueUrl: 'http://portal.test',
    distributor: { unit: none, country: none, province: none, city: none, address: none, phone: '', email: '' },
    spatialResolution: '',
    temporalResolution: '',
    projection: '',
    coordinateSystem: '',
    scale: null,
    ...fields,
  };
}

describe('names in citations', () => {
  it('splits Chinese names after the surname, two characters for a compound surname', () => {
    expect(nameParts(person('张冰川', ''), 'zh-hans')).toEqual({ family: '张', given: '冰川' });
    expect(nameParts(person('欧阳冰', ''), 'zh-hans')).toEqual({ family: '欧阳', given: '冰' });
    // Two characters are a surname and a given name, even when they could start a compound surname.
    expect(nameParts(person('司马', ''), 'zh-hans')).toEqual({ family: '司', given: '马' });
  });

  it('reads a Chinese person romanized name family name first, other Latin names with the family name last', () => {
    expect(nameParts(person('张冰川', 'Zhang Bingchuan'), 'en')).toEqual({ family: 'Zhang', given: 'Bingchuan' });
    expect(nameParts(person('', 'Anna Maria Karlsson'), 'en')).toEqual({ family: 'Karlsson', given: 'Anna Maria' });
    expect(nameParts(person('', 'van der Berg, Jan'), 'en')).toEqual({ family: 'van der Berg', given: 'Jan' });
    expect(nameParts(person('', 'Tenzing'), 'en')).toEqual({ literal: 'Tenzing' });
  });

  it('splits a name written "Family, Given" at its first comma, in any script, counted in characters', () => {
    expect(nameParts(person('𠮷野, 家', ''), 'zh-hans')).toEqual({ family: '𠮷野', given: '家' });
    expect(nameParts(person('欧阳，冰', ''), 'zh-hans')).toEqual({ family: '欧阳', given: '冰' });
    expect(nameParts(person('', 'King, Martin Luther, Jr.'), 'en')).toEqual({ family: 'King', given: 'Martin Luther, Jr.' });
    // A comma with nothing on one side is no split.
    expect(nameParts(person('张冰川,', ''), 'zh-hans')).toEqual({ family: '张', given: '冰川,' });
  });

  it('falls back to the other language when the name has none in the one asked for', () => {
    expect(nameParts(person('', 'Anna Karlsson'), 'zh-hans')).toEqual({ family: 'Karlsson', given: 'Anna' });
    expect(nameParts(person('李雪', ''), 'en')).toEqual({ family: '李', given: '雪' });
  });
});

describe('boxes', () => {
  it('splits a box whose west side is east of its east side at the 180th meridian', () => {
    expect(splitAtAntimeridian({ west: 170, south: -10, east: -160, north: 10 })).toEqual([
      { west: 170, south: -10, east: 180, north: 10 },
      { west: -180, south: -10, east: -160, north: 10 },
    ]);
    expect(splitAtAntimeridian({ west: -10, south: 0, east: 10, north: 5 })).toEqual([{ west: -10, south: 0, east: 10, north: 5 }]);
  });

  it('outlines a box with a point at least every 90 degrees of longitude, closed', () => {
    expect(boxOutline({ west: 0, south: 0, east: 10, north: 5 })).toEqual([
      [0, 0],
      [0, 10],
      [5, 10],
      [5, 0],
      [0, 0],
    ]);
    // 170 east to 100 west is 90 degrees across the 180th meridian: one step, longitudes kept in range.
    expect(boxOutline({ west: 170, south: 0, east: -100, north: 5 }).map(([, lon]) => lon)).toEqual([170, -100, -100, 170, 170]);
    const whole = boxOutline({ west: -180, south: -90, east: 180, north: -60 });
    expect(whole).toHaveLength(11);
    expect(whole.every(([lat, lon]) => lat >= -90 && lat <= -60 && lon >= -180 && lon <= 180)).toBe(true);
  });
});

describe('the schema.org description', () => {
  it('cuts a long abstract at a sentence end before 5,000 characters, counting characters, not UTF-16 units', () => {
    const sentence = 'Glacier 🧊 mass balance was measured on stakes every summer. ';
    const record = buildRecord({ abstract: { 'zh-hans': '', en: sentence.repeat(200) } });
    const description = datasetDescription(record, 'en');
    const characters = Array.from(description);
    expect(characters.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(characters.length).toBeGreaterThan(DESCRIPTION_MAX - sentence.length - 2);
    expect(description.endsWith('summer.…')).toBe(true);
  });

  it('cuts Chinese text at its full stop', () => {
    const record = buildRecord({ language: 'zh-hans', abstract: { 'zh-hans': '青藏高原冰川物质平衡观测。'.repeat(500), en: '' } });
    const description = datasetDescription(record, 'zh-hans');
    expect(Array.from(description).length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(description.endsWith('观测。…')).toBe(true);
  });

  it('keeps an abstract of 50 to 5,000 characters as it is, and makes a short one up from the record', () => {
    const fifty = 'x'.repeat(50);
    expect(datasetDescription(buildRecord({ abstract: { 'zh-hans': '', en: fifty } }), 'en')).toBe(fifty);
    expect(datasetDescription(buildRecord(), 'en')).toBe('Borehole temperatures. Dataset “Permafrost temperature”, published by Three Poles Data Portal in 2024.');
    // No abstract and a short Chinese title: facts until 50 characters, the landing page last.
    const bare = buildRecord({ language: 'zh-hans', title: { 'zh-hans': '冻土', en: '' }, abstract: { 'zh-hans': '', en: '' } });
    expect(datasetDescription(bare, 'zh-hans')).toBe('数据集“冻土”，三极科学数据门户于2024年发布。详见：http://portal.test/data/rec-1/');
  });
});

describe('licences', () => {
  it('names each CC 4.0 licence with its deed, legal code and SPDX identifier', () => {
    expect(LICENSES.map((license) => licenseFacts(license).spdx)).toEqual(['CC-BY-4.0', 'CC-BY-SA-4.0', 'CC-BY-ND-4.0', 'CC-BY-NC-4.0', 'CC-BY-NC-SA-4.0', 'CC-BY-NC-ND-4.0']);
    expect(licenseFacts('CC BY-NC-ND 4.0')).toEqual({
      deed: 'https://creativecommons.org/licenses/by-nc-nd/4.0/',
      legalCode: 'https://creativecommons.org/licenses/by-nc-nd/4.0/legalcode',
      spdx: 'CC-BY-NC-ND-4.0',
      name: 'Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International',
    });
  });
});

describe('content negotiation', () => {
  /** The export a header prefers on an English page; null for the page. */
  const negotiatedFormat = (accept: string | undefined) => {
    const first = negotiate(accept, 'en')[0];
    return first?.kind === 'export' ? first.format : null;
  };

  it('picks the export a client prefers, and the page for browsers and everything else', () => {
    expect(negotiatedFormat('application/vnd.datacite.datacite+xml')).toBe('datacite');
    expect(negotiatedFormat('application/ld+json')).toBe('schemaorg');
    expect(negotiatedFormat('application/x-research-info-systems')).toBe('ris');
    expect(negotiatedFormat('application/x-bibtex')).toBe('bibtex');
    expect(negotiatedFormat('application/vnd.citationstyles.csl+json')).toBe('csl');
    expect(negotiatedFormat('text/html;q=0.4, application/x-bibtex;q=0.8')).toBe('bibtex');
    expect(negotiatedFormat('application/x-bibtex;q=0.3, text/html')).toBeNull();
    expect(negotiatedFormat('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBeNull();
    expect(negotiatedFormat('*/*')).toBeNull();
    expect(negotiatedFormat('application/json')).toBeNull();
    expect(negotiatedFormat(undefined)).toBeNull();
  });

  it('reads a profile, and the style and locale of a formatted citation', () => {
    expect(negotiatedFormat('application/ld+json; profile="http://www.w3.org/ns/dcat#"')).toBe('dcat');
    expect(negotiatedFormat('application/ld+json; profile="https://schema.org/"')).toBe('schemaorg');
    expect(negotiatedFormat('application/ld+json; profile="http://www.w3.org/ns/json-ld#compacted"')).toBe('schemaorg');
    expect(negotiate('text/x-bibliography', 'en')[0]).toEqual({ kind: 'export', format: 'apa', language: 'en', type: 'text/x-bibliography; charset=utf-8' });
    expect(negotiate('text/x-bibliography; locale=zh-CN', 'en')[0]).toMatchObject({ format: 'gbt7714', language: 'zh-hans' });
    expect(negotiate('text/x-bibliography; style=APA', 'zh-hans')[0]).toMatchObject({ format: 'apa', language: 'zh-hans' });
    expect(negotiate('text/x-bibliography; style=ieee', 'en')[0]!.kind).toBe('refused');
  });
});

describe('XML of a record with only the required fields', () => {
  it('DataCite: refuses a record without a DOI; names the data centre when no author is linked', () => {
    expect(() => dataciteXml(buildRecord())).toThrow(AppError);
    const xml = dataciteXml(buildRecord({ doi: '10.1234/abc' }));
    expect(xml).toContain('<creatorName nameType="Organizational" xml:lang="en">Three Poles Data Portal</creatorName>');
    expect(xml).toContain('<title xml:lang="en">Permafrost temperature</title>');
    expect(xml).not.toContain('TranslatedTitle');
    expect(xml).not.toContain('<geoLocations');
    // No licence and no terms of use: the access right alone, a COAR term (OpenAIRE's data archives guidelines).
    expect([...xml.matchAll(/<rights [^>]*>[^<]*<\/rights>/g)].map((m) => m[0])).toEqual([
      '<rights xml:lang="en" rightsURI="http://purl.org/coar/access_right/c_16ec" rightsIdentifier="c_16ec" rightsIdentifierScheme="COAR" schemeURI="http://vocabularies.coar-repositories.org/access_rights/">restricted access</rights>',
    ]);
    expect(xml).toContain('<version>1</version>');
  });

  it('DataCite: a box split at the 180th meridian reads back through the importer as one box across it', () => {
    const xml = dataciteXml(buildRecord({ doi: '10.1234/bering', box: { west: 170, south: 50, east: -170, north: 65 } }));
    expect(xml.match(/<geoLocationBox>/g)).toHaveLength(2);
    const [candidate] = readDataCite(xml);
    expect((candidate as { value: Record<string, unknown> }).value).toMatchObject({ doi: '10.1234/bering', west: 170, east: -170, south: 50, north: 65 });
    // A box of every longitude stays whole.
    const [whole] = readDataCite(dataciteXml(buildRecord({ doi: '10.1234/arctic', box: { west: -180, south: 60, east: 180, north: 90 } })));
    expect((whole as { value: Record<string, unknown> }).value).toMatchObject({ west: -180, east: 180, south: 60, north: 90 });
  });

  it('DataCite: a time range open at one end is written open there, and reads back through the importer the same', () => {
    const cases: [{ start: string; end: string }, string][] = [
      [{ start: '2001-01-01', end: '' }, '2001-01-01/'],
      [{ start: '', end: '2020-12-31' }, '/2020-12-31'],
      [{ start: '2001-01-01', end: '2020-12-31' }, '2001-01-01/2020-12-31'],
      [{ start: '2001-01-01', end: '2001-01-01' }, '2001-01-01/2001-01-01'],
    ];
    for (const [{ start, end }, written] of cases) {
      const xml = dataciteXml(buildRecord({ doi: '10.1234/ongoing', temporal: { start, end, description: { 'zh-hans': '', en: '' } } }));
      expect(xml).toContain(`<date dateType="Collected">${written}</date>`);
      const [candidate] = readDataCite(xml);
      expect((candidate as { value: Record<string, unknown> }).value, written).toMatchObject({ time_start: start, time_end: end });
    }
  });

  it("ISO 19139: the record's texts in one language are plain CharacterStrings; only the data centre's name, which the portal has in both, is a PT_FreeText", () => {
    const xml = iso19139Xml(buildRecord());
    expect(xml).toMatch(/<gmd:title>\s*<gco:CharacterString>Permafrost temperature<\/gco:CharacterString>\s*<\/gmd:title>/);
    const freeTexts = xml.match(/<gmd:\w+ xsi:type="gmd:PT_FreeText_PropertyType">/g) ?? [];
    // The centre as the originator (no creator): cited and as point of contact.
    expect(freeTexts).toEqual(['<gmd:organisationName xsi:type="gmd:PT_FreeText_PropertyType">', '<gmd:organisationName xsi:type="gmd:PT_FreeText_PropertyType">']);
    expect(xml).not.toContain('<gmd:extent>');
  });
});
