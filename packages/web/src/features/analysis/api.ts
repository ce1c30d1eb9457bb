import type { z } from 'zod';
import type {
  AnalysisMethod,
  AnalysisRun,
  MethodInput,
  MethodPatch,
  MethodVersion,
  methodPageSchema,
  RunDataset,
  RunInput,
  runPageSchema,
  RunSummary,
  runStartedSchema,
} from '@portal/shared/contracts/analysis';
import type { SearchReply } from '@portal/shared/contracts/search';
import { pageLanguage } from '../../app/i18n';
import { api, ok } from '../../api/client';
import { path } from '../../api/routes';

/** The analysis calls of issue 20 (methods, their versions and forks, runs); every shape inferred from the shared contracts. */

export type { AnalysisMethod, AnalysisRun, MethodInput, MethodPatch, MethodVersion, RunDataset, RunInput, RunSummary };
export type MethodPage = z.infer<typeof methodPageSchema>;
export type RunPage = z.infer<typeof runPageSchema>;
export type RunStarted = z.infer<typeof runStartedSchema>;

export interface MethodQuery {
  page: number;
  pageSize: number;
  /** The caller's own methods, public or not (else the public ones). */
  mine?: boolean;
  search?: string;
  forked_from?: string;
}

export interface RunQuery {
  page: number;
  pageSize: number;
  method?: string;
}

export const analysisApi = {
  methods: async ({ mine, search, forked_from, ...paging }: MethodQuery) =>
    ok<MethodPage>(
      await api.get(path('analysisMethods'), { ...paging, ...(mine ? { mine: 'true' } : {}), ...(search ? { search } : {}), ...(forked_from ? { forked_from } : {}) }),
    ),
  method: async (id: string) => ok<AnalysisMethod>(await api.get(path('analysisMethod', { id }))),
  versions: async (id: string) => ok<{ results: MethodVersion[] }>(await api.get(path('analysisVersions', { id }))),
  create: async (body: MethodInput) => ok<AnalysisMethod>(await api.postJson(path('analysisMethods'), body)),
  update: async (id: string, body: MethodPatch) => ok<AnalysisMethod>(await api.patch(path('analysisMethod', { id }), body)),
  remove: async (id: string) => ok<unknown>(await api.delete(path('analysisMethod', { id }))),
  fork: async (id: string) => ok<AnalysisMethod>(await api.postJson(path('analysisFork', { id }), {})),
  start: async (id: string, body: RunInput) => ok<RunStarted>(await api.postJson(path('analysisStart', { id }), body)),
  run: async (id: string) => ok<AnalysisRun>(await api.get(path('analysisRun', { id }))),
  runs: async ({ method, ...paging }: RunQuery) => ok<RunPage>(await api.get(path('analysisRuns'), { ...paging, ...(method ? { method } : {}) })),
  rerun: async (id: string) => ok<RunStarted>(await api.postJson(path('analysisRerun', { id }), {})),
  /** Published open-access records whose title or text holds `q` (the catalogue's search), to run a method on. */
  openRecords: async (q: string) => ok<SearchReply>(await api.get(path('search'), { q, sharing: 'online', pageSize: 20 })),
};

/** A run's result as a CSV file (a plain navigation: the browser saves it), named in the page's language. */
export const runCsvUrl = (runId: string) => `${path('analysisRunCsv', { id: runId })}?lang=${pageLanguage}`;

export const analysisKeys = {
  all: ['analysis'] as const,
  methods: (query: MethodQuery) => ['analysis', 'methods', query] as const,
  method: (id: string) => ['analysis', 'method', id] as const,
  versions: (id: string) => ['analysis', 'versions', id] as const,
  run: (id: string) => ['analysis', 'run', id] as const,
  runs: (query: RunQuery) => ['analysis', 'runs', query] as const,
  openRecords: (q: string) => ['analysis', 'openRecords', q] as const,
};

/** A method's name and description in the page's language (the English ones on English pages when it has them). */
export const methodName = (method: Pick<AnalysisMethod, 'name' | 'name_en'>) => (pageLanguage === 'en' && method.name_en) || method.name;
export const methodDescription = (method: Pick<AnalysisMethod, 'description' | 'description_en'>) => (pageLanguage === 'en' && method.description_en) || method.description;
