import { describe, expect, it } from 'vitest';
import { hasIllegalText, illegalTextPath, stripIllegalText } from './text.js';

describe('XML-illegal text', () => {
  it('finds C0 controls but tab, line feed and carriage return', () => {
    for (const c of ['\u0000', '\u0001', '\u0008', '\u000B', '\u000C', '\u000E', '\u001F']) expect(hasIllegalText(`a${c}b`), JSON.stringify(c)).toBe(true);
    expect(hasIllegalText('a\tb\nc\r\nd')).toBe(false);
  });

  it('finds lone surrogates and U+FFFE / U+FFFF but keeps surrogate pairs', () => {
    expect(hasIllegalText('a\uD800b')).toBe(true);
    expect(hasIllegalText('a\uDC00')).toBe(true);
    expect(hasIllegalText('\uD800')).toBe(true);
    expect(hasIllegalText('x\uFFFE')).toBe(true);
    expect(hasIllegalText('x\uFFFF')).toBe(true);
    expect(hasIllegalText('冰川 😀 𠀀 \u00A0 \uFFFD')).toBe(false);
  });

  it('strips exactly the illegal characters', () => {
    expect(stripIllegalText('Gla\u000Bcier\u0000 😀\uD800 mass\uFFFF')).toBe('Glacier 😀 mass');
    const clean = 'nothing to do';
    expect(stripIllegalText(clean)).toBe(clean);
  });

  it('names the path of the first bad string', () => {
    expect(illegalTextPath({ title: 'ok', authors: [{ name: 'ok' }, { name: 'b\u0001' }] })).toEqual(['authors', '1', 'name']);
    expect(illegalTextPath({ 'k\u0000': 1 })).toEqual(['k\u0000']);
    expect(illegalTextPath('x\u0000')).toEqual([]);
    expect(illegalTextPath({ a: 1, b: null, c: ['x', true] })).toBeNull();
  });
});
