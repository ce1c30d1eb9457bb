import { describe, expect, it } from 'vitest';
import { parseQuery } from './query.js';

describe('parseQuery', () => {
  it('reads plain parameters', () => {
    expect(parseQuery('page=2&pageSize=10')).toEqual({ page: '2', pageSize: '10' });
  });

  it('reads name[] parameters as an array', () => {
    expect(parseQuery('name[]=a&name[]=b')).toEqual({ name: ['a', 'b'] });
  });

  it('reads a single name[] parameter as an array of one', () => {
    expect(parseQuery('name[]=a')).toEqual({ name: ['a'] });
  });

  it('reads the brackets percent-encoded, as browsers send them', () => {
    expect(parseQuery('name%5B%5D=a&name%5B%5D=b')).toEqual({ name: ['a', 'b'] });
  });

  it('reads repeated plain parameters as an array', () => {
    expect(parseQuery('id=1&id=2&id=3')).toEqual({ id: ['1', '2', '3'] });
  });

  it('keeps the order of the values and mixes both spellings', () => {
    expect(parseQuery('k=1&k[]=2&k=3')).toEqual({ k: ['1', '2', '3'] });
  });

  it('decodes values, + as a space', () => {
    expect(parseQuery('search=%E5%86%B0%E5%B7%9D&q=a+b&r=a%2Bb')).toEqual({ search: '冰川', q: 'a b', r: 'a+b' });
  });

  it('keeps empty values and parameters without a value', () => {
    expect(parseQuery('a=&b')).toEqual({ a: '', b: '' });
  });

  it('reads an empty query as no parameters', () => {
    expect(parseQuery('')).toEqual({});
  });

  it('reads names of Object.prototype members as plain parameters', () => {
    const parsed = parseQuery('__proto__=x&toString=y&constructor=z&hasOwnProperty=1&hasOwnProperty=2&a=1');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(Object.keys(parsed)).toEqual(['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'a']);
    expect(parsed['__proto__']).toBe('x');
    expect(parsed.toString).toBe('y');
    expect(parsed.constructor).toBe('z');
    expect(parsed.hasOwnProperty).toEqual(['1', '2']);
    expect(parsed.a).toBe('1');
  });
});
