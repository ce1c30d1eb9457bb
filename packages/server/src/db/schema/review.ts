/** One invited expert's review of a record in one round. */
export interface ReviewTable {
  id: string;
  metadata_id: string;
  expert_id: string;
  round: number;
  /** EXPERT_REVIEW_STATES */
  status: string;
  content: string;
  signed: number;
  after_modification: number;
  deadline: string;
  message: string;
  invited_by: string | null;
  created_at: string;
  opened_at: string | null;
  answered_at: string | null;
  reminded_at: string | null;
}

/** The record as submitted for a round of review (migration 0010): JSON of recordSnapshotSchema. */
export interface ReviewSnapshotTable {
  id: string;
  metadata_id: string;
  round: number;
  snapshot: string;
  created_at: string;
}

/** The audit trail: every step of the workflow, who took it and when. */
export interface ReviewEventTable {
  id: string;
  metadata_id: string;
  actor_id: string | null;
  role: string;
  action: string;
  from_status: string;
  to_status: string;
  comment: string;
  review_id: string | null;
  created_at: string;
}

/** The review module's tables (modules/review: review.repo.ts and review-snapshots.ts write them; migrations 0003, 0010). */
export interface ReviewTables {
  reviews: ReviewTable;
  review_events: ReviewEventTable;
  review_snapshots: ReviewSnapshotTable;
}
