import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { MetadataTable, ReviewEventTable, ReviewTable } from '../../db/schema.js';
import { newId, staffUsers } from '../../db/index.js';
import { titleMatches, translationTitle } from '../metadata/index.js';

export type ReviewRow = Selectable<ReviewTable>;
export type ReviewEventRow = Selectable<ReviewEventTable>;
/** What a review step writes on its record besides the status. */
export type RecordChange = Updateable<MetadataTable>;

/** A review with what its lists show: the record's titles and owner, the expert's name. */
export type ReviewListRow = ReviewRow & {
  record_title: string;
  record_translation_title: string | null;
  record_language: string;
  record_status: string;
  record_round: number;
  record_submitted_at: string | null;
  owner_name: string;
  expert_name: string;
};

export interface DeskFilter {
  statuses?: string[];
  search?: string;
  fund?: string;
  /** Records of the topics this user manages (the project leaders' list). */
  leaderId?: string;
  topicStates?: string[];
  /** Whether the formal pre-review is done (the pre-review page asks for the received records without it). */
  preReview?: boolean;
}

let lastEventMs = 0;
/**
 * The trail is read in time order: two steps of one transaction (receive, then the re-invitation)
 * often fall in the same millisecond, so this process's event times strictly increase.
 */
function eventTime(): string {
  lastEventMs = Math.max(Date.now(), lastEventMs + 1);
  return new Date(lastEventMs).toISOString();
}

/** The review workflow's SQL: expert reviews, the audit trail, the desks' lists. */
export class ReviewRepo {
  constructor(readonly db: Db) {}

  withDb(db: Db): ReviewRepo {
    return new ReviewRepo(db);
  }

