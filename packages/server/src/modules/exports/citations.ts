import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '@portal/shared';
import { textIn, type CitableRecord } from './citable-record.js';
import { nameParts } from './names.js';

/**
 * Citations of a record in one language: CSL-JSON (the one mapping), and from it, through
 * citation-js, the APA and GB/T 7714-2015 texts (CSL styles of the CSL project, shipped in csl/)
 * and RIS; BibTeX is written here (`bibtexEntry`). citation-js and its plugins are loaded on the
 * first citation asked for, never by the server's start or its other requests.
 */

/** CSL locale of each language. */
const CSL_LOCALES: Record<Language, string> = { 'zh-hans': 'zh-CN', en: 'en-US' };

/** The text styles offered, by their export format name, and their CSL files. */
export const CITATION_STYLES = {
  apa: 'apa.csl',
  gbt7714: 'china-national-standard-gb-t-7714-2015-numeric.csl',
} as const;
export type CitationStyle = keyof typeof CITATION_STYLES;

const CSL_FOLDER = path.join(import.meta.dirname, 'csl');

export interface CslItem {
  id: string;
  type: 'dataset';
  title: string;
  author: ({ family: string; given: string } | { literal: string })[];
  issued: { 'date-parts': [[number, number, number]] };
  publisher: string;
  language: string;
  'citation-key': string;
  URL: string;
  DOI?: string;
  abstract?: string;
  keyword?: string;
}

/**
 * An ASCII key in the usual BibTeX form, the same in both languages: the first creator's romanized
 * family name (the data centre's English name when the record has no creator), the year and the
 * first word of the English title ("zhang2021glacier").
 */
export function citationKey(record: CitableRecord): string {
  const first = record.creators[0];
  const parts = first ? nameParts(first, 'en') : { literal: record.publisher.en };
  const ascii = (text: string) => text.normalize('NFKD').replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  const family = ascii('family' in parts ? parts.family : parts.literal);
  const word = textIn(record.title, 'en')
    .split(/\s+/)
    .map(ascii)
    .find((w) => w.length > 2 && !['the', 'and', 'for'].includes(w));
  const key = `${family}${record.publishedAt.slice(0, 4)}${word ?? ''}`;
  return /^[a-z]/.test(key) ? key : `dataset${key}`;
}

/**
 * The record as a CSL-JSON item in a language: its creators (shared rules/creators.ts) in their order,
 * else the data centre as the author; year, publisher, DOI. Every citation (GB/T 7714, APA, RIS,
 * BibTeX, the landing page's and the voucher's) is made from it.
 */
export function cslItem(record: CitableRecord, language: Language): CslItem {
  const { creators } = record;
  const [year, month, day] = record.publishedAt.slice(0, 10).split('-').map(Number) as [number, number, number];
  const abstract = textIn(record.abstract, language);
  const keywords = record.keywords.map((k) => textIn(k.name, language)).filter(Boolean);
  return {
    id: record.id,
    type: 'dataset',
    title: textIn(record.title, language),
    author: creators.length ? creators.map((person) => nameParts(person, language)) : [{ literal: record.publisher[language] }],
    issued: { 'date-parts': [[year, month, day]] },
    publisher: record.publisher[language],
    language: CSL_LOCALES[language],
    'citation-key': citationKey(record),
    // The access path is the landing page; the DOI has a field of its own (APA prints it as a link).
    URL: record.url[language],
    ...(record.doi ? { DOI: record.doi } : {}),
    ...(abstract ? { abstract } : {}),
    ...(keywords.length ? { keyword: keywords.join(', ') } : {}),
  };
}

type CiteConstructor = typeof import('@citation-js/core').Cite;

let loading: Promise<CiteConstructor> | undefined;

