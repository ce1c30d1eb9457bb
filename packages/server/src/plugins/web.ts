import fs from 'node:fs';
import path from 'node:path';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LANGUAGES, languageFromPath, languageTag, translate, type Language } from '@portal/shared';
import { LANGUAGE_PREFIXES, type FrameIcons, type LandingService } from '../modules/landing/index.js';
import { hotReplyText, searchReplyText, statsReplyText, type SearchService } from '../modules/search/index.js';
import { searchQuerySchema } from '@portal/shared/contracts/search';
import { ensureCsrfCookie } from './csrf.js';
import { escapeMarkup } from '../http/markup.js';
import { INDEXED_PAGES, PAGE_ALIASES, PRIVATE_PAGES, headTags, robotsTxt, type PageHead, type SiteOptions } from './site-pages.js';
import { readManifest, routeChunkTags, type PageModule } from './route-chunks.js';
import { sitemapDocuments, sitemapLimits } from './sitemap.js';
import { compress, loadStaticFiles, sendStatic, staticBody, staticText, type StaticBody } from './static-files.js';

/** The indexed pages' own chunks (route-chunks.ts); the home page is in the entry. */
const INDEXED_CHUNKS: Readonly<Record<string, PageModule | undefined>> = { '/': undefined, '/data/': 'search', '/news/': 'news', '/about': 'about' };
/** Account screens live in the personal centre's hash router; their public paths lead there. */
const ACCOUNT_SCREENS = ['login', 'register', 'forgot', 'reset', 'send'];
/** Made by the server: a file of the same name in the build is not served. */
const GENERATED = new Set(['index.html', 'robots.txt', 'sitemap.xml']);
/** The same for every caller: the auth hook does not look the caller up. */
const STATIC_ROUTE = { config: { access: 'public', anonymous: true } } as const;
const PAGE_ROUTE = { config: { access: 'public' } } as const;
const HTML = 'text/html; charset=utf-8';

/**
 * The web app's shell, for pages a module serves in it (the landing module's dataset pages): the
 * built index.html filled for a head, a route's chunk tags, sending (the CSRF cookie of a signed-in
 * browser, revalidation), a page made for one request, and the not-found page.
 */
export interface WebShell {
  fill(head: PageHead, language: Language, chunks?: readonly string[]): string;
  chunks: Record<PageModule, string[]>;
  send(request: FastifyRequest, reply: FastifyReply, page: StaticBody, status?: number): FastifyReply | Promise<FastifyReply>;
  dynamic(request: FastifyRequest, html: Buffer): StaticBody;
  notFound: Record<Language, StaticBody>;
  /** The header's icons as the app draws them, for a first screen; null when the build has none. */
  icons: FrameIcons | null;
  siteVariant: SiteOptions['siteVariant'];
  /** A filled page with a first screen written into `#root`, which the app replaces (see withFirstScreen). */
  withFirstScreen(html: string, markup: string): string;
}

/** Pages a module serves in the web app's shell; registered only when the web app is built. */
export type WebPages = (app: FastifyInstance, shell: WebShell) => void;

