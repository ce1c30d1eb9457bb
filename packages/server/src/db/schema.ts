import type { Generated } from 'kysely';

/**
 * Table types. One schema serves SQLite and PostgreSQL: ids are random text, booleans are
 * integers 0/1, times are ISO-8601 text (they sort and compare as text on both).
 */
export interface UserTable {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  realname: string;
  phone: string;
  address: string;
  affiliation: string;
  zipcode: string;
  specialty: string;
  is_staff: number;
  is_project: number;
  is_active: number;
  /** The language of the user's mails: that of their last sign-in, unless they chose one (issue 16). */
  language: string;
  /** 1 once the user chose their mail language in Settings: signing in no longer changes it. */
  mail_language_chosen: number;
  date_joined: string;
  last_login: string | null;
}

export interface AuthTokenTable {
  key_hash: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
}

export interface AccountLinkTable {
  key_hash: string;
  user_id: string;
  purpose: 'activate' | 'reset';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface CaptchaTable {
  id: string;
  answer: string;
  expires_at: string;
}

export interface RateLimitTable {
  key: string;
  count: Generated<number>;
  /** Epoch milliseconds; bigint on PostgreSQL, so read it through Number(). */
  reset_at: number | string;
}

export interface Database extends MetadataDatabase, OrdersDatabase, DoiDatabase {
  users: UserTable;
  auth_tokens: AuthTokenTable;
  account_links: AccountLinkTable;
  captchas: CaptchaTable;
  rate_limits: RateLimitTable;
}

/** Columns every attached row has; `created_by` is null once its user is gone. */
interface Created {
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

/** One invited expert's review of a record in one round. */
export interface ReviewTable {
  id: string;
  metadata_id: string;
  expert_id: string;
  round: number;
  /** EXPERT_REVIEW_STATES */
  status: string;
  content: string;
  signed: number;
  after_modification: number;
  deadline: string;
  message: string;
  invited_by: string | null;
  created_at: string;
  opened_at: string | null;
  answered_at: string | null;
  reminded_at: string | null;
}

/** The record as submitted for a round of review (migration 0010): JSON of recordSnapshotSchema. */
export interface ReviewSnapshotTable {
  id: string;
  metadata_id: string;
  round: number;
  snapshot: string;
  created_at: string;
}

/** The audit trail: every step of the workflow, who took it and when. */
export interface ReviewEventTable {
  id: string;
  metadata_id: string;
  actor_id: string | null;
  role: string;
  action: string;
  from_status: string;
  to_status: string;
  comment: string;
  review_id: string | null;
  created_at: string;
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

/** A stored file of a record: its blob lives in the storage under `storage_key`. */
export interface StoredFileTable extends Created {
  id: string;
  metadata_id: string;
  name: string;
  mime: string;
  storage_key: string;
  sha256: string;
  /** bigint: a string on PostgreSQL. */
  size: number | string;
}

export interface MetaMediaTable extends StoredFileTable {
  type: string;
  resized_key: string;
}

export interface OnlineResourceTable extends Created {
  id: string;
  metadata_id: string;
  name: string;
  url: string;
  description: string;
}

/** The public catalogue's index (migration 0004): one entry per published record. */
export interface SearchEntryTable {
  doc: Generated<number>;
  metadata_id: string;
  title_zh: string;
  title_en: string;
  language: string;
  license: string;
  sharing: string;
  temporal_resolution: string;
  year: string;
  published_at: string;
  time_start: string;
  time_end: string;
  west: number | null;
  south: number | null;
  east: number | null;
  north: number | null;
  hit_count: Generated<number>;
  download_count: Generated<number>;
  /** The index version that wrote it (bigint: read it through Number()). */
  version: number | string;
}

/** PostgreSQL only: an entry's tokens (tsvector). SQLite keeps them in the search_fts table. */
export interface SearchWordsTable {
  doc: number | string;
  tokens: unknown;
  /** The tokens of the title and of the keywords alone, for relevance (search.repo.ts). */
  title_tokens: unknown;
  keys_tokens: unknown;
}

export interface SearchStateTable {
  id: number;
  version: number | string;
  epoch: string;
}

export interface SearchRemovedTable {
  doc: number | string;
  version: number | string;
}

export interface SearchFacetTable {
  doc: number;
  facet: string;
  value: string;
  label_zh: string;
  label_en: string;
}

export interface RecordViewTable {
  metadata_id: string;
  visitor: string;
  viewed_at: string;
}

export interface MetadataDatabase {
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
  reviews: ReviewTable;
  review_events: ReviewEventTable;
  review_snapshots: ReviewSnapshotTable;
  affiliations: AffiliationTable;
  meta_media: MetaMediaTable;
  meta_attach: StoredFileTable;
  meta_file: StoredFileTable;
  online_resources: OnlineResourceTable;
  search_entries: SearchEntryTable;
  search_words: SearchWordsTable;
  search_facets: SearchFacetTable;
  search_state: SearchStateTable;
  search_removed: SearchRemovedTable;
  record_views: RecordViewTable;
  oai_items: OaiItemTable;
  oai_item_sets: OaiItemSetTable;
  oai_sets: OaiSetTable;
  server_secrets: ServerSecretTable;
}

/** A record in the OAI-PMH feed (every record ever published; see migration 0005). */
export interface OaiItemTable {
  metadata_id: string;
  /** `YYYY-MM-DDThh:mm:ssZ`. */
  datestamp: string;
  deleted: number;
  has_doi: number;
}

export interface OaiItemSetTable {
  spec: string;
  metadata_id: string;
  datestamp: string;
}

export interface OaiSetTable {
  spec: string;
  name_zh: string;
  name_en: string;
}

export interface ServerSecretTable {
  name: string;
  value: string;
}

/** Orders and downloads (migration 0006). */
export interface CartLineTable {
  id: string;
  user_id: string;
  metadata_id: string;
  created_at: string;
}

export interface ApplicationTable {
  id: string;
  applicant_id: string;
  real_name: string;
  email: string;
  phone: string;
  zipcode: string;
  affiliation: string;
  address: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  reason: string;
  ip: string;
  /** The applicant's language when applying: its mails use the account's mail language, this one once the account is gone. */
  language: string;
  created_at: string;
}

export interface OrderTable {
  id: string;
  application_id: string;
  applicant_id: string;
  /** Who decides: `online` (granted at once), `center` (the data centre's staff), `owner` (owner_id). */
  handler: string;
  owner_id: string | null;
  status: string;
  decision_reason: string;
  decided_by: string | null;
  decided_at: string | null;
  expires_at: string | null;
  reminded_at: string | null;
  voucher_code: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderLineTable {
  id: string;
  order_id: string;
  metadata_id: string;
}

export interface UsageDayTable {
  metadata_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  kind: 'view' | 'download' | 'order';
  /** ISO 3166-1 alpha-2, or '' when unknown. */
  country: string;
  count: number;
}

export interface RecentDownloadTable {
  file_id: string;
  visitor: string;
  downloaded_at: string;
}

/** The outbox of orders' mails (migration 0007): written with the order, sent and retried by the sender. */
export interface OrderMailTable {
  id: string;
  order_id: string;
  /** request, decision or overdue. */
  kind: string;
  /** The To header: one address, or the owner's and the distribution addresses joined by ', '. */
  recipient: string;
  subject: string;
  body: string;
  /** pending, sent, or failed (given up). */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string;
  created_at: string;
  sent_at: string | null;
}

/** A DOI the portal minted and the outbox of its registration with DataCite (migration 0012). */
export interface DoiRegistrationTable {
  doi: string;
  metadata_id: string;
  /** findable (the record is published) or registered (withdrawn: a findable DOI cannot be deleted). */
  wanted: string;
  /** What DataCite last answered: '' (never registered), findable or registered. */
  state: string;
  /** pending, done, or failed (given up). */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_attempt_at: string | null;
  /** The HTTP status of the last failure; 0 when DataCite did not answer (timeout, network). */
  last_status: number;
  /** The last failure: DataCite's `errors[]` as JSON, or the network error's message. */
  last_error: string;
  created_at: string;
  registered_at: string | null;
}

export interface DoiSequenceTable {
  pattern: string;
  last_number: number;
}

export interface OrdersDatabase {
  cart_lines: CartLineTable;
  applications: ApplicationTable;
  orders: OrderTable;
  order_lines: OrderLineTable;
  usage_days: UsageDayTable;
  recent_downloads: RecentDownloadTable;
  order_mails: OrderMailTable;
}

export interface DoiDatabase {
  doi_registrations: DoiRegistrationTable;
  doi_sequence: DoiSequenceTable;
}
