import { sql, type Insertable, type Selectable } from 'kysely';
import type { FileOrdering } from '@portal/shared';
import { newId, type Db, type Tx } from '../../db/index.js';
import type { DataFileTable, MetaFolderTable } from '../../db/schema.js';
import type { Slice } from './files.repo.js';

export type DataFileRow = Selectable<DataFileTable>;
export type FolderRow = Selectable<MetaFolderTable>;
/** An entry of a folder: a data file, or a folder (`folder: true`). */
export type TreeRow = { folder: false; row: DataFileRow } | { folder: true; row: FolderRow };

/** The path of what a folder holds: '/a/' + 'b' -> '/a/b/'. */
export function innerPath(folder: { path: string; name: string }): string {
  return `${folder.path}${folder.name}/`;
}

/** Rows whose path is `prefix` or lies under it (the prefix ends with '/'): a folder's whole content. */
function under(prefix: string) {
  return sql<boolean>`substr(path, 1, ${[...prefix].length}) = ${prefix}`;
}

const opposite = (direction: 'asc' | 'desc') => (direction === 'asc' ? 'desc' : 'asc');

const COLUMNS = { name: 'name', size: 'size', modified: 'modified_at' } as const;

/**
 * The SQL of a record's file tree: files (`meta_file`, with `path`) and folders (`meta_folder`).
 * A folder lists its folders first, then its files, each sorted by the ordering asked for (folders by
 * name when sorted by size); ties by id. Every write runs in the caller's transaction, after the
 * record's lock (MetadataAccess.lockFor), so that a name is checked and taken at once.
 */
export class FileTreeRepo {
  constructor(readonly db: Db) {}

