import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FUND_THIRD_POLE, FUND_THREE_POLE, LICENSES, type AuthorRole, type KeywordType, type Language } from '@portal/shared';
import type { ExportedAuthor, ExportedFund, ExportedKeyword } from '@portal/shared/contracts/records-file';
import { normalizeCrossrefFunderId, normalizeOrcid, normalizeRor } from '@portal/shared/rules/identifiers';
import { ImportRefusal, type Candidate } from './candidates.js';

/**
 * DataCite Metadata Schema 4.x, read into the portal's own record file shape (records-file.ts in
 * shared), so that both formats pass the same checks. One `<resource>`, a `<resources>` wrapper, or an
 * OAI-PMH ListRecords / GetRecord reply holding `oai_datacite` payloads or bare `resource` elements.
 *
 * - identifier (DOI) -> doi; language -> the record's language (zh* -> zh-hans, en* -> en) when the
 *   record has a title in it, else the main title's language. DataCite's language is the resource's,
 *   not its metadata's: a resource in Dutch ("nl", "mul") described in English is an English record.
 * - titles by xml:lang (the title without titleType, else TranslatedTitle, else AlternativeTitle; a
 *   Subtitle is appended): the record's language -> title, the other -> its translation. A record
 *   whose titles are all in other languages (German) keeps its main title as the title of its own
 *   language (English, Chinese when written in Chinese characters), and its descriptions alike.
 * - descriptions: Abstract -> description, Methods -> data_source, TechnicalInfo -> usage_method
 * - creators -> authors with role resourceProvider; contributors of the types in CONTRIBUTOR_ROLES
 *   -> authors with that role. A name in Chinese characters is the author's name, givenName and
 *   familyName in Latin letters its English translation; a Latin name is both. A nameIdentifier of
 *   scheme ORCID -> orcid, the ROR affiliationIdentifier of the affiliation taken -> affiliation_ror
 *   (identifiers whose check digits fail are left out, shared rules/identifiers.ts).
 * - subjects -> keywords: the type from subjectScheme (PLACE / DISCIPLINE / TEMPORAL words, else
 *   theme); Chinese and English subjects of a type are paired by valueURI, else by position when
 *   both languages have as many. geoLocationPlace -> place keywords, paired the same way.
 * - the first geoLocationBox (else a point, else a polygon's bounds) -> the record's box; two boxes
 *   of the same latitudes, one ending at 180 and one starting at -180 (a box DataCite writers split
 *   at the 180th meridian, as the portal's export does), are one box across it; a west
 *   longitude greater than the east one is a box across the 180th meridian, as the portal keeps it
 * - dates: Collected "start/end" -> time_start / time_end (a year or a month stands for its first and
 *   last day), Issued (else publicationYear) -> published_at, Available -> embargo_until; without a
 *   Collected date, the dateInformation of an Other date without a date (the portal's time told in
 *   words) -> time_description, by its script in the record's language or its translation
 * - rightsList: a Creative Commons 4.0 licence (URI, SPDX identifier or name) -> license
 * - fundingReferences: the programme funds 5 and 6 by name (their awardNumber -> the sub-topic),
 *   others -> funds (awardTitle or funderName, awardNumber as serial number, a funderIdentifier of
 *   type "Crossref Funder ID" or "ROR" -> funder_identifier); publisher -> dist_unit
 */

type Node = Record<string, unknown> | string;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  textNodeName: '#text',
  // Every element a list, so that one or many read alike; attributes stay single values.
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  processEntities: true,
  htmlEntities: false,
});

const list = (node: Node | undefined, name: string): Node[] => (node && typeof node === 'object' ? ((node[name] as Node[] | undefined) ?? []) : []);
const first = (node: Node | undefined, name: string): Node | undefined => list(node, name)[0];
const textOf = (node: Node | undefined): string => {
  const value = typeof node === 'string' ? node : node ? node['#text'] : '';
  return typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\s+/g, ' ').trim() : '';
};
const attr = (node: Node | undefined, name: string): string =>
  node && typeof node === 'object' && typeof node[`@${name}`] === 'string' ? (node[`@${name}`] as string).trim() : '';
