import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { parse as parseRis } from 'astrocite-ris';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, buildExportRecord } from './factories.js';
import { type TestPortal } from './helpers.js';
import { createLandingTestPortal } from './exports-builders.js';

/**
 * Every citation format read back by real reference managers' parsers (issue 17), over published
 * records with every optional part present (a Chinese record with its English translation) and absent
 * (no author, abstract, keyword or DOI), Chinese, English, characters beyond the BMP (𠮷) and LaTeX's
 * specials: RIS by citation-js and astrocite-ris, biblatex by citation-js, @retorquere/bibtex-parser
 * (Better BibTeX's) and biber (Debian's, validating against biblatex's data model), CSL-JSON as
 * written. Each reading must give the record's title, authors in order, year, DOI, address and
 * keywords, not merely parse. GB/T 7714 carries the day it is cited as its access date, on the
 * landing page too.
 */
let portal: TestPortal;
let close: () => Promise<void>;
const ids = {} as Record<'chinese' | 'english' | 'twin' | 'bare' | 'unbalanced', string>;

/** LaTeX's and BibTeX's specials, each of them, in a title. */
const SPECIALS = 'Ice & snow 50% #1 $x_2$ {a} ~ ^ \\';
const ZH_TITLE = `𠮷冰川 & 雪 50% #1 $x_2$ {a} ~ ^ \\ 数据集`;
const DOI_CHINESE = '10.11888/Glacio.tpdc.270001';
/** One brace of a pair in each text (BibTeX's lexer counts braces, `\}` too), and `<` `>` (pdflatex's OT1 prints ¡ ¿). */
const UNBALANCED = { zh: '𠮷野 "引号" } & 100% <数据>', en: 'Unbalanced "quoted" } & 100% <data>', zhAbstract: '未闭合的 { 括号。', enAbstract: 'An open { brace > one.' };
const DOI_ENGLISH = '10.11888/Polar.tpdc.300002';

type Language = 'zh-hans' | 'en';

/** What every reader must find: names as "Family, Given", or the one name of a single-field name. */
interface Expected {
  title: string;
  authors: string[];
  year: number;
  doi: string;
  url: string;
  keywords: string[];
}

const landing = (id: string, language: Language) => `http://portal.test${language === 'en' ? '/en' : ''}/data/${id}/`;

/** The record's facts as each reader must give them, in each language. */
function expected(key: keyof typeof ids, language: Language): Expected {
  const url = landing(ids[key], language);
  const zh = language === 'zh-hans';
  switch (key) {
    case 'chinese':
      return {
        title: zh ? ZH_TITLE : SPECIALS,
        // 𠮷祥 has no English name: the Chinese one in both; 𠮷 alone is one name, not split in half.
        authors: zh ? ['𠮷, 祥', '欧阳, 冰', 'Karlsson, Anna', '𠮷'] : ['𠮷, 祥', 'Ouyang, Bing', 'Karlsson, Anna', '𠮷'],
        year: 2021,
        doi: DOI_CHINESE,
        url,
        keywords: zh ? ['冰川 & 雪', '𠮷地 50%', '青藏高原'] : ['Ice & snow #1', 'Ji_land 50%', 'Tibetan Plateau'],
      };
    case 'english':
      return {
        title: zh ? '冰雪 {a} 数据' : 'Ice thickness & snow depth $h_s$',
        authors: ['Karlsson, Anna', zh ? '张, 冰川' : 'Zhang, Bingchuan'],
        year: 2021,
        doi: DOI_ENGLISH,
        url,
        keywords: [zh ? '海冰' : 'sea ice'],
      };
    case 'twin':
      return { title: zh ? '冰川厚度' : 'Ice volume', authors: ['Karlsson, Anna'], year: 2021, doi: '', url, keywords: [] };
    case 'unbalanced':
      // "𠮷野, 家" is written "Family, Given" (DataCite's way): split at the comma, in both languages (no English name).
      return { title: zh ? UNBALANCED.zh : UNBALANCED.en, authors: ['𠮷野, 家', 'Karlsson, Anna'], year: 2022, doi: '', url, keywords: [] };
    case 'bare':
      // No author: the data centre; no keyword, abstract or DOI.
      return { title: 'Bare record', authors: [zh ? '三极科学数据门户' : 'Three Poles Data Portal'], year: 2023, doi: '', url, keywords: [] };
  }
}

