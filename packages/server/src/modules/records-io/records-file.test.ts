import { describe, expect, it } from 'vitest';
import { checkCandidate, ImportRefusal } from './candidates.js';
import { readRecordsFile } from './records-file.js';

/** A DataCite resource with the given inner XML (namespaced as DataCite writes it). */
const resource = (inner: string) => `<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.5072/test.1</identifier>${inner}</resource>`;
const titled = (inner = '') => resource(`<titles><title xml:lang="en">Snow cover of the Qilian Mountains</title></titles>${inner}`);

function readOne(xml: string): Record<string, any> {
  const [candidate] = readRecordsFile(xml).candidates;
  if (!candidate || !('value' in candidate)) throw new Error(`no record: ${JSON.stringify(candidate)}`);
  return candidate.value as Record<string, any>;
}

describe('readRecordsFile: which files it refuses as a whole', () => {
  const refusals: [string, string][] = [
    ['', 'the file is empty'],
    ['Title,DOI\nx,10.1/2', 'neither DataCite XML nor the JSON'],
    ['<resources><resource><titles></resource></resources>', 'not well-formed XML'],
    ['<?xml version="1.0"?><rss><channel/></rss>', 'not DataCite XML: the root element is <rss>'],
    ['<!DOCTYPE r [<!ENTITY a "aaaa">]><resource>&a;</resource>', 'declares entities'],
    ['<resources xmlns="http://datacite.org/schema/kernel-4"></resources>', 'holds no DataCite resource'],
    ['<OAI-PMH><error code="noRecordsMatch">none</error></OAI-PMH>', 'OAI-PMH reply is an error: noRecordsMatch none'],
    ['<OAI-PMH><Identify/></OAI-PMH>', 'holds no ListRecords or GetRecord records'],
    ['{"title": "x"}', 'not an array of records'],
    ['[{"title": "x",', 'not valid JSON'],
  ];
  it.each(refusals)('%j', (content, message) => {
    expect(() => readRecordsFile(content)).toThrow(ImportRefusal);
    expect(() => readRecordsFile(content)).toThrow(message);
  });

  it('tells the formats apart by their first character, after a byte order mark and white space', () => {
    expect(readRecordsFile('\uFEFF  \n<resources>' + titled() + '</resources>').format).toBe('datacite-xml');
    expect(readRecordsFile('\n[{"language": "en", "title": "x"}, 3]')).toEqual({
      format: 'portal-json',
      candidates: [
        { position: 1, value: { language: 'en', title: 'x' } },
        { position: 2, error: 'not a record (a JSON object)' },
      ],
    });
  });
});

