import type { z } from 'zod';
import type { doiRegistrationPageSchema, DoiRegistration, RecordDoi } from '@portal/shared/contracts/doi';
import { api } from '../../api/client';
import { path } from '../../api/routes';
import { ok } from '../metadata/api';

/** Staff's DOI registration calls (issue 17); the shapes are the server's contracts. */

export type DoiRegistrationPage = z.infer<typeof doiRegistrationPageSchema>;
export type { DoiRegistration, RecordDoi };

export interface RegistrationQuery {
  page: number;
  pageSize: number;
  /** Only those whose last try failed (waiting for the next try, or given up). */
  failing: boolean;
}

export const doiKeys = {
  all: ['doi'] as const,
  list: (query: RegistrationQuery) => ['doi', 'registrations', query] as const,
  record: (id: string) => ['doi', 'record', id] as const,
};

export const doiApi = {
  list: async ({ failing, ...paging }: RegistrationQuery) =>
    ok<DoiRegistrationPage>(await api.get(path('doiRegistrations'), { ...paging, ...(failing ? { failing: 'true' } : {}) })),
  record: async (id: string) => ok<RecordDoi>(await api.get(path('recordDoi', { id }))),
  /** Tries the record's registrations now; answers how they stand after the try. */
  retry: async (id: string) => ok<RecordDoi>(await api.postJson(path('retryDoi', { id }), {})),
};
