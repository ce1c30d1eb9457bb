import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

/**
 * The catalogue's words, the same for SQLite FTS5 and PostgreSQL: the application tokenizes, the
 * database only stores and matches the tokens.
 *
 * - Chinese runs become their dictionary words (jieba) and every overlapping two-character piece,
 *   so that a two-character query (冰川, 冻土, 青藏, 海冰) finds its records whatever the segmenter
 *   made of the sentence; a run of one character is kept as it is.
 * - Other scripts become lower-case words without accents, plus the singular of an English plural.
 * Tokens hold letters and digits only, so they can be quoted into FTS5 and tsquery text safely.
 */

// The `v` flag (set difference) is Node 20's, newer than the compiler's target.
const RUNS = new RegExp(String.raw`(\p{Script=Han}+)|([[\p{L}\p{N}]--\p{Script=Han}]+)`, 'gv');
/** Runs of letters and digits of other scripts: the words of a text. */
const WORDS = new RegExp(String.raw`[[\p{L}\p{N}]--\p{Script=Han}]+`, 'gv');
const MAX_TOKEN = 40;

let segmenter: Jieba | undefined;
/** The dictionary (about 5 MB) is read on first use, not when the server starts. */
function jieba(): Jieba {
  if (!segmenter) {
    const require = createRequire(import.meta.url);
    const { Jieba } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    segmenter = Jieba.withDict(dict);
  }
  return segmenter;
}

/** Lower case, compatibility forms folded (full-width letters), accents removed. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC')
    .toLowerCase();
}

/** The singular of a regular English plural; other words unchanged. */
export function singular(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const pieces: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pieces.push(chars[i]! + chars[i + 1]!);
  return pieces;
}

/** Query words this short match whole words only (a, of, to would match half the catalogue as prefixes). */
const isPrefixWord = (word: string) => word.length >= 3;

/** The tokens of a text to index, in order (repeats kept: they weigh in the ranking). */
export function documentTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of fold(text).matchAll(RUNS)) {
    const [, han, other] = match;
    if (han) {
      tokens.push(...bigrams(han));
      // The last character too, so that every character begins a token: a one-character query
      // (a prefix) finds 冰 at the end of 海冰 as well as at the start of 冰川.
      const chars = [...han];
      if (chars.length > 1) tokens.push(chars.at(-1)!);
      if (han.length > 2) for (const word of jieba().cut(han, false)) if ([...word].length > 2) tokens.push(word);
    } else if (other) {
      const word = other.slice(0, MAX_TOKEN);
      tokens.push(word);
      const one = singular(word);
      if (one !== word) tokens.push(one);
    }
  }
  return tokens;
}

/** One term of a query: every term must match; a prefix term matches the words it begins. */
export interface QueryTerm {
  token: string;
  prefix: boolean;
}

/** What a query matches, and the pieces of text to highlight in the results. */
export interface ParsedQuery {
  terms: QueryTerm[];
  /** Chinese runs as typed (highlighted where they occur) and other words (highlighted in the words they match). */
  highlight: { han: string[]; words: string[] };
}

export function parseQuery(q: string): ParsedQuery {
  const terms: QueryTerm[] = [];
  const han: string[] = [];
  const words: string[] = [];
  const seen = new Set<string>();
  const add = (token: string, prefix: boolean) => {
    const key = `${token}${prefix ? '*' : ''}`;
    if (!seen.has(key)) {
      seen.add(key);
      terms.push({ token, prefix });
    }
  };
  for (const match of fold(q).matchAll(RUNS)) {
    const [, run, other] = match;
    if (run) {
      han.push(run);
      const pieces = bigrams(run);
      // One character: the pieces that begin with it (it is indexed inside two-character pieces).
      if (pieces.length === 1 && [...run].length === 1) add(run, true);
      else for (const piece of pieces) add(piece, false);
    } else if (other) {
      const word = singular(other.slice(0, MAX_TOKEN));
      words.push(word);
      add(word, isPrefixWord(word));
    }
  }
  return { terms: terms.slice(0, 32), highlight: { han, words } };
}

/** `[start, end)` ranges of the query's words in a text, merged and in order. */
export function highlightRanges(text: string, highlight: ParsedQuery['highlight']): [number, number][] {
  if (!text || (!highlight.han.length && !highlight.words.length)) return [];
  // Offsets must stay those of the text: give up on the rare texts whose folded form changes length.
  const folded = fold(text);
  const lower = folded.length === text.length ? folded : text.toLowerCase();
  if (lower.length !== text.length) return [];
  const ranges: [number, number][] = [];
  for (const run of highlight.han) {
    for (let at = lower.indexOf(run); at >= 0; at = lower.indexOf(run, at + run.length)) ranges.push([at, at + run.length]);
  }
  // The words the query matched, as the index matches them: by the word or its singular, beginning
  // with a query word (whole, for a short one). A plural typed as the text holds it (boundaries,
  // whose singular is no prefix of it) is highlighted too.
  if (highlight.words.length) {
    for (const match of lower.matchAll(WORDS)) {
      const word = match[0].slice(0, MAX_TOKEN);
      const forms = [word, singular(word)];
      if (highlight.words.some((q) => forms.some((form) => (isPrefixWord(q) ? form.startsWith(q) : form === q)))) {
        ranges.push([match.index, match.index + match[0].length]);
      }
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** Chinese, Japanese and Korean characters and full-width forms: each as wide as two Latin letters. */
const WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/**
 * A line of the abstract for a result: about `length` characters around the first match (or the
 * beginning), cut at word or sentence boundaries where it can, with its highlight ranges. `length`
 * counts Latin letters: a text mostly of wide (CJK) characters gets half as many, the same width on
 * the page (180 Chinese characters took seven lines of a phone where English took four).
 */
export function snippetOf(text: string, highlight: ParsedQuery['highlight'], width = 180): { snippet: string; ranges: [number, number][] } {
  const clean = text.replace(/\s+/g, ' ').trim();
  const length = (clean.match(WIDE)?.length ?? 0) * 2 > clean.length ? Math.round(width / 2) : width;
  const all = highlightRanges(clean, highlight);
  let start = 0;
  // Moved only for a first match that would end in the last third: one shown anyway keeps the beginning.
  if (all.length && all[0]![1] > (length * 2) / 3) start = Math.max(0, all[0]![0] - Math.floor(length / 3));
  if (start > 0) {
    // After a space or a Chinese or Latin punctuation mark close before, never inside a word.
    for (let at = start - 1; at >= Math.max(0, start - 20); at--) {
      if (/[\s，。；、：！？,.;:!?]/.test(clean[at]!)) {
        start = at + 1;
        break;
      }
    }
    // No boundary that close: at least not in the middle of a Latin word or number.
    while (start < all[0]![0] && /[A-Za-z0-9]/.test(clean[start - 1]!) && /[A-Za-z0-9]/.test(clean[start]!)) start++;
    while (clean[start] === ' ') start++;
  }
  let end = Math.min(clean.length, start + length);
  if (end < clean.length) {
    const space = clean.lastIndexOf(' ', end);
    if (space > end - 20 && space > start) end = space;
  }
  const snippet = `${start > 0 ? '…' : ''}${clean.slice(start, end)}${end < clean.length ? '…' : ''}`;
  const shift = start > 0 ? 1 - start : 0;
  const ranges = all.filter(([a, b]) => a >= start && b <= end).map(([a, b]) => [a + shift, b + shift] as [number, number]);
  return { snippet, ranges };
}
