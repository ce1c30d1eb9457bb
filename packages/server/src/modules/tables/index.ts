/**
 * The tables module's one face (issue 20, Excel to table): a record's workbook (.xlsx) or CSV file
 * made into a database table with typed, bilingual columns (`TablesService`, owning `data_tables`,
 * migration 0021, and the tables it names), and its routes.
 */
export { TablesService, type AnalysisTable, type MeasuredVariable, type TableDownload, type TableImportRequest } from './tables.service.js';
export { tablesRoutes } from './tables.routes.js';
export { csvCell } from './table-download.js';
