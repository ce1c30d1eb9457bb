import { METADATA_LIMITS } from '@portal/shared';
import {
  affiliationCreateSchema,
  authorCreateSchema,
  authorI18nCreateSchema,
  authorI18nUpdateSchema,
  authorUpdateSchema,
  citationCreateSchema,
  citationUpdateSchema,
  fundCreateSchema,
  keywordCreateSchema,
  keywordI18nCreateSchema,
  keywordI18nUpdateSchema,
  keywordStandardCreateSchema,
  keywordUpdateSchema,
  literatureCreateSchema,
  literatureI18nCreateSchema,
  literatureI18nUpdateSchema,
  literatureUpdateSchema,
  metaAuthorCreateSchema,
  metaAuthorUpdateSchema,
  metaDisciplineCreateSchema,
  metadataI18nCreateSchema,
  metadataI18nUpdateSchema,
  metaFundCreateSchema,
  metaKeywordCreateSchema,
  metaKeywordStandardCreateSchema,
  metaSpecialCreateSchema,
  onlineResourceCreateSchema,
  onlineResourceUpdateSchema,
  programCreateSchema,
  projectCreateSchema,
  specialCreateSchema,
  specialManageCreateSchema,
} from '@portal/shared/contracts/metadata';
import {
  affiliationEntrySchema,
  authorI18nSchema,
  authorSchema,
  citationSchema,
  fundSchema,
  keywordI18nSchema,
  keywordSchema,
  keywordStandardSchema,
  literatureI18nSchema,
  literatureSchema,
  metaAuthorSchema,
  metaDisciplineSchema,
  metaFundSchema,
  metaKeywordSchema,
  metaKeywordStandardSchema,
  metaSpecialSchema,
  metadataTranslationSchema,
  onlineResourceSchema,
  programSchema,
  projectSchema,
  resourceReply,
  specialManagerSchema,
  specialSchema,
} from '@portal/shared/contracts/metadata-replies';
import type { z } from 'zod';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Query = SelectQueryBuilder<any, any, any>;

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
  table: string;
  messageKey: string;
}

