import {
  creditsOf,
  FUND_THIRD_POLE,
  FUND_THREE_POLE,
  KEYWORD_TYPES,
  LICENSES,
  SHARING_POLICIES,
  translate,
  type AuthorRole,
  type KeywordType,
  type Language,
  type License,
  type SiteVariant,
} from '@portal/shared';
import type { MetadataRow } from '../metadata/index.js';
import type { AttachedRows } from '../metadata/index.js';
import { canonicalUrl, uriReference } from '../landing/index.js';
import { accessRightOf, type AccessRight } from './access-right.js';

/**
 * The neutral model every export is mapped from: one published record with what a citation, a
 * catalogue or a harvester may show, in both languages. Only public facts: authors' names, roles
 * and affiliations, never their e-mail, phone or address (the distributor's contact is the data
 * centre's published contact, shown on the landing page too).
 *
 * Texts are in both languages (`''` where a language has none); `textIn` picks one with the other
 * as fallback.
 */

export type Texts = Record<Language, string>;

export interface CitablePerson {
  name: Texts;
  affiliation: Texts;
  /** The person's roles in this record, in the order of their links. */
  roles: AuthorRole[];
  /** ORCID iD as stored (`0000-0002-1825-0097`, shared rules/identifiers.ts); '' or absent when none. */
  orcid?: string;
  /** The ROR ID of the affiliation (`03yrm5c26`); '' or absent when none. */
  affiliationRor?: string;
}

export interface CitableKeyword {
  type: KeywordType;
  name: Texts;
}

export interface CitableFund {
  name: Texts;
  /** The fund's serial number; for the programme funds (5, 6), the record's sub-topic number. */
  awardNumber: string;
  isProgramme: boolean;
  /** The funder's Crossref Funder ID (`10.13039/…`) or ROR ID as stored; '' or absent when none. */
  funderIdentifier?: string;
}

export interface CitableLiterature {
  title: Texts;
  doi: string;
  link: string;
  year: string;
  publisher: string;
  /** LITERATURE_TYPES */
  type: string;
}

/** Degrees; a west longitude greater than the east one is a box across the 180th meridian. */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface CitableRecord {
  id: string;
  /** The record's own language; the other is its translation. */
  language: Language;
  /** Without the resolver prefix; '' when the record has none. */
  doi: string;
  /** The landing page in each language. */
  url: Texts;
  title: Texts;
  abstract: Texts;
  /** Data source and processing (DataCite Methods). */
  dataSource: Texts;
  /** The naming convention and use of the data files (DataCite TechnicalInfo). */
  usage: Texts;
  /** The terms of use the provider sets (ISO 19139 useLimitation, DataCite rights). */
  useTerm: Texts;
  /** The required-citation sentence the authors give. */
  citation: Texts;
  /** Everyone linked, once each, in the record's author order, with all their roles. */
  people: CitablePerson[];
  /**
   * The dataset's creators, the authors every citation and export names: the people with a creator
   * role (shared rules/creators.ts), in the record's author order. Empty: no one has such a role,
   * and the formats name the data centre (`publisher`) as the author.
   */
  creators: CitablePerson[];
  /** The people with no creator role, in the record's author order. */
  contributors: CitablePerson[];
  keywords: CitableKeyword[];
  funds: CitableFund[];
  literature: CitableLiterature[];
  license: License | null;
  /** SHARING_POLICIES, '' when not given. */
  sharingPolicy: string;
  /** The sharing policy in words ('' when not given). */
  conditionsOfAccess: Texts;
  /** PROTECTION_PERIODS, '' when none. */
  protectionPeriod: string;
  /** The day the data files become available (end of the protection period); null: at publication. */
  availableFrom: string | null;
  /** The COAR access right now (access-right.ts): open, embargoed (with its end), restricted, metadata only. */
  accessRight: AccessRight;
  /** The published version: 1, and one more for each republication with changed files or metadata (modules/doi/record-versions.ts). */
  version: number;
  temporal: { start: string; end: string; description: Texts };
  box: Box | null;
  /** ISO date-times. */
  publishedAt: string;
  updatedAt: string;
  files: { count: number; bytes: number; mediaTypes: string[] };
  /** The data centre that publishes the record (the portal's site), in each language. */
  publisher: Texts;
  /** The portal's address. */
  catalogueUrl: string;
  /** The organisation and its address (street, city, province, country) in both languages (the record's translation has them); phone and e-mail as given. */
  distributor: { unit: Texts; country: Texts; province: Texts; city: Texts; address: Texts; phone: string; email: string };
  spatialResolution: string;
  temporalResolution: string;
  projection: string;
  coordinateSystem: string;
  scale: number | null;
}

export const otherLanguage = (language: Language): Language => (language === 'en' ? 'zh-hans' : 'en');

