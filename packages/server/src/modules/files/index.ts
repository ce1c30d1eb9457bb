/**
 * The files module's one face. It owns the stored files of records (`meta_file`, `meta_attach`,
 * `meta_media`) and their blobs; the record's row it touches and locks through the metadata module
 * (MetadataAccess.lockFor). Other modules read stored files through StoredFiles.
 */
export { FilesService, mediaImagePath, type IncomingFile, type OpenedFile } from './files.service.js';
export type { FileKind, MediaRow, StoredFileRow, Slice } from './files.repo.js';
export { StoredFiles, type TreeFileRow } from './stored-files.js';
export type { TreeRow } from './file-tree.repo.js';
export type { FolderPage, StoredBlobInput, StoredBlobItem } from './file-tree.service.js';
export { filesRoutes } from './files.plugin.js';
