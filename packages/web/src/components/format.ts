import { pageLanguage } from '../app/i18n';

/** Dates and times in the page's language, not the browser's: a Chinese page shows 2026/11/22 11:02:10. */
const locale = pageLanguage === 'en' ? 'en-GB' : 'zh-CN';

export const formatDateTime = (value: string | null | undefined) => (value ? new Date(value).toLocaleString(locale) : '');
export const formatDate = (value: string | null | undefined) => (value ? new Date(value).toLocaleDateString(locale) : '');
