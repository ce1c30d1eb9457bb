import type { analysisEn } from './analysis.en.js';

/** 分析方法及其运行（issue 20）。 */
export const analysisZhHans: typeof analysisEn = {
  methodNotFound: '没有这个分析方法。',
  runNotFound: '没有这次运行。',
  notOwner: '只有方法的作者可以编辑或删除它。',
  nameRequired: '请输入方法名称。',
  sqlRequired: '请输入方法的 SQL 查询。',
  parameterName: '参数名只能包含英文字母、数字和 _，并以字母或 _ 开头：{{name}}',
  parameterTwice: '参数 {{name}} 重复声明。',
  parameterValue: {
    number: '{{name}} 的值不是数字。',
    integer: '{{name}} 的值不是整数。',
    string: '{{name}} 的值不是文本。',
    date: '{{name}} 的值不是日期（YYYY-MM-DD）。',
    boolean: '{{name}} 的值不是 true 或 false。',
  },
  parameterMissing: '请填写参数 {{name}} 的值。',
  parameterUnknown: '该方法没有参数 {{name}}。',
  datasetsRequired: '请至少选择一个数据集。',
  tooManyFiles: '所选数据集共有 {{count}} 个数据表和表格数据文件；一次运行最多读取 {{max}} 个。',
  noTabularFiles: '所选数据集既没有数据表，也没有表格数据文件（CSV、TSV 或 Parquet）。',
  oneStatement: '一个方法只能是一条查询：发现 {{count}} 条语句。',
  onlySelect: '方法只能读取数据：一条 SELECT（或 WITH ... SELECT）查询。',
  parameterUndeclared: '查询使用了 ${{name}}，但方法没有声明该参数。',
  timeLimit: '查询运行 {{seconds}} 秒后被停止（单次运行的时间上限）。',
  tooManyRows: '结果超过 {{max}} 行（单次运行的上限）：请聚合或加上 LIMIT。',
  tooManyBytes: '结果大于 {{max}}（单次运行的上限）：请选择更少的列或行。',
  queryFailed: '查询失败：{{detail}}',
  runnerDied: '查询中止（内存不足？）：{{detail}}',
  interrupted: '运行因门户重启而中断：请重新运行。',
  runNotDone: '本次运行尚无结果：仍在运行或已失败。',
};
