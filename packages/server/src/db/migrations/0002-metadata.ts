import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * The metadata record and everything attached to it (spec section 3). Same conventions as 0001:
 * text ids (random, unguessable), integers for booleans, ISO-8601 text for times, '' for an empty
 * text field. A migration is frozen once it has run anywhere: change the schema with a new one.
 */
type Table = CreateTableBuilder<string, string>;

/** Not-null text columns that default to the empty string. */
function texts(table: Table, names: string[]): Table {
  return names.reduce((t, name) => t.addColumn(name, 'text', (c) => c.notNull().defaultTo('')), table);
}

function metadataRef(table: Table): Table {
  return table.addColumn('metadata_id', 'text', (c) => c.notNull().references('metadata.id').onDelete('cascade'));
}

function createdBy(table: Table): Table {
  return table.addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null')).addColumn('created_at', 'text', (c) => c.notNull());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  let metadata = db.schema
    .createTable('metadata')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('language', 'text', (c) => c.notNull());
  metadata = texts(metadata, [
    'title',
    'article_name',
    'article_publication',
    'category',
    'platform',
    'source_project',
    'data_series',
    'description',
    'data_source',
    'use_term',
    'usage_method',
    'citation',
    'doi',
    'doi_category',
    'protection_period',
    'protection_description',
    'time_start',
    'time_end',
    'time_description',
    'coordinate_system',
    'projection',
    'license',
    'temporal_resolution',
    'spatial_resolution',
    'subtopic_three_pole',
    'subtopic_third_pole',
    'dist_unit',
    'dist_country',
    'dist_province',
    'dist_city',
    'dist_address',
    'dist_phone',
    'dist_email',
    'sharing_policy',
    'submitting_type',
  ]);
  await metadata
    .addColumn('file_size', 'double precision')
    .addColumn('east', 'double precision')
    .addColumn('south', 'double precision')
    .addColumn('west', 'double precision')
    .addColumn('north', 'double precision')
    .addColumn('scale', 'bigint')
    .addColumn('hit_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text')
    .addColumn('published_at', 'text')
    .execute();
  await db.schema.createIndex('metadata_owner_status').on('metadata').columns(['owner_id', 'status']).execute();
  await db.schema.createIndex('metadata_status').on('metadata').columns(['status', 'updated_at']).execute();

  await texts(
    metadataRef(db.schema.createTable('metadata_i18n').addColumn('id', 'text', (c) => c.primaryKey()))
      .addColumn('language', 'text', (c) => c.notNull())
      .addUniqueConstraint('metadata_i18n_unique', ['metadata_id', 'language']),
    ['title', 'description', 'data_source', 'use_term', 'usage_method', 'citation', 'time_description'],
  ).execute();

  // Authors (data resource providers) are shared between records, linked through meta_author.
  await createdBy(
    texts(
      db.schema.createTable('authors').addColumn('id', 'text', (c) => c.primaryKey()),
      ['name', 'email', 'affiliation', 'phone', 'address', 'country', 'province', 'city', 'zipcode'],
    ),
  ).execute();
  await db.schema.createIndex('authors_name').on('authors').column('name').execute();
  await texts(
    db.schema
      .createTable('author_i18n')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('author_id', 'text', (c) => c.notNull().references('authors.id').onDelete('cascade'))
      .addColumn('language', 'text', (c) => c.notNull())
      .addUniqueConstraint('author_i18n_unique', ['author_id', 'language']),
    ['name', 'affiliation', 'address'],
  ).execute();
  await metadataRef(db.schema.createTable('meta_author').addColumn('id', 'text', (c) => c.primaryKey()))
    .addColumn('author_id', 'text', (c) => c.notNull().references('authors.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('event_date', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('meta_author_unique', ['metadata_id', 'author_id', 'role'])
    .execute();
  await db.schema.createIndex('meta_author_author').on('meta_author').column('author_id').execute();

  await createdBy(
    texts(
      db.schema.createTable('literature').addColumn('id', 'text', (c) => c.primaryKey()),
      ['title', 'title_en', 'type', 'year', 'publisher', 'link', 'language', 'doi', 'ris', 'abstract', 'comment', 'reference_type'],
    ).addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await texts(
    db.schema
      .createTable('literature_i18n')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('literature_id', 'text', (c) => c.notNull().references('literature.id').onDelete('cascade'))
      .addColumn('language', 'text', (c) => c.notNull())
      .addUniqueConstraint('literature_i18n_unique', ['literature_id', 'language']),
    ['title', 'publisher', 'abstract'],
  ).execute();
  // A citation links a record to a literature entry ("Metadata references are unique").
  await metadataRef(db.schema.createTable('citations').addColumn('id', 'text', (c) => c.primaryKey()))
    .addColumn('literature_id', 'text', (c) => c.notNull().references('literature.id').onDelete('cascade'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('citations_unique', ['metadata_id', 'literature_id'])
    .execute();

  await createdBy(
    texts(
      db.schema.createTable('keywords').addColumn('id', 'text', (c) => c.primaryKey()),
      ['name', 'type', 'language'],
    ),
  ).execute();
  await db.schema.createIndex('keywords_name').on('keywords').columns(['type', 'name']).execute();
  await db.schema
    .createTable('keyword_i18n')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('keyword_id', 'text', (c) => c.notNull().references('keywords.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('keyword_i18n_unique', ['keyword_id', 'language'])
    .execute();
  await metadataRef(db.schema.createTable('meta_keyword').addColumn('id', 'text', (c) => c.primaryKey()))
    .addColumn('keyword_id', 'text', (c) => c.notNull().references('keywords.id').onDelete('cascade'))
    .addUniqueConstraint('meta_keyword_unique', ['metadata_id', 'keyword_id'])
    .execute();

  await db.schema
    .createTable('keyword_standards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text', (c) => c.references('keyword_standards.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('keyword_standards_parent').on('keyword_standards').column('parent_id').execute();
  await metadataRef(db.schema.createTable('meta_keyword_standard').addColumn('id', 'text', (c) => c.primaryKey()))
    .addColumn('keyword_standard_id', 'text', (c) => c.notNull().references('keyword_standards.id').onDelete('cascade'))
    .addUniqueConstraint('meta_keyword_standard_unique', ['metadata_id', 'keyword_standard_id'])
    .execute();
  await texts(
    metadataRef(db.schema.createTable('meta_discipline').addColumn('id', 'text', (c) => c.primaryKey()))
      .addColumn('keyword_standard_id', 'text', (c) => c.notNull().references('keyword_standards.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull().defaultTo(1)),
    ['theme1', 'theme2', 'theme3', 'element1', 'element2', 'element3'],
  ).execute();

  await createdBy(
    texts(
      db.schema.createTable('funds').addColumn('id', 'text', (c) => c.primaryKey()),
      ['name', 'name_en', 'serial_number', 'principal', 'phone', 'email'],
    ).addColumn('is_core', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await metadataRef(db.schema.createTable('meta_fund').addColumn('id', 'text', (c) => c.primaryKey()))
    .addColumn('fund_id', 'text', (c) => c.notNull().references('funds.id').onDelete('cascade'))
    .addUniqueConstraint('meta_fund_unique', ['metadata_id', 'fund_id'])
    .execute();

  await createdBy(
    texts(
      db.schema.createTable('projects').addColumn('id', 'text', (c) => c.primaryKey()),
      ['name', 'name_en', 'abbreviation'],
    ),
  ).execute();
  await createdBy(
    texts(
      db.schema.createTable('programs').addColumn('id', 'text', (c) => c.primaryKey()),
      ['code', 'name', 'name_en'],
    ),
  ).execute();
  await db.schema.createIndex('programs_code').on('programs').column('code').execute();

  await createdBy(
    texts(
      db.schema.createTable('specials').addColumn('id', 'text', (c) => c.primaryKey()),
      ['name', 'name_en', 'description'],
    ),
  ).execute();
  await db.schema
    .createTable('special_managers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('special_id', 'text', (c) => c.notNull().references('specials.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addUniqueConstraint('special_managers_unique', ['special_id', 'user_id'])
    .execute();
  await metadataRef(db.schema.createTable('meta_special').addColumn('id', 'text', (c) => c.primaryKey()))
    .addColumn('special_id', 'text', (c) => c.notNull().references('specials.id').onDelete('cascade'))
    .addUniqueConstraint('meta_special_unique', ['metadata_id', 'special_id'])
    .execute();

  await createdBy(
    texts(
      db.schema.createTable('affiliations').addColumn('id', 'text', (c) => c.primaryKey()),
      ['name', 'name_en'],
    ),
  ).execute();

  // Stored files: `storage_key` names the blob in the storage (local disk or S3), never a user's name.
  for (const table of ['meta_media', 'meta_attach', 'meta_file']) {
    let builder = metadataRef(db.schema.createTable(table).addColumn('id', 'text', (c) => c.primaryKey()));
    builder = texts(builder, ['name', 'mime', 'storage_key', 'sha256']);
    if (table === 'meta_media') builder = texts(builder, ['type', 'resized_key']);
    await createdBy(builder.addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))).execute();
    await db.schema.createIndex(`${table}_metadata`).on(table).column('metadata_id').execute();
  }

  await createdBy(texts(metadataRef(db.schema.createTable('online_resources').addColumn('id', 'text', (c) => c.primaryKey())), ['name', 'url', 'description'])).execute();

  // Funds 5 and 6 are the two programme funds whose records need a subtopic number (spec section 9).
  const now = new Date().toISOString();
  await (db as Kysely<Record<string, Record<string, unknown>>>)
    .insertInto('funds')
    .values([
      { id: '5', name: '三极平台', name_en: 'Three Poles platform', is_core: 1, created_at: now },
      { id: '6', name: '第三极（青藏高原）中心', name_en: 'Third Pole (Tibetan Plateau) centres', is_core: 1, created_at: now },
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'online_resources',
    'meta_file',
    'meta_attach',
    'meta_media',
    'affiliations',
    'meta_special',
    'special_managers',
    'specials',
    'programs',
    'projects',
    'meta_fund',
    'funds',
    'meta_discipline',
    'meta_keyword_standard',
    'keyword_standards',
    'meta_keyword',
    'keyword_i18n',
    'keywords',
    'citations',
    'literature_i18n',
    'literature',
    'meta_author',
    'author_i18n',
    'authors',
    'metadata_i18n',
    'metadata',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