/** The built index.html with the language, title, site variant and head tags of one page. */
function fillPage(template: string, head: PageHead, language: Language, site: SiteOptions, chunks: readonly string[] = []): string {
  const siteTitle = translate(language, `site.${site.siteVariant}.title`);
  const title = head.kind !== 'indexed' && head.title ? `${head.title} - ${siteTitle}` : siteTitle;
  return (
    template
      // The tag hreflang and the JSON-LD give the language too (zh-Hans, not zh-CN).
      .replace(/<html lang="[^"]*"/, `<html lang="${languageTag(language)}"`)
      // A function, so that `$` in a record's title is never read as a replacement pattern.
      .replace(/<title>[^<]*<\/title>/, () => [`<title>${escapeMarkup(title)}</title>`, ...headTags(head, language, site)].join('\n    '))
      // After the entry's own tags, which the browser should ask for first.
      .replace('</head>', () => [...chunks, '</head>'].join('\n    '))
      .replace(/(<meta name="portal-site-variant" content=")[^"]*"/, `$1${site.siteVariant}"`)
  );
}

/**
 * A page with data for its first render: `facts` and the replies (JSON texts, as sent) in a
 * `<script type="application/json">` element the page reads (features/search/api.ts,
 * features/home/api.ts). `<` is written as an escape, so that no text of a record can close it.
 */
function withData(html: string, id: string, facts: Record<string, string>, replies: Record<string, string>): Buffer {
  const data = `${JSON.stringify(facts).slice(0, -1)},${Object.entries(replies)
    .map(([name, text]) => `${JSON.stringify(name)}:${text}`)
    .join(',')}}`;
  const element = `<script type="application/json" id="${id}">${data.replace(/</g, '\\u003c')}</script>`;
  return Buffer.from(
    html.replace('</body>', () => `${element}\n  </body>`),
    'utf8',
  );
}

/**
 * A page whose first screen the server wrote into `#root` (a landing page: modules/landing): the
 * browser paints it before any of the app's code runs. The entry is fetched at once (modulepreload)
 * but run only after that first paint (public/after-paint.js), so that a phone shows the record
 * without waiting for the scripts to arrive and run; the app then draws the whole page in its place.
 */
function withFirstScreen(html: string, markup: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry || !html.includes('<div id="root"></div>')) return html;
  return html
    .replace(entry[0], () => `<link rel="modulepreload" crossorigin href="${entry[1]}">`)
    .replace('<div id="root"></div>', () => `<div id="root">${markup}</div>\n    <script src="/after-paint.js" data-entry="${entry[1]}" defer></script>`);
}

/** The header's icons the web build wrote for first screens (packages/web/frame-icons.ts). */
function readFrameIcons(webDist: string): FrameIcons | null {
  try {
    const icons = JSON.parse(fs.readFileSync(path.join(webDist, '.vite', 'frame-icons.json'), 'utf8')) as Partial<FrameIcons>;
    return typeof icons.menu === 'string' && typeof icons.global === 'string' ? { menu: icons.menu, global: icons.global } : null;
  } catch {
    return null;
  }
}

/** A page made for one request, compressed quickly in the one encoding the browser takes best. */
function dynamicBody(request: FastifyRequest, html: Buffer): StaticBody {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const compressed = /\bbr\b/.test(accepted)
    ? { br: brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length } }) }
    : /\bgzip\b/.test(accepted)
      ? { gzip: gzipSync(html, { level: 6 }) }
      : {};
  return staticBody(html, { type: HTML, cacheControl: 'no-cache', compressed });
}

/**
 * Serves the built web app from memory: hashed assets cached for a year, the public folder's files
 * for a day, each compressed once (brotli or gzip by Accept-Encoding); the one HTML page for every
 * public path, filled in on the server for its language (title, description, canonical and
 * alternate addresses, or noindex); robots.txt and the sitemap; the pages modules serve in the
 * app's shell (`pages`: a dataset's landing page, modules/landing).
 */
