import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { stripIllegalText, type AuthorRole } from '@portal/shared';
import { funderIdentifierOf, ORCID_URL, ROR_URL } from '@portal/shared/rules/identifiers';
import { AppError } from '../../errors.js';
import { dayOf, inLanguages, LANGUAGE_TAGS, licenseFacts, otherLanguage, splitAtAntimeridian, textIn, yearOf, type CitablePerson, type CitableRecord } from './citable-record.js';
import { nameParts } from './names.js';

/**
 * DataCite Metadata Schema 4.5 of a record. It reads back through the importer
 * (records-io/datacite.ts) to the same record where the two models meet:
 * - identifier: the DOI. DataCite has no identifier but a DOI (identifierType is fixed to "DOI"), so a
 *   record without one has no DataCite form: CONFLICT `metadata.exports.noDoi`, rather than a landing
 *   page address passed off as a DOI. The landing page is an alternateIdentifier of type URL.
 * - creators: the record's creators (shared rules/creators.ts: resource providers, principal
 *   investigators, producers, owners) in the record's author order; with none, the data centre as an
 *   organisation. creatorName is the Chinese name when there is one, givenName and familyName the
 *   romanized name (what the importer reads back as the English translation); the ORCID iD as a
 *   nameIdentifier (its https address, scheme ORCID); affiliations in both languages, each with the
 *   affiliation's ROR ID as affiliationIdentifier (scheme ROR).
 * - contributors: everyone's roles that have a DataCite contributorType (CONTRIBUTOR_TYPES), a
 *   creator's other roles too (a principal investigator is also a ProjectLeader); a person with no
 *   creator role and none of those types (publisher, metadata author) is an "Other" contributor, so
 *   that everyone the landing page names is here.
 * - titles and descriptions (Abstract, Methods = data source, TechnicalInfo = file naming and use)
 *   in both languages with xml:lang; the record's own language first, the other a TranslatedTitle.
 * - subjects: keywords with xml:lang, subjectScheme the keyword's type (theme, place, discipline,
 *   temporal), each type in the same order in both languages (the importer pairs them so).
 * - dates: Issued (publication), Updated, Available (end of the protection period, when there is
 *   one), Collected (the temporal coverage, RKMS-ISO8601 "start/end"); a time told only in words (no
 *   start nor end) as an empty Other date whose dateInformation holds the words, one per language.
 * - rightsList: the CC 4.0 licence with its legal code URI and SPDX identifier, the access right as
 *   a COAR Access Right term (rightsURI the concept, the label as text, as the OpenAIRE guidelines for
 *   data archives ask; an embargo's end is the Available date), then the provider's terms of use
 *   (use_term) as a rights statement in each language.
 * - version: the published version (1, one more per republication with changed files or metadata).
 *   The record keeps its id and DOI across versions, so no IsNewVersionOf / IsPreviousVersionOf: no
 *   earlier version has an identifier of its own.
 * - geoLocations: the box; one across the 180th meridian as two boxes (DataCite boxes never cross it).
 * - fundingReferences: funderName the funding project's name, funderIdentifier the funder's Crossref
 *   Funder ID (its https://doi.org address) or ROR ID when the fund has one, awardNumber its serial
 *   number or, for the programme funds, the sub-topic number.
 * - relatedIdentifiers: literature with a DOI (else a link as URL), by its type (RELATION_TYPES).
 * - sizes (files, bytes), formats (the data files' media types), language, publisher (the data centre).
 */

const KERNEL = 'http://datacite.org/schema/kernel-4';
const SCHEMA_LOCATION = `${KERNEL} https://schema.datacite.org/meta/kernel-4.5/metadata.xsd`;

const CONTRIBUTOR_TYPES: Partial<Record<AuthorRole, string>> = {
  principalInvestigator: 'ProjectLeader',
  contactParty: 'ContactPerson',
  manager: 'DataManager',
  processor: 'DataCurator',
  distributor: 'Distributor',
  producer: 'Producer',
  owner: 'RightsHolder',
};

/** The relation of the record to a literature entry of each LITERATURE_TYPES. */
export const RELATION_TYPES: Record<string, string> = {
  // The article to cite with the data: it describes them.
  citation: 'IsDescribedBy',
  reference: 'References',
  application: 'IsCitedBy',
  related: 'IsReferencedBy',
  special: 'IsReferencedBy',
  other: 'IsReferencedBy',
};

