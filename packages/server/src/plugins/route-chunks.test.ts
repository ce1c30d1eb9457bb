import { describe, expect, it } from 'vitest';
import { routeChunkTags } from './route-chunks.js';

describe('routeChunkTags', () => {
  const manifest = {
    'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_react-B.js'] },
    '_react-B.js': { file: 'assets/react-B.js' },
    '_api-C.js': { file: 'assets/api-C.js', imports: ['_react-B.js'] },
    'src/features/search/SearchPage.tsx': { file: 'assets/SearchPage-D.js', css: ['assets/SearchPage-D.css'], imports: ['_api-C.js', '_react-B.js'] },
    'src/features/landing/LandingPage.tsx': { file: 'assets/LandingPage-E.js', imports: ['_api-C.js'] },
  };

  it("names a page's own chunks and what they import, not what the entry loads already", () => {
    const tags = routeChunkTags(manifest);
    expect(tags.search).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/SearchPage-D.js">',
      '<link rel="preload" as="style" href="/assets/SearchPage-D.css">',
      '<link rel="modulepreload" crossorigin href="/assets/api-C.js">',
    ]);
    expect(tags.landing).toEqual(['<link rel="modulepreload" crossorigin href="/assets/LandingPage-E.js">', '<link rel="modulepreload" crossorigin href="/assets/api-C.js">']);
  });

  it('names nothing for a page the manifest does not hold, or without a manifest', () => {
    expect(routeChunkTags(manifest).about).toEqual([]);
    expect(routeChunkTags(null)).toEqual({ search: [], landing: [], about: [], news: [] });
  });
});
