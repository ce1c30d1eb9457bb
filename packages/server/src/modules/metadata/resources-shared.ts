import {
  affiliationCreateSchema,
  authorCreateSchema,
  authorI18nCreateSchema,
  authorI18nUpdateSchema,
  authorUpdateSchema,
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
  programCreateSchema,
  projectCreateSchema,
  specialCreateSchema,
  specialManageCreateSchema,
} from '@portal/shared/contracts/metadata';
import {
  affiliationEntrySchema,
  authorI18nSchema,
  authorSchema,
  fundSchema,
  keywordI18nSchema,
  keywordSchema,
  keywordStandardSchema,
  literatureI18nSchema,
  literatureSchema,
  programSchema,
  projectSchema,
  resourceReply,
  specialManagerSchema,
  specialSchema,
} from '@portal/shared/contracts/metadata-replies';
import { byParent, ref, linkedTo, likeName, type ResourceDef } from './resource-def.js';

/** The shared entries records link to (`creator`) and the vocabularies the data centre keeps (`staff`), with their translations. */

export const author: ResourceDef = {
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
};

export const authorI18n: ResourceDef = {
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
};

export const literature: ResourceDef = {
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
};

export const literatureI18n: ResourceDef = {
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
};

export const keyword: ResourceDef = {
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
};

export const keywordI18n: ResourceDef = {
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
};

export const keywordStandard: ResourceDef = {
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
};

export const fund: ResourceDef = {
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
};

export const project: ResourceDef = {
  name: 'project',
  table: 'projects',
  reply: resourceReply(projectSchema),
  owner: 'creator',
  read: 'user',
  create: projectCreateSchema,
  filters: { search: likeName('projects') },
  orderBy: ['name', 'id'],
};

export const program: ResourceDef = {
  name: 'program',
  table: 'programs',
  reply: resourceReply(programSchema),
  owner: 'staff',
  read: 'public',
  create: programCreateSchema,
  filters: { code: (q, v) => q.where('programs.code', '=', v) },
  orderBy: ['code', 'name', 'id'],
};

export const special: ResourceDef = {
  name: 'special',
  table: 'specials',
  reply: resourceReply(specialSchema),
  owner: 'staff',
  read: 'public',
  create: specialCreateSchema,
  filters: { search: likeName('specials') },
  orderBy: ['name', 'id'],
};

export const specialManage: ResourceDef = {
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
};

export const affiliation: ResourceDef = {
  name: 'affiliation',
  table: 'affiliations',
  reply: resourceReply(affiliationEntrySchema),
  owner: 'creator',
  read: 'user',
  create: affiliationCreateSchema,
  filters: { search: likeName('affiliations') },
  orderBy: ['name', 'id'],
};
