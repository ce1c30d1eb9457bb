import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { stripIllegalText, type AuthorRole, type Language } from '@portal/shared';
import { dayOf, doiUrl, licenseFacts, otherLanguage, splitAtAntimeridian, textIn, type CitablePerson, type CitableRecord, type Texts } from './citable-record.js';
import { topicCategoriesOf } from './topic-categories.js';
import { ORCID_URL } from '@portal/shared/rules/identifiers';

/**
 * ISO 19115 metadata in the ISO/TS 19139 XML encoding (gmd:MD_Metadata), as GeoNetwork and CSW
 * clients harvest it:
 * - fileIdentifier the record's id; language and characterSet of the record's own language; the
 *   other language is a gmd:locale (PT_Locale) and every text a PT_FreeText with both, so a client
 *   that reads only gco:CharacterString gets the record's language.
 * - hierarchyLevel dataset; contact: the record's distributor (the data centre; its organisation and
 *   address (deliveryPoint, city, administrativeArea, country) in both languages), then the metadata
 *   authors (role author: they wrote the metadata); distributor: the data centre; dateStamp the last
 *   update.
 * - MD_DataIdentification: citation (title, publication and revision dates, edition (the published
 *   version), the DOI as identifier,
 *   citedResponsibleParty: the creators (shared rules/creators.ts) in their order, then the other
 *   people, once per CI_RoleCode of their roles (ROLE_CODES); with no creator, the data centre as
 *   originator), abstract, pointOfContact: the data centre (distributor), then each creator again
 *   with role originator (OWSLib and GeoNetwork take a dataset's creators from the identification's
 *   originator contacts, not from the citation; with no creator, the data centre), keywords by their type
 *   (MD_KeywordTypeCode has the portal's four: discipline, place, temporal, theme), the licence and
 *   the sharing policy as MD_LegalConstraints, the provider's terms of use as an MD_Constraints
 *   useLimitation, language, topicCategory (mandatory for a dataset: from the discipline and theme
 *   keywords by the table of topic-categories.ts, geoscientificInformation when none matches),
 *   extent: its description the time in words (the record's time description, both languages), an
 *   EX_GeographicBoundingBox, or two across the 180th meridian (west > east): first the part from
 *   the west side to 180, then the part from -180 to the east side, so that a client that reads the
 *   first box only gets the western part with the box's own west side; and an EX_TemporalExtent with
 *   a gml:TimePeriod: a range without an end is open (endPosition indeterminatePosition="now": the
 *   data continue), one without a start has an unknown beginning (indeterminatePosition="unknown").
 * - distributionInfo: the landing page (and the DOI) as online resources.
 * GML is 3.2.1 (namespace http://www.opengis.net/gml/3.2), as current GeoNetwork and CSW 2.0.2 ISO
 * profile servers write it.
 */

const NS = {
  gmd: 'http://www.isotc211.org/2005/gmd',
  gco: 'http://www.isotc211.org/2005/gco',
  gml: 'http://www.opengis.net/gml/3.2',
  xlink: 'http://www.w3.org/1999/xlink',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
};
const CODE_LISTS = 'http://standards.iso.org/iso/19139/resources/gmxCodelists.xml';
/** ISO 639-2/B codes. */
const LANGUAGE_CODES: Record<Language, string> = { 'zh-hans': 'chi', en: 'eng' };

/**
 * The document's xs:ID values (the other language's PT_Locale, the gml:TimePeriod), the record's id
 * in each: an OAI-PMH page holds many records in one document, where an id may stand once only
 * (`locale-en` in every record made a page of several invalid). An NCName: the id's other characters
 * become `_`.
 */
const localeId = (record: CitableRecord, language: Language) => `locale-${language === 'en' ? 'en' : 'zh'}-${record.id.replace(/[^A-Za-z0-9._-]/g, '_')}`;
const temporalExtentId = (record: CitableRecord) => `temporal-extent-${record.id.replace(/[^A-Za-z0-9._-]/g, '_')}`;

/**
 * CI_RoleCode of each author role in the data's citation; the data resource providers are the data's
 * originators. A metadata author wrote the metadata, not the data: not a cited party, but a contact
 * of the metadata with role author.
 */
const ROLE_CODES: Record<Exclude<AuthorRole, 'metadataAuthor'>, string> = {
  resourceProvider: 'originator',
  manager: 'custodian',
  owner: 'owner',
  distributor: 'distributor',
  producer: 'originator',
  contactParty: 'pointOfContact',
  principalInvestigator: 'principalInvestigator',
  processor: 'processor',
  publisher: 'publisher',
};

