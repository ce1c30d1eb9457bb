import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogues, languageFromPath, type Language } from '@portal/shared';

/** The page's language comes from its path (spec section 1); catalogues are shared with the server. */
export const pageLanguage: Language = languageFromPath(location.pathname);

export async function initI18n(): Promise<void> {
  await i18next.use(initReactI18next).init({
    lng: pageLanguage,
    fallbackLng: false,
    // Our codes are `zh-hans` and `en`; without this i18next would look up `zh-Hans`.
    lowerCaseLng: true,
    resources: {
      'zh-hans': { translation: catalogues['zh-hans'] },
      en: { translation: catalogues.en },
    },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}
