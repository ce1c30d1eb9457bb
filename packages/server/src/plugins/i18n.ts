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
  app.decorateRequest('language', DEFAULT_LANGUAGE);
  app.decorateRequest('t', function (this: { language: Language }, key: string, params?: Record<string, string | number>) {
    return translate(this.language, key, params);
  });
  app.addHook('onRequest', async (request) => {
    const header = request.headers['accept-language'];
    const cookie = request.cookies?.lang;
    // The web client names exactly `en` or `zh-hans`; a browser's own list comes after the cookie.
    request.language = isLanguage(header)
      ? header
      : isLanguage(cookie)
        ? cookie
        : (languageFromHeader(header) ?? DEFAULT_LANGUAGE);
  });
});
