import fs from 'node:fs';
import path from 'node:path';

/**
 * The chunks a public page's code is in, from the build's manifest (`.vite/manifest.json`), as tags
 * for the page's head: the browser fetches them beside the entry instead of after running it (a
 * lazy route's chunk is otherwise found only then, one round trip later on a phone's network).
 * Chunks the entry imports itself are left out: index.html names them already.
 */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/** A page's module, by the path its route is served under (publicRouter.tsx). */
export const PAGE_MODULES = {
  search: 'src/features/search/SearchPage.tsx',
  landing: 'src/features/landing/LandingPage.tsx',
  about: 'src/features/home/AboutPage.tsx',
  news: 'src/features/home/EmptyListPage.tsx',
} as const;
export type PageModule = keyof typeof PAGE_MODULES;

export function readManifest(webDist: string): Record<string, ManifestChunk> | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(webDist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return null;
  }
}

/** The head tags of each page's chunks; none without a manifest or for a module it does not hold. */
export function routeChunkTags(manifest: Record<string, ManifestChunk> | null): Record<PageModule, string[]> {
  const tags = Object.fromEntries(Object.keys(PAGE_MODULES).map((page) => [page, [] as string[]])) as Record<PageModule, string[]>;
  if (!manifest) return tags;
  // What the entry loads with the page already: its own chunk and everything it imports statically.
  const loaded = new Set<string>();
  const collect = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const imported of manifest[key]!.imports ?? []) collect(imported, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) collect(key, loaded);
  for (const [page, module] of Object.entries(PAGE_MODULES) as [PageModule, string][]) {
    const own = new Set<string>();
    collect(module, own);
    for (const key of own) {
      if (loaded.has(key)) continue;
      const chunk = manifest[key]!;
      tags[page].push(`<link rel="modulepreload" crossorigin href="/${chunk.file}">`);
      for (const css of chunk.css ?? []) tags[page].push(`<link rel="preload" as="style" href="/${css}">`);
    }
  }
  return tags;
}
