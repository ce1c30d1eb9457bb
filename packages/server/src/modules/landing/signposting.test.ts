import LinkHeader from 'http-link-header';
import { describe, expect, it } from 'vitest';
import { orcidUrlOf } from '../exports/exports.service.js';
import { linkHeader, linksetJson, linksetText, uriReference, type TypedLink } from './signposting.js';

const person = { name: { 'zh-hans': '张冰川', en: 'Zhang Bingchuan' }, affiliation: { 'zh-hans': '', en: '' }, roles: [] };
const page = 'https://portal.example/data/1/';
/** A DOI of the kind that holds `<`, `>` and `;` (SICI), and a name beyond ASCII. */
const sici = 'https://doi.org/10.1002/(SICI)1097-4636(199706)35:4<475::AID-JBM8>3.0.CO;2-E';
const links: TypedLink[] = [
  { anchor: page, rel: 'cite-as', href: sici },
  { anchor: page, rel: 'describedby', href: 'https://portal.example/api/x/?format=dcat', type: 'application/ld+json', profile: 'http://www.w3.org/ns/dcat#' },
  { anchor: page, rel: 'item', href: 'https://portal.example/files/冰川 "a".csv', type: 'text/csv' },
];

describe('Link header and linkset', () => {
  it('writes URI references a Link parser reads back, whatever the DOI holds', () => {
    expect(uriReference(sici)).toBe('https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C475::AID-JBM8%3E3.0.CO;2-E');
    const parsed = LinkHeader.parse(linkHeader(links));
    expect(parsed.refs.map((ref) => [ref.rel, decodeURI(ref.uri), ref.type, ref.profile])).toEqual([
      ['cite-as', decodeURI(uriReference(sici)), undefined, undefined],
      ['describedby', 'https://portal.example/api/x/?format=dcat', 'application/ld+json', 'http://www.w3.org/ns/dcat#'],
      ['item', 'https://portal.example/files/冰川 "a".csv', 'text/csv', undefined],
    ]);
    // Only ASCII: Node refuses a header with characters beyond Latin-1.
    expect(/^[\x20-\x7e]*$/.test(linkHeader(links))).toBe(true);
  });

  it("gives the same links in the linkset's text form, each with its anchor, and in its JSON form by anchor and relation", () => {
    const text = LinkHeader.parse(linksetText(links).replace(/\n/g, ' '));
    expect(text.refs.map((ref) => [ref.anchor, ref.rel])).toEqual(links.map((link) => [link.anchor, link.rel]));
    expect(linksetJson(links)).toEqual({
      linkset: [
        {
          anchor: page,
          'cite-as': [{ href: uriReference(sici) }],
          describedby: [{ href: 'https://portal.example/api/x/?format=dcat', type: 'application/ld+json', profile: ['http://www.w3.org/ns/dcat#'] }],
          item: [{ href: uriReference('https://portal.example/files/冰川 "a".csv'), type: 'text/csv' }],
        },
      ],
    });
  });
});

describe('orcidUrlOf', () => {
  it("gives an author's ORCID iD as its https address, whichever form it was kept in, and nothing without one", () => {
    expect(orcidUrlOf({ ...person, orcid: '0000-0002-1825-009x' })).toBe('https://orcid.org/0000-0002-1825-009X');
    expect(orcidUrlOf({ ...person, orcid: 'https://orcid.org/0000-0002-1825-0097' })).toBe('https://orcid.org/0000-0002-1825-0097');
    expect(orcidUrlOf({ ...person, orcid: '' })).toBe('');
    expect(orcidUrlOf({ ...person, orcid: 'not an id' })).toBe('');
    expect(orcidUrlOf(person)).toBe('');
  });
});
