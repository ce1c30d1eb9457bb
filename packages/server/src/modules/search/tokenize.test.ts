import { describe, expect, it } from 'vitest';
import { documentTokens, fold, highlightRanges, parseQuery, singular, snippetOf, type QueryTerm } from './tokenize.js';

/** Whether a query term matches one of a document's tokens, as FTS5 and tsquery match them. */
const matches = (term: QueryTerm, tokens: string[]) => tokens.some((t) => (term.prefix ? t.startsWith(term.token) : t === term.token));
/** Whether a query finds a text: every term matches. */
const finds = (q: string, text: string) => {
  const { terms } = parseQuery(q);
  const tokens = documentTokens(text);
  return terms.length > 0 && terms.every((term) => matches(term, tokens));
};
/** The pieces of a text its ranges point at. */
const pieces = (text: string, ranges: [number, number][]) => ranges.map(([a, b]) => text.slice(a, b));
const highlight = (text: string, q: string) => pieces(text, highlightRanges(text, parseQuery(q).highlight));

describe('fold and singular', () => {
  it('folds case, full-width forms and accents', () => {
    expect(fold('Ｇｌａｃｉｅｒ Café ÅNGSTRÖM')).toBe('glacier cafe angstrom');
    expect(fold('冰川')).toBe('冰川');
  });

  it('makes regular English plurals singular and leaves other words alone', () => {
    expect(['glaciers', 'boundaries', 'boxes', 'marshes', 'lakes'].map(singular)).toEqual(['glacier', 'boundary', 'box', 'marsh', 'lake']);
    expect(['glass', 'status', 'analysis', 'ice', 'gas', 'snow', 'x86s'].map(singular)).toEqual(['glass', 'status', 'analysis', 'ice', 'gas', 'snow', 'x86s']);
  });
});

describe('documentTokens', () => {
  it('cuts Chinese into overlapping two-character pieces, its longer dictionary words and its last character', () => {
    const tokens = documentTokens('北极海冰');
    expect(tokens).toEqual(expect.arrayContaining(['北极', '极海', '海冰', '冰']));
    expect(documentTokens('青藏')).toEqual(['青藏', '藏']);
    expect(documentTokens('冰')).toEqual(['冰']);
    expect(documentTokens('青藏高原冰川变化')).toContain('青藏高原');
  });

  it('keeps English words lower-cased with the singular of a plural, and numbers', () => {
    expect(documentTokens('Glaciers of the Tibetan Plateau, 2000-2020')).toEqual(['glaciers', 'glacier', 'of', 'the', 'tibetan', 'plateau', '2000', '2020']);
    expect(documentTokens('10.11888/Glacio.tpdc.270001')).toEqual(['10', '11888', 'glacio', 'tpdc', '270001']);
  });

  it('holds letters and digits only, whatever the text (tokens are quoted into FTS5 and tsquery text)', () => {
    const nasty = `O'Brien "quoted" back\\slash AND OR NOT NEAR(a b) col:umn * ^ - + 'x' 冰川"冻土' ＜script＞ ١٢٣`;
    for (const token of documentTokens(nasty)) expect(token).toMatch(/^[\p{L}\p{N}]+$/u);
    for (const term of parseQuery(nasty).terms) expect(term.token).toMatch(/^[\p{L}\p{N}]+$/u);
  });

  it('cuts very long words', () => {
    const [token] = documentTokens('a'.repeat(100));
    expect(token).toHaveLength(40);
    expect(finds('a'.repeat(100), 'a'.repeat(100))).toBe(true);
  });
});

