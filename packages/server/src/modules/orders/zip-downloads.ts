import { checkSelection, type Language } from '@portal/shared';
import { AppError } from '../../errors.js';
import { BlobNotFoundError, type BlobStore } from '../../storage/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { datasetFolders, streamZip, type ZipDownload, type ZipLog } from '../downloads/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { DownloadAccess } from './download-access.js';
import type { OrdersRepo } from './orders.repo.js';

/** A file of the zip as a download to count: its record, and the order that granted it (none for open data or the owner). */
export interface ZippedFile {
  metadata_id: string;
  id: string;
  order: string | null;
}

/**
 * A selection of data files as one zip with its manifests (spec section 9): every file's record must
 * be one the caller may download (DownloadAccess), and the selection within the browser's limits
 * (`checkSelection`, the rule the download page checks too).
 */
export class ZipDownloads {
  constructor(
    private readonly repo: OrdersRepo,
    private readonly downloads: DownloadAccess,
    private readonly access: MetadataAccess,
    private readonly storage: BlobStore,
  ) {}

  /** The zip of these files in the order asked for, and the downloads to count once it is on its way. */
  async selection(user: AuthenticatedUser | null, fileIds: readonly string[], language: Language, log: ZipLog): Promise<{ zip: ZipDownload; files: ZippedFile[] }> {
    const wanted = [...new Set(fileIds)];
    const files = await this.repo.dataFiles(wanted);
    if (files.length !== wanted.length) throw new AppError('NOT_FOUND', 'errors.notFound');
    const grants = new Map<string, string | null>();
    const titles = await this.repo.datasets(this.repo.db, [...new Set(files.map((f) => f.metadata_id))]);
    for (const metadataId of titles.keys()) {
      const record = await this.access.readable(user, metadataId);
      grants.set(metadataId, (await this.downloads.assert(user, record)).order);
    }
    const problem = checkSelection(files.map((f) => ({ size: Number(f.size) })));
    if (problem) throw new AppError('VALIDATION_FAILED', `orders.${problem}`);
    // In the order asked for; each dataset's files in a folder of its own, named after its title in the caller's language, at their paths in its tree.
    const byId = new Map(files.map((f) => [f.id, f]));
    const folders = datasetFolders(
      wanted.map((id) => {
        const metadataId = byId.get(id)!.metadata_id;
        const dataset = titles.get(metadataId);
        return { id: metadataId, title: language === 'en' ? dataset?.title_en : dataset?.title };
      }),
    );
    const entries = wanted.map((id) => {
      const file = byId.get(id)!;
      return {
        path: `${folders.get(file.metadata_id)}${file.path}${file.name}`,
        size: Number(file.size),
        sha256: file.sha256,
        storage_key: file.storage_key,
        mtime: file.created_at,
      };
    });
    const zip = await streamZip(entries, this.storage, log).catch((error: unknown) => {
      // A file whose bytes are gone: a clear refusal, never a zip without it (the store logged which).
      if (error instanceof BlobNotFoundError) throw new AppError('NOT_FOUND', 'errors.notFound');
      throw error;
    });
    return { zip, files: files.map((file) => ({ metadata_id: file.metadata_id, id: file.id, order: grants.get(file.metadata_id) ?? null })) };
  }
}
