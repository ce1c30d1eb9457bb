import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '@portal/shared';
import { textIn, type CitableRecord } from './citable-record.js';
import { nameParts } from './names.js';

/**
 * Citations of a record in one language: CSL-JSON (the one mapping), and from it, through
 * citation-js, the APA and GB/T 7714-2015 texts (CSL styles of the CSL project, shipped in csl/),
 * RIS and BibTeX. citation-js and its plugins are loaded on the first citation asked for, never by
 * the server's start or its other requests.
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
 * family name, the year and the first word of the English title ("zhang2021glacier").
 */
export function citationKey(record: CitableRecord): string {
  const first = record.creators[0] ?? record.contributors[0]?.person;
  const parts = first ? nameParts(first, 'en') : { literal: '' };
  const ascii = (text: string) => text.normalize('NFKD').replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  const family = ascii('family' in parts ? parts.family : parts.literal);
  const word = textIn(record.title, 'en')
    .split(/\s+/)
    .map(ascii)
    .find((w) => w.length > 2 && !['the', 'and', 'for'].includes(w));
  const key = `${family}${record.publishedAt.slice(0, 4)}${word ?? ''}`;
  return /^[a-z]/.test(key) ? key : `dataset${key}`;
}

/** The record as a CSL-JSON item in a language: its creators (else the data centre), year, publisher, DOI. */
export function cslItem(record: CitableRecord, language: Language): CslItem {
  const creators = record.creators.length ? record.creators : [...new Set(record.contributors.map((c) => c.person))];
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

/** citation-js with the CSL, RIS and BibTeX plugins, our styles and the zh-CN locale: loaded once. */
function citationJs(): Promise<CiteConstructor> {
  loading ??= (async () => {
    const core = await import('@citation-js/core');
    await Promise.all([import('@citation-js/plugin-csl'), import('@citation-js/plugin-ris'), import('@citation-js/plugin-bibtex')]);
    const csl = core.plugins.config.get('@csl') as { styles: { add(name: string, xml: string): void }; locales: { add(name: string, xml: string): void } };
    for (const [name, file] of Object.entries(CITATION_STYLES)) csl.styles.add(`portal-${name}`, fs.readFileSync(path.join(CSL_FOLDER, file), 'utf8'));
    csl.locales.add('zh-CN', fs.readFileSync(path.join(CSL_FOLDER, 'locales-zh-CN.xml'), 'utf8'));
    // BibTeX in UTF-8 (biber, XeLaTeX and LuaLaTeX read it): Chinese names and titles stay as they are.
    (core.plugins.config.get('@bibtex') as { format: { asciiOnly: boolean } }).format.asciiOnly = false;
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

/** RIS or BibTeX of the record in a language. */
export async function formatReference(record: CitableRecord, format: 'ris' | 'bibtex', language: Language): Promise<string> {
  const Cite = await citationJs();
  return new Cite([cslItem(record, language)]).format(format, { format: 'text' }) as string;
}