export interface ResourceDef {
  name: string;
  /** Served at this path instead of `/api/metadata/<name>/` (the spec's other names). */
  path?: string;
  table: string;
  owner: Owner;
  /** The reply's schema: every call of the resource serializes its rows through it (lists, a page of them). */
  reply: z.ZodObject;
  create?: z.ZodType<Record<string, unknown>>;
  update?: z.ZodType<Record<string, unknown>>;
  /** For `record` rows without their own metadata_id: how to reach the record from a row / an input. */
  parent?: { table: string; column: string; field: string; messageKey: string };
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
const naming = (table: string, apply: (q: Query, v: string) => Query): Filter => Object.assign(apply, { names: table });

/** Rows whose `column` holds the id of a row of `table`: `?author__id=`. */
const byParent = (table: string, column: string, target: string) => naming(target, (q, v) => q.where(`${table}.${column}`, '=', v));

const byMetadata = (table: string) => ({ metadata__id: byParent(table, 'metadata_id', 'metadata') });

const ref = (field: string, table: string, messageKey: string): Reference => ({ field, column: `${field}_id`, table, messageKey });
const metadataRef = ref('metadata', 'metadata', 'metadata.notFound');

/**
 * Shared entries linked to one record, read from the record's link table (its index on metadata_id),
 * so the cost follows the record's size, not the size of the whole shared table.
 */
const linkedTo = (table: string, linkTable: string, column: string) =>
  naming('metadata', (q, v) =>
    q.where(`${table}.id`, 'in', (eb: ExpressionBuilder<any, any>) => eb.selectFrom(linkTable).select(`${linkTable}.${column}`).where(`${linkTable}.metadata_id`, '=', v)),
  );

/** Part of a name, any case; `%` and `_` are searched as themselves (escaped, as in the record search). */
const likeName = (table: string, column = 'name') => (q: Query, v: string) =>
  q.where((eb) =>
    eb(eb.fn('lower', [eb.ref(`${table}.${column}`)]), 'like', sql<string>`${`%${v.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`),
  );

export const RESOURCES: ResourceDef[] = [
  {
    name: 'metadata-i18n',
    table: 'metadata_i18n',
    reply: resourceReply(metadataTranslationSchema),
    owner: 'record',
    read: 'public',
    create: metadataI18nCreateSchema as unknown as z.ZodType<Record<string, unknown>>,
    update: metadataI18nUpdateSchema,
    references: [metadataRef],
    filters: { ...byMetadata('metadata_i18n'), language: (q, v) => q.where('metadata_i18n.language', '=', v) },
    requiredFilter: ['metadata__id'],
    orderBy: ['language'],
    uniqueKey: 'metadata.translation.exists',
  },
  {
    name: 'author',
    table: 'authors',
    reply: resourceReply(authorSchema),
    owner: 'creator',
    read: 'user',
    create: authorCreateSchema,
    update: authorUpdateSchema,
    extraFields: ['name_en', 'affiliation_en', 'metadata'],
    filters: {
      metadata__id: linkedTo('authors', 'meta_author', 'author_id'),
      like_author: likeName('authors'),
      name: (q, v) => q.where('authors.name', '=', v),
    },
    orderBy: ['name', 'id'],
  },
  {
    name: 'author-i18n',
    table: 'author_i18n',
    reply: resourceReply(authorI18nSchema),
    owner: 'creator',
    read: 'user',
    create: authorI18nCreateSchema,
    update: authorI18nUpdateSchema,
    parent: { table: 'authors', column: 'author_id', field: 'author', messageKey: 'metadata.validation.author' },
    references: [ref('author', 'authors', 'metadata.validation.author')],
    extraFields: ['metadata'],
    filters: { author__id: byParent('author_i18n', 'author_id', 'authors'), language: (q, v) => q.where('author_i18n.language', '=', v) },
    requiredFilter: ['author__id'],
    orderBy: ['language'],
    uniqueKey: 'metadata.author.translationExists',
  },
  {
    name: 'meta-author',
    table: 'meta_author',
    reply: resourceReply(metaAuthorSchema),
    owner: 'record',
    read: 'public',
    create: metaAuthorCreateSchema,
    update: metaAuthorUpdateSchema,
    references: [metadataRef, ref('author', 'authors', 'metadata.validation.author')],
    filters: {
      ...byMetadata('meta_author'),
      role: (q, v) => q.where('meta_author.role', '=', v),
      role__not: (q, v) => q.where('meta_author.role', '<>', v),
    },
    requiredFilter: ['metadata__id'],
    orderBy: ['sort', 'id'],
    uniqueKey: 'metadata.author.linkExists',
  },
  {
    name: 'literature',
    table: 'literature',
    reply: resourceReply(literatureSchema),
    owner: 'creator',
    read: 'user',
    create: literatureCreateSchema,
    update: literatureUpdateSchema,
    extraFields: ['metadata'],
    filters: {
      metadata__id: linkedTo('literature', 'citations', 'literature_id'),
      search: likeName('literature', 'title'),
      type: (q, v) => q.where('literature.type', '=', v),
    },
    orderBy: ['sort', 'id'],
  },
  {
    name: 'literature-i18n',
    table: 'literature_i18n',
    reply: resourceReply(literatureI18nSchema),
    owner: 'creator',
    read: 'user',
    create: literatureI18nCreateSchema,
    update: literatureI18nUpdateSchema,
    parent: { table: 'literature', column: 'literature_id', field: 'literature', messageKey: 'metadata.validation.literature' },
    references: [ref('literature', 'literature', 'metadata.validation.literature')],
    extraFields: ['metadata'],
    filters: { literature__id: byParent('literature_i18n', 'literature_id', 'literature') },
    requiredFilter: ['literature__id'],
    orderBy: ['language'],
    uniqueKey: 'metadata.literature.translationExists',
  },
  {
    name: 'citation',
    table: 'citations',
    reply: resourceReply(citationSchema),
    owner: 'record',
    read: 'public',
    create: citationCreateSchema,
    update: citationUpdateSchema,
    references: [metadataRef, ref('literature', 'literature', 'metadata.validation.literature')],
    filters: { ...byMetadata('citations') },
    requiredFilter: ['metadata__id'],
    orderBy: ['sort', 'id'],
    uniqueKey: 'metadata.literature.unique',
  },
  {
    name: 'keyword',
    table: 'keywords',
    reply: resourceReply(keywordSchema),
    owner: 'creator',
    read: 'user',
    create: keywordCreateSchema,
    update: keywordUpdateSchema,
    extraFields: ['metadata', 'translation'],
    filters: {
      metadatakeyword__metadata__id: linkedTo('keywords', 'meta_keyword', 'keyword_id'),
      type: (q, v) => q.where('keywords.type', '=', v),
      search: likeName('keywords'),
    },
    orderBy: ['type', 'name', 'id'],
  },
  {
    name: 'keyword-i18n',
    table: 'keyword_i18n',
    reply: resourceReply(keywordI18nSchema),
    owner: 'creator',
    read: 'user',
    create: keywordI18nCreateSchema,
    update: keywordI18nUpdateSchema,
    parent: { table: 'keywords', column: 'keyword_id', field: 'keyword', messageKey: 'metadata.validation.keyword' },
    references: [ref('keyword', 'keywords', 'metadata.validation.keyword')],
    extraFields: ['metadata'],
    filters: {
      keyword_id: byParent('keyword_i18n', 'keyword_id', 'keywords'),
      keyword__id: byParent('keyword_i18n', 'keyword_id', 'keywords'),
    },
    requiredFilter: ['keyword__id', 'keyword_id'],
    orderBy: ['language'],
    uniqueKey: 'metadata.keyword.translationExists',
  },
  {
    name: 'meta-keyword',
    table: 'meta_keyword',
    reply: resourceReply(metaKeywordSchema),
    owner: 'record',
    read: 'public',
    create: metaKeywordCreateSchema,
    references: [metadataRef, ref('keyword', 'keywords', 'metadata.validation.keyword')],
    uniqueKey: 'metadata.keyword.exists',
    filters: { ...byMetadata('meta_keyword') },
    requiredFilter: ['metadata__id'],
    orderBy: ['id'],
  },
  {
    name: 'keyword-standard',
    table: 'keyword_standards',
    reply: resourceReply(keywordStandardSchema),
    owner: 'staff',
    read: 'public',
    create: keywordStandardCreateSchema,
    references: [{ field: 'parent', column: 'parent_id', table: 'keyword_standards', messageKey: 'metadata.validation.keywordStandard' }],
    filters: {
      parent_null: (q, v) => (v === 'false' || v === '0' ? q.where('keyword_standards.parent_id', 'is not', null) : q.where('keyword_standards.parent_id', 'is', null)),
      parent__id: byParent('keyword_standards', 'parent_id', 'keyword_standards'),
    },
    orderBy: ['sort', 'code', 'name'],
  },
  {
    name: 'meta-keyword-standard',
    table: 'meta_keyword_standard',
    reply: resourceReply(metaKeywordStandardSchema),
    owner: 'record',
    read: 'public',
    create: metaKeywordStandardCreateSchema,
    references: [metadataRef, ref('keyword_standard', 'keyword_standards', 'metadata.validation.keywordStandard')],
    filters: { ...byMetadata('meta_keyword_standard') },
    requiredFilter: ['metadata__id'],
    orderBy: ['id'],
    uniqueKey: 'metadata.keyword.standardExists',
  },
  {
    name: 'meta-discipline',
    table: 'meta_discipline',
    reply: resourceReply(metaDisciplineSchema),
    owner: 'record',
    read: 'public',
    create: metaDisciplineCreateSchema,
    references: [metadataRef, ref('keyword_standard', 'keyword_standards', 'metadata.validation.keywordStandard')],
    filters: {
      ...byMetadata('meta_discipline'),
      number: (q, v) => q.where('meta_discipline.number', '=', Number(v) || 0),
      keyword_standard__parent__null: (q, v) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('keyword_standards')
              .select('keyword_standards.id')
              .whereRef('keyword_standards.id', '=', 'meta_discipline.keyword_standard_id')
              .where('keyword_standards.parent_id', v === 'false' || v === '0' ? 'is not' : 'is', null),
          ),
        ),
    },
    requiredFilter: ['metadata__id'],
    orderBy: ['number', 'id'],
  },
  {
    name: 'fund',
    table: 'funds',
    reply: resourceReply(fundSchema),
    owner: 'creator',
    read: 'user',
    create: fundCreateSchema,
    extraFields: ['metadata'],
    staffOnly: { is_core: 0 },
    filters: { search: likeName('funds'), is_core: (q, v) => q.where('funds.is_core', '=', v === 'true' || v === '1' ? 1 : 0) },
    orderBy: ['is_core desc', 'name', 'id'],
  },
  {
    name: 'meta-fund',
    table: 'meta_fund',
    reply: resourceReply(metaFundSchema),
    owner: 'record',
    read: 'public',
    create: metaFundCreateSchema,
    references: [metadataRef, ref('fund', 'funds', 'metadata.validation.fund')],
    filters: { ...byMetadata('meta_fund') },
    requiredFilter: ['metadata__id'],
    orderBy: ['id'],
    uniqueKey: 'metadata.fund.exists',
    maxPerRecord: { count: METADATA_LIMITS.fundsMax, messageKey: 'metadata.fund.tooMany' },
  },
  {
    name: 'project',
    table: 'projects',
    reply: resourceReply(projectSchema),
    owner: 'creator',
    read: 'user',
    create: projectCreateSchema,
    filters: { search: likeName('projects') },
    orderBy: ['name', 'id'],
  },
  {
    name: 'program',
    table: 'programs',
    reply: resourceReply(programSchema),
    owner: 'staff',
    read: 'public',
    create: programCreateSchema,
    filters: { code: (q, v) => q.where('programs.code', '=', v) },
    orderBy: ['code', 'name', 'id'],
  },
  {
    name: 'special',
    table: 'specials',
    reply: resourceReply(specialSchema),
    owner: 'staff',
    read: 'public',
    create: specialCreateSchema,
    filters: { search: likeName('specials') },
    orderBy: ['name', 'id'],
  },
  {
    name: 'special-manage',
    table: 'special_managers',
    reply: resourceReply(specialManagerSchema),
    owner: 'staff',
    read: 'user',
    create: specialManageCreateSchema,
    references: [ref('special', 'specials', 'metadata.validation.special'), ref('user', 'users', 'metadata.validation.user')],
    filters: { special__id: byParent('special_managers', 'special_id', 'specials') },
    orderBy: ['id'],
    uniqueKey: 'metadata.special.managerExists',
  },
  {
    name: 'meta-special',
    table: 'meta_special',
    reply: resourceReply(metaSpecialSchema),
    owner: 'record',
    read: 'public',
    create: metaSpecialCreateSchema,
    references: [metadataRef, ref('special', 'specials', 'metadata.validation.special')],
    filters: { ...byMetadata('meta_special') },
    requiredFilter: ['metadata__id'],
    orderBy: ['id'],
    uniqueKey: 'metadata.special.exists',
  },
  {
    name: 'affiliation',
    table: 'affiliations',
    reply: resourceReply(affiliationEntrySchema),
    owner: 'creator',
    read: 'user',
    create: affiliationCreateSchema,
    filters: { search: likeName('affiliations') },
    orderBy: ['name', 'id'],
  },
  {
    name: 'online-resource',
    table: 'online_resources',
    reply: resourceReply(onlineResourceSchema),
    owner: 'record',
    read: 'public',
    create: onlineResourceCreateSchema,
    update: onlineResourceUpdateSchema,
    references: [metadataRef],
    filters: { ...byMetadata('online_resources') },
    requiredFilter: ['metadata__id'],
    orderBy: ['created_at', 'id'],
  },
];

/** Tables whose rows carry `created_by` / `created_at`. */
export const CREATED_TABLES = new Set([
  'authors',
  'literature',
  'keywords',
  'funds',
  'projects',
  'programs',
  'specials',
  'affiliations',
  'online_resources',
]);