async function webRoutes(
  app: FastifyInstance,
  site: SiteOptions & { webDist: string; landing: Pick<LandingService, 'sitemapVersion' | 'sitemapRecords'>; search: SearchService; pages?: readonly WebPages[] },
) {
  const indexFile = path.join(site.webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDist: site.webDist }, 'the web app is not built: serving the API only (run `npm run build`)');
    return;
  }
  const template = fs.readFileSync(indexFile, 'utf8');
  const chunks = routeChunkTags(readManifest(site.webDist));
  const pagesOf = (head: PageHead, own: readonly string[] = []) =>
    Object.fromEntries(LANGUAGES.map((language) => [language, staticText(fillPage(template, head, language, site, own), HTML, 'no-cache')])) as Record<Language, StaticBody>;
  // The personal centre, the admin pages and the not-found page.
  const unindexedPage = pagesOf({ kind: 'noindex' });

  const sendPage = (request: FastifyRequest, reply: FastifyReply, page: StaticBody, status = 200) => {
    if (!request.user) return sendStatic(request, reply, page, { status });
    // Only a signed-in browser gets one: after logout no `csrftoken` comes back (spec section 2).
    ensureCsrfCookie(request, reply);
    return sendStatic(request, reply, page, { status, revalidated: false });
  };

  for (const [url, body] of loadStaticFiles(site.webDist, GENERATED)) {
    app.get(url, STATIC_ROUTE, (request, reply) => sendStatic(request, reply, body));
  }
  const robots = staticText(robotsTxt(site.publicUrl), 'text/plain; charset=utf-8', 'public, max-age=86400');
  app.get('/robots.txt', STATIC_ROUTE, (request, reply) => sendStatic(request, reply, robots));
  // The sitemap lists every published dataset (plugins/sitemap.ts; an index and its parts past 50,000
  // addresses): made again when the public catalogue or a record's last change has moved since (one
  // small read each), so that a crawler's visits do not read every record each time.
  let sitemap: { version: string; main: StaticBody; parts: StaticBody[] } | undefined;
  const currentSitemap = async () => {
    const version = `${await site.landing.sitemapVersion()}|${sitemapLimits.maxUrls}`;
    if (sitemap?.version !== version) {
      const documents = sitemapDocuments(site.publicUrl, await site.landing.sitemapRecords());
      // Brotli 5: a catalogue of thousands of records makes a sitemap of megabytes.
      const body = (xml: string) => {
        const bytes = Buffer.from(xml, 'utf8');
        return staticBody(bytes, { type: 'application/xml; charset=utf-8', cacheControl: 'public, max-age=3600', compressed: compress(bytes, 5) });
      };
      sitemap = { version, main: body(documents.main), parts: documents.parts.map(body) };
    }
    return sitemap;
  };
  app.get('/sitemap.xml', STATIC_ROUTE, async (request, reply) => sendStatic(request, reply, (await currentSitemap()).main));
  app.get<{ Params: { part: string } }>('/sitemap-:part(^\\d{1,6}).xml', STATIC_ROUTE, async (request, reply) => {
    const part = (await currentSitemap()).parts[Number(request.params.part) - 1];
    if (!part) return reply.callNotFound();
    return sendStatic(request, reply, part);
  });

  /**
   * The search page (`/data/?q=...`) carries its first results: the reply the API gives to the same
   * query (kept replies shared), as JSON the page reads instead of asking (features/search/api.ts),
   * so that a visitor sees results one round trip sooner. A query the API would refuse gets the
   * page alone, which asks and shows why.
   */
  const sendSearchPage = async (request: FastifyRequest, reply: FastifyReply, language: Language, page: StaticBody) => {
    const at = request.url.indexOf('?');
    const params = new URLSearchParams(at >= 0 ? request.url.slice(at + 1) : '');
    params.delete('map');
    const input: Record<string, string | string[]> = {};
    for (const name of new Set(params.keys())) {
      const values = params.getAll(name);
      input[name] = values.length > 1 ? values : values[0]!;
    }
    const query = searchQuerySchema.safeParse(input);
    if (!query.success) return sendPage(request, reply, page);
    const { text } = await searchReplyText(site.search, query.data, language, `/api/metadata/search/?${params}`);
    const html = withData(templates['/data/'][language], 'portal-search', { search: at >= 0 ? request.url.slice(at) : '', language }, { reply: text });
    return sendPage(request, reply, dynamicBody(request, html));
  };

  /** The home page carries the hot list and the counts it shows, as the API gives them (kept replies shared). */
  const sendHomePage = async (request: FastifyRequest, reply: FastifyReply, language: Language) => {
    const [hot, stats] = await Promise.all([hotReplyText(site.search, language), statsReplyText(site.search, language)]);
    return sendPage(request, reply, dynamicBody(request, withData(templates['/'][language], 'portal-home', { language }, { hot: hot.text, stats: stats.text })));
  };
  const templates = Object.fromEntries(
    (['/', '/data/'] as const).map((path) => [
      path,
      Object.fromEntries(
        LANGUAGES.map((language) => [
          language,
          fillPage(
            template,
            { kind: 'indexed', path, description: INDEXED_PAGES.find((p) => p.path === path)!.description },
            language,
            site,
            INDEXED_CHUNKS[path] ? chunks[INDEXED_CHUNKS[path]!] : [],
          ),
        ]),
      ),
    ]),
  ) as Record<'/' | '/data/', Record<Language, string>>;

  const pages = new Map<string, Record<Language, StaticBody>>([
    ...INDEXED_PAGES.map((page) => [page.path, pagesOf({ kind: 'indexed', ...page }, INDEXED_CHUNKS[page.path] ? chunks[INDEXED_CHUNKS[page.path]!] : [])] as const),
    ...PRIVATE_PAGES.map((page) => [page, unindexedPage] as const),
  ]);
  for (const [alias, page] of Object.entries(PAGE_ALIASES)) pages.set(alias, pages.get(page)!);

  for (const prefix of LANGUAGE_PREFIXES) {
    const language = languageFromPath(`${prefix}/`);
    if (prefix) app.get(prefix, PAGE_ROUTE, (_request, reply) => reply.redirect(`${prefix}/`));
    for (const [url, page] of pages) {
      app.get(
        `${prefix}${url}`,
        PAGE_ROUTE,
        url === '/data/'
          ? (request, reply) => sendSearchPage(request, reply, language, page[language])
          : url === '/' || PAGE_ALIASES[url] === '/'
            ? (request, reply) => sendHomePage(request, reply, language)
            : (request, reply) => sendPage(request, reply, page[language]),
      );
      if (url.length > 1 && url.endsWith('/')) {
        app.get(`${prefix}${url.slice(0, -1)}`, PAGE_ROUTE, (_request, reply) => reply.redirect(`${prefix}${url}`));
      }
    }
    // A download voucher's public check (issue 10): the web app reads the code; personal, never indexed.
    app.get(`${prefix}/voucher/:code`, PAGE_ROUTE, (request, reply) => sendPage(request, reply, unindexedPage[language]));
    // Where the code is typed in (issue 16: `/voucher/` was a 404).
    app.get(`${prefix}/voucher/`, PAGE_ROUTE, (request, reply) => sendPage(request, reply, unindexedPage[language]));
    app.get(`${prefix}/voucher`, PAGE_ROUTE, (_request, reply) => reply.redirect(`${prefix}/voucher/`));
    for (const screen of ACCOUNT_SCREENS) {
      // With or without the final slash people type (`/login/` was a 404).
      for (const path of [`${prefix}/${screen}`, `${prefix}/${screen}/`]) {
        app.get(path, PAGE_ROUTE, (request, reply) => {
          const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
          return reply.redirect(`${prefix}/personal/#/${screen}${query}`);
        });
      }
    }
  }

  // Pages of modules in the shell (a dataset's landing page: modules/landing).
  const shell: WebShell = {
    fill: (head, language, own = []) => fillPage(template, head, language, site, own),
    chunks,
    send: sendPage,
    dynamic: dynamicBody,
    notFound: unindexedPage,
    icons: readFrameIcons(site.webDist),
    siteVariant: site.siteVariant,
    withFirstScreen,
  };
  for (const pages of site.pages ?? []) pages(app, shell);

  // The not-found handler (plugins/errors.ts) answers browsers with the page, which shows 'not found'.
  app.decorateReply('sendPortalPage', function (this: FastifyReply, status: number) {
    return sendPage(this.request, this, unindexedPage[languageFromPath(this.request.url.split('?')[0]!)], status);
  });
}

declare module 'fastify' {
  interface FastifyReply {
    sendPortalPage?: (status: number) => FastifyReply;
  }
}

export const webPlugin = fp(webRoutes);