/** The text in `language`, else in the other one. */
export const textIn = (texts: Texts, language: Language): string => texts[language] || texts[otherLanguage(language)];

/** Each language the texts have, the record's own first. */
export function inLanguages(record: Pick<CitableRecord, 'language'>, texts: Texts): { language: Language; text: string }[] {
  return [record.language, otherLanguage(record.language)].filter((language) => texts[language]).map((language) => ({ language, text: texts[language] }));
}

const HAN = /\p{Script=Han}/u;
export const hasHan = (text: string): boolean => HAN.test(text);

/**
 * A name kept in one language with translations: its own language when known, else by its script
 * (an author's name has no language of its own: Chinese characters are the Chinese name).
 */
function textsOf(own: string, ownLanguage: string | null, translations: { language: string; text: string }[]): Texts {
  const language: Language = ownLanguage === 'en' || ownLanguage === 'zh-hans' ? ownLanguage : hasHan(own) ? 'zh-hans' : 'en';
  const texts: Texts = { 'zh-hans': '', en: '' };
  texts[language] = own.trim();
  for (const t of translations) {
    if ((t.language === 'en' || t.language === 'zh-hans') && !texts[t.language]) texts[t.language] = t.text.trim();
  }
  return texts;
}

export interface SiteFacts {
  publicUrl: string;
  siteVariant: SiteVariant;
}

/** The record's box when all four sides are given. */
function boxOf(record: MetadataRow): Box | null {
  const { west, south, east, north } = record;
  if (west === null || south === null || east === null || north === null) return null;
  return { west: Number(west), south: Number(south), east: Number(east), north: Number(north) };
}

/** The model of a published record and its attached rows. */
export function citableRecordOf(record: MetadataRow, attached: AttachedRows, site: SiteFacts): CitableRecord {
  const language: Language = record.language === 'en' ? 'en' : 'zh-hans';
  const translation = attached.translations.find((t) => t.language === otherLanguage(language));
  const bilingual = (
    field:
      | 'title'
      | 'description'
      | 'data_source'
      | 'use_term'
      | 'usage_method'
      | 'citation'
      | 'time_description'
      | 'dist_unit'
      | 'dist_address'
      | 'dist_city'
      | 'dist_province'
      | 'dist_country',
  ): Texts => {
    const texts: Texts = { 'zh-hans': '', en: '' };
    texts[language] = record[field].trim();
    texts[otherLanguage(language)] = (translation?.[field] ?? '').trim();
    return texts;
  };

  // One person per author, with every role it has here, in the record's order (its links by sort number).
  const credits = creditsOf(
    attached.authors,
    (author) => author.id,
    (author) => author.role,
  );
  const people = new Map(
    credits.people.map(({ link: author, roles }): [string, CitablePerson] => [
      author.id,
      {
        name: textsOf(
          author.name,
          null,
          author.translations.map((t) => ({ language: t.language, text: t.name })),
        ),
        affiliation: textsOf(
          author.affiliation,
          null,
          author.translations.map((t) => ({ language: t.language, text: t.affiliation })),
        ),
        roles,
        orcid: author.orcid ?? '',
        affiliationRor: author.affiliation_ror ?? '',
      },
    ]),
  );
  const personOf = ({ link }: { link: { id: string } }) => people.get(link.id)!;

  const keywords = attached.keywords
    .filter((k) => (KEYWORD_TYPES as readonly string[]).includes(k.type))
    .map((k) => ({
      type: k.type as KeywordType,
      name: textsOf(
        k.name,
        k.language,
        k.translations.map((t) => ({ language: t.language, text: t.name })),
      ),
    }));

  const funds = attached.funds.map((fund): CitableFund => {
    const isProgramme = fund.id === FUND_THREE_POLE || fund.id === FUND_THIRD_POLE;
    const subtopic = fund.id === FUND_THREE_POLE ? record.subtopic_three_pole : fund.id === FUND_THIRD_POLE ? record.subtopic_third_pole : '';
    return {
      name: textsOf(fund.name, 'zh-hans', [{ language: 'en', text: fund.name_en }]),
      awardNumber: (isProgramme ? subtopic : fund.serial_number).trim(),
      isProgramme,
      funderIdentifier: fund.funder_identifier ?? '',
    };
  });

  const literature = attached.literature.map((entry): CitableLiterature => ({
    title: textsOf(entry.title, entry.language, [{ language: 'en', text: entry.title_en }, ...entry.translations.map((t) => ({ language: t.language, text: t.title }))]),
    doi: bareDoi(entry.doi),
    link: entry.link.trim(),
    year: entry.year.trim(),
    publisher: entry.publisher.trim(),
    type: entry.type,
  }));

  const path = `/data/${encodeURIComponent(record.id)}/`;
  return {
    id: record.id,
    language,
    doi: bareDoi(record.doi),
    url: { 'zh-hans': canonicalUrl(site.publicUrl, 'zh-hans', path), en: canonicalUrl(site.publicUrl, 'en', path) },
    title: bilingual('title'),
    abstract: bilingual('description'),
    dataSource: bilingual('data_source'),
    usage: bilingual('usage_method'),
    useTerm: bilingual('use_term'),
    citation: bilingual('citation'),
    people: [...people.values()],
    creators: credits.creators.map(personOf),
    contributors: credits.contributors.map(personOf),
    keywords,
    funds,
    literature,
    license: (LICENSES as readonly string[]).includes(record.license) ? (record.license as License) : null,
    sharingPolicy: record.sharing_policy,
    conditionsOfAccess: sharingWords(record.sharing_policy),
    protectionPeriod: record.protection_period,
    availableFrom: record.embargo_until ? record.embargo_until.slice(0, 10) : null,
    accessRight: accessRightOf(record, attached.files.count),
    version: Math.max(1, Number(record.version_number ?? 0)),
    temporal: { start: record.time_start, end: record.time_end, description: bilingual('time_description') },
    box: boxOf(record),
    publishedAt: record.published_at ?? record.updated_at,
    updatedAt: record.updated_at,
    files: { count: attached.files.count, bytes: attached.files.bytes, mediaTypes: attached.files.mediaTypes },
    publisher: { 'zh-hans': translate('zh-hans', `site.${site.siteVariant}.title`), en: translate('en', `site.${site.siteVariant}.title`) },
    catalogueUrl: site.publicUrl,
    distributor: {
      unit: bilingual('dist_unit'),
      country: bilingual('dist_country'),
      province: bilingual('dist_province'),
      city: bilingual('dist_city'),
      address: bilingual('dist_address'),
      phone: record.dist_phone.trim(),
      email: record.dist_email.trim(),
    },
    spatialResolution: record.spatial_resolution,
    temporalResolution: record.temporal_resolution,
    projection: record.projection,
    coordinateSystem: record.coordinate_system,
    scale: record.scale === null ? null : Number(record.scale),
  };
}

