import { createHash } from 'node:crypto';
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
export const CSL_LOCALES: Record<Language, string> = { 'zh-hans': 'zh-CN', en: 'en-US' };

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
  /** The day the citation is made: GB/T 7714 prints it as the access date, "[2024-05-01]". */
  accessed: { 'date-parts': [[number, number, number]] };
  publisher: string;
  language: string;
  'citation-key': string;
  URL: string;
  DOI?: string;
  abstract?: string;
  keyword?: string;
}

/**
 * The record's short id, ASCII letters and digits: the first 8 hex digits of an id the portal made
 * (a UUID), else an id of letters and digits as it is, else (an imported id with other characters)
 * 8 characters of the id's SHA-256. The same for the record's life.
 */
export function shortId(id: string): string {
  const uuid = /^([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec(id);
  if (uuid) return uuid[1]!.toLowerCase();
  if (/^[A-Za-z0-9]{1,16}$/.test(id)) return id;
  return createHash('sha256').update(id).digest('hex').slice(0, 8);
}

/**
 * A key in the usual BibTeX form, ASCII, the same in both languages and for the record's life: the
 * first creator's romanized family name (the data centre's English name when the record has no
 * creator), the year, the first word of the English title, and the record's short id, which makes it
 * unique ("zhang2021glacier-3f2a9c1b"): two records by one author in one year on one subject are
 * common.
 */
export function citationKey(record: CitableRecord): string {
  const first = record.creators[0];
  const parts = first ? nameParts(first, 'en') : { literal: record.publisher.en };
  const ascii = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]/g, '')
      .toLowerCase();
  const family = ascii('family' in parts ? parts.family : parts.literal);
  const word = textIn(record.title, 'en')
    .split(/\s+/)
    .map(ascii)
    .find((w) => w.length > 2 && !['the', 'and', 'for'].includes(w));
  const key = `${family}${record.publishedAt.slice(0, 4)}${word ?? ''}`;
  return `${/^[a-z]/.test(key) ? key : `dataset${key}`}-${shortId(record.id)}`;
}

type DateParts = [number, number, number];
const datePartsOf = (day: string) => day.slice(0, 10).split('-').map(Number) as DateParts;
/** Today (UTC), the day a citation is made. */
const today = () => new Date().toISOString().slice(0, 10);

/** When a citation is made: `accessed` is that day (YYYY-MM-DD, UTC), today when not given. */
export interface CitationOptions {
  accessed?: string;
}

/**
 * The record as a CSL-JSON item in a language: its creators (shared rules/creators.ts) in their order,
 * else the data centre as the author; year, publisher, DOI, and the day it is cited (`accessed`).
 * Every citation (GB/T 7714, APA, RIS, BibTeX, the landing page's and the voucher's) is made from it.
 */
