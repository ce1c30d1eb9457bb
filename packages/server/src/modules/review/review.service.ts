import type { Db } from '../../db/index.js';
import type { Notify } from '../notify/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { MetadataService } from '../metadata/index.js';
import { ReviewSnapshots } from './review-snapshots.js';
import { ReviewActions } from './review.actions.js';
import { ReviewMail, type ReviewMailOptions } from './review.mail.js';
import { ReviewQueries } from './review.queries.js';
import { ReviewRepo } from './review.repo.js';

export type ReviewServiceOptions = ReviewMailOptions;

/**
 * Review and publication, as the routes and other modules call it: the workflow's steps
 * (`review.actions.ts`), what it shows to whom (`review.queries.ts`) and its mails (`review.mail.ts`),
 * built here over one repository.
 */
export class ReviewService {
  readonly repo: ReviewRepo;
  readonly snapshots: ReviewSnapshots;
  private readonly actions: ReviewActions;
  private readonly queries: ReviewQueries;
  private readonly mail: ReviewMail;

  constructor(db: Db, access: MetadataAccess, metadata: MetadataService, notify: Notify, options: ReviewServiceOptions) {
    this.repo = new ReviewRepo(db);
    this.snapshots = new ReviewSnapshots(db, access, metadata);
    this.queries = new ReviewQueries(this.repo, access, metadata, this.snapshots);
    this.mail = new ReviewMail(this.repo, access, this.queries, notify, options);
    this.actions = new ReviewActions(db, this.repo, access, metadata, this.snapshots, this.queries, this.mail);
  }

  // ---- Steps ----
  submit: ReviewActions['submit'] = (...args) => this.actions.submit(...args);
  returnToDraft: ReviewActions['returnToDraft'] = (...args) => this.actions.returnToDraft(...args);
  decide: ReviewActions['decide'] = (...args) => this.actions.decide(...args);
  invite: ReviewActions['invite'] = (...args) => this.actions.invite(...args);
  topicReview: ReviewActions['topicReview'] = (...args) => this.actions.topicReview(...args);
  open: ReviewActions['open'] = (...args) => this.actions.open(...args);
  answer: ReviewActions['answer'] = (...args) => this.actions.answer(...args);
  decline: ReviewActions['decline'] = (...args) => this.actions.decline(...args);

  // ---- Views ----
  rolesOf: ReviewQueries['rolesOf'] = (...args) => this.queries.rolesOf(...args);
  snapshot: ReviewQueries['snapshot'] = (...args) => this.queries.snapshot(...args);
  reviewView: ReviewQueries['reviewView'] = (...args) => this.queries.reviewView(...args);
  myReviews: ReviewQueries['myReviews'] = (...args) => this.queries.myReviews(...args);
  recordReviews: ReviewQueries['recordReviews'] = (...args) => this.queries.recordReviews(...args);
  preReview: ReviewQueries['preReview'] = (...args) => this.queries.preReview(...args);
  state: ReviewQueries['state'] = (...args) => this.queries.state(...args);
  feedback: ReviewQueries['feedback'] = (...args) => this.queries.feedback(...args);
  desk: ReviewQueries['desk'] = (...args) => this.queries.desk(...args);
  labels: ReviewQueries['labels'] = (...args) => this.queries.labels(...args);

  // ---- Mail ----
  mailFeedback: ReviewMail['mailFeedback'] = (...args) => this.mail.mailFeedback(...args);
  remindOverdue: ReviewMail['remindOverdue'] = (...args) => this.mail.remindOverdue(...args);
}
