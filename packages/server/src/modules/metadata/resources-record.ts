import { METADATA_LIMITS } from '@portal/shared';
import {
  citationCreateSchema,
  citationUpdateSchema,
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
} from '@portal/shared/contracts/metadata';
import {
  citationSchema,
  metaAuthorSchema,
  metaDisciplineSchema,
  metaFundSchema,
  metaKeywordSchema,
  metaKeywordStandardSchema,
  metaSpecialSchema,
  metadataTranslationSchema,
  onlineResourceSchema,
  resourceReply,
} from '@portal/shared/contracts/metadata-replies';
import type { z } from 'zod';
import { byMetadata, ref, metadataRef, type ResourceDef } from './resource-def.js';

/** The rows that belong to one record (`owner: 'record'`): its translations and its links to shared entries. */

export const metadataI18n: ResourceDef = {
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
};

export const metaAuthor: ResourceDef = {
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
};

export const citation: ResourceDef = {
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
};

export const metaKeyword: ResourceDef = {
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
};

export const metaKeywordStandard: ResourceDef = {
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
};

export const metaDiscipline: ResourceDef = {
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
};

export const metaFund: ResourceDef = {
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
};

export const metaSpecial: ResourceDef = {
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
};

export const onlineResource: ResourceDef = {
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
};