const path = (node: Node | undefined, ...names: string[]): Node | undefined => names.reduce<Node | undefined>((n, name) => first(n, name), node);

const HAN = /\p{Script=Han}/u;
const hasHan = (text: string) => HAN.test(text);

/** xml:lang (or the text's script when it has none) as one of the portal's languages; null for others. */
function languageOf(node: Node | undefined, text = textOf(node)): Language | null {
  const lang = attr(node, 'lang').toLowerCase();
  if (!lang) return hasHan(text) ? 'zh-hans' : 'en';
  return normalLanguage(lang);
}
function normalLanguage(lang: string): Language | null {
  const code = lang.toLowerCase();
  if (/^(zh|chi|zho|cmn)\b/.test(code)) return 'zh-hans';
  if (/^(en|eng)\b/.test(code)) return 'en';
  return null;
}
const other = (language: Language): Language => (language === 'en' ? 'zh-hans' : 'en');

/** Reads a file's XML: one candidate per DataCite resource, in the order they stand. */
export function readDataCite(xml: string): Candidate[] {
  // DataCite never declares entities; refusing them keeps entity expansion out of reach.
  if (/<!ENTITY/i.test(xml)) throw new ImportRefusal('the XML declares entities (<!ENTITY>), which DataCite files never do');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ImportRefusal(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  const document = parser.parse(xml) as Record<string, Node[]>;
  const rootName = Object.keys(document).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const root = rootName ? document[rootName]![0] : undefined;
  let resources: (Node | { skipped: string } | { error: string })[];
  if (rootName === 'resource') resources = [root!];
  else if (rootName === 'resources') resources = list(root, 'resource');
  else if (rootName === 'OAI-PMH') {
    const error = first(root, 'error');
    if (error) throw new ImportRefusal(`the OAI-PMH reply is an error: ${attr(error, 'code')} ${textOf(error)}`.trim());
    const records = list(first(root, 'ListRecords') ?? first(root, 'GetRecord'), 'record');
    if (!records.length) throw new ImportRefusal('the OAI-PMH reply holds no ListRecords or GetRecord records');
    resources = records.map((record) => {
      if (attr(first(record, 'header'), 'status') === 'deleted') return { skipped: 'deleted at the source (OAI-PMH header status "deleted")' };
      const metadata = first(record, 'metadata');
      return path(metadata, 'oai_datacite', 'payload', 'resource') ?? first(metadata, 'resource') ?? { error: 'no DataCite resource in this OAI-PMH record' };
    });
  } else {
    throw new ImportRefusal(`not DataCite XML: the root element is <${rootName ?? ''}>; expected <resource>, <resources> or <OAI-PMH>`);
  }
  if (!resources.length) throw new ImportRefusal('the file holds no DataCite resource');
  return resources.map((resource, index): Candidate => {
    const position = index + 1;
    if (typeof resource === 'object' && 'skipped' in resource) return { position, skipped: String(resource.skipped) };
    if (typeof resource === 'object' && 'error' in resource) return { position, error: String(resource.error) };
    try {
      return { position, value: recordOf(resource) };
    } catch (error) {
      if (error instanceof RecordError) return { position, error: error.message };
      throw error;
    }
  });
}

/** A resource that cannot become a record (the others of the file still can). */
class RecordError extends Error {}

const CONTRIBUTOR_ROLES: Record<string, AuthorRole> = {
  ProjectLeader: 'principalInvestigator',
  ProjectManager: 'principalInvestigator',
  ContactPerson: 'contactParty',
  DataManager: 'manager',
  DataCurator: 'processor',
  Distributor: 'distributor',
  Producer: 'producer',
  RightsHolder: 'owner',
};

function recordOf(resource: Node): Record<string, unknown> {
  const identifier = list(resource, 'identifier').find((n) => attr(n, 'identifierType').toUpperCase() === 'DOI');
  const doi = textOf(identifier).replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:)/i, '');
  if (!doi) throw new RecordError('no DOI (an identifier of identifierType "DOI")');

  const titles = list(first(resource, 'titles'), 'title').map((node) => ({ node, text: textOf(node), type: attr(node, 'titleType'), language: languageOf(node) }));
  const titleIn = (language: Language) => {
    const own = titles.filter((t) => t.language === language && t.text);
    const main =
      own.find((t) => !t.type) ?? own.find((t) => t.type === 'TranslatedTitle') ?? own.find((t) => t.type === 'AlternativeTitle') ?? own.find((t) => t.type !== 'Subtitle');
    const subtitle = own.find((t) => t.type === 'Subtitle');
    if (!main) return '';
    return subtitle ? `${main.text}${language === 'en' ? ': ' : '：'}${subtitle.text}` : main.text;
  };
  const declared = textOf(first(resource, 'language'));
  let language = declared ? normalLanguage(declared) : null;
  const firstTitle = titles.find((t) => t.text && !t.type) ?? titles.find((t) => t.text);
  if (!firstTitle) throw new RecordError('no title');
  if (!language || !titleIn(language)) language = firstTitle.language ?? (hasHan(firstTitle.text) ? 'zh-hans' : 'en');
  const translationLanguage = other(language);
  // Titles in neither of the portal's languages only: the main one stands in the record's, and so do
  // the descriptions in those languages.
  const inOtherLanguages = !titleIn(language);

  const descriptions = list(first(resource, 'descriptions'), 'description').map((node) => ({
    text: textOf(node),
    type: attr(node, 'descriptionType'),
    language: languageOf(node),
  }));
  const describe = (type: string, lang: Language) =>
    descriptions
      .filter((d) => d.type === type && d.text && (d.language === lang || (lang === language && inOtherLanguages && d.language === null)))
      .map((d) => d.text)
      .join('\n\n');

  const published = issuedDate(resource);
  const eventDate = published?.slice(0, 10) ?? '';
  const [timeStart, timeEnd] = collected(resource);
  const box = boxOf(resource);
  const available = dateOfType(resource, 'Available')?.split('/')[0];

  const authors: ExportedAuthor[] = [];
  const addAuthor = (node: Node, nameTag: string, role: AuthorRole) => {
    const author = authorOf(node, nameTag, role, eventDate, authors.length);
    // One link per author and role (meta-author is unique on them).
    if (author && !authors.some((a) => a.name === author.name && a.affiliation === author.affiliation && a.role === role)) authors.push(author);
  };
  for (const creator of list(first(resource, 'creators'), 'creator')) addAuthor(creator, 'creatorName', 'resourceProvider');
  for (const contributor of list(first(resource, 'contributors'), 'contributor')) {
    const role = CONTRIBUTOR_ROLES[attr(contributor, 'contributorType')];
    if (role) addAuthor(contributor, 'contributorName', role);
  }

  const { funds, subtopics } = fundsOf(resource);
  const timeWords = timeStart || timeEnd ? [] : timeInWords(resource);
  const timeIn = (lang: Language) => timeWords.filter((words) => (hasHan(words) ? 'zh-hans' : 'en') === lang).join(' ');
  return {
    language,
    doi,
    title: titleIn(language) || firstTitle.text,
    description: describe('Abstract', language),
    data_source: describe('Methods', language),
    usage_method: describe('TechnicalInfo', language),
    dist_unit: textOf(first(resource, 'publisher')),
    license: licenseOf(resource),
    time_start: timeStart,
    time_end: timeEnd,
    time_description: timeIn(language) || (inOtherLanguages ? timeWords.join(' ') : ''),
    ...box,
    ...subtopics,
    published_at: published,
    embargo_until: available ? isoTime(available) : null,
    translations: [
      {
        language: translationLanguage,
        title: titleIn(translationLanguage),
        description: describe('Abstract', translationLanguage),
        data_source: describe('Methods', translationLanguage),
        usage_method: describe('TechnicalInfo', translationLanguage),
        time_description: inOtherLanguages ? '' : timeIn(translationLanguage),
      },
    ],
    keywords: keywordsOf(resource, language),
    authors,
    funds,
  };
}

