import type { Language } from '../domain/constants.js';
import { en } from './en.js';
import type { Messages } from './types.js';
import { zhHans } from './zh-hans.js';

export type { Messages } from './types.js';
export const catalogues: Record<Language, Messages> = { 'zh-hans': zhHans, en };

/** Every key of a catalogue as a dotted path, e.g. `account.captchaError`. */
export function flattenKeys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : flattenKeys(value as object, `${prefix}${key}.`)));
}

function lookup(tree: unknown, key: string): string | undefined {
  let node = tree;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function hasMessage(key: string): boolean {
  return lookup(en, key) !== undefined;
}

/** Translates a key with i18next-style `{{name}}` placeholders; an unknown key comes back as is. */
export function translate(language: Language, key: string, params: Record<string, string | number> = {}): string {
  const template = lookup(catalogues[language], key) ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
