import { describe, expect, it } from 'vitest';
import { hasProjectRole } from './roles.js';

describe('hasProjectRole', () => {
  it('is true for is_project 1 and 2 only', () => {
    expect(hasProjectRole({ is_project: 0 })).toBe(false);
    expect(hasProjectRole({ is_project: 1 })).toBe(true);
    expect(hasProjectRole({ is_project: 2 })).toBe(true);
    expect(hasProjectRole({ is_project: 3 })).toBe(false);
    expect(hasProjectRole({ is_project: -1 })).toBe(false);
  });
});
