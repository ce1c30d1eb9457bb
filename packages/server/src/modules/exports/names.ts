import type { Language } from '@portal/shared';
import { hasHan, textIn, type CitablePerson } from './citable-record.js';

/** Two-character Chinese surnames: the rest of such a name is the given name. */
const COMPOUND_SURNAMES = new Set([
  '欧阳',
  '司马',
  '上官',
  '诸葛',
  '东方',
  '皇甫',
  '尉迟',
  '公孙',
  '慕容',
  '长孙',
  '宇文',
  '司徒',
  '夏侯',
  '令狐',
  '端木',
  '澹台',
  '申屠',
  '太史',
  '独孤',
  '南宫',
  '万俟',
  '闻人',
  '轩辕',
  '呼延',
  '钟离',
]);

export type NameParts = { family: string; given: string } | { literal: string };

/**
 * A person's name in a language as family and given names, for citations (APA writes "Zhang, B.",
 * GB/T 7714 "ZHANG B"):
 * - A name with a comma (`,` or the full-width `，`), in any script: "Family, Given" split at its first comma
 *   (DataCite's convention: "𠮷野, 家" is the family 𠮷野 and the given name 家).
 * - Chinese characters: the surname is the first character, or the first two when they are a
 *   compound surname; the rest is the given name.
 * - Latin letters of a person who also has a Chinese name: the romanized name as the portal's
 *   authors write it, family name first ("Zhang Bingchuan").
 * - Other Latin names: the last word is the family name ("Anna Karlsson").
 * A single word stays whole (`literal`).
 */
export function nameParts(person: CitablePerson, language: Language): NameParts {
  const name = textIn(person.name, language).replace(/\s+/g, ' ').trim();
  const [, family = '', given = ''] = /^([^,，]*)[,，](.*)$/.exec(name) ?? [];
  if (family.trim() && given.trim()) return { family: family.trim(), given: given.trim() };
  if (hasHan(name)) {
    // Counted in characters (code points): 𠮷 and the other characters beyond the BMP are two UTF-16
    // units, and a cut between them leaves a lone surrogate ("�") on each side.
    const characters = Array.from(name.replace(/\s/g, ''));
    if (characters.length < 2) return { literal: characters.join('') };
    const two = characters.slice(0, 2).join('');
    const surnameLength = COMPOUND_SURNAMES.has(two) && characters.length > 2 ? 2 : 1;
    return { family: characters.slice(0, surnameLength).join(''), given: characters.slice(surnameLength).join('') };
  }
  const words = name.split(' ');
  if (words.length < 2) return { literal: name };
  if (hasHan(person.name['zh-hans'])) return { family: words[0]!, given: words.slice(1).join(' ') };
  return { family: words.at(-1)!, given: words.slice(0, -1).join(' ') };
}