/** citation-js with the CSL and RIS plugins, our styles and the zh-CN locale: loaded once. */
function citationJs(): Promise<CiteConstructor> {
  loading ??= (async () => {
    const core = await import('@citation-js/core');
    await Promise.all([import('@citation-js/plugin-csl'), import('@citation-js/plugin-ris')]);
    const csl = core.plugins.config.get('@csl') as { styles: { add(name: string, xml: string): void }; locales: { add(name: string, xml: string): void } };
    for (const [name, file] of Object.entries(CITATION_STYLES)) csl.styles.add(`portal-${name}`, fs.readFileSync(path.join(CSL_FOLDER, file), 'utf8'));
    csl.locales.add('zh-CN', fs.readFileSync(path.join(CSL_FOLDER, 'locales-zh-CN.xml'), 'utf8'));
    return core.Cite;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * The record's reference in a style and language, as plain text. The numeric GB/T 7714 style
 * numbers the entries of a reference list; one dataset's citation stands alone, without "[1]".
 */
export async function formatCitation(record: CitableRecord, style: CitationStyle, language: Language): Promise<string> {
  const Cite = await citationJs();
  const text = new Cite([cslItem(record, language)]).format('bibliography', { format: 'text', template: `portal-${style}`, lang: CSL_LOCALES[language] }) as string;
  return text.replace(/^\s*\[1\]\s*/, '').trim();
}

/**
 * A text on one line, each run of white space (line breaks among them) one space. An RIS value is one
 * line: a line of its own beginning "TY  - " would start another record, and readers split a line at
 * its first "  - " (citation-js at every one). A BibTeX value kept on one line leaves line-based tools
 * nothing to misread, and TeX reads any run of white space as one space anyway.
 */
export const oneLine = (text: string) => text.replace(/[\s\u0085]+/g, ' ').trim();

/**
 * The characters BibTeX or LaTeX read as syntax, written as text: braces would end a value early
 * (`Close}, note = {...` would add a field), a backslash starts a command, `%` comments out the rest of
 * the line in LaTeX, `& # $ _ ~ ^` are LaTeX's special characters (pdflatex stops on them), and `@`
 * starts an entry for the many readers that look for it anywhere. Each escape is one that LaTeX prints
 * as the character and BibTeX readers decode.
 */
const BIBTEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '%': '\\%',
  '&': '\\&',
  '#': '\\#',
  $: '\\$',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '@': '{@}',
};

/** A text as the inside of a braced BibTeX value: escaped, on one line, its braces balanced. */
export function bibtexText(text: string): string {
  return oneLine(text).replace(/[\\{}%&#$_~^@]/g, (c) => BIBTEX_ESCAPES[c]!);
}

/**
 * An address or DOI as a BibTeX value: printed verbatim (`\url`, biblatex's doi), so not escaped as
 * text; the characters that would end the value or the address (braces, backslash, white space)
 * are percent-encoded, as in any URI.
 */
function bibtexVerbatim(text: string): string {
  return oneLine(text).replace(/[{}\\\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A title whose words with capitals are braced, so that styles that lower-case titles keep them. */
function bibtexTitle(text: string): string {
  return bibtexText(text)
    .split(/( +)/)
    .map((word) => (/\p{Lu}/u.test(word) ? `{${word}}` : word))
    .join('');
}

/** One name as BibTeX reads it: "Family, Given", an organisation braced whole. */
function bibtexName(name: CslItem['author'][number]): string {
  // A part holding a comma or the word "and" would be split there: braced, it is read whole.
  const part = (text: string) => {
    const escaped = bibtexText(text);
    return /,|\band\b/i.test(escaped) ? `{${escaped}}` : escaped;
  };
  if ('literal' in name) return `{${bibtexText(name.literal)}}`;
  return name.given ? `${part(name.family)}, ${part(name.given)}` : part(name.family);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * BibTeX of the item, written here rather than by citation-js, whose BibTeX output leaves values
 * unescaped outside its ASCII-only mode (which drops Chinese text). UTF-8, as biber, XeLaTeX and
 * LuaLaTeX read it; every text value escaped by `bibtexText`.
 */
export function bibtexEntry(item: CslItem): string {
  const [[year, month]] = item.issued['date-parts'];
  const fields: [string, string][] = [
    ['author', `{${item.author.map(bibtexName).join(' and ')}}`],
    ['title', `{${bibtexTitle(item.title)}}`],
    ['year', `{${year}}`],
    ['month', MONTHS[month - 1] ?? `{${month}}`],
    ['publisher', `{${bibtexText(item.publisher)}}`],
    ...(item.DOI ? [['doi', `{${bibtexVerbatim(item.DOI)}}`] as [string, string]] : []),
    ['url', `{${bibtexVerbatim(item.URL)}}`],
    ...(item.abstract ? [['abstract', `{${bibtexText(item.abstract)}}`] as [string, string]] : []),
    ...(item.keyword ? [['keywords', `{${bibtexText(item.keyword)}}`] as [string, string]] : []),
  ];
  // The key is ASCII letters and digits (citationKey), nothing to escape.
  return `@misc{${item['citation-key']},\n${fields.map(([name, value]) => `\t${name} = ${value},\n`).join('')}}\n`;
}

/**
 * RIS of the item: citation-js maps it to tags, and the lines are written here, each value on one
 * line. (citation-js's own RIS text breaks every value after 70 characters, even within a word: a
 * reader joins the pieces with a space, and a piece beginning "TY  - " would start a record.)
 */
function risText(entries: Record<string, unknown>[]): string {
  return entries
    .map((entry) => {
      const line = (tag: string, value: unknown) => `${tag}  - ${oneLine(String(value))}`;
      const tags = Object.entries(entry).filter(([tag]) => tag !== 'TY' && tag !== 'ER');
      return [line('TY', entry.TY), ...tags.flatMap(([tag, value]) => [value].flat().map((one) => line(tag, one))), 'ER  - '].join('\n');
    })
    .join('\n');
}

/** RIS or BibTeX of the record in a language. */
export async function formatReference(record: CitableRecord, format: 'ris' | 'bibtex', language: Language): Promise<string> {
  const item = cslItem(record, language);
  if (format === 'bibtex') return bibtexEntry(item);
  const Cite = await citationJs();
  return risText(new Cite([item]).format('ris', { format: 'object' }) as Record<string, unknown>[]);
}
