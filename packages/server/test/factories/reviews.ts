import { randomUUID } from 'node:crypto';
import type { TestPortal } from '../helpers.js';

export interface ReviewSpec {
  record: string;
  expert: string | { id: string };
  round?: number;
  /** 'invited' (default), 'opened', 'declined' or an outcome ('pass', ...). */
  status?: string;
  signed?: number;
  /** YYYY-MM-DD; two weeks from today unless given. */
  deadline?: string;
  content?: string;
}

/** A day `n` days from today, as 'YYYY-MM-DD' (negative: in the past). */
export function inDays(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

/** An expert's review row of a round, as the invitation and the expert's answer leave it. */
export async function buildReview(portal: TestPortal, spec: ReviewSpec): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const status = spec.status ?? 'invited';
  const answered = !['invited', 'opened', 'declined'].includes(status);
  await portal.database.db
    .insertInto('reviews')
    .values({
      id,
      metadata_id: spec.record,
      expert_id: typeof spec.expert === 'string' ? spec.expert : spec.expert.id,
      round: spec.round ?? 1,
      status,
      content: spec.content ?? (answered ? 'Looks sound.' : ''),
      signed: spec.signed ?? 0,
      after_modification: 0,
      deadline: spec.deadline ?? inDays(14),
      message: '',
      invited_by: null,
      created_at: now,
      opened_at: status === 'invited' ? null : now,
      answered_at: answered ? now : null,
      reminded_at: null,
    })
    .execute();
  return id;
}
