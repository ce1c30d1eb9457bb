import { describe, expect, it } from 'vitest';
import { decideRange, parseByteRanges, type RangeTarget } from './http-range.js';

const file: RangeTarget = {
  size: 1000,
  etag: `"${'ab'.repeat(32)}"`,
  lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT',
};

const get = (range: string | undefined, ifRange?: string, target = file) => decideRange({ method: 'GET', range, ifRange }, target);

describe('decideRange', () => {
  it('answers the whole file without a Range header, and for HEAD whatever it asks', () => {
    expect(get(undefined)).toEqual({ status: 200 });
    expect(decideRange({ method: 'HEAD', range: 'bytes=0-9' }, file)).toEqual({ status: 200 });
  });

  it('answers one range with both ends included', () => {
    expect(get('bytes=0-0')).toEqual({ status: 206, start: 0, end: 0 });
    expect(get('bytes=100-199')).toEqual({ status: 206, start: 100, end: 199 });
    expect(get('bytes=0-999')).toEqual({ status: 206, start: 0, end: 999 });
  });

  it('answers an open range to the end (curl -C -, wget -c)', () => {
    expect(get('bytes=100-')).toEqual({ status: 206, start: 100, end: 999 });
    expect(get('bytes=999-')).toEqual({ status: 206, start: 999, end: 999 });
  });

  it('answers a suffix range with the last bytes, the whole file when it asks for more', () => {
    expect(get('bytes=-500')).toEqual({ status: 206, start: 500, end: 999 });
    expect(get('bytes=-1')).toEqual({ status: 206, start: 999, end: 999 });
    expect(get('bytes=-5000')).toEqual({ status: 206, start: 0, end: 999 });
  });

  it('cuts a range that ends past the end at the last byte', () => {
    expect(get('bytes=900-5000')).toEqual({ status: 206, start: 900, end: 999 });
    expect(get('bytes=0-99999999999999999999')).toEqual({ status: 206, start: 0, end: 999 });
  });

  it('answers 416 for a range that starts at or past the end, or an empty suffix', () => {
    expect(get('bytes=1000-')).toEqual({ status: 416 });
    expect(get('bytes=1000-1005')).toEqual({ status: 416 });
    expect(get('bytes=-0')).toEqual({ status: 416 });
    expect(get('bytes=0-', undefined, { ...file, size: 0 })).toEqual({ status: 416 });
    expect(get('bytes=-10', undefined, { ...file, size: 0 })).toEqual({ status: 416 });
  });

  it('ignores a Range header that is not a byte range set (the whole file)', () => {
    for (const header of ['bytes=', 'bytes=abc', 'bytes=5-2', 'bytes=1-2-3', 'items=0-5', 'bytes 0-5', '0-5', 'bytes=--5', 'bytes=0x10-']) {
      expect(get(header), header).toEqual({ status: 200 });
    }
  });

  it('reads the unit in any case and whitespace around the commas of a set', () => {
    expect(get('Bytes=1-2')).toEqual({ status: 206, start: 1, end: 2 });
    expect(parseByteRanges('bytes=0-1 , 5-6,')).toEqual([
      { first: 0, last: 1 },
      { first: 5, last: 6 },
    ]);
  });

  it('answers several ranges with the whole file, or 416 when none of them is within it', () => {
    expect(get('bytes=0-9,20-29')).toEqual({ status: 200 });
    expect(get('bytes=0-9, 5000-')).toEqual({ status: 200 });
    expect(get('bytes=1000-,2000-2001')).toEqual({ status: 416 });
  });

  it('lets the range through when If-Range names the current strong ETag or the exact Last-Modified', () => {
    expect(get('bytes=100-', file.etag)).toEqual({ status: 206, start: 100, end: 999 });
    expect(get('bytes=100-', file.lastModified)).toEqual({ status: 206, start: 100, end: 999 });
  });

  it('answers the whole file when If-Range does not match: another tag, a weak tag, another date, nonsense', () => {
    for (const ifRange of [`"${'cd'.repeat(32)}"`, `W/${file.etag}`, 'Tue, 03 Mar 2026 10:00:01 GMT', 'yesterday']) {
      expect(get('bytes=100-', ifRange), ifRange).toEqual({ status: 200 });
    }
  });

  it('ignores If-Range without a Range', () => {
    expect(get(undefined, `"${'cd'.repeat(32)}"`)).toEqual({ status: 200 });
  });
});
