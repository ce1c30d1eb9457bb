import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { stripIllegalText, type AuthorRole } from '@portal/shared';
import { dayOf, doiUrl, licenseFacts, splitAtAntimeridian, textIn, type CitablePerson, type CitableRecord, type Texts } from './citable-record.js';
import { decimal } from './iso19139.js';
import { nameParts } from './names.js';
import { keywordMatcher, topicCategoriesOf } from './topic-categories.js';

/**
 * NASA GCMD's Directory Interchange Format, version 10.2 (DIF 10: the format the Global Change
 * Master Directory and the Antarctic Master Directory harvest), to its schema `dif_v10.2.xsd`
 * (test/xsd/dif10/). DIF is written in English: every text is the record's English one, else its
 * Chinese one (`Dataset_Language` names the record's own language). Where DIF 10 requires an
 * element the portal has nothing for, the placeholder GCMD's own CMR writes in its DIF 10 is used:
 * "Not provided" (Platform, Instrument, Project without a fund, a science keyword no keyword maps to).
 *
 * - Entry_ID: Short_Name the record's id, Version its published version; Entry_Title the title.
 * - Dataset_Citation: creators (else the data centre), title, release date (publication), publisher,
 *   version, the required citation sentence, the DOI as Persistent_Identifier, the landing page.
 * - Personnel: the creators as INVESTIGATOR, contact parties TECHNICAL CONTACT, metadata authors
 *   METADATA AUTHOR (one Personnel a person with each role of theirs); names only, no private details.
 * - Science_Keywords: GCMD science keywords (Category EARTH SCIENCE, Topic, Term) that the discipline
 *   and theme keywords map to by GCMD_KEYWORDS; ISO_Topic_Category as in ISO 19139
 *   (topic-categories.ts); Ancillary_Keyword every keyword as written, English then Chinese.
 * - Temporal_Coverage: a Range_DateTime; without an end, Ends_At_Present_Flag true and no
 *   Ending_Date_Time (open, as ISO 19139's "now"); without a start, Beginning_Date_Time "unknown"
 *   (DIF's word); with neither, "unknown". Temporal keywords and the time in words are
 *   Ancillary_Temporal_Keyword (DIF's only place for words of time).
 * - Spatial_Coverage: the box as a Bounding_Rectangle (CARTESIAN); across the 180th meridian two, in
 *   ISO 19139's order (the western part first); without a box NO_SPATIAL.
 * - Project: the record's funds (Short_Name the award number or the fund's name, Long_Name its name).
 * - Access_Constraints the sharing policy; Use_Constraints the terms of use and the licence's deed.
 * - Organization: the data centre as DISTRIBUTOR and ARCHIVER, its contact as a Contact_Group.
 * - Distribution: the data files' media types and total size. Reference: the literature.
 * - Summary/Abstract the abstract (plain text; "Not provided" when none); Related_URL the landing page in each language and the
 *   DOI (DATA SET LANDING PAGE).
 * - Metadata_Name "CEOS IDN DIF", Metadata_Version "VERSION 10.2"; Metadata_Dates: creation the
 *   publication day, last revision the last update (the same for the data).
 */

export const DIF_NAMESPACE = 'http://gcmd.gsfc.nasa.gov/Aboutus/xml/dif/';
/** Where GCMD publishes the schema (its CDN; the gcmd.gsfc.nasa.gov address redirects there). */
export const DIF_SCHEMA = 'https://cdn.earthdata.nasa.gov/dif/10.x/dif_v10.2.xsd';
const NOT_PROVIDED = 'Not provided';

/**
 * GCMD science keywords (EARTH SCIENCE > Topic > Term, from the GCMD keyword list) the portal's
 * discipline and theme keywords map to, by the same matching as the ISO topic categories: an English
 * word at the start of a word of the keyword (whole word with `$`), a Chinese word anywhere in it.
 */
