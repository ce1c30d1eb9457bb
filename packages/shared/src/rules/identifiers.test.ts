import { describe, expect, it } from 'vitest';
import { funderIdentifierOf, mod11_2, normalizeFunderId, normalizeOrcid, normalizeRor, rorChecksum } from './identifiers.js';

describe('ORCID iD', () => {
  it('computes ISO 7064 MOD 11-2 as ORCID documents it', () => {
    // ORCID's own examples: 0000-0002-1825-0097 and 0000-0002-1694-233X.
    expect(mod11_2('000000021825009')).toBe('7');
    expect(mod11_2('000000021694233')).toBe('X');
  });

  it('takes the bare id, the 16 characters without hyphens and the address, and stores the bare id', () => {
    expect(normalizeOrcid('0000-0002-1825-0097')).toBe('0000-0002-1825-0097');
    expect(normalizeOrcid(' 0000000218250097 ')).toBe('0000-0002-1825-0097');
    expect(normalizeOrcid('https://orcid.org/0000-0002-1694-233x')).toBe('0000-0002-1694-233X');
    expect(normalizeOrcid('http://orcid.org/0000-0001-5727-2427/')).toBe('0000-0001-5727-2427');
  });

  it('refuses a wrong check character and what is not an ORCID iD', () => {
    for (const bad of [
      '0000-0002-1825-0098',
      '0000-0002-1694-2330',
      '0000-0002-1825-009',
      '0000-0002-1825-00977',
      'https://example.org/0000-0002-1825-0097',
      'X000-0002-1825-0097',
      '',
    ]) {
      expect(normalizeOrcid(bad), bad).toBeNull();
    }
  });
});

describe('ROR ID', () => {
  it('checks the two digits as ROR computes them', () => {
    expect(rorChecksum('3yrm5c')).toBe('26');
    // DataCite's example records name these organisations.
    for (const id of ['03yrm5c26', '04wxnsj81', '02aj13c28', '043kfff89', '03efmqc40']) expect(normalizeRor(id), id).toBe(id);
  });

  it('takes the address and any case, and stores the bare id in lower case', () => {
    expect(normalizeRor('https://ror.org/03YRM5C26')).toBe('03yrm5c26');
    expect(normalizeRor('ror.org/04wxnsj81/')).toBe('04wxnsj81');
  });

  it('refuses a wrong checksum, letters outside Crockford base 32 and other lengths', () => {
    for (const bad of ['03yrm5c27', '13yrm5c26', '03yrl5c26', '03yru5c26', '03yrm5c2', '03yrm5c266', 'https://ror.org/', 'https://example.org/03yrm5c26']) {
      expect(normalizeRor(bad), bad).toBeNull();
    }
  });
});

describe('funder identifier', () => {
  it('is a Crossref Funder ID or a ROR ID, in any of their written forms', () => {
    expect(normalizeFunderId('https://doi.org/10.13039/501100000780')).toBe('10.13039/501100000780');
    expect(normalizeFunderId('doi:10.13039/100010662')).toBe('10.13039/100010662');
    expect(normalizeFunderId('10.13039/501100001809')).toBe('10.13039/501100001809');
    expect(normalizeFunderId('https://ror.org/03yrm5c26')).toBe('03yrm5c26');
    for (const bad of ['10.13039/abc', '10.1234/501100001809', '03yrm5c27', 'NSFC']) expect(normalizeFunderId(bad), bad).toBeNull();
  });

  it('gives DataCite its type and address', () => {
    expect(funderIdentifierOf('10.13039/501100001809')).toEqual({ type: 'Crossref Funder ID', url: 'https://doi.org/10.13039/501100001809' });
    expect(funderIdentifierOf('03yrm5c26')).toEqual({ type: 'ROR', url: 'https://ror.org/03yrm5c26' });
    expect(funderIdentifierOf('')).toBeNull();
  });
});