function addPerson(parent: XMLBuilder, tag: 'creator' | 'contributor', person: CitablePerson, attributes: Record<string, string> = {}) {
  const element = parent.ele(tag, attributes);
  const chinese = person.name['zh-hans'];
  const english = person.name.en;
  const nameTag = tag === 'creator' ? 'creatorName' : 'contributorName';
  element.ele(nameTag, { nameType: 'Personal', 'xml:lang': chinese ? LANGUAGE_TAGS['zh-hans'] : 'en' }).txt(chinese || english);
  const romanized = nameParts(person, 'en');
  if (english && 'family' in romanized) {
    element.ele('givenName').txt(romanized.given);
    element.ele('familyName').txt(romanized.family);
  }
  if (person.orcid) element.ele('nameIdentifier', { nameIdentifierScheme: 'ORCID', schemeURI: 'https://orcid.org' }).txt(`${ORCID_URL}${person.orcid}`);
  const ror = person.affiliationRor ? { affiliationIdentifier: `${ROR_URL}${person.affiliationRor}`, affiliationIdentifierScheme: 'ROR', schemeURI: 'https://ror.org' } : {};
  for (const affiliation of [person.affiliation['zh-hans'], person.affiliation.en].filter(Boolean)) element.ele('affiliation', ror).txt(affiliation);
}

