import path from 'node:path';
import { LocalDiskStore } from './local-disk-store.js';

export * from './blob-store.js';
export { LocalDiskStore } from './local-disk-store.js';

/** The store of uploaded files: `DATA_DIR/files` on the local disk. */
export function createBlobStore(options: { dataDir: string }): LocalDiskStore {
  return new LocalDiskStore(path.join(options.dataDir, 'files'));
}
export * from './upload-area.js';
