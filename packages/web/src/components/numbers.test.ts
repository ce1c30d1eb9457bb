import { describe, expect, it } from 'vitest';
import { bytesText, countText, type NumberLocale } from './numbers';

const LOCALES: NumberLocale[] = ['en-GB', 'zh-CN'];
const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** What the portal wrote with Intl.NumberFormat before (the reference). */
function intlBytes(bytes: number, locale: NumberLocale): string {
  if (bytes < 1000) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: value < 100 ? 1 : 0 }).format(value);
}

/** Values around every boundary: powers of ten, their neighbours, halves, and a spread of others. */
function samples(): number[] {
  const values = new Set<number>([0, 1, 2, 999, 1000, 1001, 1049, 1050, 1051, 1149, 1150, 1250, 99_949, 99_950, 99_999, 100_000, 999_949, 999_950, 999_999]);
  for (let exponent = 0; exponent <= 18; exponent += 1) {
    const power = 10 ** exponent;
    for (const factor of [1, 1.05, 1.15, 1.25, 1.5, 2.45, 9.95, 9.99, 12.34, 99.95, 123.45, 999.4, 999.5]) values.add(Math.round(power * factor));
  }
  let x = 7;
  for (let i = 0; i < 2000; i += 1) {
    x = (x * 48_271) % 2_147_483_647;
    values.add(Math.floor((x / 2_147_483_647) * 10 ** ((i % 16) + 1)));
  }
  return [...values];
}

describe('numbers as Intl.NumberFormat writes them', () => {
  for (const locale of LOCALES) {
    it(`counts in ${locale}`, () => {
      for (const value of samples()) expect(countText(value, locale), String(value)).toBe(new Intl.NumberFormat(locale).format(value));
    });

    it(`sizes in ${locale}`, () => {
      for (const value of samples()) expect(bytesText(value, locale), String(value)).toBe(intlBytes(value, locale));
    });
  }

  it('writes the examples of the page', () => {
    expect(bytesText(512, 'en-GB')).toBe('512 bytes');
    expect(bytesText(1, 'en-GB')).toBe('1 byte');
    expect(bytesText(512, 'zh-CN')).toBe('512字节');
    expect(bytesText(3_200_000_000, 'en-GB')).toBe('3.2 GB');
    expect(countText(1_234_567, 'zh-CN')).toBe('1,234,567');
  });
});