function authorOf(node: Node, nameTag: string, role: AuthorRole, eventDate: string, sort: number): ExportedAuthor | null {
  const fullName = textOf(first(node, nameTag));
  const given = textOf(first(node, 'givenName'));
  const family = textOf(first(node, 'familyName'));
  const latinName = !hasHan(`${given}${family}`) && (given || family) ? [given, family].filter(Boolean).join(' ') : '';
  const name = fullName || [family, given].filter(Boolean).join(hasHan(`${family}${given}`) ? '' : ', ');
  if (!name) return null;
  const affiliationNodes = list(node, 'affiliation');
  const affiliations = affiliationNodes.map((a) => textOf(a)).filter(Boolean);
  const chineseAffiliation = affiliations.find(hasHan);
  const latinAffiliation = affiliations.find((a) => !hasHan(a));
  const chineseName = hasHan(name);
  const orcid = list(node, 'nameIdentifier')
    .filter((n) => attr(n, 'nameIdentifierScheme').toUpperCase() === 'ORCID')
    .map((n) => normalizeOrcid(textOf(n)))
    .find(Boolean);
  // The ROR ID of the affiliation kept (in either language), not of another organisation the person names.
  const ror = affiliationNodes
    .filter((a) => [chineseAffiliation, latinAffiliation].includes(textOf(a)))
    .filter((a) => !attr(a, 'affiliationIdentifierScheme') || attr(a, 'affiliationIdentifierScheme').toUpperCase() === 'ROR')
    .map((a) => normalizeRor(attr(a, 'affiliationIdentifier')))
    .find(Boolean);
  return {
    name: name.slice(0, 200),
    email: '',
    affiliation: (chineseName ? (chineseAffiliation ?? latinAffiliation) : (latinAffiliation ?? chineseAffiliation)) ?? '',
    phone: '',
    address: '',
    country: '',
    province: '',
    city: '',
    zipcode: '',
    orcid: orcid ?? '',
    affiliation_ror: ror ?? '',
    role,
    event_date: eventDate,
    sort,
    // The checklist asks every author for an English version: a Latin name is its own.
    translations: [{ language: 'en', name: (chineseName ? latinName || name : name).slice(0, 200), affiliation: latinAffiliation ?? '', address: '' }],
  };
}

