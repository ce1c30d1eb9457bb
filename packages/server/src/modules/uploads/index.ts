/**
 * The uploads module's one face (issue 19): uploads that resume, by the spec's chunked protocol and by
 * tus 1.0. It owns `uploads` and `upload_chunks` and the storage's upload area; a finished upload's
 * blob is handed to the files module (StoredBlobReceiver: FilesService.addStoredBlob), which lists it.
 */
export { UploadsService, LARGEST_UPLOAD_BYTES, type StoredBlobReceiver, type UploadsOptions } from './uploads.service.js';
export { UploadsRepo } from './uploads.repo.js';
export { ChunkedUploads } from './chunked.js';
export { TusUploads } from './tus.js';
export { uploadsRoutes } from './uploads.routes.js';