export function cslItem(record: CitableRecord, language: Language, { accessed = today() }: CitationOptions = {}): CslItem {
  const { creators } = record;
  const abstract = textIn(record.abstract, language);
  const keywords = record.keywords.map((k) => textIn(k.name, language)).filter(Boolean);
  return {
    id: record.id,
    type: 'dataset',
    title: textIn(record.title, language),
    author: creators.length ? creators.map((person) => nameParts(person, language)) : [{ literal: record.publisher[language] }],
    issued: { 'date-parts': [datePartsOf(record.publishedAt)] },
    // APA prints it only for an item without a date; GB/T 7714 for every electronic resource.
    accessed: { 'date-parts': [datePartsOf(accessed)] },
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
 * The record's reference in a style and language, as plain text, made on `options.accessed` (today
 * when not given; GB/T 7714 prints it as "[2024-05-01]"). The numeric GB/T 7714 style numbers the
 * entries of a reference list; one dataset's citation stands alone, without "[1]".
 */
export async function formatCitation(record: CitableRecord, style: CitationStyle, language: Language, options: CitationOptions = {}): Promise<string> {
  const Cite = await citationJs();
  const text = new Cite([cslItem(record, language, options)]).format('bibliography', { format: 'text', template: `portal-${style}`, lang: CSL_LOCALES[language] }) as string;
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
 * (`Close}, note = {...` would add a field), and are written as commands with no brace of their own
 * (`\{` is no escape to BibTeX's lexer, which counts its brace: one unmatched `}` and biber drops the
 * entry); a backslash starts a command, `%` comments out the rest of the line in LaTeX,
 * `& # $ _ ~ ^` are LaTeX's special characters (pdflatex stops on them), `<` and `>` print as ¡ and ¿
 * in pdflatex's default OT1 encoding, and `@` starts an entry for the many readers that look for it
 * anywhere. Each escape is one that LaTeX prints as the character and BibTeX readers decode.
 */
const BIBTEX_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
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
  return oneLine(text).replace(/[\\{}<>%&#$_~^@]/g, (c) => BIBTEX_ESCAPES[c]!);
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

/** A CSL date as an ISO day, YYYY-MM-DD: biblatex's `date` and `urldate`. */
const isoDay = ([year, month, day]: DateParts) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * biblatex of the item, written here rather than by citation-js, whose BibTeX output leaves values
 * unescaped outside its ASCII-only mode (which drops Chinese text). An `@dataset` entry with the
 * fields biblatex's data model gives that type, so that biber reads it without a warning: `date`
 * (the day of publication; not `year` and `month`, which biber would overwrite from it), `urldate`
 * (the day it is cited: biblatex-gb7714-2015 prints it as GB/T 7714's access date), `publisher`,
 * `doi`, `url`, `abstract`, `keywords`. (BibTeX's own styles know no `@dataset` and read an entry
 * of an unknown type as `@misc`; `@misc` would need `howpublished` instead of `publisher` and loses
 * the type in biblatex, Zotero and JabRef.) UTF-8, as biber, XeLaTeX and LuaLaTeX read it; every
 * text value escaped by `bibtexText`.
 */
export function bibtexEntry(item: CslItem): string {
  const fields: [string, string][] = [
    ['author', `{${item.author.map(bibtexName).join(' and ')}}`],
    ['title', `{${bibtexTitle(item.title)}}`],
    ['date', `{${isoDay(item.issued['date-parts'][0])}}`],
    ['publisher', `{${bibtexText(item.publisher)}}`],
    ...(item.DOI ? [['doi', `{${bibtexVerbatim(item.DOI)}}`] as [string, string]] : []),
    ['url', `{${bibtexVerbatim(item.URL)}}`],
    ['urldate', `{${isoDay(item.accessed['date-parts'][0])}}`],
    ...(item.abstract ? [['abstract', `{${bibtexText(item.abstract)}}`] as [string, string]] : []),
    ...(item.keyword ? [['keywords', `{${bibtexText(item.keyword)}}`] as [string, string]] : []),
  ];
  // The key is ASCII letters, digits and a hyphen (citationKey), nothing to escape.
  return `@dataset{${item['citation-key']},\n${fields.map(([name, value]) => `\t${name} = ${value},\n`).join('')}}\n`;
}

/** A CSL date as RIS writes dates, YYYY/MM/DD/ (DA, Y2). */
const risDay = (parts: DateParts) => `${isoDay(parts).replaceAll('-', '/')}/`;

/**
 * RIS of the item: citation-js maps it to tags, and the lines are written here, each value on one
 * line, the record ended by "ER  - " and a line break. (citation-js's own RIS text breaks every value
 * after 70 characters, even within a word: a reader joins the pieces with a space, and a piece
 * beginning "TY  - " would start a record.) The keywords are the record's, one KW line each (the CSL
 * item joins them with commas, which a keyword may hold); the dates in RIS's YYYY/MM/DD/ form, DA
 * the day of publication and Y2 the access date (the day the citation is made).
 */
function risText(entry: Record<string, unknown>, keywords: string[], item: CslItem): string {
  // ID: the BibTeX key, as JabRef writes it (citation-js cuts the record's id at 20 characters).
  const tags: Record<string, unknown> = { ...entry, ID: item['citation-key'], DA: risDay(item.issued['date-parts'][0]), Y2: risDay(item.accessed['date-parts'][0]) };
  if (keywords.length) tags.KW = keywords;
  else delete tags.KW;
  const line = (tag: string, value: unknown) => `${tag}  - ${oneLine(String(value))}`;
  const lines = Object.entries(tags)
    .filter(([tag]) => tag !== 'TY' && tag !== 'ER')
    .flatMap(([tag, value]) => [value].flat().map((one) => line(tag, one)));
  return `${[line('TY', tags.TY), ...lines, 'ER  - '].join('\n')}\n`;
}

/** RIS or biblatex of the record in a language, made on `options.accessed` (today when not given). */
export async function formatReference(record: CitableRecord, format: 'ris' | 'bibtex', language: Language, options: CitationOptions = {}): Promise<string> {
  const item = cslItem(record, language, options);
  if (format === 'bibtex') return bibtexEntry(item);
  const Cite = await citationJs();
  const [entry] = new Cite([item]).format('ris', { format: 'object' }) as Record<string, unknown>[];
  const keywords = record.keywords.map((k) => oneLine(textIn(k.name, language))).filter(Boolean);
  return risText(entry!, keywords, item);
}