beforeAll(async () => {
  ({ portal, close } = await createLandingTestPortal());
  const owner = await buildUser(portal);
  ids.chinese = await buildExportRecord(
    portal,
    owner.id,
    {
      key: 'chinese',
      language: 'zh-hans',
      zh: { title: ZH_TITLE, abstract: '第一行 100% {完}。\n第二行 $x$ & 𠮷。' },
      en: { title: SPECIALS, abstract: 'Line one: 100% {done}.\nLine two: $x_1$ & #2 ~ ^ \\.' },
      themes: [
        ['冰川 & 雪', 'Ice & snow #1'],
        ['𠮷地 50%', 'Ji_land 50%'],
      ],
      places: [['青藏高原', 'Tibetan Plateau']],
      authors: [
        ['𠮷祥', ''],
        ['欧阳冰', 'Ouyang Bing'],
        ['Anna Karlsson', 'Anna Karlsson'],
        ['𠮷', ''],
      ],
      license: 'CC BY 4.0',
      published: '2021-05-01',
      doi: DOI_CHINESE,
    },
    { affiliation: ['中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'] },
  );
  ids.english = await buildExportRecord(portal, owner.id, {
    key: 'english',
    language: 'en',
    zh: { title: '冰雪 {a} 数据', abstract: '海冰。' },
    en: { title: 'Ice thickness & snow depth $h_s$', abstract: 'Sea ice ~ snow.' },
    themes: [['海冰', 'sea ice']],
    authors: [
      ['Anna Karlsson', 'Anna Karlsson'],
      ['张冰川', 'Zhang Bingchuan'],
    ],
    published: '2021-09-30',
    doi: DOI_ENGLISH,
  });
  // The same first author, year and first title word as `english`: the same key before the short id.
  ids.twin = await buildExportRecord(portal, owner.id, {
    key: 'twin',
    language: 'en',
    zh: { title: '冰川厚度' },
    en: { title: 'Ice volume' },
    authors: [['Anna Karlsson', 'Anna Karlsson']],
    published: '2021-02-01',
  });
  ids.unbalanced = await buildExportRecord(portal, owner.id, {
    key: 'unbalanced',
    language: 'zh-hans',
    zh: { title: UNBALANCED.zh, abstract: UNBALANCED.zhAbstract },
    en: { title: UNBALANCED.en, abstract: UNBALANCED.enAbstract },
    authors: [
      ['𠮷野, 家', ''],
      ['Anna Karlsson', 'Anna Karlsson'],
    ],
    published: '2022-03-04',
  });
  ids.bare = await buildExportRecord(portal, owner.id, { key: 'bare', language: 'en', zh: { title: '' }, en: { title: 'Bare record' }, published: '2023-11-26' });
});

afterAll(() => close());

const RECORDS = ['chinese', 'english', 'twin', 'bare', 'unbalanced'] as const;
const LANGUAGES = ['zh-hans', 'en'] as const;
const EACH = RECORDS.flatMap((key) => LANGUAGES.map((language) => [key, language] as const));

