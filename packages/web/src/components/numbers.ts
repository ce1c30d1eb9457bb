/*
 * Numbers written here rather than by Intl.NumberFormat: a page's first NumberFormat spends about
 * 45 ms setting up ICU, a long task on a phone for a count on the home page. Both page languages
 * (en-GB, zh-CN) group digits by three with a comma and use a point; numbers.test.ts checks every
 * form against Intl.NumberFormat in both.
 */

export type NumberLocale = 'en-GB' | 'zh-CN';

/** An integer's digits grouped by three: 1,234,567. */
function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A count (a non-negative integer) as `new Intl.NumberFormat(locale).format` writes it. */
export function countText(value: number, locale: NumberLocale): string {
  if (!Number.isSafeInteger(value) || value < 0) return new Intl.NumberFormat(locale).format(value);
  return grouped(String(value));
}

/**
 * A non-negative number with at most `fractionDigits` decimals, as Intl rounds it: half away from
 * zero, on the number's shortest decimal form (1.15 gives 1.2, where toFixed, rounding the binary
 * value 1.14999..., gives 1.1), without trailing zeros.
 */
function decimal(value: number, fractionDigits: 0 | 1): string {
  const [whole, fraction = ''] = String(value).split('.');
  const kept = BigInt(whole! + fraction.slice(0, fractionDigits).padEnd(fractionDigits, '0')) + (fraction.length > fractionDigits && fraction[fractionDigits]! >= '5' ? 1n : 0n);
  const digits = kept.toString().padStart(fractionDigits + 1, '0');
  const integer = digits.slice(0, digits.length - fractionDigits);
  const decimals = digits.slice(digits.length - fractionDigits).replace(/0+$/, '');
  return decimals ? `${grouped(integer)}.${decimals}` : grouped(integer);
}

const BYTE_UNITS = ['kB', 'MB', 'GB', 'TB', 'PB'] as const;

/** A size in decimal units (1 kB = 1000 bytes): "3.2 GB", "512 bytes", "512字节". */
export function bytesText(bytes: number, locale: NumberLocale): string {
  if (bytes < 1000) return locale === 'zh-CN' ? `${countText(bytes, locale)}字节` : `${countText(bytes, locale)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${decimal(value, value < 100 ? 1 : 0)} ${BYTE_UNITS[unit]}`;
}
