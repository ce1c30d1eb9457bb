import { describe, expect, it } from 'vitest';
import { canRetry, registrationState } from './registrationState';

const row = (facts: Partial<Parameters<typeof registrationState>[0]>) =>
  registrationState({ status: 'pending', state: '', wanted: 'findable', last_status: 0, errors: [], ...facts });

describe('registrationState', () => {
  it('tells a try not made yet from a failed one, and a given-up one', () => {
    expect(row({})).toBe('waiting');
    expect(row({ last_status: 422, errors: [{ source: 'url', title: 'not allowed' }] })).toBe('failed');
    // No reply at all: status 0, the reason in errors.
    expect(row({ errors: [{ title: 'timeout' }] })).toBe('failed');
    expect(row({ status: 'failed', last_status: 401 })).toBe('givenUp');
    // A change after a failure is due again but still shows the failure until the next try.
    expect(row({ state: 'findable', last_status: 500 })).toBe('failed');
  });

  it("reads DataCite's state once done", () => {
    expect(row({ status: 'done', state: 'findable' })).toBe('findable');
    expect(row({ status: 'done', state: 'registered', wanted: 'registered' })).toBe('hidden');
    expect(row({ status: 'done', state: 'registered', wanted: 'findable' })).toBe('registered');
    expect(row({ status: 'done', state: '', wanted: 'registered' })).toBe('notSent');
  });

  it('offers a retry only where the last try failed', () => {
    expect(['waiting', 'failed', 'givenUp', 'findable', 'registered', 'hidden', 'notSent'].filter((s) => canRetry(s as never))).toEqual(['failed', 'givenUp']);
  });
});
