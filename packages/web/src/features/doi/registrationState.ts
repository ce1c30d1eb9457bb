import type { DoiRegistration } from '@portal/shared/contracts/doi';

/**
 * Where a DOI stands, as staff read it: the outbox row's status (pending, done, failed: given up) and
 * DataCite's last state, with a failed try told apart from one not made yet.
 */
export const REGISTRATION_STATES = ['waiting', 'failed', 'givenUp', 'findable', 'registered', 'hidden', 'notSent'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

type Facts = Pick<DoiRegistration, 'status' | 'state' | 'wanted' | 'last_status' | 'errors'>;

export function registrationState(row: Facts): RegistrationState {
  if (row.status === 'failed') return 'givenUp';
  if (row.status === 'pending') return row.last_status || row.errors.length ? 'failed' : 'waiting';
  if (row.state === 'findable') return 'findable';
  // Registered and wanted so: the record was withdrawn or deleted and its DOI hidden.
  if (row.state === 'registered') return row.wanted === 'registered' ? 'hidden' : 'registered';
  // Done without DataCite ever holding it: the record was deleted before its first registration.
  return 'notSent';
}

/** Staff may ask for a try now where the last one failed. */
export const canRetry = (state: RegistrationState) => state === 'failed' || state === 'givenUp';

/** The tag colour of each state (Ant Design preset colours). */
export const STATE_COLORS: Record<RegistrationState, string> = {
  waiting: 'processing',
  failed: 'warning',
  givenUp: 'error',
  findable: 'success',
  registered: 'default',
  hidden: 'default',
  notSent: 'default',
};
