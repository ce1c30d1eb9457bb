import { CSRF_HEADER, languageFromPath, type FileEntry, type FileFolderPage, type FileOrdering } from '@portal/shared';
import { ApiError, api, ok } from '../../../../api/client';
import { readCookie } from '../../../../api/cookies';
import { path } from '../../../../api/routes';

/** The spec's file list shows 20 a page. */
export const TREE_PAGE_SIZE = 20;

/** The headers of every call (api/client.ts's), for the calls it cannot make: tus' requests and the plain text `ok`. */
export function callHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': languageFromPath(location.pathname), Personal: 'true' };
  const csrf = readCookie('csrftoken');
  if (csrf) headers[CSRF_HEADER] = csrf;
  return headers;
}

/** The calls of a record's file tree (issue 19): one folder listed, and the form posts that change it. */
export const treeApi = {
  list: async (metadataId: string, folder: string, page: number, ordering: FileOrdering) =>
    ok<FileFolderPage>(await api.get(path('fileTree'), { metadata__id: metadataId, path: folder, page, pageSize: TREE_PAGE_SIZE, ordering })),
  createFolder: async (metadataId: string, folder: string, name: string) =>
    ok<FileEntry>(await api.postForm(path('createFolder'), { metadata_id: metadataId, path: folder, name })),
  newFile: async (metadataId: string, folder: string, name: string) => ok<FileEntry>(await api.postForm(path('newFile'), { metadata_id: metadataId, path: folder, name })),
  move: async (metadataId: string, from: string, to: string) => ok<FileEntry>(await api.postForm(path('moveFile'), { metadata_id: metadataId, from, to })),
  /** Done only when the server answers the plain text `ok` (spec section 5); a refusal throws with the server's message. */
  remove: async (metadataId: string, entry: FileEntry): Promise<void> => {
    const response = await fetch(path('deleteFile'), {
      method: 'POST',
      headers: { ...callHeaders(), Accept: 'text/plain, application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ metadata_id: metadataId, id: entry.id }).toString(),
      credentials: 'include',
    });
    const text = await response.text();
    if (response.ok && text.trim() === 'ok') return;
    let reply: Record<string, unknown> = {};
    try {
      reply = JSON.parse(text) as Record<string, unknown>;
    } catch {
      reply = {};
    }
    throw new ApiError(response.status, reply);
  },
};

/** The full path of an entry: '/a/' and 'b' give '/a/b'. */
export const entryPath = (entry: Pick<FileEntry, 'path' | 'name'>) => `${entry.path}${entry.name}`;

/** A folder path's breadcrumbs: '/a/b/' gives [['/', ''], ['/a/', 'a'], ['/a/b/', 'b']] (the root's label is the caller's). */
export function crumbsOf(folder: string): { path: string; name: string }[] {
  const names = folder.split('/').filter(Boolean);
  return [{ path: '/', name: '' }, ...names.map((name, at) => ({ path: `/${names.slice(0, at + 1).join('/')}/`, name }))];
}
