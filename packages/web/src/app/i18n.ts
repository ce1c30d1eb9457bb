import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageFromPath, type Language } from '@portal/shared';
import { publicEn } from '@portal/shared/i18n/public.en';
import { publicZhHans } from '@portal/shared/i18n/public.zh-hans';
import { loadChunk } from './lazy';

/** The page's language comes from its path (spec section 1); catalogues are shared with the server. */
export const pageLanguage: Language = languageFromPath(location.pathname);

/**
 * Public pages use only the public part of the catalogue (`public.en.ts`, about 2 KB compressed a
 * language): both languages come with the entry, so that the page needs no second request before
 * it can draw. The personal centre and the admin pages load the whole catalogue of the page's
 * language (a chunk of its own; a page never changes language without a reload).
 */
const PUBLIC_CATALOGUES: Record<Language, object> = { 'zh-hans': publicZhHans, en: publicEn };
export type CatalogueScope = 'public' | 'whole';

const loadWholeCatalogueOf = (language: Language) =>
  loadChunk((): Promise<object> =>
    language === 'en' ? import('@portal/shared/i18n/en').then((module) => module.en) : import('@portal/shared/i18n/zh-hans').then((module) => module.zhHans),
  );

/**
 * Starts i18next with the page's catalogue. When the whole catalogue cannot be loaded, it starts with
 * the public part (which says that a part of the page could not be loaded) and throws the ChunkLoadError.
 */
export async function initI18n(scope: CatalogueScope): Promise<void> {
  const whole = scope === 'whole' ? await loadWholeCatalogueOf(pageLanguage).catch((error: unknown) => error as Error) : undefined;
  await i18next.use(initReactI18next).init({
    lng: pageLanguage,
    fallbackLng: false,
    // Our codes are `zh-hans` and `en`; without this i18next would look up `zh-Hans`.
    lowerCaseLng: true,
    resources: { [pageLanguage]: { translation: whole && !(whole instanceof Error) ? whole : PUBLIC_CATALOGUES[pageLanguage] } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  if (whole instanceof Error) throw whole;
}

/** The whole catalogue, for pages under the public router that need more than its public part (the admin pages). */
export async function loadWholeCatalogue(): Promise<void> {
  i18next.addResourceBundle(pageLanguage, 'translation', await loadWholeCatalogueOf(pageLanguage), true, true);
}
