import type { Language } from '@portal/shared';
import { funderIdentifierOf, ORCID_URL, ROR_URL } from '@portal/shared/rules/identifiers';
import {
  dayOf,
  doiUrl,
  LANGUAGE_TAGS,
  licenseFacts,
  otherLanguage,
  splitAtAntimeridian,
  textIn,
  type Box,
  type CitablePerson,
  type CitableRecord,
  type Texts,
} from './citable-record.js';

/**
 * The record as JSON-LD: the schema.org `Dataset` search engines read (Google Dataset Search) in
 * one language, and a DCAT `dcat:Dataset` for data catalogues, in both.
 */

/**
 * A data file of the record as the exports offer it: its download address (the files' download
 * route; whoever may have the file is decided there, orders/download-access.ts), name, media type and bytes.
 */
export interface DownloadableFile {
  name: string;
  mediaType: string;
  bytes: number;
  url: string;
}

/** A column of one of the record's tables (modules/tables gives them through app.ts): a variable the dataset measures. */
export interface MeasuredVariable {
  field: string;
  display_name: string;
  display_name_en: string;
  unit: string;
  note: string;
  /** The table's name. */
  table: string;
}

/** A variable as schema.org's PropertyValue: its display name in the language (else the other's, else its field), note, unit. */
function propertyValue(variable: MeasuredVariable, language: Language) {
  const name = (language === 'en' ? variable.display_name_en || variable.display_name : variable.display_name || variable.display_name_en) || variable.field;
  const description = [variable.note, `${variable.table} / ${variable.field}`].filter(Boolean).join(' — ');
  return {
    '@type': 'PropertyValue',
    name,
    ...(name !== variable.field ? { alternateName: variable.field } : {}),
    description,
    ...(variable.unit ? { unitText: variable.unit } : {}),
  };
}

/** Whether the record's files are free to whoever signs in: its sharing policy is "online" (orders/download-access.ts). */
export const isFreeToDownload = (record: CitableRecord): boolean => record.sharingPolicy === 'online';

/** A media type as IANA registers it (`type/subtype`), or '' for what is none. */
export function registeredMediaType(value: string): string {
  const type = value.split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][\w!#$&^.+-]*\/[a-z0-9][\w!#$&^.+-]*$/.test(type) ? type : '';
}

/** Google's bounds for a Dataset's description. */
export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 5000;

/**
 * The abstract held to 50..5,000 characters (Unicode code points): a short one is followed by
 * sentences of facts of the record (its title, publisher and year, keywords, time, landing page) until it is long
 * enough; a long one is cut at the last sentence or word end before the limit, with an ellipsis.
 */
export function datasetDescription(record: CitableRecord, language: Language): string {
  const chars = (value: string) => Array.from(value);
  let description = textIn(record.abstract, language).replace(/\s+/g, ' ').trim();
  if (chars(description).length < DESCRIPTION_MIN) {
    const title = textIn(record.title, language);
    const year = record.publishedAt.slice(0, 4);
    const keywords = record.keywords.map((k) => textIn(k.name, language)).filter(Boolean);
    const { start, end } = record.temporal;
    const facts =
      language === 'en'
        ? [
            `Dataset “${title}”, published by ${record.publisher.en} in ${year}.`,
            keywords.length ? `Keywords: ${keywords.join(', ')}.` : '',
            start && end ? `It covers ${start} to ${end}.` : '',
            `Details: ${record.url.en}`,
          ]
        : [
            `数据集“${title}”，${record.publisher['zh-hans']}于${year}年发布。`,
            keywords.length ? `关键词：${keywords.join('、')}。` : '',
            start && end ? `时间范围：${start}至${end}。` : '',
            `详见：${record.url['zh-hans']}`,
          ];
    for (const fact of facts.filter(Boolean)) {
      if (chars(description).length >= DESCRIPTION_MIN) break;
      description = description ? `${description}${language === 'en' ? ' ' : ''}${fact}` : fact;
    }
  }
  const letters = chars(description);
  if (letters.length <= DESCRIPTION_MAX) return description;
  const head = letters.slice(0, DESCRIPTION_MAX - 1).join('');
  // The last sentence end, else the last space, in the second half of what fits.
  const sentence = Math.max(...['. ', '。', '！', '？', '! ', '? '].map((mark) => head.lastIndexOf(mark)));
  const cut = sentence > head.length / 2 ? sentence + 1 : head.lastIndexOf(' ') > head.length / 2 ? head.lastIndexOf(' ') : head.length;
  return `${head.slice(0, cut).trimEnd()}…`;
}

