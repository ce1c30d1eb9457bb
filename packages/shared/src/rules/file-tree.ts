import { hasIllegalText } from './text.js';

/**
 * The names and paths of a record's file tree (issue 19), as both sides check them. A folder's path
 * is normalised to start and end with '/': '/' is the root, '/a/b/' the folder b in a. A name is one
 * segment: no slash or backslash, no control character or text the guard refuses, not '.' or '..',
 * at most FILE_NAME_MAX code points. A path holds at most FILE_PATH_MAX code points.
 */
export const FILE_NAME_MAX = 255;
export const FILE_PATH_MAX = 4096;

/** The i18n key (under fileTree) of what is wrong with a name, or null when it may be used. */
export function fileNameProblem(name: string): string | null {
  if (name.trim() === '') return 'fileTree.nameRequired';
  if (hasIllegalText(name) || /[\u0000-\u001f\u007f]/.test(name)) return 'fileTree.nameIllegal';
  if (/[/\\]/.test(name)) return 'fileTree.nameSlash';
  if (name === '.' || name === '..') return 'fileTree.nameDots';
  if (name !== name.trim()) return 'fileTree.nameSpaces';
  if ([...name].length > FILE_NAME_MAX) return 'fileTree.nameTooLong';
  return null;
}

/** A folder path normalised ('/a//b' -> '/a/b/', '' -> '/'), or the i18n key of why it is refused ('..', a bad segment, too long). */
export function normaliseFolderPath(path: string): { path: string } | { problem: string } {
  if (hasIllegalText(path) || path.includes('\u0000')) return { problem: 'fileTree.nameIllegal' };
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  for (const segment of segments) {
    if (segment === '..') return { problem: 'fileTree.pathDots' };
    const problem = fileNameProblem(segment);
    if (problem) return { problem };
  }
  const normalised = segments.length ? `/${segments.join('/')}/` : '/';
  if ([...normalised].length > FILE_PATH_MAX) return { problem: 'fileTree.pathTooLong' };
  return { path: normalised };
}

/** A full path ('/a/b/c.nc') as its folder ('/a/b/') and name ('c.nc'); the root itself has no name (the problem 'fileTree.rootPath'). */
export function splitFilePath(full: string): { path: string; name: string } | { problem: string } {
  const folder = normaliseFolderPath(full);
  if ('problem' in folder) return folder;
  if (folder.path === '/') return { problem: 'fileTree.rootPath' };
  const inner = folder.path.slice(0, -1);
  const at = inner.lastIndexOf('/');
  return { path: inner.slice(0, at + 1), name: inner.slice(at + 1) };
}
