import { PARAMETER_NAME, type MethodChart, type MethodInput, type MethodParameter, type RunInput } from '@portal/shared';
import { AppError } from '../../errors.js';

/** The rules of a method's text and of a run's parameter values (issue 20), checked by AnalysisService. */

/** A method's text checked: a name and a query, parameters with names the SQL can write and defaults of their types. */
export function checkedText(
  input: Omit<MethodInput, 'public' | 'parameters' | 'chart'> & {
    chart?: MethodChart;
    parameters: { name: string; type: MethodParameter['type']; default?: MethodParameter['default'] }[];
  },
) {
  const name = input.name.trim();
  if (!name) throw new AppError('VALIDATION_FAILED', 'analysis.nameRequired');
  const sql = input.sql.trim();
  if (!sql) throw new AppError('VALIDATION_FAILED', 'analysis.sqlRequired');
  const seen = new Set<string>();
  const parameters: MethodParameter[] = input.parameters.map((parameter) => {
    if (!PARAMETER_NAME.test(parameter.name)) throw new AppError('VALIDATION_FAILED', 'analysis.parameterName', { params: { name: parameter.name } });
    if (seen.has(parameter.name)) throw new AppError('VALIDATION_FAILED', 'analysis.parameterTwice', { params: { name: parameter.name } });
    seen.add(parameter.name);
    const value = parameter.default ?? null;
    return { name: parameter.name, type: parameter.type, default: value === null ? null : checkedValue(parameter, value) };
  });
  return {
    name,
    name_en: input.name_en.trim(),
    description: input.description,
    description_en: input.description_en,
    sql,
    parameters: JSON.stringify(parameters),
    chart: input.chart ? JSON.stringify(input.chart) : null,
  };
}

/** The values of a run: every declared parameter, given or its default, of its type; nothing undeclared. */
export function checkedValues(declared: MethodParameter[], given: RunInput['parameters']): Record<string, string | number | boolean> {
  const byName = new Map(declared.map((parameter) => [parameter.name, parameter]));
  for (const name of Object.keys(given)) if (!byName.has(name)) throw new AppError('VALIDATION_FAILED', 'analysis.parameterUnknown', { params: { name } });
  const values: Record<string, string | number | boolean> = {};
  for (const parameter of declared) {
    const value = given[parameter.name] ?? parameter.default;
    if (value === null || value === undefined) throw new AppError('VALIDATION_FAILED', 'analysis.parameterMissing', { params: { name: parameter.name } });
    values[parameter.name] = checkedValue(parameter, value);
  }
  return values;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A number written as text: decimal, as a person writes it ('12', '-0.5', '1e3'); not '0x10', '0b11' or 'Infinity', which Number() reads too. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function checkedValue(parameter: { name: string; type: MethodParameter['type'] }, value: string | number | boolean): string | number | boolean {
  const refuse = () => new AppError('VALIDATION_FAILED', `analysis.parameterValue.${parameter.type}`, { params: { name: parameter.name } });
  const number = typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : value;
  switch (parameter.type) {
    case 'number':
      if (typeof number !== 'number' || !Number.isFinite(number)) throw refuse();
      return number;
    case 'integer':
      if (typeof number !== 'number' || !Number.isSafeInteger(number)) throw refuse();
      return number;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw refuse();
    case 'date': {
      const match = typeof value === 'string' ? DATE.exec(value) : null;
      const day = match && new Date(`${value}T00:00:00Z`);
      if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) throw refuse();
      return value;
    }
    case 'string':
      if (typeof value !== 'string') throw refuse();
      return value;
  }
}