async function exported(id: string, format: string, language: Language): Promise<string> {
  const response = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${id}/export/?format=${format}&lang=${language}` });
  if (response.statusCode !== 200) throw new Error(`${format} of ${id}: ${response.statusCode} ${response.body}`);
  return response.body;
}

/** Today (UTC), the day a citation is made. */
const today = () => new Date().toISOString().slice(0, 10);

/** A text with no half of a character: no lone surrogate, no replacement character for one. */
function expectWhole(text: string, what: string) {
  expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text), what).toBe(false);
  expect(text, what).not.toContain('\uFFFD');
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A CSL name as "Family, Given", or its one name. */
const cslName = (name: any): string => name.literal ?? (name.given ? `${name.family}, ${name.given}` : name.family);
/** A CSL year, whether the reader gives numbers or strings. */
const cslYear = (date: any): number => Number(date?.['date-parts']?.[0]?.[0]);
const cslDay = (date: any): string => (date?.['date-parts']?.[0] ?? []).map((part: unknown, index: number) => String(part).padStart(index ? 2 : 4, '0')).join('-');
/** Keywords as a list, whether the reader gives one or a comma-separated text. */
const keywordList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(/\s*,\s*/) : []).sort();

/** The facts of a CSL item as a reader made it. */
const factsOfCsl = (item: any): Expected => ({
  title: item.title,
  authors: (item.author ?? []).map(cslName),
  year: cslYear(item.issued),
  doi: item.DOI ?? '',
  url: item.URL,
  keywords: keywordList(item.keyword),
});

const sorted = (facts: Expected): Expected => ({ ...facts, keywords: [...facts.keywords].sort() });

describe('RIS', () => {
  it('one tag and value a line, keywords one a line without a leading space, a line break after "ER  - "', async () => {
    for (const [key, language] of EACH) {
      const ris = await exported(ids[key], 'ris', language);
      const what = `${key} ${language}\n${ris}`;
      expectWhole(ris, what);
      expect(ris.endsWith('\nER  - \n'), what).toBe(true);
      const lines = ris.slice(0, -1).split('\n');
      expect(
        lines.every((line) => /^[A-Z][A-Z0-9] {2}- \S/.test(line) || line === 'ER  - '),
        what,
      ).toBe(true);
      expect(
        lines.filter((line) => line.startsWith('TY  - ')),
        what,
      ).toEqual(['TY  - DATA']);
      expect(
        lines
          .filter((line) => line.startsWith('KW  - '))
          .map((line) => line.slice(6))
          .sort(),
        what,
      ).toEqual([...expected(key, language).keywords].sort());
      // The day of publication and the access date, as RIS writes dates.
      expect(lines, what).toContain(`Y2  - ${today().replaceAll('-', '/')}/`);
      expect(
        lines.find((line) => line.startsWith('DA  - ')),
        what,
      ).toMatch(/^DA {2}- \d{4}\/\d\d\/\d\d\/$/);
    }
  });

  it('citation-js reads the title, authors in order, year, DOI, address and keywords', async () => {
    for (const [key, language] of EACH) {
      const ris = await exported(ids[key], 'ris', language);
      const items = (await Cite.async(ris, { forceType: '@ris/file' })).data as any[];
      expect(items, ris).toHaveLength(1);
      expect(factsOfCsl(items[0]), `${key} ${language}`).toEqual(sorted(expected(key, language)));
    }
  });

  it('astrocite-ris reads the same', async () => {
    for (const [key, language] of EACH) {
      const ris = await exported(ids[key], 'ris', language);
      const items = parseRis(ris) as any[];
      expect(items, ris).toHaveLength(1);
      const facts = factsOfCsl(items[0]);
      const want = sorted(expected(key, language));
      // astrocite-core reads a name without a comma as "First von Last" (its FIRST_VON_LAST pattern),
      // and as an empty family name when it does not start with a Latin capital: a one-field name (the
      // data centre, 𠮷), which RIS has no other way to write, is compared by position only; every
      // "Family, Given" name exactly.
      expect(facts.authors.length, ris).toBe(want.authors.length);
      const readable = (name: string) => name.includes(', ');
      expect(
        facts.authors.map((name, index) => (readable(want.authors[index]!) ? name : '')),
        ris,
      ).toEqual(want.authors.map((name) => (readable(name) ? name : '')));
      expect({ ...facts, authors: [] }, `${key} ${language}`).toEqual({ ...want, authors: [] });
      expect(cslDay(items[0].accessed)).toBe(today());
    }
  });
});

/** biber's reading of a .bib text (tool mode, checked against biblatex's data model): its messages and its output. */
function biber(bibtex: string): { warnings: string[]; output: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-biber-'));
  try {
    fs.writeFileSync(path.join(folder, 'in.bib'), bibtex);
    const run = spawnSync('biber', ['--tool', '--validate-datamodel', '--nolog', '--output-file', 'out.bib', 'in.bib'], { cwd: folder, encoding: 'utf8' });
    if (run.error) throw new Error(`biber could not run (Debian package biber, installed by .ci/run): ${run.error.message}`);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const warnings = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /^(WARN|ERROR)/.test(line));
    return { warnings, output: fs.readFileSync(path.join(folder, 'out.bib'), 'utf8') };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describe('biblatex', () => {
  it('an @dataset entry, its key unique per record and the same in both languages, every LaTeX special escaped', async () => {
    const keys = new Map<string, string>();
    for (const [key, language] of EACH) {
      const bibtex = await exported(ids[key], 'bibtex', language);
      expectWhole(bibtex, bibtex);
      const [, citationKey] = /^@dataset\{([A-Za-z0-9-]+),\n/.exec(bibtex) ?? [];
      expect(citationKey, bibtex).toBeDefined();
      expect(citationKey!.endsWith(`-${ids[key].slice(0, 8)}`), bibtex).toBe(true);
      if (keys.has(key)) expect(citationKey).toBe(keys.get(key));
      keys.set(key, citationKey!);
      expect(bibtex).not.toMatch(/^\t(month|year|howpublished) = /m);
      expect(bibtex).toMatch(/^\tdate = \{\d{4}-\d\d-\d\d\},$/m);
      expect(bibtex).toContain(`\turldate = {${today()}},\n`);
    }
    expect(new Set(keys.values()).size).toBe(RECORDS.length);
    // `english` and `twin`: Karlsson, 2021, "Ice": told apart by their short ids.
    expect(keys.get('english')!.replace(/-.*/, '')).toBe(keys.get('twin')!.replace(/-.*/, ''));
    const title = (await exported(ids.chinese, 'bibtex', 'en')).split('\n').find((line) => line.startsWith('\ttitle = '))!;
    expect(title).toBe('\ttitle = {{Ice} \\& snow 50\\% \\#1 \\$x\\_2\\$ \\textbraceleft{}a\\textbraceright{} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}},');
    // A brace alone and `<` `>` as commands that hold no brace of their own: the value's braces balance.
    const unbalanced = await exported(ids.unbalanced, 'bibtex', 'en');
    expect(unbalanced).toContain('\ttitle = {{Unbalanced} "quoted" \\textbraceright{} \\& 100\\% \\textless{}data\\textgreater{}},\n');
    expect(unbalanced).toContain('\tabstract = {An open \\textbraceleft{} brace \\textgreater{} one.},\n');
    expect(unbalanced).toContain('\tauthor = {𠮷野, 家 and Karlsson, Anna},\n');
  });

  it('citation-js reads the title, authors in order, year, DOI, address, keywords and access date', async () => {
    for (const [key, language] of EACH) {
      const bibtex = await exported(ids[key], 'bibtex', language);
      const items = (await Cite.async(bibtex, { forceType: '@biblatex/text' })).data as any[];
      expect(items, bibtex).toHaveLength(1);
      expect(items[0].type, bibtex).toBe('dataset');
      expect(factsOfCsl(items[0]), `${key} ${language}`).toEqual(sorted(expected(key, language)));
      expect(cslDay(items[0].accessed), bibtex).toBe(today());
    }
  });

  it("@retorquere/bibtex-parser (Better BibTeX's) reads the same, without an error", async () => {
    for (const [key, language] of EACH) {
      const bibtex = await exported(ids[key], 'bibtex', language);
      // Titles as written: no sentence-casing of English titles, which is a display choice.
      const library = parseBibtex(bibtex, { sentenceCase: false, english: false });
      expect(library.errors, bibtex).toEqual([]);
      expect(library.entries, bibtex).toHaveLength(1);
      const { type, fields } = library.entries[0]! as { type: string; fields: any };
      expect(type).toBe('dataset');
      const facts: Expected = {
        title: fields.title,
        authors: fields.author.map((name: any) => name.name ?? (name.firstName ? `${name.lastName}, ${name.firstName}` : name.lastName)),
        year: Number(String(fields.date).slice(0, 4)),
        doi: fields.doi ?? '',
        url: fields.url,
        // Better BibTeX reads keywords verbatim (as Zotero tags, escapes kept; biber passes them to
        // LaTeX escaped, which is why they are): the one-character escapes the fixtures need undone.
        keywords: (fields.keywords ?? []).map((keyword: string) => keyword.replace(/\\([&%#_])/g, '$1')).sort(),
      };
      expect(facts, `${key} ${language}`).toEqual(sorted(expected(key, language)));
    }
  });

  it("biber reads every field without a warning against biblatex's data model", async () => {
    // One file of all the records per language (one run of biber each: it takes a second to start).
    for (const language of LANGUAGES) {
      const entries = await Promise.all(RECORDS.map((key) => exported(ids[key], 'bibtex', language)));
      const { warnings, output } = biber(entries.join('\n'));
      expect(warnings, output).toEqual([]);
      // biber writes back what it read: every field whole (a value cut at a % or a brace would differ).
      const written = output.split(/^(?=@)/m).filter((entry) => entry.startsWith('@'));
      expect(written, output).toHaveLength(RECORDS.length);
      const field = (text: string, name: string) => new RegExp(`^\\s*${name} = (.*),$`, 'mi').exec(text)?.[1];
      // biber decodes \textless{} and \textgreater{} and writes the characters back (`<{}`): the same text.
      const asBiberWrites = (value: string | undefined) => value?.replace(/\\text(less|greater)\{\}/g, (_, which: string) => `${which === 'less' ? '<' : '>'}{}`);
      for (const [index, key] of RECORDS.entries()) {
        const bibtex = entries[index]!;
        const read = written.find((entry) => entry.includes(`-${ids[key].slice(0, 8)},`));
        expect(read, output).toMatch(/^@DATASET\{/);
        for (const name of ['author', 'title', 'date', 'publisher', 'doi', 'url', 'urldate', 'abstract']) {
          expect(field(read!, name), `${key} ${language} ${name}\n${read}`).toBe(asBiberWrites(field(bibtex, name)));
        }
        expect(field(read!, 'keywords')?.split(','), read).toEqual(field(bibtex, 'keywords')?.split(', '));
      }
    }
  });
});

describe('CSL-JSON', () => {
  it('names split by characters, the access date given', async () => {
    for (const [key, language] of EACH) {
      const body = await exported(ids[key], 'csl', language);
      expectWhole(body, body);
      const [item] = JSON.parse(body);
      expect(factsOfCsl(item), `${key} ${language}`).toEqual(sorted(expected(key, language)));
      expect(item.accessed).toEqual({ 'date-parts': [today().split('-').map(Number)] });
    }
  });
});

describe('GB/T 7714-2015', () => {
  const citationTag = (html: string) => /<meta name="dcterms\.bibliographicCitation" content="([^"]*)" \/>/.exec(html)?.[1];

  it('gives the day it is cited as the access date [YYYY-MM-DD], in the export and on the landing page', async () => {
    const day = today();
    const zh = await exported(ids.chinese, 'gbt7714', 'zh-hans');
    expectWhole(zh, zh);
    expect(zh).toBe(`𠮷祥, 欧阳冰, KARLSSON A, 等. ${ZH_TITLE}[DS/OL]. 三极科学数据门户, 2021[${day}]. ${landing(ids.chinese, 'zh-hans')}. DOI:${DOI_CHINESE}.\n`);
    expect(await exported(ids.bare, 'gbt7714', 'en')).toBe(`THREE POLES DATA PORTAL. Bare record[DS/OL]. Three Poles Data Portal, 2023[${day}]. ${landing(ids.bare, 'en')}.\n`);
    const page = await portal.app.inject({ method: 'GET', url: `/data/${ids.english}/`, headers: { accept: 'text/html' } });
    expect(citationTag(page.body)).toBe((await exported(ids.english, 'gbt7714', 'zh-hans')).trim());
    expect(citationTag(page.body)).toContain(`[${day}]`);
  });

  it('names a person written "Family, Given" by family name and given name, in APA and GB/T 7714 too', async () => {
    const day = today();
    // citeproc-js writes a name in Chinese characters family name first, whole (no initials).
    expect(await exported(ids.unbalanced, 'apa', 'en')).toBe(
      `𠮷野家, & Karlsson, A. (2022). ${UNBALANCED.en.replace(/"([^"]*)"/, '“$1”')} [Data set]. Three Poles Data Portal. ${landing(ids.unbalanced, 'en')}\n`,
    );
    expect(await exported(ids.unbalanced, 'gbt7714', 'zh-hans')).toBe(
      `𠮷野家, KARLSSON A. ${UNBALANCED.zh.replace(/"([^"]*)"/, '“$1”')}[DS/OL]. 三极科学数据门户, 2022[${day}]. ${landing(ids.unbalanced, 'zh-hans')}.\n`,
    );
    expect((await exported(ids.unbalanced, 'ris', 'en')).split('\n').filter((line) => line.startsWith('AU  - '))).toEqual(['AU  - 𠮷野, 家', 'AU  - Karlsson, Anna']);
  });

  it("the landing page's citation is made again on the next day", async () => {
    const url = `/data/${ids.twin}/`;
    expect(citationTag((await portal.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body)).toContain(`[${today()}]`);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 24 * 3600 * 1000);
      const tomorrow = today();
      expect(citationTag((await portal.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body)).toContain(`[${tomorrow}]`);
    } finally {
      vi.useRealTimers();
    }
  });
});