export const GCMD_KEYWORDS: readonly (readonly [topic: string, term: string, english: readonly string[], chinese: readonly string[]])[] = [
  ['CRYOSPHERE', 'GLACIERS/ICE SHEETS', ['glaci', 'ice sheet', 'ice cap'], ['冰川', '冰盖']],
  ['CRYOSPHERE', 'SNOW/ICE', ['snow'], ['积雪', '雪']],
  ['CRYOSPHERE', 'FROZEN GROUND', ['permafrost', 'frozen ground', 'frozen soil'], ['冻土']],
  ['CRYOSPHERE', 'SEA ICE', ['sea ice'], ['海冰']],
  ['TERRESTRIAL HYDROSPHERE', 'SURFACE WATER', ['lake', 'river', 'runoff', 'stream', 'hydrolog', 'surface water'], ['湖泊', '河流', '径流', '水文']],
  ['TERRESTRIAL HYDROSPHERE', 'GROUND WATER', ['groundwater', 'ground water'], ['地下水']],
  ['ATMOSPHERE', 'PRECIPITATION', ['precipitation', 'rainfall'], ['降水', '降雨']],
  ['ATMOSPHERE', 'ATMOSPHERIC TEMPERATURE', ['air temperature', 'atmospheric temperature'], ['气温']],
  ['ATMOSPHERE', 'AEROSOLS', ['aerosol'], ['气溶胶']],
  ['ATMOSPHERE', 'ATMOSPHERIC WINDS', ['wind'], ['风速', '风场']],
  ['ATMOSPHERE', 'ATMOSPHERIC RADIATION', ['radiation'], ['辐射']],
  ['BIOSPHERE', 'VEGETATION', ['vegetation', 'forest', 'grassland', 'plant'], ['植被', '森林', '草地', '草原', '植物']],
  ['BIOSPHERE', 'ECOSYSTEMS', ['ecolog', 'ecosystem'], ['生态']],
  ['LAND SURFACE', 'SOILS', ['soil'], ['土壤']],
  ['LAND SURFACE', 'LAND USE/LAND COVER', ['land cover', 'land use'], ['土地覆盖', '土地覆被', '土地利用']],
  ['LAND SURFACE', 'TOPOGRAPHY', ['elevation', 'dem$', 'topograph'], ['高程', '地形', '数字高程']],
  ['LAND SURFACE', 'GEOMORPHIC LANDFORMS/PROCESSES', ['geomorpholog', 'landform'], ['地貌']],
  ['SOLID EARTH', 'TECTONICS', ['tecton', 'earthquake', 'seism'], ['构造', '地震']],
  ['OCEANS', 'OCEAN TEMPERATURE', ['sea surface temperature', 'ocean temperature'], ['海温', '海表温度']],
  ['HUMAN DIMENSIONS', 'POPULATION', ['population', 'demograph'], ['人口']],
];

const GCMD_MATCHERS = GCMD_KEYWORDS.map(([topic, term, english, chinese]) => ({ topic, term, matches: keywordMatcher(english, chinese) }));

/** The GCMD science keywords of the record's discipline and theme keywords, each once, in the table's order. */
export function gcmdKeywordsOf(record: Pick<CitableRecord, 'keywords'>): { topic: string; term: string }[] {
  const texts = record.keywords.filter((k) => k.type === 'discipline' || k.type === 'theme').flatMap((k) => [k.name.en, k.name['zh-hans']]);
  return GCMD_MATCHERS.filter(({ matches }) => texts.some(matches)).map(({ topic, term }) => ({ topic, term }));
}

/** DIF's Personnel roles of the portal's author roles; the others have none. */
const PERSONNEL_ROLES: Partial<Record<AuthorRole, string>> = {
  contactParty: 'TECHNICAL CONTACT',
  metadataAuthor: 'METADATA AUTHOR',
};

/** At most `max` characters (code points: a character beyond the BMP is never cut in two). */
const atMost = (text: string, max: number) => Array.from(text).slice(0, max).join('');

const english = (texts: Texts) => textIn(texts, 'en');

function add(parent: XMLBuilder, name: string, text: string | undefined): void {
  if (text) parent.ele(name).txt(text);
}

function contactPerson(parent: XMLBuilder, person: CitablePerson): void {
  const contact = parent.ele('Contact_Person');
  const parts = nameParts(person, 'en');
  if ('literal' in parts) {
    contact.ele('Last_Name').txt(parts.literal);
    return;
  }
  add(contact, 'First_Name', parts.given);
  contact.ele('Last_Name').txt(parts.family);
}

function personnel(dif: XMLBuilder, record: CitableRecord): void {
  const creators = new Set(record.creators);
  for (const person of record.people) {
    const roles = new Set<string>();
    if (creators.has(person)) roles.add('INVESTIGATOR');
    for (const role of person.roles) if (PERSONNEL_ROLES[role]) roles.add(PERSONNEL_ROLES[role]);
    if (!roles.size || !english(person.name)) continue;
    const element = dif.ele('Personnel');
    for (const role of roles) element.ele('Role').txt(role);
    contactPerson(element, person);
  }
}

