import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './constants.js';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Spec section 1: English when the path holds the segment `en`, otherwise Chinese. */
export function languageFromPath(pathname: string): Language {
  return pathname.split('/').includes('en') ? 'en' : DEFAULT_LANGUAGE;
}

/**
 * The same address in the other language: the leading language segment is replaced,
 * or added when the path has none (`/personal/` -> `/en/personal/`).
 */
export function swapLanguageInPath(pathname: string, target: Language): string {
  const segments = pathname.split('/');
  // segments[0] is '' for an absolute path
  if (isLanguage(segments[1])) segments.splice(1, 1);
  const rest = segments.join('/') || '/';
  return `${languagePrefix(target)}${rest}`;
}

/** The path prefix of a language, used to build links: `/en` or `/zh-hans`. */
export function languagePrefix(language: Language): string {
  return language === 'en' ? '/en' : '/zh-hans';
}

/**
 * A language's BCP 47 tag, as `<html lang>`, `hreflang` and the exports write it (`zh-Hans`, not
 * `zh-CN`: the portal's Chinese is a script, simplified, read in more places than one country).
 */
export function languageTag(language: Language): 'zh-Hans' | 'en' {
  return language === 'en' ? 'en' : 'zh-Hans';
}

/** Reads an Accept-Language style value and keeps only the languages we speak. */
export function languageFromHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-hans';
  }
  return undefined;
}