/**
 * A number as xs:decimal (gco:Decimal) writes it: JavaScript writes degrees nearer 0 than 1e-6 with an
 * exponent ("1e-7"), which xs:decimal has not; the same digits are moved behind "0.000".
 */
export function decimal(value: number): string {
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e-(\d+)$/.exec(text);
  if (!exponent) return text;
  const [, sign, digit, fraction = '', power] = exponent;
  return `${sign}0.${'0'.repeat(Number(power) - 1)}${digit}${fraction}`;
}

function codeValue(parent: XMLBuilder, property: string, list: string, value: string) {
  parent
    .ele(`gmd:${property}`)
    .ele(`gmd:${list}`, { codeList: `${CODE_LISTS}#${list}`, codeListValue: value })
    .txt(value);
}

function text(parent: XMLBuilder, property: string, value: string) {
  parent.ele(`gmd:${property}`).ele('gco:CharacterString').txt(value);
}

/** A text in the record's language, with its translation as PT_FreeText when there is one. */
function freeText(parent: XMLBuilder, record: CitableRecord, property: string, texts: Texts) {
  const other = otherLanguage(record.language);
  const own = textIn(texts, record.language);
  if (!texts[record.language] || !texts[other]) return text(parent, property, own);
  const element = parent.ele(`gmd:${property}`, { 'xsi:type': 'gmd:PT_FreeText_PropertyType' });
  element.ele('gco:CharacterString').txt(own);
  element
    .ele('gmd:PT_FreeText')
    .ele('gmd:textGroup')
    .ele('gmd:LocalisedCharacterString', { locale: `#${localeId(record, other)}` })
    .txt(texts[other]);
}

function languageCode(parent: XMLBuilder, property: string, language: Language) {
  parent
    .ele(`gmd:${property}`)
    .ele('gmd:LanguageCode', { codeList: 'http://www.loc.gov/standards/iso639-2/', codeListValue: LANGUAGE_CODES[language] })
    .txt(LANGUAGE_CODES[language]);
}

function utf8(parent: XMLBuilder, property: string) {
  codeValue(parent, property, 'MD_CharacterSetCode', 'utf8');
}

function party(parent: XMLBuilder, record: CitableRecord, property: string, person: CitablePerson, roleCode: string): void {
  const responsible = parent.ele(`gmd:${property}`).ele('gmd:CI_ResponsibleParty');
  freeText(responsible, record, 'individualName', person.name);
  if (person.affiliation['zh-hans'] || person.affiliation.en) freeText(responsible, record, 'organisationName', person.affiliation);
  // The ORCID iD as the person's online resource (no e-mail, phone or address of an author is public).
  if (person.orcid) onlineResource(responsible.ele('gmd:contactInfo').ele('gmd:CI_Contact').ele('gmd:onlineResource'), `${ORCID_URL}${person.orcid}`, 'WWW:LINK', 'ORCID');
  codeValue(responsible, 'role', 'CI_RoleCode', roleCode);
}

/** The people of the data's citation: the creators, then the others, each once per CI_RoleCode of their roles. */
function citedParties(record: CitableRecord): { person: CitablePerson; roleCode: string }[] {
  return [...record.creators, ...record.contributors].flatMap((person) => {
    const codes = new Set(person.roles.flatMap((role) => (role === 'metadataAuthor' ? [] : [ROLE_CODES[role]])));
    return [...codes].map((roleCode) => ({ person, roleCode }));
  });
}

/** The distributor's contact (the data centre's published one). */
function distributorParty(parent: XMLBuilder, record: CitableRecord, property: string, role: string) {
  const { distributor } = record;
  const responsible = parent.ele(`gmd:${property}`).ele('gmd:CI_ResponsibleParty');
  if (distributor.unit['zh-hans'] || distributor.unit.en) freeText(responsible, record, 'organisationName', distributor.unit);
  else text(responsible, 'organisationName', textIn(record.publisher, record.language));
  const contact = responsible.ele('gmd:contactInfo').ele('gmd:CI_Contact');
  if (distributor.phone) text(contact.ele('gmd:phone').ele('gmd:CI_Telephone'), 'voice', distributor.phone);
  const address = contact.ele('gmd:address').ele('gmd:CI_Address');
  // The street, city, province and country each in both languages when the provider translated them.
  const parts = [
    ['deliveryPoint', distributor.address],
    ['city', distributor.city],
    ['administrativeArea', distributor.province],
    ['country', distributor.country],
  ] as const;
  for (const [property, texts] of parts) if (texts['zh-hans'] || texts.en) freeText(address, record, property, texts);
  if (distributor.email) text(address, 'electronicMailAddress', distributor.email);
  onlineResource(contact.ele('gmd:onlineResource'), record.catalogueUrl, 'WWW:LINK');
  codeValue(responsible, 'role', 'CI_RoleCode', role);
}

