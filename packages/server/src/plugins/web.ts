import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { languageFromPath, translate, type Language, type SiteVariant } from '@portal/shared';
import { ensureCsrfCookie } from './csrf.js';

/** Public pages: real paths a search engine can crawl, with or without a language prefix. */
const PAGES = ['/', '/index', '/about', '/data/', '/news/', '/personal/', '/admin/', '/admin/review'];
const PREFIXES = ['', '/en', '/zh-hans'];
/** Account screens live in the personal centre's hash router; their public paths lead there. */
const ACCOUNT_SCREENS = ['login', 'register', 'forgot', 'reset', 'send'];

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Serves the built web app: hashed assets with a long cache, and the one HTML page for every
 * public path, with the language, title and site variant filled in on the server.
 */
async function webRoutes(app: FastifyInstance, { webDist, siteVariant }: { webDist: string; siteVariant: SiteVariant }) {
  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDist }, 'the web app is not built: serving the API only (run `npm run build`)');
    return;
  }
  const template = fs.readFileSync(indexFile, 'utf8');
  const pageFor = (language: Language) =>
    template
      .replace(/<html lang="[^"]*"/, `<html lang="${language === 'en' ? 'en' : 'zh-CN'}"`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(translate(language, `site.${siteVariant}.title`))}</title>`)
      .replace(/(<meta name="portal-site-variant" content=")[^"]*"/, `$1${siteVariant}"`);
  const pages: Record<Language, string> = { 'zh-hans': pageFor('zh-hans'), en: pageFor('en') };

  const sendPage = (request: FastifyRequest, reply: FastifyReply, status = 200) => {
    // Only a signed-in browser gets one: after logout no `csrftoken` comes back (spec section 2).
    if (request.user) ensureCsrfCookie(request, reply);
    return reply
      .status(status)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(pages[languageFromPath(request.url.split('?')[0]!)]);
  };

  await app.register(fastifyStatic, { root: webDist, serve: false });

  app.get('/assets/*', { config: { access: 'public' } }, (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return reply.sendFile(path.join('assets', file), { maxAge: '365d', immutable: true });
  });
  for (const file of fs.readdirSync(webDist).filter((name) => name !== 'index.html' && !name.startsWith('.'))) {
    if (fs.statSync(path.join(webDist, file)).isDirectory()) continue;
    app.get(`/${file}`, { config: { access: 'public' } }, (_request, reply) => reply.sendFile(file, { maxAge: '1d' }));
  }
  app.get('/logos/:file', { config: { access: 'public' } }, (request, reply) => {
    const { file } = request.params as { file: string };
    if (!/^[a-z0-9-]+\.svg$/.test(file)) return reply.callNotFound();
    return reply.sendFile(path.join('logos', file), { maxAge: '1d' });
  });

  for (const prefix of PREFIXES) {
    if (prefix) app.get(prefix, { config: { access: 'public' } }, (_request, reply) => reply.redirect(`${prefix}/`));
    for (const page of PAGES) {
      app.get(`${prefix}${page}`, { config: { access: 'public' } }, (request, reply) => sendPage(request, reply));
      if (page.length > 1 && page.endsWith('/')) {
        app.get(`${prefix}${page.slice(0, -1)}`, { config: { access: 'public' } }, (_request, reply) =>
          reply.redirect(`${prefix}${page}`),
        );
      }
    }
    for (const screen of ACCOUNT_SCREENS) {
      app.get(`${prefix}/${screen}`, { config: { access: 'public' } }, (request, reply) => {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(`${prefix}/personal/#/${screen}${query}`);
      });
    }
  }

  // The not-found handler (plugins/errors.ts) answers browsers with the page, which shows 'not found'.
  app.decorateReply('sendPortalPage', function (this: FastifyReply, status: number) {
    return sendPage(this.request, this, status);
  });
}

declare module 'fastify' {
  interface FastifyReply {
    sendPortalPage?: (status: number) => FastifyReply;
  }
}

export const webPlugin = fp(webRoutes);
