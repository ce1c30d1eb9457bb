/**
 * The records-io module's one face: importing and exporting published records (the operators'
 * import-records and export-records). It owns no table: records and shared entries are written
 * through the metadata module's RecordImport, accounts read through the account module.
 */
export { RecordsIoService, type ImportSummary } from './records-io.service.js';
export { RecordsIoRepo } from './records-io.repo.js';
export { ImportRefusal, type Candidate } from './candidates.js';
export { readRecordsFile } from './records-file.js';
export { readDataCite } from './datacite.js';
