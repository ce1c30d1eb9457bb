import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_LANGUAGE, isLanguage, languageFromHeader, translate, type Language } from '@portal/shared';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    t(key: string, params?: Record<string, string | number>): string;
  }
}

/**
 * The caller's language: the web client sends Accept-Language `en` or `zh-hans` from the page's path;
 * a plain navigation uses the `lang` cookie the language switch sets, then the browser's languages,
 * then Chinese.
 */
export const i18nPlugin = fp(async (app) => {
  // Read when asked (error replies, mails), not on every request.
  app.decorateRequest('language', {
    getter(this: FastifyRequest): Language {
      const header = this.headers['accept-language'];
      const cookie = this.cookies?.lang;
      // The web client names exactly `en` or `zh-hans`; a browser's own list comes after the cookie.
      return isLanguage(header) ? header : isLanguage(cookie) ? cookie : (languageFromHeader(header) ?? DEFAULT_LANGUAGE);
    },
  });
  app.decorateRequest('t', function (this: FastifyRequest, key: string, params?: Record<string, string | number>) {
    return translate(this.language, key, params);
  });
});