describe('DataCite to the portal record', () => {
  it("takes the record language from <language> when it has a title in it, else from the main title (DataCite's language is the resource's)", () => {
    const both = '<titles><title xml:lang="en">Lake ice phenology</title><title xml:lang="zh" titleType="TranslatedTitle">湖冰物候</title></titles>';
    expect(readOne(resource(`${both}<language>zh-CN</language>`))).toMatchObject({
      language: 'zh-hans',
      title: '湖冰物候',
      translations: [{ language: 'en', title: 'Lake ice phenology' }],
    });
    expect(readOne(resource(`${both}<language>en</language>`))).toMatchObject({
      language: 'en',
      title: 'Lake ice phenology',
      translations: [{ language: 'zh-hans', title: '湖冰物候' }],
    });
    // No xml:lang: the script decides.
    expect(readOne(resource('<titles><title>那曲土壤水分观测网</title></titles>'))).toMatchObject({ language: 'zh-hans', title: '那曲土壤水分观测网' });
    // DataCite's language is the resource's: a French resource described in English is an English record.
    expect(readOne(resource(`${both}<language>fr</language>`))).toMatchObject({
      language: 'en',
      title: 'Lake ice phenology',
      translations: [{ language: 'zh-hans', title: '湖冰物候' }],
    });
    // Titles only in other languages: the main one (and the descriptions) stand in the record's own.
    const german = readOne(
      resource(
        '<titles><title xml:lang="de">Seeeisphänologie</title><title xml:lang="fr" titleType="TranslatedTitle">Phénologie</title></titles><language>de</language>' +
          '<descriptions><description xml:lang="de" descriptionType="Abstract">Eisbedeckung der Seen.</description></descriptions>',
      ),
    );
    expect(german).toMatchObject({
      language: 'en',
      title: 'Seeeisphänologie',
      description: 'Eisbedeckung der Seen.',
      translations: [{ language: 'zh-hans', title: '', description: '' }],
    });
  });

  it('reads Creative Commons 4.0 licences from a URI, an SPDX identifier or their name; others are left empty', () => {
    const licence = (rights: string) => readOne(titled(`<rightsList>${rights}</rightsList>`)).license;
    expect(licence('<rights rightsURI="http://creativecommons.org/licenses/by-nc-sa/4.0/"/>')).toBe('CC BY-NC-SA 4.0');
    expect(licence('<rights rightsIdentifier="cc-by-nd-4.0"/>')).toBe('CC BY-ND 4.0');
    expect(licence('<rights>Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International</rights>')).toBe('CC BY-NC-ND 4.0');
    expect(licence('<rights>CC BY 4.0</rights>')).toBe('CC BY 4.0');
    expect(licence('<rights rightsURI="https://creativecommons.org/licenses/by/3.0/"/>')).toBe('');
    expect(licence('<rights rightsURI="https://creativecommons.org/publicdomain/zero/1.0/"/>')).toBe('');
  });

  it('reads the collection period, whole years and months standing for their first and last day', () => {
    const period = (value: string) => {
      const record = readOne(titled(`<dates><date dateType="Collected">${value}</date></dates>`));
      return [record.time_start, record.time_end];
    };
    expect(period('2000/2010')).toEqual(['2000-01-01', '2010-12-31']);
    expect(period('2016-02/2020-02')).toEqual(['2016-02-01', '2020-02-29']);
    expect(period('2019-07-01T00:00:00Z/2019-08-15T12:00:00Z')).toEqual(['2019-07-01', '2019-08-15']);
    expect(period('2021')).toEqual(['2021-01-01', '2021-12-31']);
  });

  it('publishes on the Issued date, else on the publication year, else leaves it to the import', () => {
    expect(readOne(titled('<publicationYear>2019</publicationYear><dates><date dateType="Issued">2020-05-04</date></dates>')).published_at).toBe('2020-05-04T00:00:00.000Z');
    expect(readOne(titled('<publicationYear>2019</publicationYear>')).published_at).toBe('2019-01-01T00:00:00.000Z');
    expect(readOne(titled()).published_at).toBeNull();
  });

  it('pairs Chinese and English subjects by valueURI, else by position, and types them by their scheme', () => {
    const record = readOne(
      titled(`<subjects>
        <subject xml:lang="en" valueURI="u:snow">snow cover</subject><subject xml:lang="en" valueURI="u:swe">snow water equivalent</subject>
        <subject xml:lang="zh" valueURI="u:swe">雪水当量</subject><subject xml:lang="zh" valueURI="u:snow">积雪</subject>
        <subject xml:lang="zh" subjectScheme="Place">祁连山</subject><subject xml:lang="en" subjectScheme="Place">Qilian Mountains</subject>
        <subject xml:lang="en" subjectScheme="OECD Fields of Science">physical geography</subject>
      </subjects>`),
    );
    expect(record.keywords).toEqual([
      { name: 'snow cover', type: 'theme', language: 'en', translations: [{ language: 'zh-hans', name: '积雪' }] },
      { name: 'snow water equivalent', type: 'theme', language: 'en', translations: [{ language: 'zh-hans', name: '雪水当量' }] },
      { name: 'Qilian Mountains', type: 'place', language: 'en', translations: [{ language: 'zh-hans', name: '祁连山' }] },
      { name: 'physical geography', type: 'discipline', language: 'en', translations: [] },
    ]);
  });

  it('keeps a box across the 180th meridian as it is, and makes a box of a point or a polygon', () => {
    const box = (location: string) => {
      const r = readOne(titled(`<geoLocations><geoLocation>${location}</geoLocation></geoLocations>`));
      return [r.west, r.south, r.east, r.north];
    };
    expect(
      box(
        '<geoLocationBox><westBoundLongitude>170</westBoundLongitude><eastBoundLongitude>-170</eastBoundLongitude><southBoundLatitude>50</southBoundLatitude><northBoundLatitude>60</northBoundLatitude></geoLocationBox>',
      ),
    ).toEqual([170, 50, -170, 60]);
    expect(box('<geoLocationPoint><pointLongitude>91.1</pointLongitude><pointLatitude>29.6</pointLatitude></geoLocationPoint>')).toEqual([91.1, 29.6, 91.1, 29.6]);
    const polygon = [
      [88, 30],
      [92, 30],
      [92, 33],
      [88, 30],
    ]
      .map(([x, y]) => `<polygonPoint><pointLongitude>${x}</pointLongitude><pointLatitude>${y}</pointLatitude></polygonPoint>`)
      .join('');
    expect(box(`<geoLocationPolygon>${polygon}</geoLocationPolygon>`)).toEqual([88, 30, 92, 33]);
    expect(box('<geoLocationPlace>Lhasa</geoLocationPlace>')).toEqual([null, null, null, null]);
  });

  it('links the programme funds by name with their award number as the sub-topic', () => {
    const record = readOne(
      titled(`<fundingReferences>
        <fundingReference><funderName>第三极（青藏高原）中心</funderName><awardNumber>XDA19-03</awardNumber></fundingReference>
        <fundingReference><funderName>National Key R&amp;D Program of China</funderName><awardNumber>2019YFA0607101</awardNumber></fundingReference>
      </fundingReferences>`),
    );
    expect(record.subtopic_third_pole).toBe('XDA19-03');
    expect(record.funds).toEqual([
      { id: '6', name: '第三极（青藏高原）中心', is_core: true },
      { name: 'National Key R&D Program of China', name_en: 'National Key R&D Program of China', serial_number: '2019YFA0607101' },
    ]);
  });
});

