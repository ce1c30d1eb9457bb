import { pageLanguage } from '../app/i18n';
import { bytesText, countText } from './numbers';

/** Dates, times and numbers in the page's language, not the browser's: a Chinese page shows 2026/11/22 11:02:10. */
const locale = pageLanguage === 'en' ? 'en-GB' : 'zh-CN';

/**
 * Formatters made once, on first use: making one costs far more than using it (toLocaleString
 * makes a new one every call), which a list of dates on a phone feels.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
const dateTimes = once(() => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }));
const dates = once(() => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'numeric', day: 'numeric' }));

export const formatDateTime = (value: string | null | undefined) => (value ? dateTimes().format(new Date(value)) : '');
export const formatDate = (value: string | null | undefined) => (value ? dates().format(new Date(value)) : '');

/** A count as Intl.NumberFormat writes it in the page's language (numbers.ts: without its cost). */
export const formatCount = (value: number) => countText(value, locale);

/** A size in decimal units (1 kB = 1000 bytes), in the page's language: "3.2 GB", "512 bytes", "512字节". */
export const formatBytes = (bytes: number) => bytesText(bytes, locale);
