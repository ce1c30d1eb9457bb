import type { FastifyReply, FastifyRequest } from 'fastify';
import { languageFromPath, type Language } from '@portal/shared';
import type { WebPages } from '../../plugins/web.js';
import type { PageHead } from '../../plugins/site-pages.js';
import { LANGUAGE_PREFIXES, landingPath } from './addresses.js';
import type { LandingExports } from './landing.routes.js';
import type { LandingService } from './landing.service.js';
import { FIRST_SCREEN_STYLE, landingFirstScreen } from './first-screen.js';
import { linkHeader } from './signposting.js';

const PAGE_ROUTE = { config: { access: 'public' } } as const;

/**
 * A dataset's landing page `/{lang}/data/{id}/`, served in the web app's shell (plugins/web.ts):
 * made for each request from one read of the record (its title and abstract in the page's language
 * go into the head; see LandingService), compressed at a quick brotli level. Not found (404) and
 * gone (410) are the same web app, which shows why, never indexed. The same address gives a
 * published record's exports to those who ask for one (exports' content negotiation).
 */
export function landingPages(landing: LandingService, exports: LandingExports): WebPages {
  return (app, shell) => {
    // With a first screen the page's own styles apply to its first paint (they are only preloaded otherwise).
    const withStyles = shell.chunks.landing.map((tag) => tag.replace('<link rel="preload" as="style"', '<link rel="stylesheet"'));
    const sendLandingPage = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, language: Language, prefix: string) => {
      reply.header('vary', 'Accept');
      const sent = await exports.negotiated(request.headers.accept, reply, request.params.id, language);
      if (sent) return sent;
      const head = await landing.head(request.params.id, language);
      if (head.kind === 'missing') return shell.send(request, reply, shell.notFound[language], 404);
      let pageHead: PageHead = { kind: 'noindex', title: head.title };
      if (head.kind === 'published') {
        const facts = await exports.landingFacts(request.params.id, language);
        pageHead = {
          kind: 'record',
          path: landingPath(request.params.id),
          title: head.title,
          description: head.description,
          jsonLd: facts.jsonLd,
          metaTags: facts.citationTags,
          exportLinks: facts.exportLinks,
          image: facts.image,
        };
        // FAIR Signposting: what a machine needs of the page, without reading it.
        reply.header('link', linkHeader(facts.signposts));
      }
      // A visitor who is not signed in (one arriving from a search engine) sees the record's first
      // screen before the app has loaded; a signed-in header shows the user, which the app asks for.
      const html =
        head.kind === 'published' && !request.user && shell.icons
          ? shell.withFirstScreen(
              shell.fill(pageHead, language, withStyles),
              FIRST_SCREEN_STYLE + landingFirstScreen({ ...head.firstScreen, language, prefix, siteVariant: shell.siteVariant, icons: shell.icons }),
            )
          : shell.fill(pageHead, language, shell.chunks.landing);
      return shell.send(request, reply, shell.dynamic(request, Buffer.from(html, 'utf8')), head.kind === 'published' ? 200 : 410);
    };

    for (const prefix of LANGUAGE_PREFIXES) {
      const language = languageFromPath(`${prefix}/`);
      app.get<{ Params: { id: string } }>(`${prefix}/data/:id/`, PAGE_ROUTE, (request, reply) => sendLandingPage(request, reply, language, prefix));
      app.get<{ Params: { id: string } }>(`${prefix}/data/:id`, PAGE_ROUTE, (request, reply) => reply.redirect(`${prefix}${landingPath(request.params.id)}`));
    }
  };
}