function temporalCoverage(dif: XMLBuilder, record: CitableRecord): void {
  const { start, end, description } = record.temporal;
  const coverage = dif.ele('Temporal_Coverage');
  if (start && !end) coverage.ele('Ends_At_Present_Flag').txt('true');
  const range = coverage.ele('Range_DateTime');
  range.ele('Beginning_Date_Time').txt(start || 'unknown');
  if (end) range.ele('Ending_Date_Time').txt(end);
  const words = [...record.keywords.filter((k) => k.type === 'temporal').map((k) => english(k.name)), ...new Set([description.en, description['zh-hans']])].filter(Boolean);
  if (words.length) {
    const info = coverage.ele('Temporal_Info');
    for (const word of words) info.ele('Ancillary_Temporal_Keyword').txt(word);
  }
}

function spatialCoverage(dif: XMLBuilder, record: CitableRecord): void {
  const coverage = dif.ele('Spatial_Coverage');
  if (!record.box) {
    coverage.ele('Granule_Spatial_Representation').txt('NO_SPATIAL');
    return;
  }
  coverage.ele('Spatial_Coverage_Type').txt('Horizontal');
  coverage.ele('Granule_Spatial_Representation').txt('CARTESIAN');
  const geometry = coverage.ele('Geometry');
  geometry.ele('Coordinate_System').txt('CARTESIAN');
  for (const part of splitAtAntimeridian(record.box)) {
    const rectangle = geometry.ele('Bounding_Rectangle');
    rectangle.ele('Southernmost_Latitude').txt(decimal(part.south));
    rectangle.ele('Northernmost_Latitude').txt(decimal(part.north));
    rectangle.ele('Westernmost_Longitude').txt(decimal(part.west));
    rectangle.ele('Easternmost_Longitude').txt(decimal(part.east));
  }
}

function organization(dif: XMLBuilder, record: CitableRecord): void {
  const { distributor } = record;
  const org = dif.ele('Organization');
  org.ele('Organization_Type').txt('DISTRIBUTOR');
  org.ele('Organization_Type').txt('ARCHIVER');
  const name = org.ele('Organization_Name');
  const unit = english(distributor.unit) || english(record.publisher);
  name.ele('Short_Name').txt(unit);
  if (unit !== english(record.publisher)) name.ele('Long_Name').txt(english(record.publisher));
  org.ele('Organization_URL').txt(record.catalogueUrl);
  const contact = org.ele('Personnel');
  contact.ele('Role').txt('DATA CENTER CONTACT');
  const group = contact.ele('Contact_Group');
  group.ele('Name').txt(unit);
  // DIF is read in English: each part of the address in English when the provider translated it.
  const [street, city, province, country] = [distributor.address, distributor.city, distributor.province, distributor.country].map(english);
  if (street || city || province || country) {
    const address = group.ele('Address');
    add(address, 'Street_Address', street);
    add(address, 'City', city);
    add(address, 'State_Province', province);
    add(address, 'Country', country);
  }
  if (distributor.phone) {
    const phone = group.ele('Phone');
    phone.ele('Number').txt(distributor.phone);
    phone.ele('Type').txt('Telephone');
  }
  add(group, 'Email', distributor.email);
}

