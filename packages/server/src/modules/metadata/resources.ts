import type { ResourceDef } from './resource-def.js';
import { citation, metaAuthor, metadataI18n, metaDiscipline, metaFund, metaKeyword, metaKeywordStandard, metaSpecial, onlineResource } from './resources-record.js';
import {
  affiliation,
  author,
  authorI18n,
  fund,
  keyword,
  keywordI18n,
  keywordStandard,
  literature,
  literatureI18n,
  program,
  project,
  special,
  specialManage,
} from './resources-shared.js';

export type { Filter, Owner, Reference, ResourceDef } from './resource-def.js';

/**
 * The entities attached to a record, served by one generic set of routes (in metadata.routes.ts),
 * declared in resources-record.ts (a record's own rows) and resources-shared.ts (shared entries and
 * vocabularies); resource-def.ts says what a declaration holds and who may change what.
 */
export const RESOURCES: ResourceDef[] = [
  metadataI18n,
  author,
  authorI18n,
  metaAuthor,
  literature,
  literatureI18n,
  citation,
  keyword,
  keywordI18n,
  metaKeyword,
  keywordStandard,
  metaKeywordStandard,
  metaDiscipline,
  fund,
  metaFund,
  project,
  program,
  special,
  specialManage,
  metaSpecial,
  affiliation,
  onlineResource,
];

/** Tables whose rows carry `created_by` / `created_at`. */
export const CREATED_TABLES = new Set(['authors', 'literature', 'keywords', 'funds', 'projects', 'programs', 'specials', 'affiliations', 'online_resources']);