const SCHEME_TYPES: [RegExp, KeywordType][] = [
  [/place|location|geonames|地点|地名|地区|区域/i, 'place'],
  [/discipline|field|fos|subject area|学科/i, 'discipline'],
  [/temporal|time|period|时间|时段/i, 'temporal'],
];

/** Subjects and places as keywords, each named in the record's language when it has both names. */
function keywordsOf(resource: Node, language: Language): ExportedKeyword[] {
  type Found = { type: KeywordType; name: string; language: Language; uri: string };
  const found: Found[] = [];
  for (const subject of list(first(resource, 'subjects'), 'subject')) {
    const name = textOf(subject);
    const language = languageOf(subject, name);
    if (!name || !language) continue;
    const scheme = attr(subject, 'subjectScheme');
    const type = SCHEME_TYPES.find(([pattern]) => pattern.test(scheme))?.[1] ?? 'theme';
    found.push({ type, name: name.slice(0, 100), language, uri: attr(subject, 'valueURI') });
  }
  for (const location of list(first(resource, 'geoLocations'), 'geoLocation')) {
    for (const place of list(location, 'geoLocationPlace')) {
      const name = textOf(place);
      if (name) found.push({ type: 'place', name: name.slice(0, 100), language: languageOf(place, name) ?? 'en', uri: '' });
    }
  }
  const keywords: ExportedKeyword[] = [];
  const seen = new Set<string>();
  for (const type of ['theme', 'place', 'discipline', 'temporal'] as const) {
    // In the order they stand in the record's language; the other language's names are their translations.
    const own = found.filter((k) => k.type === type && k.language === language);
    const others = found.filter((k) => k.type === type && k.language !== language);
    const byUri = new Map(own.map((k) => [k, k.uri ? others.find((o) => o.uri === k.uri) : undefined]));
    const unpairedOwn = own.filter((k) => !byUri.get(k));
    const unpairedOthers = others.filter((o) => ![...byUri.values()].includes(o));
    // Without URIs, two lists of the same length are read as each other's translations, in order.
    const byPosition = unpairedOwn.length === unpairedOthers.length;
    const pairs: [Found, Found | undefined][] = own.map((k) => [k, byUri.get(k) ?? (byPosition ? unpairedOthers[unpairedOwn.indexOf(k)] : undefined)]);
    if (!byPosition) pairs.push(...unpairedOthers.map((o): [Found, undefined] => [o, undefined]));
    for (const [main, translation] of pairs) {
      const key = `${type}\u0000${main.name.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      keywords.push({ name: main.name, type, language: main.language, translations: translation ? [{ language: translation.language, name: translation.name }] : [] });
    }
  }
  return keywords;
}

const numberOf = (node: Node | undefined, name: string) => {
  const text = textOf(first(node, name));
  return text === '' ? null : Number(text);
};

/** west, south, east, north of the first box (or point, or polygon) of the resource; nulls when none. */
function boxOf(resource: Node): { west: number | null; south: number | null; east: number | null; north: number | null } {
  const locations = list(first(resource, 'geoLocations'), 'geoLocation');
  for (const location of locations) {
    const [box, next] = list(location, 'geoLocationBox').map((b) => ({
      west: numberOf(b, 'westBoundLongitude'),
      east: numberOf(b, 'eastBoundLongitude'),
      south: numberOf(b, 'southBoundLatitude'),
      north: numberOf(b, 'northBoundLatitude'),
    }));
    if (box) {
      const splitAt180 = next && box.east === 180 && next.west === -180 && box.south === next.south && box.north === next.north && box.west !== -180;
      return splitAt180 ? { ...box, east: next.east } : box;
    }
  }
  for (const location of locations) {
    const point = first(location, 'geoLocationPoint');
    if (point) {
      const [longitude, latitude] = [numberOf(point, 'pointLongitude'), numberOf(point, 'pointLatitude')];
      return { west: longitude, east: longitude, south: latitude, north: latitude };
    }
  }
  for (const location of locations) {
    const points = list(first(location, 'geoLocationPolygon'), 'polygonPoint').map((p) => [numberOf(p, 'pointLongitude'), numberOf(p, 'pointLatitude')]);
    const longitudes = points.map(([x]) => x).filter((x): x is number => x !== null);
    const latitudes = points.map(([, y]) => y).filter((y): y is number => y !== null);
    if (longitudes.length && latitudes.length) {
      return { west: Math.min(...longitudes), east: Math.max(...longitudes), south: Math.min(...latitudes), north: Math.max(...latitudes) };
    }
  }
  return { west: null, south: null, east: null, north: null };
}

function dateOfType(resource: Node, type: string): string | undefined {
  const date = list(first(resource, 'dates'), 'date').find((d) => attr(d, 'dateType') === type);
  return date ? textOf(date) : undefined;
}

/** A day of an RKMS-ISO8601 date: YYYY, YYYY-MM or YYYY-MM-DD (a time after it is dropped). */
function dayOf(value: string, end: boolean): string {
  const match = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?/.exec(value.trim());
  if (!match) return value.trim();
  const [, year, month, day] = match;
  if (day) return `${year}-${month}-${day}`;
  if (month) return end ? `${year}-${month}-${String(new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()).padStart(2, '0')}` : `${year}-${month}-01`;
  return end ? `${year}-12-31` : `${year}-01-01`;
}

/** The words of Other dates that carry no date (how the portal writes a time told only in words). */
function timeInWords(resource: Node): string[] {
  return list(first(resource, 'dates'), 'date')
    .filter((d) => attr(d, 'dateType') === 'Other' && !textOf(d) && attr(d, 'dateInformation'))
    .map((d) => attr(d, 'dateInformation').replace(/\s+/g, ' ').slice(0, 20_000));
}

function collected(resource: Node): [string, string] {
  const value = dateOfType(resource, 'Collected');
  if (!value) return ['', ''];
  const [start = '', end = start] = value.split('/');
  return [start ? dayOf(start, false) : '', end ? dayOf(end, true) : ''];
}

/** Midnight UTC of a date, or the date-time itself, as ISO text; the text unchanged when it is no date. */
function isoTime(value: string): string {
  const day = dayOf(value, false);
  const time = /^\d{4}-\d{2}-\d{2}T/.test(value.trim()) ? new Date(value.trim()) : new Date(`${day}T00:00:00Z`);
  return Number.isNaN(time.getTime()) ? value : time.toISOString();
}

function issuedDate(resource: Node): string | null {
  const issued = dateOfType(resource, 'Issued')?.split('/')[0];
  if (issued) return isoTime(issued);
  const year = textOf(first(resource, 'publicationYear'));
  return /^\d{4}$/.test(year) ? `${year}-01-01T00:00:00.000Z` : null;
}

/** The portal's licence (LICENSES) of a Creative Commons 4.0 right; '' for anything else. */
function licenseOf(resource: Node): string {
  for (const rights of list(first(resource, 'rightsList'), 'rights')) {
    const sources = [attr(rights, 'rightsURI'), attr(rights, 'rightsIdentifier'), textOf(rights)].map((s) => s.toLowerCase());
    for (const source of sources) {
      const uri = /creativecommons\.org\/licenses\/([a-z-]+)\/(\d\.\d)/.exec(source);
      const spdx = /^cc-([a-z-]+)-(\d\.\d)$/.exec(source);
      const words =
        /(?:creative commons|cc)[ -]((?:by|attribution|noncommercial|sharealike|noderivatives|nc|sa|nd)(?:[ -]+(?:by|attribution|noncommercial|sharealike|noderivatives|nc|sa|nd))*)(?:[ -]+international)?[ -]+(\d\.\d)/.exec(
          source,
        );
      const found = uri ?? spdx ?? words;
      if (!found) continue;
      const parts = found[1]!.split(/[ -]+/).map((p) => ({ attribution: 'by', noncommercial: 'nc', sharealike: 'sa', noderivatives: 'nd' })[p] ?? p);
      const order = ['by', 'nc', 'sa', 'nd'].filter((p) => parts.includes(p));
      const license = `CC ${order.join('-').toUpperCase()} ${found[2]}`;
      if ((LICENSES as readonly string[]).includes(license)) return license;
    }
  }
  return '';
}

const PROGRAMME_FUNDS: Record<string, { id: string; subtopic: 'subtopic_three_pole' | 'subtopic_third_pole'; names: string[] }> = {
  [FUND_THREE_POLE]: { id: FUND_THREE_POLE, subtopic: 'subtopic_three_pole', names: ['三极平台', 'three poles platform'] },
  [FUND_THIRD_POLE]: { id: FUND_THIRD_POLE, subtopic: 'subtopic_third_pole', names: ['第三极（青藏高原）中心', 'third pole (tibetan plateau) centres'] },
};

function fundsOf(resource: Node): { funds: ExportedFund[]; subtopics: Record<string, string> } {
  const funds: ExportedFund[] = [];
  const subtopics: Record<string, string> = {};
  for (const reference of list(first(resource, 'fundingReferences'), 'fundingReference')) {
    const funder = textOf(first(reference, 'funderName'));
    const award = textOf(first(reference, 'awardNumber'));
    const title = textOf(first(reference, 'awardTitle'));
    const programme = Object.values(PROGRAMME_FUNDS).find((p) => p.names.includes(funder.toLowerCase()));
    if (programme) {
      funds.push({ id: programme.id, name: funder, is_core: true });
      if (award) subtopics[programme.subtopic] = award.slice(0, 200);
      continue;
    }
    const name = (title || funder).slice(0, 200);
    if (!name) continue;
    const identifier = first(reference, 'funderIdentifier');
    const identifierType = attr(identifier, 'funderIdentifierType');
    const funderIdentifier =
      identifierType === 'Crossref Funder ID' ? normalizeCrossrefFunderId(textOf(identifier)) : identifierType === 'ROR' ? normalizeRor(textOf(identifier)) : null;
    funds.push({ name, name_en: hasHan(name) ? '' : name, serial_number: award.slice(0, 200), ...(funderIdentifier ? { funder_identifier: funderIdentifier } : {}) });
  }
  return { funds, subtopics };
}
