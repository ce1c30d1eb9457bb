import type { Generated } from 'kysely';

/** Columns every attached row has; `created_by` is null once its user is gone. */
export interface Created {
  created_by: string | null;
  created_at: string;
}

export interface MetadataTable {
  id: string;
  owner_id: string;
  status: string;
  language: string;
  title: string;
  article_name: string;
  article_publication: string;
  category: string;
  platform: string;
  source_project: string;
  data_series: string;
  description: string;
  data_source: string;
  use_term: string;
  usage_method: string;
  citation: string;
  doi: string;
  doi_category: string;
  protection_period: string;
  protection_description: string;
  time_start: string;
  time_end: string;
  time_description: string;
  coordinate_system: string;
  projection: string;
  license: string;
  temporal_resolution: string;
  spatial_resolution: string;
  subtopic_three_pole: string;
  subtopic_third_pole: string;
  dist_unit: string;
  dist_country: string;
  dist_province: string;
  dist_city: string;
  dist_address: string;
  dist_phone: string;
  dist_email: string;
  sharing_policy: string;
  submitting_type: string;
  file_size: number | null;
  east: number | null;
  south: number | null;
  west: number | null;
  north: number | null;
  /** bigint: a string on PostgreSQL, read it through Number(). */
  scale: number | string | null;
  hit_count: Generated<number>;
  download_count: Generated<number>;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  published_at: string | null;
  /** The project leaders' step (TOPIC_REVIEW_STATES): '' when the record has none. */
  topic_review_status: Generated<string>;
  is_pre_review: Generated<number>;
  /** 0 until experts are first invited; each resubmission that goes back to them adds one. */
  review_round: Generated<number>;
  published_without_review: Generated<number>;
  unpublish_reason: Generated<string>;
  /** When the data files become available (published_at plus the protection period); null at once. */
  embargo_until: string | null;
  /** Migration 0013: the published version (0 never published), its content's hash, the publication it was counted at. */
  version_number: Generated<number>;
  version_fingerprint: Generated<string>;
  version_published_at: string | null;
  /** Migration 0013: the COAR access right last exported (ACCESS_RIGHTS), '' before. */
  access_right: Generated<string>;
}

export interface MetadataI18nTable {
  id: string;
  metadata_id: string;
  language: string;
  title: string;
  description: string;
  data_source: string;
  use_term: string;
  usage_method: string;
  citation: string;
  time_description: string;
  /** The distributor's organisation and address in this language (0011). */
  dist_unit: string;
  dist_address: string;
  /** The distributor's city, province and country in this language (0015). */
  dist_city: string;
  dist_province: string;
  dist_country: string;
}

export interface AuthorTable extends Created {
  id: string;
  name: string;
  email: string;
  affiliation: string;
  phone: string;
  address: string;
  country: string;
  province: string;
  city: string;
  zipcode: string;
  /** ORCID iD, '' when not given (migration 0014). */
  orcid: Generated<string>;
  /** ROR ID of the affiliation, '' when not given. */
  affiliation_ror: Generated<string>;
}

export interface AuthorI18nTable {
  id: string;
  author_id: string;
  language: string;
  name: string;
  affiliation: string;
  address: string;
}

export interface MetaAuthorTable {
  id: string;
  metadata_id: string;
  author_id: string;
  role: string;
  event_date: string;
  sort: number;
}

export interface LiteratureTable extends Created {
  id: string;
  title: string;
  title_en: string;
  type: string;
  year: string;
  publisher: string;
  link: string;
  language: string;
  doi: string;
  ris: string;
  abstract: string;
  comment: string;
  reference_type: string;
  sort: number;
}

export interface LiteratureI18nTable {
  id: string;
  literature_id: string;
  language: string;
  title: string;
  publisher: string;
  abstract: string;
}

export interface CitationTable {
  id: string;
  metadata_id: string;
  literature_id: string;
  sort: number;
}

export interface KeywordTable extends Created {
  id: string;
  name: string;
  type: string;
  language: string;
}

export interface KeywordI18nTable {
  id: string;
  keyword_id: string;
  language: string;
  name: string;
}

export interface MetaKeywordTable {
  id: string;
  metadata_id: string;
  keyword_id: string;
}

export interface KeywordStandardTable {
  id: string;
  parent_id: string | null;
  code: string;
  name: string;
  name_en: string;
  sort: number;
}

export interface MetaKeywordStandardTable {
  id: string;
  metadata_id: string;
  keyword_standard_id: string;
}

export interface MetaDisciplineTable {
  id: string;
  metadata_id: string;
  keyword_standard_id: string;
  number: number;
  theme1: string;
  theme2: string;
  theme3: string;
  element1: string;
  element2: string;
  element3: string;
}

export interface FundTable extends Created {
  id: string;
  name: string;
  name_en: string;
  serial_number: string;
  principal: string;
  phone: string;
  email: string;
  is_core: number;
  /** Crossref Funder ID or ROR ID of the funder, '' when not given (migration 0014). */
  funder_identifier: Generated<string>;
}

export interface MetaFundTable {
  id: string;
  metadata_id: string;
  fund_id: string;
}

export interface NamedTable extends Created {
  id: string;
  name: string;
  name_en: string;
}

export interface AffiliationTable extends NamedTable {
  /** ROR ID, '' when not given (migration 0014). */
  ror: Generated<string>;
}

export interface ProjectTable extends NamedTable {
  abbreviation: string;
}

export interface ProgramTable extends NamedTable {
  code: string;
}

export interface SpecialTable extends NamedTable {
  description: string;
}

export interface SpecialManagerTable {
  id: string;
  special_id: string;
  user_id: string;
}

export interface MetaSpecialTable {
  id: string;
  metadata_id: string;
  special_id: string;
}

export interface OnlineResourceTable extends Created {
  id: string;
  metadata_id: string;
  name: string;
  url: string;
  description: string;
}

/** The metadata module's tables: the record, its translations, the attached rows and the shared entries they link (modules/metadata writes them; migration 0002 and later). */
export interface MetadataTables {
  metadata: MetadataTable;
  metadata_i18n: MetadataI18nTable;
  authors: AuthorTable;
  author_i18n: AuthorI18nTable;
  meta_author: MetaAuthorTable;
  literature: LiteratureTable;
  literature_i18n: LiteratureI18nTable;
  citations: CitationTable;
  keywords: KeywordTable;
  keyword_i18n: KeywordI18nTable;
  meta_keyword: MetaKeywordTable;
  keyword_standards: KeywordStandardTable;
  meta_keyword_standard: MetaKeywordStandardTable;
  meta_discipline: MetaDisciplineTable;
  funds: FundTable;
  meta_fund: MetaFundTable;
  projects: ProjectTable;
  programs: ProgramTable;
  specials: SpecialTable;
  special_managers: SpecialManagerTable;
  meta_special: MetaSpecialTable;
  affiliations: AffiliationTable;
  online_resources: OnlineResourceTable;
}
