import { pageLanguage } from '../app/i18n';

/** Dates, times and numbers in the page's language, not the browser's: a Chinese page shows 2026/11/22 11:02:10. */
const locale = pageLanguage === 'en' ? 'en-GB' : 'zh-CN';

export const formatDateTime = (value: string | null | undefined) => (value ? new Date(value).toLocaleString(locale) : '');
export const formatDate = (value: string | null | undefined) => (value ? new Date(value).toLocaleDateString(locale) : '');

const counts = new Intl.NumberFormat(locale);
export const formatCount = (value: number) => counts.format(value);

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** A size in decimal units (1 kB = 1000 bytes), in the page's language: "3.2 GB", "512 bytes", "512字节". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: value < 100 ? 1 : 0 }).format(value);
}
