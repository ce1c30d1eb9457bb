import { textColumns } from './text-columns.js';

/**
 * Issue 16. The distributor's organisation and address in the record's other language, like its other
 * translated texts: an English page shows them where the provider gave them, ISO 19139 writes both.
 */
export const { up, down } = textColumns('metadata_i18n', ['dist_unit', 'dist_address']);
