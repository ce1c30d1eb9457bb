/**
 * The metadata module's one face: what other modules and app.ts may use. The module owns the
 * `metadata` table, its translations (`metadata_i18n`), the attached rows (`meta_*`, `citations`,
 * `online_resources`) and the shared entries they link (authors, literature, keywords, funds,
 * keyword standards, programs, topics and their managers, projects, affiliations): only its repos
 * write them. Other modules hear of record changes through its events (record-events.ts).
 */
export { MetadataService, presentRecord, type PresentedRecord, type OwnerNames, type ApplicationUserType } from './metadata.service.js';
export { MetadataAccess, orNotFound, type MetadataRow } from './metadata-access.js';
export {
  authorize,
  assertAuthorized,
  factsNeeded,
  isCreatorOrStaff,
  invitationStands,
  expertMayRead,
  reviewRoles,
  assertOrderable,
  storageQuotaApplies,
  EXPERT_VISIBLE_STATUSES,
  type RecordAction,
  type RecordFacts,
  type Decision,
  type PolicyRecord,
} from './record-policy.js';
export { RecordEvents, type RecordChangeListener, type RecordEvent, type RecordEventMap } from './record-events.js';
export { readAttached, type AttachedRows, type AttachedAuthor, type AttachedKeyword, type AttachedLiterature } from './attached-rows.js';
export { titleMatches, translationTitle } from './metadata.repo.js';
export type { RecordValues } from './metadata-writes.repo.js';
export { ResourceService } from './resources.service.js';
export { RESOURCES, type ResourceDef } from './resources.js';
export { metadataRoutes } from './metadata.routes.js';
export { RecordImport, type ImportedTable } from './record-import.js';
export { EMPTY_RECORD_FIELDS, EMPTY_TRANSLATION_FIELDS } from './metadata-writes.repo.js';