  /** Whether the folder exists ('/' always does). */
  async folderExists(db: Db, metadataId: string, path: string): Promise<boolean> {
    if (path === '/') return true;
    const inner = path.slice(0, -1);
    const at = inner.lastIndexOf('/');
    const row = await db
      .selectFrom('meta_folder')
      .select('id')
      .where('metadata_id', '=', metadataId)
      .where('path', '=', inner.slice(0, at + 1))
      .where('name', '=', inner.slice(at + 1))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The file or folder of that name in that folder. */
  async entry(db: Db, metadataId: string, path: string, name: string): Promise<TreeRow | undefined> {
    const file = await db.selectFrom('meta_file').selectAll().where('metadata_id', '=', metadataId).where('path', '=', path).where('name', '=', name).executeTakeFirst();
    if (file) return { folder: false, row: file };
    const folder = await db.selectFrom('meta_folder').selectAll().where('metadata_id', '=', metadataId).where('path', '=', path).where('name', '=', name).executeTakeFirst();
    return folder ? { folder: true, row: folder } : undefined;
  }

  /** The file or folder with this id in the record. */
  async entryById(db: Db, metadataId: string, id: string): Promise<TreeRow | undefined> {
    const file = await db.selectFrom('meta_file').selectAll().where('metadata_id', '=', metadataId).where('id', '=', id).executeTakeFirst();
    if (file) return { folder: false, row: file };
    const folder = await db.selectFrom('meta_folder').selectAll().where('metadata_id', '=', metadataId).where('id', '=', id).executeTakeFirst();
    return folder ? { folder: true, row: folder } : undefined;
  }

  /**
   * One page of a folder, with the count of its entries and the bytes of its files: the files' count
   * and bytes are the folder's row of `meta_file_totals` (kept by triggers, migration 0020), never summed here.
   */
  async page(metadataId: string, path: string, ordering: FileOrdering, slice: Slice): Promise<{ count: number; bytes: number; rows: TreeRow[] }> {
    const direction = ordering.startsWith('-') ? 'desc' : 'asc';
    const column = COLUMNS[ordering.replace('-', '') as keyof typeof COLUMNS];
    const folderColumn = column === 'size' ? 'name' : column;
    const [folders, files] = await Promise.all([
      this.db
        .selectFrom('meta_folder')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('metadata_id', '=', metadataId)
        .where('path', '=', path)
        .executeTakeFirstOrThrow(),
      this.db.selectFrom('meta_file_totals').select(['files as count', 'bytes']).where('metadata_id', '=', metadataId).where('path', '=', path).executeTakeFirst(),
    ]);
    const folderCount = Number(folders.count);
    const rows: TreeRow[] = [];
    if (slice.offset < folderCount) {
      const found = await this.db
        .selectFrom('meta_folder')
        .selectAll()
        .where('metadata_id', '=', metadataId)
        .where('path', '=', path)
        .orderBy(folderColumn, direction)
        .orderBy('id', direction)
        .offset(slice.offset)
        .limit(slice.limit)
        .execute();
      rows.push(...found.map((row) => ({ folder: true as const, row })));
    }
    const fileCount = Number(files?.count ?? 0);
    const skipped = Math.max(0, slice.offset - folderCount);
    const wanted = Math.min(slice.limit - rows.length, fileCount - skipped);
    if (wanted > 0) {
      // The page's ids from the index alone, then their rows: the skipped rows are never read. A page
      // in the folder's second half is counted from its end (the index read backwards): half the steps.
      const fromEnd = skipped > fileCount / 2;
      let ids = this.db
        .selectFrom('meta_file')
        .select('id')
        .where('metadata_id', '=', metadataId)
        .where('path', '=', path)
        .orderBy(column, fromEnd ? opposite(direction) : direction);
      // A name is unique in its folder: no tie to break, and PostgreSQL reads the name index in order without sorting it again by id.
      if (column !== 'name') ids = ids.orderBy('id', fromEnd ? opposite(direction) : direction);
      ids = ids.offset(fromEnd ? fileCount - skipped - wanted : skipped).limit(wanted);
      const found = await this.db.selectFrom('meta_file').selectAll().where('id', 'in', ids).orderBy(column, direction).orderBy('id', direction).execute();
      rows.push(...found.map((row) => ({ folder: false as const, row })));
    }
    return { count: folderCount + fileCount, bytes: Number(files?.bytes ?? 0), rows };
  }

  /** The folders of `path` ('/a/b/': '/a/' and '/a/b/') that do not exist yet, made; the root is no row. */
  async ensureFolders(trx: Tx, metadataId: string, path: string, createdBy: string | null, now: string): Promise<void> {
    const segments = path.split('/').filter((segment) => segment !== '');
    let parent = '/';
    for (const name of segments) {
      const existing = await this.entry(trx, metadataId, parent, name);
      if (!existing)
        await trx
          .insertInto('meta_folder')
          .values({ id: newId(), metadata_id: metadataId, path: parent, name, created_by: createdBy, created_at: now, modified_at: now })
          .execute();
      else if (!existing.folder) throw new NameTaken();
      parent = `${parent}${name}/`;
    }
  }

  insertFolder(trx: Tx, row: Insertable<MetaFolderTable>) {
    return trx.insertInto('meta_folder').values(row).execute();
  }

  insertFile(trx: Tx, row: Insertable<DataFileTable>) {
    return trx.insertInto('meta_file').values(row).execute();
  }

  /** Several files in one statement. */
  async insertFiles(trx: Tx, rows: Insertable<DataFileTable>[]): Promise<void> {
    if (rows.length) await trx.insertInto('meta_file').values(rows).execute();
  }

  /** The ids of the data file, or of every data file under the folder. */
  async fileIds(trx: Tx, entry: TreeRow): Promise<string[]> {
    if (!entry.folder) return [entry.row.id];
    const files = await trx
      .selectFrom('meta_file')
      .select('id')
      .where('metadata_id', '=', entry.row.metadata_id)
      .where(under(innerPath(entry.row)))
      .execute();
    return files.map((file) => file.id);
  }

  /** Deletes a file, or a folder with everything under it; returns the keys of the blobs that were theirs. */
  async remove(trx: Tx, entry: TreeRow): Promise<string[]> {
    if (!entry.folder) {
      await trx.deleteFrom('meta_file').where('id', '=', entry.row.id).execute();
      return [entry.row.storage_key];
    }
    const prefix = innerPath(entry.row);
    const files = await trx.deleteFrom('meta_file').where('metadata_id', '=', entry.row.metadata_id).where(under(prefix)).returning('storage_key').execute();
    await trx.deleteFrom('meta_folder').where('metadata_id', '=', entry.row.metadata_id).where(under(prefix)).execute();
    await trx.deleteFrom('meta_folder').where('id', '=', entry.row.id).execute();
    return files.map((file) => file.storage_key);
  }

  /** Gives the entry a new folder and name; a folder takes everything under it along. */
  async move(trx: Tx, entry: TreeRow, to: { path: string; name: string }, now: string): Promise<void> {
    const table = entry.folder ? 'meta_folder' : 'meta_file';
    await trx.updateTable(table).set({ path: to.path, name: to.name, modified_at: now }).where('id', '=', entry.row.id).execute();
    if (!entry.folder) return;
    const from = innerPath(entry.row);
    const target = innerPath(to);
    const rest = sql<string>`${target} || substr(path, ${[...from].length + 1})`;
    for (const inner of ['meta_file', 'meta_folder'] as const) {
      await trx.updateTable(inner).set({ path: rest }).where('metadata_id', '=', entry.row.metadata_id).where(under(from)).execute();
    }
  }
}

/** A name along a path is a file, not a folder. */
export class NameTaken extends Error {}
