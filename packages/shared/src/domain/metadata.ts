/**
 * The metadata record's option lists, statuses and limits (spec sections 3, 4, 5 and 9).
 * Values are stable identifiers stored in the database; the catalogues word them
 * (`metadata.options.<list>.<value>`).
 */

/** Spec section 4. A record starts as a draft; submitting moves it to submitted. */
export const METADATA_STATUSES = ['draft', 'submitted', 'receive', 'invited', 'underReview', 'approved', 'published', 'NotPublished', 'cancelled', 'refuse'] as const;
export type MetadataStatus = (typeof METADATA_STATUSES)[number];

/** Statuses the lists of the personal centre show: in review is everything between submitted and the verdict. */
export const IN_REVIEW_STATUSES = ['submitted', 'receive', 'invited', 'underReview', 'approved'] as const satisfies readonly MetadataStatus[];
/** Statuses from which the creator may take the record back to draft (Return to Draft): until an expert opened the review (the workflow's return_to_draft). */
export const RETURNABLE_STATUSES = ['submitted', 'receive', 'invited'] as const satisfies readonly MetadataStatus[];

export const LICENSES = ['CC BY 4.0', 'CC BY-SA 4.0', 'CC BY-ND 4.0', 'CC BY-NC 4.0', 'CC BY-NC-SA 4.0', 'CC BY-NC-ND 4.0'] as const;
export type License = (typeof LICENSES)[number];
/** Catalogue key of a licence's label (`metadata.options.license.BY-SA`): keys hold no dots. */
export const licenseLabelKey = (license: string) => `metadata.options.license.${license.replace(/^CC /, '').replace(/ 4\.0$/, '')}`;
/** The licence's deed at creativecommons.org (`CC BY-NC-SA 4.0` -> `https://creativecommons.org/licenses/by-nc-sa/4.0/`); undefined for any other text. */
export function licenseUrl(license: string): string | undefined {
  if (!(LICENSES as readonly string[]).includes(license)) return undefined;
  return `https://creativecommons.org/licenses/${license
    .replace(/^CC /, '')
    .replace(/ 4\.0$/, '')
    .toLowerCase()}/4.0/`;
}

export const TEMPORAL_RESOLUTIONS = ['hourly', 'daily', 'monthly', 'yearly', '1-10years', '10-100years', '100-1000years', 'over1000years'] as const;

/** Served by /metadata/projections/. The spec's list also shows `{token}`, a placeholder left in its text, not a projection. */
export const PROJECTIONS = [
  'WGS84',
  'Albers',
  'UTM',
  'Lambert_Conformal_Conic',
  'Lambert_Azimuthal_Equal_Area',
  'Transverse_Mercator',
  'Beijing1954',
  'GCS_Xian_1980',
  'South_Pole_Stereographic',
  'North_Pole_Stereographic',
  'World_Sinusoidal',
] as const;

export const DOI_CATEGORIES = ['own', 'exist', 'public'] as const;
export const PROTECTION_PERIODS = ['halfYear', 'oneYear', 'twoYears'] as const;
export const SHARING_POLICIES = ['online', 'offlineCenter', 'offlineEmail'] as const;
export const SUBMITTING_TYPES = ['general', 'paper', 'project'] as const;

/** Role types of a data resource provider / author (spec section 3). */
export const AUTHOR_ROLES = [
  'resourceProvider',
  'manager',
  'owner',
  'distributor',
  'producer',
  'contactParty',
  'principalInvestigator',
  'processor',
  'publisher',
  'metadataAuthor',
] as const;
export type AuthorRole = (typeof AUTHOR_ROLES)[number];
/** The Data Resource Providers tab lists this role; Author Information lists the others. */
export const PROVIDER_ROLE: AuthorRole = 'resourceProvider';

export const LITERATURE_TYPES = ['citation', 'reference', 'related', 'application', 'special', 'other'] as const;

/**
 * Formats of a published record's export (`GET /api/metadata/metadata/{id}/export/?format=`): DataCite
 * 4.5 XML, ISO 19139 XML, DCAT and schema.org JSON-LD, RIS, BibTeX, CSL-JSON, and the citation as
 * text in the APA and GB/T 7714-2015 styles.
 */
export const EXPORT_FORMATS = ['datacite', 'iso19139', 'dcat', 'turtle', 'rdfxml', 'schemaorg', 'ris', 'bibtex', 'csl', 'apa', 'gbt7714'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const KEYWORD_TYPES = ['discipline', 'place', 'temporal', 'theme'] as const;
export type KeywordType = (typeof KEYWORD_TYPES)[number];

/** Media kinds; the editor's Thumbnail tab keeps one `thumbnail`. */
export const MEDIA_TYPES = ['thumbnail'] as const;

/** Fund ids of spec section 9 whose records need a subtopic number. */
export const FUND_THREE_POLE = '5';
export const FUND_THIRD_POLE = '6';

/** Programme codes of spec section 9: each has child projects. */
export const PROGRAM_CODES = ['XDA20', 'XDA19', 'ZKK'] as const;

export const METADATA_LIMITS = {
  abstractMinLength: 200,
  keywordsMin: 3,
  fundsMax: 3,
  dataFilesMax: 5,
  dataFileMaxBytes: 200 * 1024 * 1024,
  /** Specification documents attached to a record; the spec gives no count, this keeps a record sane. */
  attachmentsMax: 20,
  attachmentMaxBytes: 50 * 1024 * 1024,
  thumbnailMaxBytes: 1024 * 1024,
  /** Longest side of the resized copy of a thumbnail. */
  thumbnailResizedSide: 400,
  /** Files above this must be compressed before upload (spec section 5); shown as advice. */
  compressAboveBytes: 50 * 1024 ** 3,
  /** Below this many characters the editor asks whether the description is complete. */
  shortDescriptionChars: 400,
  listPageSize: 100,
  programPageSize: 1000,
} as const;

/** Image kinds a thumbnail may be: never SVG (scripts) or anything a browser would render as a page. */
export const THUMBNAIL_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