describe('checkCandidate', () => {
  const now = '2026-01-01T00:00:00.000Z';
  it('checks the record fields as the editor does, and needs a title', () => {
    expect(checkCandidate(1, { language: 'en', title: 'x', license: 'GPL' }, now)).toEqual({ error: expect.stringMatching(/^license: /) });
    expect(checkCandidate(2, { language: 'en', title: 'x', time_start: '2020-01-01', time_end: '2019-01-01' }, now)).toEqual({ error: expect.stringMatching(/^time_end: /) });
    expect(checkCandidate(3, { language: 'en', title: '  ' }, now)).toEqual({ error: 'title: a record needs a title' });
    expect(checkCandidate(4, { language: 'de', title: 'x' }, now)).toEqual({ error: expect.stringMatching(/^language: /) });
    expect(checkCandidate(5, { language: 'en', title: 'x', published_at: 'soon' }, now)).toEqual({ error: 'published_at: "soon" is not a date' });
  });

  it('publishes now without a date, and keeps only an embargo that ends after publication', () => {
    expect(checkCandidate(1, { language: 'en', title: 'x', embargo_until: '2020-01-01' }, now)).toMatchObject({ publishedAt: now, embargoUntil: null });
    expect(checkCandidate(1, { language: 'en', title: 'x', published_at: '2025-06-01', embargo_until: '2026-06-01' }, now)).toMatchObject({
      publishedAt: '2025-06-01T00:00:00.000Z',
      embargoUntil: '2026-06-01T00:00:00.000Z',
    });
  });
});
