import { sql } from 'kysely';
import type { z } from 'zod';
import type { ResourceExpressions, ResourceQuery as Query, ResourceTable } from './resources.repo.js';

/**
 * The entities attached to a record, served by one generic set of routes (in metadata.routes.ts):
 * `/api/metadata/<name>/` (GET list, POST) and `/api/metadata/<name>/<id>/` (GET, PUT, PATCH, DELETE).
 *
 * Who may change a row follows its `owner`:
 * - `record`: the row belongs to a record (through `metadata_id`, or its parent's): the record's
 *   creator while it is a draft, and staff (MetadataAccess.writable);
 * - `creator`: a shared entity (author, literature, keyword, fund ...): any signed-in user may
 *   create one; its creator and staff may change it;
 * - `staff`: vocabularies the data centre keeps (keyword standards, programs, topics).
 */
export type Owner = 'record' | 'creator' | 'staff';

/**
 * A list filter. `names` is what its value is the id of: `metadata` (a record: the caller must be
 * able to read it) or a table (a row of it the caller must be able to see). The list checks every
 * filter it applies by this, and only those (unknown query parameters are ignored, never used).
 */
export type Filter = ((query: Query, value: string) => Query) & { names?: string };

export interface Reference {
  /** The input field (`author`) and the column it fills (`author_id`). */
  field: string;
  column: string;
  table: ResourceTable;
  messageKey: string;
}

export interface ResourceDef {
  name: string;
  /** Served at this path instead of `/api/metadata/<name>/` (the spec's other names). */
  path?: string;
  table: ResourceTable;
  owner: Owner;
  /** The reply's schema: every call of the resource serializes its rows through it (lists, a page of them). */
  reply: z.ZodObject;
  create?: z.ZodType<Record<string, unknown>>;
  update?: z.ZodType<Record<string, unknown>>;
  /** For `record` rows without their own metadata_id: how to reach the record from a row / an input. */
  parent?: { table: ResourceTable; column: string; field: string; messageKey: string };
  references?: Reference[];
  /** Query parameters and how they filter (`metadata__id`, `type`, `parent_null` ...). */
  filters?: Record<string, Filter>;
  /** A list must name one of these (lists of record rows are never listed across records). */
  requiredFilter?: string[];
  orderBy: string[];
  /** Translated message of a unique-constraint violation. */
  uniqueKey?: string;
  /** Input fields that are no columns (handled by hooks). */
  extraFields?: string[];
  /** Rows with this many siblings of the same record refuse another (meta-fund: 3). */
  maxPerRecord?: { count: number; messageKey: string };
  /** Who may read: `public` reads still check the record for record rows. */
  read: 'public' | 'user';
  /**
   * Flags only staff may set (on POST, PUT and PATCH alike; anyone else is refused with 403, '' counts
   * as not given), with their value otherwise. An entry with one set belongs to the data centre:
   * nobody else changes it or gets a copy of it.
   */
  staffOnly?: Record<string, unknown>;
}

/** A filter whose value is the id of a row of `table` (or of a record: `metadata`). */
export const naming = (table: string, apply: (q: Query, v: string) => Query): Filter => Object.assign(apply, { names: table });

/** Rows whose `column` holds the id of a row of `table`: `?author__id=`. */
export const byParent = (table: ResourceTable, column: string, target: string) => naming(target, (q, v) => q.where(`${table}.${column}`, '=', v));

export const byMetadata = (table: ResourceTable) => ({ metadata__id: byParent(table, 'metadata_id', 'metadata') });

export const ref = (field: string, table: ResourceTable, messageKey: string): Reference => ({ field, column: `${field}_id`, table, messageKey });
export const metadataRef = ref('metadata', 'metadata', 'metadata.notFound');

/**
 * Shared entries linked to one record, read from the record's link table (its index on metadata_id),
 * so the cost follows the record's size, not the size of the whole shared table.
 */
export const linkedTo = (table: ResourceTable, linkTable: ResourceTable, column: string) =>
  naming('metadata', (q, v) =>
    q.where(`${table}.id`, 'in', (eb: ResourceExpressions) => eb.selectFrom(linkTable).select(`${linkTable}.${column}`).where(`${linkTable}.metadata_id`, '=', v)),
  );

/** Part of a name, any case; `%` and `_` are searched as themselves (escaped, as in the record search). */
export const likeName =
  (table: ResourceTable, column = 'name') =>
  (q: Query, v: string) =>
    q.where((eb) => eb(eb.fn('lower', [eb.ref(`${table}.${column}`)]), 'like', sql<string>`${`%${v.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`));
