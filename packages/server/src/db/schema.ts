/**
 * The database's table types, each with its owning module in db/schema/<module>.ts (the only
 * module whose code writes it); `Database` composes them for Kysely. One schema serves SQLite and
 * PostgreSQL: ids are random text, booleans are integers 0/1, times are ISO-8601 text (they sort
 * and compare as text on both).
 */
import type { AccountTables } from './schema/account.js';
import type { MetadataTables } from './schema/metadata.js';
import type { FilesTables } from './schema/files.js';
import type { ReviewTables } from './schema/review.js';
import type { SearchTables } from './schema/search.js';
import type { UsageTables } from './schema/usage.js';
import type { OaiTables } from './schema/oai.js';
import type { OrdersTables } from './schema/orders.js';
import type { DoiTables } from './schema/doi.js';
import type { ServerTables } from './schema/server.js';
import type { FtpTables } from './schema/ftp.js';
import type { UploadsTables } from './schema/uploads.js';
import type { ArchiveTables } from './schema/archive.js';
import type { TablesTables } from './schema/tables.js';
import type { AnalysisTables } from './schema/analysis.js';

export type * from './schema/account.js';
export type * from './schema/metadata.js';
export type * from './schema/files.js';
export type * from './schema/review.js';
export type * from './schema/search.js';
export type * from './schema/usage.js';
export type * from './schema/oai.js';
export type * from './schema/orders.js';
export type * from './schema/doi.js';
export type * from './schema/server.js';
export type * from './schema/ftp.js';
export type * from './schema/uploads.js';
export type * from './schema/archive.js';
export type * from './schema/tables.js';
export type * from './schema/analysis.js';

export interface Database
  extends
    AccountTables,
    MetadataTables,
    FilesTables,
    ReviewTables,
    SearchTables,
    UsageTables,
    OaiTables,
    OrdersTables,
    DoiTables,
    ServerTables,
    UploadsTables,
    FtpTables,
    ArchiveTables,
    TablesTables,
    AnalysisTables {}