/** The data centre as the data's originator: the author every format names when the record has no creator. */
function centreAsOriginator(parent: XMLBuilder, record: CitableRecord, property: string): void {
  const centre = parent.ele(`gmd:${property}`).ele('gmd:CI_ResponsibleParty');
  freeText(centre, record, 'organisationName', record.publisher);
  codeValue(centre, 'role', 'CI_RoleCode', 'originator');
}

function onlineResource(parent: XMLBuilder, url: string, protocol: string, name?: string) {
  const resource = parent.ele('gmd:CI_OnlineResource');
  resource.ele('gmd:linkage').ele('gmd:URL').txt(url);
  text(resource, 'protocol', protocol);
  if (name) text(resource, 'name', name);
}

function citationDate(parent: XMLBuilder, day: string, type: string) {
  const date = parent.ele('gmd:date').ele('gmd:CI_Date');
  date.ele('gmd:date').ele('gco:Date').txt(day);
  codeValue(date, 'dateType', 'CI_DateTypeCode', type);
}

export function iso19139Xml(record: CitableRecord): string {
  const other = otherLanguage(record.language);
  const metadata = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS.gmd, 'gmd:MD_Metadata', {
    'xmlns:gco': NS.gco,
    'xmlns:gml': NS.gml,
    'xmlns:xlink': NS.xlink,
    'xmlns:xsi': NS.xsi,
    'xsi:schemaLocation': `${NS.gmd} http://schemas.opengis.net/iso/19139/20070417/gmd/gmd.xsd`,
  });
  text(metadata, 'fileIdentifier', record.id);
  languageCode(metadata, 'language', record.language);
  utf8(metadata, 'characterSet');
  codeValue(metadata, 'hierarchyLevel', 'MD_ScopeCode', 'dataset');
  distributorParty(metadata, record, 'contact', 'pointOfContact');
  for (const person of record.people.filter((p) => p.roles.includes('metadataAuthor'))) party(metadata, record, 'contact', person, 'author');
  metadata
    .ele('gmd:dateStamp')
    .ele('gco:DateTime')
    .txt(record.updatedAt.replace(/\.\d+Z$/, 'Z'));
  text(metadata, 'metadataStandardName', 'ISO 19115:2003/19139');
  text(metadata, 'metadataStandardVersion', '1.0');
  text(metadata, 'dataSetURI', record.doi ? doiUrl(record.doi) : record.url[record.language]);
  const locale = metadata.ele('gmd:locale').ele('gmd:PT_Locale', { id: localeId(record, other) });
  languageCode(locale, 'languageCode', other);
  utf8(locale, 'characterEncoding');

  const identification = metadata.ele('gmd:identificationInfo').ele('gmd:MD_DataIdentification');
  const citation = identification.ele('gmd:citation').ele('gmd:CI_Citation');
  freeText(citation, record, 'title', record.title);
  citationDate(citation, dayOf(record.publishedAt), 'publication');
  citationDate(citation, dayOf(record.updatedAt), 'revision');
  // The published version (modules/doi/record-versions.ts): the record keeps its id and DOI across versions.
  text(citation, 'edition', String(record.version));
  const identifier = citation.ele('gmd:identifier').ele('gmd:MD_Identifier');
  text(identifier, 'code', record.doi ? doiUrl(record.doi) : record.url[record.language]);
  for (const { person, roleCode } of citedParties(record)) party(citation, record, 'citedResponsibleParty', person, roleCode);
  // No creator: the data centre is cited as the author, as in every other format.
  if (!record.creators.length) centreAsOriginator(citation, record, 'citedResponsibleParty');
  if (record.citation[record.language] || record.citation[other]) freeText(citation, record, 'otherCitationDetails', record.citation);

  freeText(identification, record, 'abstract', record.abstract);
  distributorParty(identification, record, 'pointOfContact', 'distributor');
  for (const person of record.creators) party(identification, record, 'pointOfContact', person, 'originator');
  if (!record.creators.length) centreAsOriginator(identification, record, 'pointOfContact');
  for (const type of ['theme', 'place', 'discipline', 'temporal'] as const) {
    const keywords = record.keywords.filter((k) => k.type === type);
    if (!keywords.length) continue;
    const list = identification.ele('gmd:descriptiveKeywords').ele('gmd:MD_Keywords');
    for (const keyword of keywords) freeText(list, record, 'keyword', keyword.name);
    codeValue(list, 'type', 'MD_KeywordTypeCode', type);
  }
  const sharing = record.conditionsOfAccess;
  if (record.license || sharing.en) {
    const license = record.license ? licenseFacts(record.license) : null;
    const constraints = identification.ele('gmd:resourceConstraints').ele('gmd:MD_LegalConstraints');
    if (license) text(constraints, 'useLimitation', `${license.name} (${license.spdx}): ${license.deed}`);
    // The sharing policy (online, or on request) restricts access; its words are the other constraint.
    if (sharing.en) codeValue(constraints, 'accessConstraints', 'MD_RestrictionCode', 'otherRestrictions');
    if (license) codeValue(constraints, 'useConstraints', 'MD_RestrictionCode', 'license');
    if (license) text(constraints, 'otherConstraints', license.deed);
    if (sharing.en) freeText(constraints, record, 'otherConstraints', sharing);
  }
  if (record.useTerm['zh-hans'] || record.useTerm.en) {
    // The provider's terms of use: a limitation of use, in both languages.
    freeText(identification.ele('gmd:resourceConstraints').ele('gmd:MD_Constraints'), record, 'useLimitation', record.useTerm);
  }
  languageCode(identification, 'language', record.language);
  utf8(identification, 'characterSet');
  for (const category of topicCategoriesOf(record)) identification.ele('gmd:topicCategory').ele('gmd:MD_TopicCategoryCode').txt(category);

  const timeWords = record.temporal.description;
  if (record.box || record.temporal.start || record.temporal.end || timeWords.en || timeWords['zh-hans']) {
    const extent = identification.ele('gmd:extent').ele('gmd:EX_Extent');
    if (timeWords.en || timeWords['zh-hans']) freeText(extent, record, 'description', timeWords);
    for (const part of record.box ? splitAtAntimeridian(record.box) : []) {
      const box = extent.ele('gmd:geographicElement').ele('gmd:EX_GeographicBoundingBox');
      box.ele('gmd:westBoundLongitude').ele('gco:Decimal').txt(decimal(part.west));
      box.ele('gmd:eastBoundLongitude').ele('gco:Decimal').txt(decimal(part.east));
      box.ele('gmd:southBoundLatitude').ele('gco:Decimal').txt(decimal(part.south));
      box.ele('gmd:northBoundLatitude').ele('gco:Decimal').txt(decimal(part.north));
    }
    if (record.temporal.start || record.temporal.end) {
      const period = extent
        .ele('gmd:temporalElement')
        .ele('gmd:EX_TemporalExtent')
        .ele('gmd:extent')
        .ele('gml:TimePeriod', { 'gml:id': temporalExtentId(record) });
      if (record.temporal.start) period.ele('gml:beginPosition').txt(record.temporal.start);
      else period.ele('gml:beginPosition', { indeterminatePosition: 'unknown' });
      if (record.temporal.end) period.ele('gml:endPosition').txt(record.temporal.end);
      else period.ele('gml:endPosition', { indeterminatePosition: 'now' });
    }
  }

  const distribution = metadata.ele('gmd:distributionInfo').ele('gmd:MD_Distribution');
  for (const type of record.files.mediaTypes) {
    const format = distribution.ele('gmd:distributionFormat').ele('gmd:MD_Format');
    text(format, 'name', type);
    // The version is mandatory in ISO 19115 and unknown for a data file's type.
    format.ele('gmd:version', { 'gco:nilReason': 'unknown' });
  }
  distributorParty(distribution.ele('gmd:distributor').ele('gmd:MD_Distributor'), record, 'distributorContact', 'distributor');
  const transfer = distribution.ele('gmd:transferOptions').ele('gmd:MD_DigitalTransferOptions');
  if (record.files.count)
    transfer
      .ele('gmd:transferSize')
      .ele('gco:Real')
      .txt(String(Math.round((record.files.bytes / 1e6) * 1000) / 1000));
  for (const language of [record.language, other]) onlineResource(transfer.ele('gmd:onLine'), record.url[language], 'WWW:LINK', textIn(record.title, language));
  if (record.doi) onlineResource(transfer.ele('gmd:onLine'), doiUrl(record.doi), 'DOI');
  // Text stored before input refused the characters XML cannot carry must not make the document ill-formed.
  return stripIllegalText(metadata.end({ prettyPrint: true }));
}
