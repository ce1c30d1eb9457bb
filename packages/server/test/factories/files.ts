import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Tx } from '../../src/db/index.js';
import { FileTreeRepo } from '../../src/modules/files/file-tree.repo.js';
import { createBlobStore } from '../../src/storage/index.js';
import type { TestPortal } from '../helpers.js';

/**
 * A record's stored files as the upload routes leave them: the bytes kept by the portal's BlobStore
 * (DATA_DIR/files, under a key it makes), the row naming the key, the size and the SHA-256 of them.
 */

/** A data file: its bytes (or only its size: that many bytes of a repeated line), name and type. */
export interface FileSpec {
  /** `data.nc` for the first file of a record, `data-2.nc` for the second, ... unless given. */
  name?: string;
  content?: string | Uint8Array;
  size?: number;
  mime?: string;
  /** The folder it is in ('/a/b/'; the root unless given), made with its parents when missing. */
  path?: string;
}

/** A stored data file: its row's id and its bytes. */
export interface StoredFile {
  id: string;
  content: Buffer;
}

/** A record's thumbnail as the upload route stores it: a 16 x 16 PNG. */
export const THUMBNAIL = { name: 'thumb.png', mime: 'image/png' } as const;

let thumbnailBytes: Promise<Buffer> | undefined;
function thumbnailPng(): Promise<Buffer> {
  thumbnailBytes ??= sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 40, g: 110, b: 180 } } })
    .png()
    .toBuffer();
  return thumbnailBytes;
}

function bytesOf(spec: FileSpec): Buffer {
  if (spec.content !== undefined) return Buffer.from(spec.content);
  const line = Buffer.from('glacier mass balance 1990-2020\n');
  return Buffer.alloc(spec.size ?? line.length, line);
}

/** Keeps the bytes under a new key of the portal's own store, as an upload does. */
async function store(portal: TestPortal, content: Buffer) {
  return createBlobStore({ dataDir: portal.config.dataDir }).put(content, { maxBytes: content.length });
}

/** Writes a record's data files and thumbnail in the record's transaction, their bytes in the store. */
export class FileWriter {
  constructor(
    private readonly portal: TestPortal,
    private readonly trx: Tx,
  ) {}

  async dataFiles(metadataId: string, createdBy: string, files: (number | FileSpec)[], now: string): Promise<StoredFile[]> {
    const stored: StoredFile[] = [];
    for (const [index, file] of files.entries()) {
      const spec = typeof file === 'number' ? { size: file } : file;
      const content = bytesOf(spec);
      const blob = await store(this.portal, content);
      const id = randomUUID();
      if (spec.path && spec.path !== '/') await new FileTreeRepo(this.trx).ensureFolders(this.trx, metadataId, spec.path, createdBy, now);
      await this.trx
        .insertInto('meta_file')
        .values({
          id,
          metadata_id: metadataId,
          ...(spec.path ? { path: spec.path } : {}),
          name: spec.name ?? (index === 0 ? 'data.nc' : `data-${index + 1}.nc`),
          mime: spec.mime ?? 'application/x-netcdf',
          storage_key: blob.key,
          sha256: blob.sha256,
          size: blob.size,
          created_by: createdBy,
          created_at: now,
        })
        .execute();
      stored.push({ id, content });
    }
    return stored;
  }

  async thumbnail(metadataId: string, createdBy: string, now: string): Promise<string> {
    const blob = await store(this.portal, await thumbnailPng());
    const id = randomUUID();
    await this.trx
      .insertInto('meta_media')
      .values({
        id,
        metadata_id: metadataId,
        name: THUMBNAIL.name,
        mime: THUMBNAIL.mime,
        storage_key: blob.key,
        sha256: blob.sha256,
        type: 'thumbnail',
        resized_key: '',
        size: blob.size,
        created_by: createdBy,
        created_at: now,
      })
      .execute();
    return id;
  }
}

type Owner = string | { id: string };
const idOf = (owner: Owner) => (typeof owner === 'string' ? owner : owner.id);

/** Adds data files to an existing record (the search index and OAI-PMH feed follow); their ids and bytes. */
export async function buildDataFiles(portal: TestPortal, metadataId: string, owner: Owner, files: (number | FileSpec)[]): Promise<StoredFile[]> {
  return portal.database.db.transaction().execute(async (trx) => {
    const stored = await new FileWriter(portal, trx).dataFiles(metadataId, idOf(owner), files, new Date().toISOString());
    await portal.metadataAccess.changed(trx, [metadataId]);
    return stored;
  });
}

/** Adds one data file to an existing record; its id. */
export async function buildDataFile(portal: TestPortal, metadataId: string, owner: Owner, file: FileSpec = { name: 'glacier.nc', size: 2048 }): Promise<string> {
  const [stored] = await buildDataFiles(portal, metadataId, owner, [file]);
  return stored!.id;
}

/** Adds a thumbnail to an existing record (the search index follows); its id. */
export async function buildThumbnail(portal: TestPortal, metadataId: string, owner: Owner): Promise<string> {
  return portal.database.db.transaction().execute(async (trx) => {
    const id = await new FileWriter(portal, trx).thumbnail(metadataId, idOf(owner), new Date().toISOString());
    await portal.metadataAccess.changed(trx, [metadataId]);
    return id;
  });
}

/** Adds a document (meta_attach) to an existing record, its bytes in the store; its id. */
export async function buildAttachment(
  portal: TestPortal,
  metadataId: string,
  owner: Owner,
  file: { name: string; content: string | Uint8Array; mime: string } = { name: 'spec.pdf', content: '%PDF-1.4\n', mime: 'application/pdf' },
): Promise<string> {
  const content = Buffer.from(file.content);
  const blob = await store(portal, content);
  const id = randomUUID();
  await portal.database.db
    .insertInto('meta_attach')
    .values({
      id,
      metadata_id: metadataId,
      name: file.name,
      mime: file.mime,
      storage_key: blob.key,
      sha256: blob.sha256,
      size: blob.size,
      created_by: idOf(owner),
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}