/** Whether a box is best drawn as a polygon: it crosses the 180th meridian or reaches a pole. */
const needsPolygon = (box: Box) => box.west > box.east || box.north >= 90 || box.south <= -90 || box.east - box.west >= 360;

/**
 * The outline of a box as [latitude, longitude] points, anticlockwise, closed, with a point at least
 * every 90 degrees of longitude so that no edge is read the short way round the globe; the
 * longitudes stay in -180..180 (a box across 180 degrees goes on from -180).
 */
export function boxOutline(box: Box): [number, number][] {
  const span = box.west <= box.east ? box.east - box.west : 360 - (box.west - box.east);
  const steps = Math.max(1, Math.ceil(span / 90));
  const wrap = (longitude: number) => (longitude > 180 ? longitude - 360 : longitude);
  const along = Array.from({ length: steps + 1 }, (_, i) => (i === steps ? box.east : wrap(box.west + (span * i) / steps)));
  const points: [number, number][] = [...along.map((lon): [number, number] => [box.south, lon]), ...[...along].reverse().map((lon): [number, number] => [box.north, lon])];
  return [...points, points[0]!];
}

/** An identifier's address as schema.org's `sameAs` and `identifier` (Google reads ORCID and ROR so). */
const identifiedBy = (url: string) => (url ? { sameAs: url, identifier: url } : {});

function schemaPerson(person: CitablePerson, language: Language) {
  const affiliation = textIn(person.affiliation, language);
  return {
    '@type': 'Person',
    name: textIn(person.name, language),
    ...identifiedBy(person.orcid ? `${ORCID_URL}${person.orcid}` : ''),
    ...(affiliation ? { affiliation: { '@type': 'Organization', name: affiliation, ...identifiedBy(person.affiliationRor ? `${ROR_URL}${person.affiliationRor}` : '') } } : {}),
  };
}

/**
 * The record's time: "start/end" (ISO 8601 interval, `..` for an open end) when it has dates, else its
 * description in words in the language (46 records describe their time only in words), else nothing.
 */
function temporalCoverage(record: CitableRecord, language: Language): string {
  const { start, end, description } = record.temporal;
  if (start || end) return `${start || '..'}/${end || '..'}`;
  return textIn(description, language).replace(/\s+/g, ' ').trim();
}

/** A fund's funder: its Crossref Funder ID or ROR ID (an address) identifies it, as identifier and sameAs. */
function funderOf(fund: CitableRecord['funds'][number], language: Language) {
  const id = fund.funderIdentifier ? funderIdentifierOf(fund.funderIdentifier)?.url : undefined;
  return { '@type': 'Organization', name: textIn(fund.name, language), ...(id ? { identifier: id, sameAs: id } : {}) };
}

/**
 * schema.org Dataset of the record in one language (Google's Dataset rich result). Each data file
 * (those given: the service names the first hundred) is a DataDownload with its own address, media type and size;
 * each column of its tables a PropertyValue of `variableMeasured`.
 */