describe('parseQuery', () => {
  it('a two-character word is one exact piece; a longer run its pieces', () => {
    expect(parseQuery('冰川').terms).toEqual([{ token: '冰川', prefix: false }]);
    expect(parseQuery('青藏高原').terms).toEqual([
      { token: '青藏', prefix: false },
      { token: '藏高', prefix: false },
      { token: '高原', prefix: false },
    ]);
  });

  it('one character is a prefix; English words of three letters or more are prefixes, shorter ones whole', () => {
    expect(parseQuery('冰').terms).toEqual([{ token: '冰', prefix: true }]);
    expect(parseQuery('Glaciers of').terms).toEqual([
      { token: 'glacier', prefix: true },
      { token: 'of', prefix: false },
    ]);
  });

  it('drops repeats and punctuation, and keeps at most 32 terms', () => {
    expect(parseQuery('冰川 冰川 glacier GLACIERS').terms).toEqual([
      { token: '冰川', prefix: false },
      { token: 'glacier', prefix: true },
    ]);
    expect(parseQuery('…，。!? -- **').terms).toEqual([]);
    const many = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    expect(parseQuery(many).terms).toHaveLength(32);
  });

  it('a text is found by its own words, typed in any case, one word or a whole sentence', () => {
    const texts = [
      '青藏高原冰川物质平衡数据集（2000-2020）',
      '本数据集包含祁连山冰川融水对河流径流贡献的长期观测。',
      'Glacier boundaries of the Tibetan Plateau',
      '北极海冰 Arctic sea ice',
    ];
    for (const text of texts) {
      expect(finds(text, text)).toBe(true);
      expect(finds(text.toUpperCase(), text)).toBe(true);
    }
    for (const word of ['冰川', '冻土', '青藏', '海冰', '冰', '川', '融水', '径流贡献']) {
      expect([word, finds(word, `${texts[0]} ${texts[1]} 多年冻土 ${texts[3]}`)]).toEqual([word, true]);
    }
    expect(finds('boundary', texts[2]!)).toBe(true);
    expect(finds('boundaries', texts[2]!)).toBe(true);
    expect(finds('glaciers', 'glacier')).toBe(true);
    expect(finds('glac', 'glacier')).toBe(true);
    expect(finds('冰川 mass balance', 'Glacier mass balance 冰川')).toBe(true);
  });

  it('finds nothing that is not there', () => {
    expect(finds('冻土', '青藏高原冰川')).toBe(false);
    expect(finds('冰川', '冰盖 川西')).toBe(false);
    expect(finds('of', 'offset')).toBe(false);
    expect(finds('sea ice', 'Bering Sea')).toBe(false);
  });
});

describe('highlightRanges', () => {
  it('points at each Chinese run where it stands', () => {
    expect(highlight('青藏高原冰川与冰川湖', '冰川')).toEqual(['冰川', '冰川']);
    expect(highlightRanges('青藏高原冰川与冰川湖', parseQuery('冰川').highlight)).toEqual([
      [4, 6],
      [7, 9],
    ]);
    expect(highlight('北极海冰', '冰')).toEqual(['冰']);
  });

  it('points at the whole English words a query matched, plurals both ways, any case', () => {
    expect(highlight('Glacier mass balance; glaciers', 'GLACIERS')).toEqual(['Glacier', 'glaciers']);
    expect(highlight('Glacier boundaries', 'boundaries')).toEqual(['boundaries']);
    expect(highlight('Glacier boundary', 'boundaries')).toEqual(['boundary']);
    expect(highlight('Glaciological survey', 'glac')).toEqual(['Glaciological']);
  });

  it('a short word only where it stands whole', () => {
    expect(highlight('Offset of the glacier', 'of')).toEqual(['of']);
  });

  it('merges overlapping ranges', () => {
    expect(highlight('青藏高原冰川', '高原 原冰 冰川')).toEqual(['高原冰川']);
  });

  it('keeps the offsets of the text when folding would change its length', () => {
    // "ﬁ" folds to two letters: the offsets are taken from the text as it is.
    const text = 'ﬁeld glacier survey';
    expect(highlight(text, 'glacier')).toEqual(['glacier']);
    expect(highlight('Ｇｌａｃｉｅｒ 冰川', 'glacier 冰川')).toEqual(['Ｇｌａｃｉｅｒ', '冰川']);
  });

  it('nothing to highlight: no ranges', () => {
    expect(highlightRanges('', parseQuery('冰川').highlight)).toEqual([]);
    expect(highlightRanges('青藏高原', parseQuery('').highlight)).toEqual([]);
    expect(highlightRanges('青藏高原', parseQuery('冻土').highlight)).toEqual([]);
  });
});

