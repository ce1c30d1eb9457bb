/**
 * The archive module's one face (issue 19, whole datasets): a published record's whole-dataset archive
 * (`ArchiveService`, owning `archives`, migration 0019, and the archives' blobs) and an order's signed
 * HTTP index of its datasets' trees (`HttpIndex`), with their routes.
 */
export { ArchiveService, archiveDownloadPath, fingerprintOf, type ArchiveOptions } from './archive.service.js';
export { ArchiveRepo } from './archive.repo.js';
export { HttpIndex, INDEX_BASE, INDEX_CUT_DIRS } from './http-index.js';
export { archiveRoutes } from './archive.routes.js';