export function dataciteXml(record: CitableRecord): string {
  if (!record.doi) throw new AppError('CONFLICT', 'metadata.exports.noDoi');
  const resource = create({ version: '1.0', encoding: 'UTF-8' }).ele(KERNEL, 'resource', {
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': SCHEMA_LOCATION,
  });
  resource.ele('identifier', { identifierType: 'DOI' }).txt(record.doi);

  const creators = resource.ele('creators');
  for (const person of record.creators) addPerson(creators, 'creator', person);
  if (!record.creators.length) {
    creators.ele('creator').ele('creatorName', { nameType: 'Organizational', 'xml:lang': 'en' }).txt(record.publisher.en);
  }

  const titles = resource.ele('titles');
  for (const [index, { language, text }] of inLanguages(record, record.title).entries()) {
    titles.ele('title', { 'xml:lang': LANGUAGE_TAGS[language], ...(index ? { titleType: 'TranslatedTitle' } : {}) }).txt(text);
  }
  resource.ele('publisher', { 'xml:lang': 'en' }).txt(record.publisher.en);
  resource.ele('publicationYear').txt(yearOf(record.publishedAt));
  resource.ele('resourceType', { resourceTypeGeneral: 'Dataset' }).txt('Dataset');

  if (record.keywords.length) {
    const subjects = resource.ele('subjects');
    for (const language of [record.language, otherLanguage(record.language)]) {
      for (const keyword of record.keywords) {
        if (keyword.name[language]) subjects.ele('subject', { 'xml:lang': LANGUAGE_TAGS[language], subjectScheme: keyword.type }).txt(keyword.name[language]);
      }
    }
  }

  const contributors = record.people.flatMap((person) => {
    const types = [...new Set(person.roles.flatMap((role) => CONTRIBUTOR_TYPES[role] ?? []))];
    return (types.length || record.creators.includes(person) ? types : ['Other']).map((type) => ({ person, type }));
  });
  if (contributors.length) {
    const list = resource.ele('contributors');
    for (const { person, type } of contributors) addPerson(list, 'contributor', person, { contributorType: type });
  }

  const dates = resource.ele('dates');
  dates.ele('date', { dateType: 'Issued' }).txt(dayOf(record.publishedAt));
  dates.ele('date', { dateType: 'Updated' }).txt(dayOf(record.updatedAt));
  if (record.availableFrom) dates.ele('date', { dateType: 'Available' }).txt(record.availableFrom);
  if (record.temporal.start || record.temporal.end) {
    // An RKMS-ISO8601 range; one open at an end leaves that side empty ("2001-01-01/" ongoing, "/2020-12-31").
    dates.ele('date', { dateType: 'Collected' }).txt(`${record.temporal.start}/${record.temporal.end}`);
  } else {
    // A time told only in words has no date to write: DataCite's dateInformation carries the words.
    for (const { text } of inLanguages(record, record.temporal.description)) dates.ele('date', { dateType: 'Other', dateInformation: text });
  }

  resource.ele('language').txt(LANGUAGE_TAGS[record.language]);
  resource.ele('alternateIdentifiers').ele('alternateIdentifier', { alternateIdentifierType: 'URL' }).txt(record.url[record.language]);

  const related = record.literature.filter((entry) => entry.doi || /^https?:\/\//i.test(entry.link));
  if (related.length) {
    const list = resource.ele('relatedIdentifiers');
    for (const entry of related) {
      list
        .ele('relatedIdentifier', { relatedIdentifierType: entry.doi ? 'DOI' : 'URL', relationType: RELATION_TYPES[entry.type] ?? 'IsReferencedBy' })
        .txt(entry.doi || entry.link);
    }
  }

  if (record.files.count) {
    const sizes = resource.ele('sizes');
    sizes.ele('size').txt(`${record.files.count} files`);
    sizes.ele('size').txt(`${record.files.bytes} bytes`);
  }
  if (record.files.mediaTypes.length) {
    const formats = resource.ele('formats');
    for (const type of record.files.mediaTypes) formats.ele('format').txt(type);
  }

  resource.ele('version').txt(String(record.version));

  const rightsList = resource.ele('rightsList');
  if (record.license) {
    const license = licenseFacts(record.license);
    rightsList
      .ele('rights', {
        'xml:lang': 'en',
        rightsURI: license.legalCode,
        rightsIdentifier: license.spdx.toLowerCase(),
        rightsIdentifierScheme: 'SPDX',
        schemeURI: 'https://spdx.org/licenses/',
      })
      .txt(license.name);
  }
  rightsList
    .ele('rights', {
      'xml:lang': 'en',
      rightsURI: record.accessRight.uri,
      rightsIdentifier: record.accessRight.uri.replace(/^.*\//, ''),
      rightsIdentifierScheme: 'COAR',
      schemeURI: 'http://vocabularies.coar-repositories.org/access_rights/',
    })
    .txt(record.accessRight.label);
  // The provider's terms of use, a rights statement in each language it has (after the licence, which the importer reads first).
  for (const { language, text } of inLanguages(record, record.useTerm)) rightsList.ele('rights', { 'xml:lang': LANGUAGE_TAGS[language] }).txt(text);

  const descriptions = [
    ['Abstract', record.abstract],
    ['Methods', record.dataSource],
    ['TechnicalInfo', record.usage],
  ] as const;
  if (descriptions.some(([, texts]) => texts['zh-hans'] || texts.en)) {
    const list = resource.ele('descriptions');
    for (const [type, texts] of descriptions) {
      for (const { language, text } of inLanguages(record, texts)) list.ele('description', { 'xml:lang': LANGUAGE_TAGS[language], descriptionType: type }).txt(text);
    }
  }

  if (record.box) {
    const location = resource.ele('geoLocations').ele('geoLocation');
    for (const part of splitAtAntimeridian(record.box)) {
      const box = location.ele('geoLocationBox');
      box.ele('westBoundLongitude').txt(String(part.west));
      box.ele('eastBoundLongitude').txt(String(part.east));
      box.ele('southBoundLatitude').txt(String(part.south));
      box.ele('northBoundLatitude').txt(String(part.north));
    }
  }

  if (record.funds.length) {
    const list = resource.ele('fundingReferences');
    for (const fund of record.funds) {
      const reference = list.ele('fundingReference');
      reference.ele('funderName').txt(fund.isProgramme ? fund.name['zh-hans'] || fund.name.en : textIn(fund.name, 'en'));
      const funder = funderIdentifierOf(fund.funderIdentifier ?? '');
      if (funder) reference.ele('funderIdentifier', { funderIdentifierType: funder.type, ...(funder.type === 'ROR' ? { schemeURI: 'https://ror.org' } : {}) }).txt(funder.url);
      if (fund.awardNumber) reference.ele('awardNumber').txt(fund.awardNumber);
      if (!fund.isProgramme && fund.name['zh-hans'] && fund.name.en) reference.ele('awardTitle', { 'xml:lang': LANGUAGE_TAGS['zh-hans'] }).txt(fund.name['zh-hans']);
    }
  }
  // Text stored before input refused the characters XML cannot carry must not make the document ill-formed.
  return stripIllegalText(resource.end({ prettyPrint: true }));
}
