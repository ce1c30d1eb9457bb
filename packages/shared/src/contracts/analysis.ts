import { z } from 'zod';
import { pageOf } from './page.js';

/**
 * Analysis methods (issue 20; spec sections 1, 2 "Analysis"): a named, bilingual SQL recipe with
 * parameters, run in DuckDB over the tabular data files of records the runner may download.
 */
export const PARAMETER_TYPES = ['number', 'integer', 'string', 'date', 'boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];
export const RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const METHOD_LIMITS = { name: 200, description: 10_000, sql: 20_000, parameters: 20, parameterName: 40, datasets: 10, files: 100, pendingRuns: 5 } as const;
export const CHART_TYPES = ['line', 'bar', 'scatter'] as const;
/** A parameter's name as the SQL writes it after `$`. */
export const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const parameterValue = z.union([z.string().max(1000), z.number(), z.boolean()]);
export const methodParameterSchema = z.object({
  name: z.string(),
  type: z.enum(PARAMETER_TYPES),
  default: parameterValue.nullable(),
});
export type MethodParameter = z.infer<typeof methodParameterSchema>;

/** How the result is drawn: one column along x, one or more along y (result columns, by name). */
export const chartSchema = z
  .object({
    type: z.enum(CHART_TYPES, { error: 'validation.invalid' }),
    x: z.string({ error: 'validation.invalid' }).min(1, 'validation.invalid').max(200, 'validation.invalid'),
    y: z.array(z.string().min(1).max(200), { error: 'validation.invalid' }).min(1, 'validation.invalid').max(10, 'validation.invalid'),
  })
  .nullable();
export type MethodChart = z.infer<typeof chartSchema>;

const methodFields = {
  name: z.string({ error: 'validation.invalid' }).max(METHOD_LIMITS.name, 'validation.invalid'),
  name_en: z.string({ error: 'validation.invalid' }).max(METHOD_LIMITS.name, 'validation.invalid'),
  description: z.string({ error: 'validation.invalid' }).max(METHOD_LIMITS.description, 'validation.invalid'),
  description_en: z.string({ error: 'validation.invalid' }).max(METHOD_LIMITS.description, 'validation.invalid'),
  sql: z.string({ error: 'validation.invalid' }).max(METHOD_LIMITS.sql, 'validation.invalid'),
  parameters: z
    .array(z.object({ name: z.string().max(METHOD_LIMITS.parameterName), type: z.enum(PARAMETER_TYPES), default: parameterValue.nullable().optional() }), {
      error: 'validation.invalid',
    })
    .max(METHOD_LIMITS.parameters, 'validation.invalid'),
  chart: chartSchema,
  public: z.boolean({ error: 'validation.invalid' }),
};
/** What POST /api/analysis/methods/ takes. */
export const methodInputSchema = z.object({
  ...methodFields,
  name_en: methodFields.name_en.default(''),
  description: methodFields.description.default(''),
  description_en: methodFields.description_en.default(''),
  parameters: methodFields.parameters.default([]),
  chart: chartSchema.default(null),
  public: methodFields.public.default(false),
});
export type MethodInput = z.infer<typeof methodInputSchema>;
/** What PATCH takes: any part of it, nothing filled in. */
export const methodPatchSchema = z.object(methodFields).partial();
export type MethodPatch = z.infer<typeof methodPatchSchema>;

/** A method's text: what each version holds. */
const methodText = {
  name: z.string(),
  name_en: z.string(),
  description: z.string(),
  description_en: z.string(),
  sql: z.string(),
  parameters: z.array(methodParameterSchema),
  /** An optional chart of the result. */
  chart: chartSchema,
};

export const methodSchema = z.object({
  id: z.string(),
  ...methodText,
  public: z.boolean(),
  /** The current version (1 for a new method; each edit adds one, the older ones kept for their runs). */
  version: z.number(),
  /** Null for the data centre's own methods. */
  author: z.object({ id: z.string(), name: z.string() }).nullable(),
  forked_from: z.string().nullable(),
  /** Runs of it by anyone. */
  uses: z.number(),
  /** Forks of it that still exist, anyone's (private ones counted, not shown). */
  forks: z.number(),
  is_mine: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AnalysisMethod = z.infer<typeof methodSchema>;

export const methodPageSchema = pageOf(methodSchema);

/** GET /api/analysis/methods/{id}/versions/: every version of a method's text, the newest first. */
export const methodVersionSchema = z.object({ version: z.number(), ...methodText, created_at: z.string() });
export type MethodVersion = z.infer<typeof methodVersionSchema>;
export const methodVersionListSchema = z.object({ results: z.array(methodVersionSchema) });

export const runInputSchema = z.object({
  datasets: z.array(z.string().max(100), { error: 'validation.invalid' }).max(METHOD_LIMITS.datasets, 'validation.invalid'),
  parameters: z.record(z.string(), parameterValue, { error: 'validation.invalid' }).default({}),
});
export type RunInput = z.infer<typeof runInputSchema>;

export const runStartedSchema = z.object({ id: z.string(), status: z.enum(RUN_STATUSES) });

/** A dataset of a run by its titles (empty when the runner may no longer read the record). */
export const runDatasetSchema = z.object({ id: z.string(), title: z.string(), title_en: z.string() });
export type RunDataset = z.infer<typeof runDatasetSchema>;
const runMethodSchema = z.object({ id: z.string(), version: z.number(), name: z.string(), name_en: z.string() });

/** GET /api/analysis/runs/?method=: the caller's runs, newest first, with their inputs but not their results. */
export const runSummarySchema = z.object({
  id: z.string(),
  status: z.enum(RUN_STATUSES),
  method: runMethodSchema,
  datasets: z.array(runDatasetSchema),
  parameters: z.record(z.string(), parameterValue),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;
export const runPageSchema = pageOf(runSummarySchema);

export const runSchema = z.object({
  id: z.string(),
  status: z.enum(RUN_STATUSES),
  method: runMethodSchema,
  /** The exact SQL of the version it ran, and its chart. */
  sql: z.string(),
  chart: chartSchema,
  datasets: z.array(z.string()),
  /** The same datasets with their titles. */
  dataset_titles: z.array(runDatasetSchema),
  parameters: z.record(z.string(), parameterValue),
  /** Each view as the query saw it: its name, the record, and the data file's path or the imported table's name. */
  views: z.array(z.object({ name: z.string(), dataset: z.string(), file: z.string() })),
  columns: z.array(z.object({ name: z.string(), type: z.string() })).nullable(),
  rows: z.array(z.array(z.unknown())).nullable(),
  /** Why it failed, in the caller's language. */
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type AnalysisRun = z.infer<typeof runSchema>;