export function schemaOrgDataset(record: CitableRecord, language: Language, files: readonly DownloadableFile[] = [], variables: readonly MeasuredVariable[] = []) {
  const other = otherLanguage(language);
  const url = record.url[language];
  const box = record.box;
  const geo = box
    ? needsPolygon(box)
      ? {
          '@type': 'GeoShape',
          polygon: boxOutline(box)
            .map(([lat, lon]) => `${lat} ${lon}`)
            .join(' '),
        }
      : // Google reads a box as "south west north east".
        { '@type': 'GeoShape', box: `${box.south} ${box.west} ${box.north} ${box.east}` }
    : null;
  const otherTitle = record.title[other];
  return {
    '@context': 'https://schema.org/',
    '@type': 'Dataset',
    '@id': url,
    url,
    name: textIn(record.title, language),
    ...(otherTitle && otherTitle !== record.title[language] ? { alternateName: otherTitle } : {}),
    description: datasetDescription(record, language),
    ...(record.doi
      ? {
          identifier: { '@type': 'PropertyValue', propertyID: 'https://registry.identifiers.org/registry/doi', value: `doi:${record.doi}`, url: doiUrl(record.doi) },
          sameAs: doiUrl(record.doi),
        }
      : { identifier: url }),
    inLanguage: LANGUAGE_TAGS[language],
    // The creators (shared rules/creators.ts), else the data centre; the other people are contributors.
    creator: record.creators.length ? record.creators.map((p) => schemaPerson(p, language)) : [{ '@type': 'Organization', name: record.publisher[language] }],
    ...(record.contributors.length ? { contributor: record.contributors.map((p) => schemaPerson(p, language)) } : {}),
    publisher: { '@type': 'Organization', name: record.publisher[language], url: record.catalogueUrl },
    provider: { '@type': 'Organization', name: record.publisher[language], url: record.catalogueUrl },
    includedInDataCatalog: { '@type': 'DataCatalog', name: record.publisher[language], url: record.catalogueUrl },
    datePublished: dayOf(record.publishedAt),
    dateModified: dayOf(record.updatedAt),
    // The published version (the record keeps its id and DOI across versions).
    version: record.version,
    ...(record.license ? { license: licenseFacts(record.license).deed } : {}),
    // Free to whoever signs in only when the policy is online; otherwise an order the data centre approves.
    isAccessibleForFree: isFreeToDownload(record),
    ...(record.conditionsOfAccess[language] ? { conditionsOfAccess: record.conditionsOfAccess[language] } : {}),
    keywords: record.keywords.map((k) => textIn(k.name, language)).filter(Boolean),
    ...(temporalCoverage(record, language) ? { temporalCoverage: temporalCoverage(record, language) } : {}),
    ...(geo ? { spatialCoverage: { '@type': 'Place', geo } } : {}),
    ...(record.funds.length
      ? {
          funder: record.funds.map((fund) => funderOf(fund, language)),
        }
      : {}),
    // The award numbers as science-on-schema.org's Dataset guidance writes them: a MonetaryGrant, its funder the organisation.
    ...(record.funds.some((fund) => fund.awardNumber)
      ? {
          funding: record.funds
            .filter((fund) => fund.awardNumber)
            .map((fund) => ({ '@type': 'MonetaryGrant', identifier: fund.awardNumber, name: textIn(fund.name, language), funder: funderOf(fund, language) })),
        }
      : {}),
    ...(files.length
      ? {
          distribution: files.map((file) => ({
            '@type': 'DataDownload',
            name: file.name,
            contentUrl: file.url,
            ...(registeredMediaType(file.mediaType) ? { encodingFormat: registeredMediaType(file.mediaType) } : {}),
            contentSize: `${file.bytes} B`,
          })),
        }
      : {}),
    // The columns of the record's tables (Google's Dataset variableMeasured).
    ...(variables.length ? { variableMeasured: variables.map((variable) => propertyValue(variable, language)) } : {}),
    ...(record.literature.length
      ? {
          citation: record.literature.map((entry) => ({
            '@type': 'CreativeWork',
            name: textIn(entry.title, language),
            ...(entry.doi ? { sameAs: doiUrl(entry.doi) } : entry.link ? { url: entry.link } : {}),
          })),
        }
      : {}),
  };
}

export const DCAT_CONTEXT = {
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  vcard: 'http://www.w3.org/2006/vcard/ns#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  locn: 'http://www.w3.org/ns/locn#',
  gsp: 'http://www.opengis.net/ont/geosparql#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
};

/** Both languages' texts as language-tagged literals. */
function tagged(texts: Texts) {
  return (['zh-hans', 'en'] as const).filter((l) => texts[l]).map((l) => ({ '@value': texts[l], '@language': LANGUAGE_TAGS[l] }));
}

/** WKT (CRS84, longitude latitude) of the box: a polygon, or two across the 180th meridian. */
function wkt(box: Box): string {
  const ring = (b: Box) =>
    `((${[
      [b.west, b.south],
      [b.east, b.south],
      [b.east, b.north],
      [b.west, b.north],
      [b.west, b.south],
    ]
      .map((p) => p.join(' '))
      .join(', ')}))`;
  const parts = splitAtAntimeridian(box);
  return parts.length === 1 ? `POLYGON${ring(parts[0]!)}` : `MULTIPOLYGON(${parts.map(ring).join(', ')})`;
}

const date = (value: string) => ({ '@value': value, '@type': 'xsd:date' });

/**
 * DCAT 2 (W3C) description of the record, with its own context: no remote document is needed to read
 * it. Each data file given is a distribution with its download address; a record
 * without files has one whose access address is the landing page.
 */