/** The DIF element of a record, with the XML declaration (the OAI-PMH reply takes it off). */
export function dif10Xml(record: CitableRecord): string {
  const dif = create({ version: '1.0', encoding: 'UTF-8' }).ele(DIF_NAMESPACE, 'DIF', {
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': `${DIF_NAMESPACE} ${DIF_SCHEMA}`,
  });
  const version = String(record.version);
  const entry = dif.ele('Entry_ID');
  entry.ele('Short_Name').txt(record.id);
  entry.ele('Version').txt(version);
  const title = english(record.title);
  dif.ele('Entry_Title').txt(title);

  const citation = dif.ele('Dataset_Citation');
  const creators = record.creators.map((person) => english(person.name)).filter(Boolean);
  citation.ele('Dataset_Creator').txt(creators.length ? creators.join(', ') : english(record.publisher));
  citation.ele('Dataset_Title').txt(title);
  citation.ele('Dataset_Release_Date').txt(dayOf(record.publishedAt));
  citation.ele('Dataset_Publisher').txt(english(record.publisher));
  citation.ele('Version').txt(version);
  add(citation, 'Other_Citation_Details', english(record.citation));
  if (record.doi) {
    const identifier = citation.ele('Persistent_Identifier');
    identifier.ele('Type').txt('DOI');
    identifier.ele('Identifier').txt(atMost(record.doi, 1024));
  }
  citation.ele('Online_Resource').txt(record.url.en);

  personnel(dif, record);

  const science = gcmdKeywordsOf(record);
  for (const { topic, term } of science.length ? science : [{ topic: NOT_PROVIDED, term: NOT_PROVIDED }]) {
    const keyword = dif.ele('Science_Keywords');
    keyword.ele('Category').txt('EARTH SCIENCE');
    keyword.ele('Topic').txt(topic);
    keyword.ele('Term').txt(term);
  }
  for (const category of topicCategoriesOf(record)) dif.ele('ISO_Topic_Category').txt(category);
  const ancillary = new Set(
    record.keywords
      .filter((k) => k.type !== 'temporal')
      .flatMap((k) => [k.name.en, k.name['zh-hans']])
      .filter(Boolean),
  );
  for (const word of ancillary) dif.ele('Ancillary_Keyword').txt(word);

  // The portal records no platform or instrument: GCMD's placeholder.
  const platform = dif.ele('Platform');
  platform.ele('Type').txt(NOT_PROVIDED);
  platform.ele('Short_Name').txt(NOT_PROVIDED);
  platform.ele('Instrument').ele('Short_Name').txt(NOT_PROVIDED);

  temporalCoverage(dif, record);
  spatialCoverage(dif, record);

  const funds = record.funds.filter((fund) => fund.awardNumber || english(fund.name));
  for (const fund of funds) {
    const project = dif.ele('Project');
    project.ele('Short_Name').txt(fund.awardNumber || english(fund.name));
    if (fund.awardNumber && english(fund.name)) project.ele('Long_Name').txt(english(fund.name));
  }
  if (!funds.length) dif.ele('Project').ele('Short_Name').txt(NOT_PROVIDED);

  add(dif, 'Access_Constraints', english(record.conditionsOfAccess));
  const terms = english(record.useTerm);
  if (terms || record.license) {
    const use = dif.ele('Use_Constraints');
    if (terms) use.ele('Description').txt(atMost(terms, 4000));
    if (record.license) {
      const license = licenseFacts(record.license);
      const url = use.ele('License_URL');
      url.ele('URL').txt(license.deed);
      url.ele('Title').txt(atMost(license.name, 100));
    }
  }
  dif.ele('Dataset_Language').txt(record.language === 'en' ? 'English' : 'Chinese');
  organization(dif, record);
  if (record.files.count) {
    for (const type of record.files.mediaTypes.length ? record.files.mediaTypes : ['']) {
      const distribution = dif.ele('Distribution');
      distribution.ele('Distribution_Size').txt(`${record.files.bytes} bytes`);
      add(distribution, 'Distribution_Format', type);
    }
  }
  for (const entry of record.literature) {
    const reference = dif.ele('Reference');
    add(reference, 'Publication_Date', entry.year);
    add(reference, 'Title', english(entry.title));
    add(reference, 'Publisher', entry.publisher);
    if (entry.doi) {
      const identifier = reference.ele('Persistent_Identifier');
      identifier.ele('Type').txt('DOI');
      identifier.ele('Identifier').txt(atMost(entry.doi, 1024));
    }
    if (!entry.doi && /^https?:\/\//i.test(entry.link)) reference.ele('Online_Resource').txt(entry.link);
  }
  const summary = dif.ele('Summary');
  summary.ele('Abstract', { mime_type: 'text/plain' }).txt(english(record.abstract) || NOT_PROVIDED);
  for (const url of [...new Set([record.url.en, record.url['zh-hans']]), ...(record.doi ? [doiUrl(record.doi)] : [])]) {
    const related = dif.ele('Related_URL');
    related.ele('URL_Content_Type').ele('Type').txt('DATA SET LANDING PAGE');
    related.ele('URL').txt(url);
  }
  dif.ele('Metadata_Name').txt('CEOS IDN DIF');
  dif.ele('Metadata_Version').txt('VERSION 10.2');
  const dates = dif.ele('Metadata_Dates');
  dates.ele('Metadata_Creation').txt(dayOf(record.publishedAt));
  dates.ele('Metadata_Last_Revision').txt(dayOf(record.updatedAt));
  dates.ele('Data_Creation').txt(dayOf(record.publishedAt));
  dates.ele('Data_Last_Revision').txt(dayOf(record.updatedAt));
  // Text stored before input refused the characters XML cannot carry must not make the document ill-formed.
  return stripIllegalText(dif.end({ prettyPrint: true }));
}
