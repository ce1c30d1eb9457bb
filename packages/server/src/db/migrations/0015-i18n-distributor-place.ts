import { textColumns } from './text-columns.js';

/**
 * Issue 16. The distributor's city, province and country in the record's other language, as 0011 did
 * for its organisation and address: an English page no longer shows "拉萨, 西藏, 中国" after an English
 * street, and ISO 19139 writes both languages.
 */
export const { up, down } = textColumns('metadata_i18n', ['dist_city', 'dist_province', 'dist_country']);