export function dcatDataset(record: CitableRecord, files: readonly DownloadableFile[] = []) {
  const landing = record.url[record.language];
  const person = (p: CitablePerson) => ({ '@type': 'foaf:Person', 'foaf:name': tagged(p.name) });
  const license = record.license ? { '@id': licenseFacts(record.license).deed } : null;
  const { distributor } = record;
  return {
    '@context': DCAT_CONTEXT,
    '@id': record.doi ? doiUrl(record.doi) : landing,
    '@type': 'dcat:Dataset',
    'dct:identifier': record.doi ? doiUrl(record.doi) : record.id,
    'dct:title': tagged(record.title),
    'dct:description': tagged(record.abstract),
    'dcat:keyword': record.keywords.flatMap((k) => tagged(k.name)),
    'dct:language': [record.language, otherLanguage(record.language)].map((l) => ({ '@id': `http://id.loc.gov/vocabulary/iso639-1/${l === 'en' ? 'en' : 'zh'}` })),
    'dct:issued': date(dayOf(record.publishedAt)),
    'dct:modified': date(dayOf(record.updatedAt)),
    'dcat:version': String(record.version),
    'dcat:landingPage': [{ '@id': record.url['zh-hans'] }, { '@id': record.url.en }],
    'dct:creator': record.creators.length ? record.creators.map(person) : [{ '@type': 'foaf:Organization', 'foaf:name': tagged(record.publisher) }],
    ...(record.contributors.length ? { 'dct:contributor': record.contributors.map(person) } : {}),
    'dct:publisher': { '@type': 'foaf:Agent', 'foaf:name': tagged(record.publisher), 'foaf:homepage': { '@id': record.catalogueUrl } },
    'dcat:contactPoint': {
      '@type': 'vcard:Organization',
      'vcard:fn': textIn(distributor.unit, record.language) || record.publisher[record.language],
      ...(distributor.email ? { 'vcard:hasEmail': { '@id': `mailto:${distributor.email}` } } : {}),
      ...(distributor.phone ? { 'vcard:hasTelephone': { '@id': `tel:${distributor.phone.replace(/[^\d+]/g, '')}` } } : {}),
      'vcard:hasURL': { '@id': record.catalogueUrl },
    },
    ...(license ? { 'dct:license': license } : {}),
    ...(record.conditionsOfAccess.en ? { 'dct:accessRights': { '@type': 'dct:RightsStatement', 'rdfs:label': tagged(record.conditionsOfAccess) } } : {}),
    ...(record.temporal.start || record.temporal.end || tagged(record.temporal.description).length
      ? {
          'dct:temporal': {
            '@type': 'dct:PeriodOfTime',
            ...(record.temporal.start ? { 'dcat:startDate': date(record.temporal.start) } : {}),
            ...(record.temporal.end ? { 'dcat:endDate': date(record.temporal.end) } : {}),
            // The time in words, with or without dates.
            ...(tagged(record.temporal.description).length ? { 'rdfs:label': tagged(record.temporal.description) } : {}),
          },
        }
      : {}),
    ...(record.box ? { 'dct:spatial': { '@type': 'dct:Location', 'dcat:bbox': { '@value': wkt(record.box), '@type': 'gsp:wktLiteral' } } } : {}),
    'dcat:distribution': files.length
      ? files.map((file) => ({
          '@type': 'dcat:Distribution',
          'dcat:accessURL': { '@id': landing },
          'dcat:downloadURL': { '@id': file.url },
          'dct:title': file.name,
          ...(license ? { 'dct:license': license } : {}),
          'dcat:byteSize': { '@value': String(file.bytes), '@type': 'xsd:nonNegativeInteger' },
          ...(registeredMediaType(file.mediaType) ? { 'dcat:mediaType': { '@id': `https://www.iana.org/assignments/media-types/${registeredMediaType(file.mediaType)}` } } : {}),
          ...(record.availableFrom ? { 'dct:issued': date(record.availableFrom) } : {}),
        }))
      : [
          {
            '@type': 'dcat:Distribution',
            'dcat:accessURL': { '@id': landing },
            'dct:title': tagged(record.title),
            ...(license ? { 'dct:license': license } : {}),
            ...(record.availableFrom ? { 'dct:issued': date(record.availableFrom) } : {}),
          },
        ],
    ...(record.literature.some((entry) => entry.doi) ? { 'dct:isReferencedBy': record.literature.filter((e) => e.doi).map((e) => ({ '@id': doiUrl(e.doi) })) } : {}),
  };
}
