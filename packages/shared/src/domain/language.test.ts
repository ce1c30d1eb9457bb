import { describe, expect, it } from 'vitest';
import { isLanguage, languageFromHeader, languageFromPath, languagePrefix, swapLanguageInPath } from './language.js';

describe('isLanguage', () => {
  it('knows zh-hans and en only', () => {
    expect(isLanguage('zh-hans')).toBe(true);
    expect(isLanguage('en')).toBe(true);
    for (const value of ['zh', 'EN', 'en-US', 'fr', '', undefined, null, 1]) expect(isLanguage(value)).toBe(false);
  });
});

describe('languageFromPath', () => {
  it('is English when a path segment is en', () => {
    expect(languageFromPath('/en')).toBe('en');
    expect(languageFromPath('/en/')).toBe('en');
    expect(languageFromPath('/en/personal/')).toBe('en');
    expect(languageFromPath('/en/data/abc/')).toBe('en');
  });

  it('is Chinese otherwise', () => {
    expect(languageFromPath('/')).toBe('zh-hans');
    expect(languageFromPath('')).toBe('zh-hans');
    expect(languageFromPath('/zh-hans/personal/')).toBe('zh-hans');
    expect(languageFromPath('/personal/')).toBe('zh-hans');
  });

  it('needs the whole segment', () => {
    expect(languageFromPath('/english/')).toBe('zh-hans');
    expect(languageFromPath('/data/ennui/')).toBe('zh-hans');
    expect(languageFromPath('/EN/')).toBe('zh-hans');
  });
});

describe('swapLanguageInPath', () => {
  it('replaces the leading language segment', () => {
    expect(swapLanguageInPath('/en/personal/', 'zh-hans')).toBe('/zh-hans/personal/');
    expect(swapLanguageInPath('/zh-hans/data/abc/', 'en')).toBe('/en/data/abc/');
  });

  it('adds a language segment to a path without one', () => {
    expect(swapLanguageInPath('/personal/', 'en')).toBe('/en/personal/');
    expect(swapLanguageInPath('/about', 'zh-hans')).toBe('/zh-hans/about');
  });

  it('turns the root and a bare language into the other root', () => {
    expect(swapLanguageInPath('/', 'en')).toBe('/en/');
    expect(swapLanguageInPath('/en', 'zh-hans')).toBe('/zh-hans/');
    expect(swapLanguageInPath('/en/', 'zh-hans')).toBe('/zh-hans/');
    expect(swapLanguageInPath('/zh-hans/', 'en')).toBe('/en/');
  });

  it('keeps a path already in the target language', () => {
    expect(swapLanguageInPath('/en/news/', 'en')).toBe('/en/news/');
    expect(swapLanguageInPath('/zh-hans/news/', 'zh-hans')).toBe('/zh-hans/news/');
  });

  it('swaps only the leading segment', () => {
    expect(swapLanguageInPath('/data/en/', 'zh-hans')).toBe('/zh-hans/data/en/');
  });
});

describe('languagePrefix', () => {
  it('is /en or /zh-hans', () => {
    expect(languagePrefix('en')).toBe('/en');
    expect(languagePrefix('zh-hans')).toBe('/zh-hans');
  });
});

describe('languageFromHeader', () => {
  it('answers nothing without a header', () => {
    expect(languageFromHeader(undefined)).toBeUndefined();
    expect(languageFromHeader('')).toBeUndefined();
  });

  it('reads English and its regional tags, in any case', () => {
    expect(languageFromHeader('en')).toBe('en');
    expect(languageFromHeader('en-US,en;q=0.9')).toBe('en');
    expect(languageFromHeader('EN-gb')).toBe('en');
  });

  it('reads every Chinese tag as simplified Chinese', () => {
    expect(languageFromHeader('zh')).toBe('zh-hans');
    expect(languageFromHeader('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-hans');
    expect(languageFromHeader('zh-Hans')).toBe('zh-hans');
    expect(languageFromHeader('zh-TW')).toBe('zh-hans');
  });

  it('takes the first language it speaks, skipping the others', () => {
    expect(languageFromHeader('fr-FR, de;q=0.8, en;q=0.5, zh;q=0.4')).toBe('en');
    expect(languageFromHeader(' ja ;q=1 , zh-CN ;q=0.5')).toBe('zh-hans');
  });

  it('answers nothing when no language it speaks is named', () => {
    expect(languageFromHeader('fr, de')).toBeUndefined();
    expect(languageFromHeader('*')).toBeUndefined();
    expect(languageFromHeader('english')).toBeUndefined();
    expect(languageFromHeader('enx')).toBeUndefined();
  });
});
