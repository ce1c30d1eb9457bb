import { describe, expect, it } from 'vitest';
import { keptAddress } from './search.routes.js';

describe('keptAddress', () => {
  it('drops _r wherever it stands and keeps the rest in order', () => {
    expect(keptAddress('/api/metadata/search/?q=ice&_r=0.5')).toBe('/api/metadata/search/?q=ice');
    expect(keptAddress('/api/metadata/search/?_r=0.5&q=ice&page=2')).toBe('/api/metadata/search/?q=ice&page=2');
    expect(keptAddress('/api/metadata/search/?_r=0.5')).toBe('/api/metadata/search/');
    expect(keptAddress('/api/metadata/search/?q=ice')).toBe('/api/metadata/search/?q=ice');
    // A parameter that merely ends in _r is another parameter.
    expect(keptAddress('/api/metadata/search/?year_r=2&q=x')).toBe('/api/metadata/search/?year_r=2&q=x');
  });
});