/** The catalogues' words for a sharing policy, in both languages. */
function sharingWords(policy: string): Texts {
  if (!(SHARING_POLICIES as readonly string[]).includes(policy)) return { 'zh-hans': '', en: '' };
  const key = `metadata.options.sharingPolicy.${policy}`;
  return { 'zh-hans': translate('zh-hans', key), en: translate('en', key) };
}

/** A DOI without its resolver or `doi:` prefix. */
export function bareDoi(value: string): string {
  return value.trim().replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/i, '');
}

/**
 * A DOI's address at the resolver, a valid URI (schema.org url and sameAs, DCAT and RDF IRIs, oai_dc,
 * the landing page's head and Link header): what may not stand in a URI percent-encoded by the Link
 * header's own rule (a SICI DOI holds `<` and `>`: 10.1002/(SICI)...35:4<475::AID-JBM8>3.0.CO;2-E),
 * and `%`, `#` and `?`, which would otherwise be read as an escape, a fragment or a query (the DOI
 * Handbook's encoding of a DOI in a URL).
 */
export const doiUrl = (doi: string): string => `https://doi.org/${uriReference(doi.replace(/[%#?]/g, (c) => encodeURIComponent(c)))}`;

/** A record's licence: its deed, legal code, SPDX identifier and name. */
export function licenseFacts(license: License) {
  const code = license.replace(/^CC /, '').replace(/ 4\.0$/, '');
  const words: Record<string, string> = { BY: 'Attribution', NC: 'NonCommercial', SA: 'ShareAlike', ND: 'NoDerivatives' };
  return {
    deed: `https://creativecommons.org/licenses/${code.toLowerCase()}/4.0/`,
    legalCode: `https://creativecommons.org/licenses/${code.toLowerCase()}/4.0/legalcode`,
    spdx: `CC-${code}-4.0`,
    name: `Creative Commons ${code
      .split('-')
      .map((part) => words[part])
      .join('-')} 4.0 International`,
  };
}

/** The year, and the day of an ISO date-time. */
export const yearOf = (isoTime: string): string => isoTime.slice(0, 4);
export const dayOf = (isoTime: string): string => isoTime.slice(0, 10);

/**
 * The box as one or two boxes that do not cross the 180th meridian: a box whose west side is east of
 * its east side runs from west to 180 and on from -180 to east.
 */
export function splitAtAntimeridian(box: Box): Box[] {
  if (box.west <= box.east) return [box];
  return [
    { ...box, east: 180 },
    { ...box, west: -180 },
  ];
}

/** BCP 47 tags of the portal's languages. */
export const LANGUAGE_TAGS: Record<Language, string> = { 'zh-hans': 'zh-Hans', en: 'en' };
