import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

/** `columns('^name$')`: the column a parameter names (COLUMNS takes a pattern; the anchors make it that one column). */
const column = (parameter: string) => `columns('^' || $${parameter} || '$')`;
const T_975 = [
  12.706204736174694, 4.302652729749462, 3.1824463052837078, 2.7764451051977934, 2.5705818356363146, 2.4469118511449786, 2.364624251592784, 2.306004135204166, 2.262157162798205,
  2.228138851986274, 2.200985160091639, 2.1788128296672284, 2.1603686564627913, 2.144786687917804, 2.131449545559776, 2.1199052992212546, 2.1098155778333156, 2.1009220402410382,
  2.0930240544083087, 2.085963447265864, 2.0796138447276795, 2.0738730679040254, 2.0686576104190486, 2.0638985616280245, 2.0595385527532972, 2.0555294386428735, 2.0518305164802846,
  2.0484071417952454, 2.045229642132703, 2.0422724563012378,
];

/**
 * The data centre's three methods as first written. Table parameters name a view (`input1` is the first
 * tabular file of the chosen datasets, `input2` the second; or a file's own view name); column parameters
 * name a column of it. The trend's 95 % interval uses Student's t: exact quantiles up to 30 degrees of
 * freedom, the Cornish-Fisher expansion beyond (within 3e-8 of the quantile from 31 on).
 */
const DATA_CENTRE_METHODS = [
  {
    name: '站点序列月平均',
    name_en: 'Monthly means of a station series',
    description: '按月（YYYY-MM）计算一个站点时间序列的平均值、最小值、最大值和观测数，忽略空值。',
    description_en: 'The mean, minimum, maximum and number of observations of a station series per month (YYYY-MM), empty values left out.',
    sql: `select strftime(date_trunc('month', cast(t as timestamp)), '%Y-%m') as month, avg(v) as mean, min(v) as minimum, max(v) as maximum, count(*) as observations
from (select ${column('time_column')} as t, cast(${column('value_column')} as double) as v from query_table($table))
where t is not null and v is not null
group by 1 order by 1`,
    parameters: [
      { name: 'table', type: 'string', default: 'input1' },
      { name: 'time_column', type: 'string', default: 'time' },
      { name: 'value_column', type: 'string', default: 'value' },
    ],
  },
  {
    name: '线性趋势及置信区间',
    name_en: 'Linear trend with confidence interval',
    description: '对时间序列做最小二乘线性拟合：每年的斜率、其标准误差与 95% 置信区间（t 分布），截距（1970 年）和 R²。',
    description_en:
      'An ordinary least-squares line through a time series: the slope per year, its standard error and 95 % confidence interval (Student t), the intercept (at 1970) and R².',
    sql: `with series as (
  select epoch(cast(t as timestamp)) / 31557600.0 as x, cast(v as double) as y
  from (select ${column('time_column')} as t, ${column('value_column')} as v from query_table($table))
  where t is not null and v is not null
), fit as (
  select regr_count(y, x) as n, regr_slope(y, x) as slope, regr_intercept(y, x) as intercept, regr_r2(y, x) as r2,
    regr_sxx(y, x) as sxx, regr_syy(y, x) as syy, regr_sxy(y, x) as sxy
  from series
), interval as (
  select *, sqrt(greatest(syy - sxy * sxy / sxx, 0) / (n - 2) / sxx) as se,
    case when n - 2 <= 30 then [${T_975.join(', ')}][n - 2]
      else 1.959963984540054 + 2.372271230298562 / (n - 2) + 2.8224986157396112 / (n - 2) ^ 2 + 2.555849679507722 / (n - 2) ^ 3 + 1.5895340533938225 / (n - 2) ^ 4 end as t
  from fit where n > 2
)
select n, slope as slope_per_year, se as slope_standard_error, slope - t * se as slope_lower_95, slope + t * se as slope_upper_95, intercept, r2 from interval`,
    parameters: [
      { name: 'table', type: 'string', default: 'input1' },
      { name: 'time_column', type: 'string', default: 'time' },
      { name: 'value_column', type: 'string', default: 'value' },
    ],
  },
  {
    name: '两表按时间连接',
    name_en: 'Join of two tables on time',
    description: '把两个表中时间相同的行连接在一起（内连接），时间列只保留一次，按时间排序。',
    description_en: 'The rows of two tables with the same time side by side (an inner join), the time column once, in time order.',
    sql: `with l as (select cast(${column('time_column')} as timestamp) as joined_time, columns(c -> c <> $time_column) from query_table($left_table)),
r as (select cast(${column('time_column')} as timestamp) as joined_time, columns(c -> c <> $time_column) from query_table($right_table))
select l.joined_time as time, l.* exclude (joined_time), r.* exclude (joined_time) from l join r on l.joined_time = r.joined_time order by 1`,
    parameters: [
      { name: 'left_table', type: 'string', default: 'input1' },
      { name: 'right_table', type: 'string', default: 'input2' },
      { name: 'time_column', type: 'string', default: 'time' },
    ],
  },
];

/**
 * Issue 20, analysis methods (modules/analysis/). `analysis_methods`: a method, its owner (null: the
 * data centre's own), whether it is public, its current version and how often it was run; a deleted
 * method keeps its row (deleted_at) so that its runs still name what they ran.
 * `analysis_method_versions`: every version of a method's text (names, descriptions, SQL, parameters),
 * never changed once written. `analysis_runs`: a run with its inputs (the version, datasets,
 * parameters, the views the query saw), its state and its result. The data centre's three methods
 * are written here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analysis_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('current_version', 'integer', (c) => c.notNull())
    .addColumn('forked_from', 'text')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('analysis_methods_owner').on('analysis_methods').columns(['owner_id']).execute();
  await db.schema.createIndex('analysis_methods_public').on('analysis_methods').columns(['public', 'uses']).execute();
  await db.schema
    .createTable('analysis_method_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('method_id', 'text', (c) => c.notNull().references('analysis_methods.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('description_en', 'text', (c) => c.notNull())
    .addColumn('sql', 'text', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('chart', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('analysis_method_versions_number', ['method_id', 'version'])
    .execute();
  await db.schema
    .createTable('analysis_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('method_id', 'text', (c) => c.notNull().references('analysis_methods.id').onDelete('cascade'))
    .addColumn('version_id', 'text', (c) => c.notNull().references('analysis_method_versions.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('datasets', 'text', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('views', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('columns', 'text')
    .addColumn('rows', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('analysis_runs_user').on('analysis_runs').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('analysis_runs_status').on('analysis_runs').columns(['status']).execute();

  const now = new Date().toISOString();
  const methods = db as Kysely<Record<string, Record<string, unknown>>>;
  for (const method of DATA_CENTRE_METHODS) {
    const id = randomUUID();
    await methods
      .insertInto('analysis_methods')
      .values({ id, owner_id: null, public: 1, current_version: 1, forked_from: null, uses: 0, created_at: now, updated_at: now })
      .execute();
    await methods
      .insertInto('analysis_method_versions')
      .values({ id: randomUUID(), method_id: id, version: 1, ...method, parameters: JSON.stringify(method.parameters), created_at: now })
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analysis_runs').execute();
  await db.schema.dropTable('analysis_method_versions').execute();
  await db.schema.dropTable('analysis_methods').execute();
}