describe('snippetOf', () => {
  it('a short abstract whole, with its ranges; white space folded', () => {
    const { snippet, ranges } = snippetOf('  Annual mass balance\n\nof  glaciers. ', parseQuery('glacier').highlight);
    expect(snippet).toBe('Annual mass balance of glaciers.');
    expect(pieces(snippet, ranges)).toEqual(['glaciers']);
  });

  it('a long abstract around its first match, cut at words, marked where cut, its ranges pointing at the words', () => {
    const before = 'The network measures air temperature, humidity, wind and radiation at many stations across the basin every ten minutes. ';
    const after = ' Further text about instruments, calibration and maintenance follows here and goes on for a good while longer than the line.';
    const text = `${before.repeat(2)}Meltwater from glaciers feeds the rivers.${after.repeat(2)}`;
    const { snippet, ranges } = snippetOf(text, parseQuery('glaciers rivers').highlight);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(182);
    expect(snippet).toContain('Meltwater from glaciers feeds the rivers.');
    expect(pieces(snippet, ranges)).toEqual(['glaciers', 'rivers']);
    // Cut between words, not inside one.
    expect(text).toContain(snippet.slice(1, -1));
    expect(text.includes(` ${snippet.slice(1, -1)} `)).toBe(true);
  });

  it('a long Chinese abstract around its match', () => {
    const text = `${'本数据集记录了气象站的逐时观测。'.repeat(10)}其中包含冰川融水的径流量。${'数据经过质量控制。'.repeat(10)}`;
    const { snippet, ranges } = snippetOf(text, parseQuery('冰川').highlight, 60);
    expect(snippet.startsWith('…')).toBe(true);
    expect(pieces(snippet, ranges)).toEqual(['冰川']);
  });

  it('a Chinese abstract takes half as many characters as an English one: the same width on the page', () => {
    const chinese = snippetOf('本数据集记录了青藏高原冰川的厚度变化。'.repeat(20), parseQuery('冰川').highlight).snippet;
    expect(chinese.length).toBeLessThanOrEqual(92);
    expect(chinese.length).toBeGreaterThanOrEqual(85);
    expect(chinese).toContain('冰川');
    // Begun after a punctuation mark, not inside a Latin word; a match shown anyway keeps the beginning.
    const text = `${'本数据集基于Landsat影像和探地雷达，提供了青藏高原的观测数据。'.repeat(3)}其中冰川厚度数据经过质量控制。${'时间分辨率为逐月。'.repeat(10)}`;
    const cut = snippetOf(text, parseQuery('冰川').highlight).snippet;
    expect(cut).toMatch(/^…(提供了|本数据集)/);
    expect(pieces(cut, snippetOf(text, parseQuery('冰川').highlight).ranges)).toEqual(['冰川']);
    const early =
      '本数据集基于Landsat影像和探地雷达，提供了青藏高原2000—2004年的冰川模拟数据。数据经过质量控制和交叉验证，与地面观测相比的均方根误差小于4.4%。时间分辨率为逐月，空间分辨率为0.25度。';
    expect(snippetOf(early, parseQuery('冰川').highlight).snippet.startsWith('本数据集基于Landsat')).toBe(true);
    // A few Chinese words in an English abstract leave it English.
    const english = snippetOf('The glacier (冰川) thickness of the Tibetan Plateau, measured by radar. '.repeat(10), parseQuery('glacier').highlight).snippet;
    expect(english.length).toBeGreaterThan(160);
  });

  it('an abstract without a match begins at its start', () => {
    const text = 'Word '.repeat(100).trim();
    const { snippet, ranges } = snippetOf(text, parseQuery('glacier').highlight);
    expect(snippet.startsWith('Word Word')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(ranges).toEqual([]);
  });
});