  async find(id: string): Promise<ReviewRow | undefined> {
    if (id.length > 100) return undefined;
    return this.db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private listed() {
    return this.db
      .selectFrom('reviews')
      .innerJoin('metadata', 'metadata.id', 'reviews.metadata_id')
      .innerJoin('users as expert', 'expert.id', 'reviews.expert_id')
      .innerJoin('users as owner', 'owner.id', 'metadata.owner_id');
  }

  /** Reviews by their filter, newest first, with the facts their lists show. */
  async page(
    filter: { reviewId?: string; expertId?: string; metadataId?: string; states?: string[]; search?: string; currentRoundOnly?: boolean; recordStatuses?: readonly string[] },
    offset: number,
    limit: number,
  ): Promise<{ count: number; rows: ReviewListRow[] }> {
    let query = this.listed();
    if (filter.search) query = query.where(titleMatches(filter.search));
    if (filter.reviewId) query = query.where('reviews.id', '=', filter.reviewId);
    if (filter.expertId) query = query.where('reviews.expert_id', '=', filter.expertId);
    if (filter.metadataId) query = query.where('reviews.metadata_id', '=', filter.metadataId);
    if (filter.states?.length) query = query.where('reviews.status', 'in', filter.states);
    if (filter.currentRoundOnly) query = query.whereRef('reviews.round', '=', 'metadata.review_round');
    if (filter.recordStatuses) query = query.where('metadata.status', 'in', filter.recordStatuses);
    const [{ count }] = (await query.select((eb) => eb.fn.countAll().as('count')).execute()) as [{ count: number | string }];
    const rows = (await query
      .selectAll('reviews')
      .select([
        'metadata.title as record_title',
        'metadata.language as record_language',
        'metadata.status as record_status',
        'metadata.review_round as record_round',
        'metadata.submitted_at as record_submitted_at',
        sql<string>`coalesce(nullif(owner.realname, ''), owner.username)`.as('owner_name'),
        sql<string>`coalesce(nullif(expert.realname, ''), expert.username)`.as('expert_name'),
      ])
      .select(translationTitle.as('record_translation_title'))
      .orderBy('reviews.created_at', 'desc')
      .orderBy('reviews.id')
      .offset(offset)
      .limit(limit)
      .execute()) as ReviewListRow[];
    return { count: Number(count), rows: rows.map((row) => ({ ...row, round: Number(row.round), record_round: Number(row.record_round) })) };
  }

  /** Answered outcomes of the current round of each record, for their labels. */
  async currentOutcomes(metadataIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (!metadataIds.length) return map;
    const rows = await this.db
      .selectFrom('reviews')
      .innerJoin('metadata', 'metadata.id', 'reviews.metadata_id')
      .select(['reviews.metadata_id', 'reviews.status'])
      .where('reviews.metadata_id', 'in', metadataIds)
      .whereRef('reviews.round', '=', 'metadata.review_round')
      .where('reviews.answered_at', 'is not', null)
      .execute();
    for (const row of rows) map.set(row.metadata_id, [...(map.get(row.metadata_id) ?? []), row.status]);
    return map;
  }

  /** Experts of a round who did not decline (a resubmission goes back to them). */
  async expertsOfRound(metadataId: string, round: number): Promise<ReviewRow[]> {
    return this.db.selectFrom('reviews').selectAll().where('metadata_id', '=', metadataId).where('round', '=', round).where('status', '<>', 'declined').execute();
  }

  /** Every review of a round, declined ones too (one row per expert and round). */
  async reviewsOfRound(metadataId: string, round: number): Promise<ReviewRow[]> {
    return this.db.selectFrom('reviews').selectAll().where('metadata_id', '=', metadataId).where('round', '=', round).execute();
  }

  async countAnswered(metadataId: string, round: number): Promise<number> {
    const [{ count }] = (await this.db
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('metadata_id', '=', metadataId)
      .where('round', '=', round)
      .where('answered_at', 'is not', null)
      .execute()) as [{ count: number | string }];
    return Number(count);
  }

  /** What a record's review label is made of, by record. */
  async labelFacts(ids: string[]) {
    if (!ids.length) return [];
    return this.db.selectFrom('metadata').select(['id', 'status', 'topic_review_status', 'published_without_review']).where('id', 'in', ids).execute();
  }

  async insertReviews(rows: Omit<ReviewRow, 'id'>[]): Promise<ReviewRow[]> {
    const withIds = rows.map((row) => ({ ...row, id: newId() }));
    if (withIds.length) await this.db.insertInto('reviews').values(withIds).execute();
    return withIds;
  }

  async updateReview(id: string, values: Partial<ReviewRow>, onlyIfStatusIn?: string[]): Promise<boolean> {
    let query = this.db.updateTable('reviews').set(values).where('id', '=', id);
    if (onlyIfStatusIn) query = query.where('status', 'in', onlyIfStatusIn);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks a reminder as sent, once: only the instance that claims it sends it. */
  async claimReminder(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('reviews')
      .set({ reminded_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('reminded_at', 'is', null)
      .where('status', 'in', ['invited', 'opened'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async logEvent(event: Omit<ReviewEventRow, 'id' | 'created_at'>): Promise<void> {
    await this.db
      .insertInto('review_events')
      .values({ ...event, id: newId(), created_at: eventTime() })
      .execute();
  }

  /** The audit trail of a record, oldest first, with each actor's name. */
  async events(metadataId: string, actions?: string[]): Promise<(ReviewEventRow & { actor_name: string; signed: number | null })[]> {
    let query = this.db
      .selectFrom('review_events')
      // A read of the account module's `users` in this one query: the trail with its actors' names in one read.
      .leftJoin('users', 'users.id', 'review_events.actor_id')
      .leftJoin('reviews', 'reviews.id', 'review_events.review_id')
      .selectAll('review_events')
      .select([sql<string>`coalesce(nullif(users.realname, ''), users.username, '')`.as('actor_name'), 'reviews.signed as signed'])
      .where('review_events.metadata_id', '=', metadataId);
    if (actions) query = query.where('review_events.action', 'in', actions);
    return query.orderBy('review_events.created_at').orderBy('review_events.id').execute();
  }

  /** Users by id, active ones only: invitation candidates. */
  async activeUsers(ids: string[]) {
    if (!ids.length) return [];
    return this.db.selectFrom('users').select(['id', 'email', 'realname', 'username', 'language', 'is_active']).where('id', 'in', ids).where('is_active', '=', 1).execute();
  }

  async user(id: string) {
    return this.db.selectFrom('users').select(['id', 'email', 'realname', 'username', 'language']).where('id', '=', id).executeTakeFirst();
  }

  /** The active staff (db/index.ts's one query of them: the account module owns `users`). */
  async staffUsers() {
    return staffUsers(this.db);
  }

  /** Whether the record is project data of a topic that has managers (its leaders review it first). */
  async hasTopicLeaders(metadataId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('meta_special')
      .innerJoin('special_managers', 'special_managers.special_id', 'meta_special.special_id')
      // The account module's `users` joined in this one query: a leader is a manager whose account is a project leader's.
      .innerJoin('users', 'users.id', 'special_managers.user_id')
      .select('meta_special.id')
      .where('meta_special.metadata_id', '=', metadataId)
      .where('users.is_project', 'in', [1, 2])
      .executeTakeFirst();
    return !!row;
  }

  /** The data centre's desk and the leaders' list: records not in draft, oldest submission first. */
  async desk(filter: DeskFilter, offset: number, limit: number) {
    let query = this.db.selectFrom('metadata').where('metadata.status', '<>', 'draft');
    if (filter.statuses?.length) query = query.where('metadata.status', 'in', filter.statuses);
    if (filter.topicStates?.length) query = query.where('metadata.topic_review_status', 'in', filter.topicStates);
    if (filter.preReview !== undefined) query = query.where('metadata.is_pre_review', '=', filter.preReview ? 1 : 0);
    if (filter.fund) {
      const fund = filter.fund;
      query = query.where((eb) =>
        eb.exists(eb.selectFrom('meta_fund').select('meta_fund.id').whereRef('meta_fund.metadata_id', '=', 'metadata.id').where('meta_fund.fund_id', '=', fund)),
      );
    }
    if (filter.leaderId) {
      const leader = filter.leaderId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('meta_special')
            .innerJoin('special_managers', 'special_managers.special_id', 'meta_special.special_id')
            .select('meta_special.id')
            .whereRef('meta_special.metadata_id', '=', 'metadata.id')
            .where('special_managers.user_id', '=', leader),
        ),
      );
    }
    if (filter.search) query = query.where(titleMatches(filter.search));
    const [{ count }] = (await query.select((eb) => eb.fn.countAll().as('count')).execute()) as [{ count: number | string }];
    const rows = await query
      .innerJoin('users as owner', 'owner.id', 'metadata.owner_id')
      .selectAll('metadata')
      .select(sql<string>`coalesce(nullif(owner.realname, ''), owner.username)`.as('owner_name'))
      .select((eb) => [
        translationTitle.as('translation_title'),
        eb
          .selectFrom('reviews')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('reviews.metadata_id', '=', 'metadata.id')
          .whereRef('reviews.round', '=', 'metadata.review_round')
          .where('reviews.status', '<>', 'declined')
          .as('experts_invited'),
        eb
          .selectFrom('reviews')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('reviews.metadata_id', '=', 'metadata.id')
          .whereRef('reviews.round', '=', 'metadata.review_round')
          .where('reviews.answered_at', 'is not', null)
          .as('experts_answered'),
      ])
      .orderBy(sql`coalesce(metadata.submitted_at, metadata.updated_at)`)
      .orderBy('metadata.id')
      .offset(offset)
      .limit(limit)
      .execute();
    return { count: Number(count), rows };
  }

  /** Invitations past their deadline, not answered, not reminded, while the record is with the experts. */
  async overdue(today: string, limit: number) {
    return this.db
      .selectFrom('reviews')
      .innerJoin('metadata', 'metadata.id', 'reviews.metadata_id')
      .selectAll('reviews')
      .where('reviews.status', 'in', ['invited', 'opened'])
      .where('reviews.deadline', '<', today)
      .where('reviews.reminded_at', 'is', null)
      .whereRef('reviews.round', '=', 'metadata.review_round')
      .where('metadata.status', 'in', ['invited', 'underReview'])
      .limit(limit)
      .execute();
  }
}
