import { describe, expect, it } from 'vitest';
import { ORDER_LIMITS } from '@portal/shared';
import { checkSelection, isEmbargoed } from './selection';

const file = (size: number) => ({ size });

describe('download selection (spec sections 5 and 9)', () => {
  it('asks for a file when none is selected', () => {
    expect(checkSelection([])).toBe('noFiles');
  });
  it('takes up to 50 files and refuses the 51st', () => {
    expect(checkSelection(Array.from({ length: ORDER_LIMITS.downloadFilesMax }, () => file(1)))).toBeUndefined();
    expect(checkSelection(Array.from({ length: ORDER_LIMITS.downloadFilesMax + 1 }, () => file(1)))).toBe('tooManyFiles');
  });
  it('sends more than 100 MB together to FTP', () => {
    expect(checkSelection([file(ORDER_LIMITS.browserDownloadMaxBytes)])).toBeUndefined();
    expect(checkSelection([file(ORDER_LIMITS.browserDownloadMaxBytes), file(1)])).toBe('tooLarge');
  });
});

describe('a basket line in its protection period', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  it('cannot be selected until its day', () => {
    expect(isEmbargoed({ embargo_until: '2026-06-01T00:00:00.000Z' }, now)).toBe(true);
    expect(isEmbargoed({ embargo_until: '2025-06-01T00:00:00.000Z' }, now)).toBe(false);
    expect(isEmbargoed({ embargo_until: null }, now)).toBe(false);
  });
});
