import { describe, expect, it } from 'vitest';
import { acceptableVariants, parseAccept } from './accept.js';

describe('parseAccept', () => {
  it('reads types, parameters (quoted ones with commas and escapes) and weights', () => {
    expect(parseAccept('text/html, application/ld+json; profile="https://schema.org, x"; q=0.5, */*;q=0.1')).toEqual([
      { type: 'text', subtype: 'html', params: {}, q: 1 },
      { type: 'application', subtype: 'ld+json', params: { profile: 'https://schema.org, x' }, q: 0.5 },
      { type: '*', subtype: '*', params: {}, q: 0.1 },
    ]);
    expect(parseAccept('Text/X-Bibliography; Style=apa; locale="en\\"US"')).toEqual([{ type: 'text', subtype: 'x-bibliography', params: { style: 'apa', locale: 'en"US' }, q: 1 }]);
  });

  it('leaves out what is malformed', () => {
    expect(parseAccept('html, */json, text/html;q=2, text/plain;q=0.5x, ,application/xml')).toEqual([{ type: 'application', subtype: 'xml', params: {}, q: 1 }]);
  });
});

describe('acceptableVariants', () => {
  const variants = [
    { type: 'text/html', value: 'page' },
    { type: 'application/ld+json', params: { profile: 'schema' }, value: 'schema' },
    { type: 'application/ld+json', params: { profile: 'dcat' }, value: 'dcat' },
    { type: 'text/turtle', value: 'turtle' },
  ];
  const profile = (name: string, value: string) => (name === 'profile' && ['schema', 'dcat'].includes(value) ? value : undefined);
  const order = (accept: string | undefined) => acceptableVariants(accept, variants, profile).map((a) => a.variant.value);

  it("orders by weight, then by how specific the range is, then by the server's order", () => {
    expect(order('*/*')).toEqual(['page', 'schema', 'dcat', 'turtle']);
    expect(order(undefined)).toEqual(['page', 'schema', 'dcat', 'turtle']);
    expect(order('text/*, application/ld+json')).toEqual(['schema', 'dcat', 'page', 'turtle']);
    expect(order('text/html;q=0.5, text/turtle;q=0.9')).toEqual(['turtle', 'page']);
  });

  it('matches a parameter that takes part, and ignores one that does not', () => {
    expect(order('application/ld+json;profile=dcat')).toEqual(['dcat']);
    expect(order('application/ld+json;profile=unknown;charset=utf-8')).toEqual(['schema', 'dcat']);
    expect(order('application/ld+json;profile=dcat, application/ld+json;q=0.5')).toEqual(['dcat', 'schema']);
  });

  it('excludes a variant whose most specific range weighs 0', () => {
    expect(order('text/html;q=0, */*')).toEqual(['schema', 'dcat', 'turtle']);
    expect(order('image/png')).toEqual([]);
  });

  it('gives the parameters of the range that accepted each variant', () => {
    expect(acceptableVariants('text/turtle;a=1, */*;b=2', variants)[0]).toEqual({ variant: variants[3], q: 1, params: { a: '1' } });
  });
});
