import { expertReviewLabel, translate, type Feedback, type Language, type ReviewAction, type SiteVariant } from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import { canonicalUrl, landingPath } from '../landing/index.js';
import { mailLanguage, recipientOf, type Notify } from '../notify/index.js';
import type { MetadataAccess, MetadataRow } from '../metadata/index.js';
import type { ReviewQueries } from './review.queries.js';
import type { ReviewRepo, ReviewRow } from './review.repo.js';

export interface ReviewMailOptions {
  publicUrl: string;
  siteVariant: SiteVariant;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

type Recipient = { email: string; realname: string; username: string; language: string };

/** Decisions that publish the record: their mail links to its public landing page, not to the editor. */
const PUBLISHING: readonly ReviewAction[] = ['publish', 'publish_without_review'];

/**
 * The review workflow's mails, each in its recipient's language, sent after the step's commit: a
 * mail that cannot go out is logged, the step stands.
 */
export class ReviewMail {
  constructor(
    private readonly repo: ReviewRepo,
    private readonly access: MetadataAccess,
    private readonly queries: ReviewQueries,
    private readonly notify: Notify,
    private readonly options: ReviewMailOptions,
  ) {}

  /** Sends the creator the comments they may read, in their language. */
  async mailFeedback(user: AuthenticatedUser, metadataId: string): Promise<void> {
    const { record, roles } = await this.queries.recordFor(user, metadataId);
    if (!roles.includes('staff')) throw new AppError('FORBIDDEN', 'review.wrongRole');
    const owner = await this.repo.user(record.owner_id);
    if (!owner) return;
    const language = mailLanguage(owner.language);
    const { results } = await this.queries.feedbackOf(record, false);
    await this.send(owner, 'feedback', { title: record.title, comments: this.commentLines(language, results), link: this.recordLink(language, record.id) });
  }

  private recordLink(language: Language, id: string) {
    return this.notify.personalLink(language, `/metadata/edit/${id}`);
  }

  private commentLines(language: Language, feedback: Feedback[]): string {
    if (!feedback.length) return translate(language, 'review.mail.noComments');
    return feedback
      .map((item) => {
        const source = translate(language, `review.source.${item.source}`);
        // An expert who signed (or a project leader) is named, as the creator's own view names them.
        const who = item.author_name ? translate(language, 'review.mail.namedSource', { source, name: item.author_name }) : source;
        const outcome = item.review_status ? ` (${translate(language, `review.labels.${expertReviewLabel(item.review_status)}`)})` : '';
        return `- ${who}${outcome}: ${item.content}`;
      })
      .join('\n');
  }

  private async send(to: Recipient, kind: string, params: Record<string, string | number>) {
    await this.notify.send(recipientOf(to), 'review.mail', kind, params);
  }

  async mailStaff(kind: 'submitted', record: MetadataRow) {
    for (const staff of await this.repo.staffUsers()) {
      const language = mailLanguage(staff.language);
      await this.send(staff, kind, { title: record.title, link: this.notify.siteLink(language, '/admin/review') });
    }
  }

  async mailInvitation(review: ReviewRow, record: MetadataRow, kind: 'invitation' | 'reminder' = 'invitation') {
    const expert = await this.repo.user(review.expert_id);
    if (!expert) return;
    const language = mailLanguage(expert.language);
    const link = this.notify.personalLink(language, `/review/advice/${review.id}`);
    await this.send(expert, kind, { title: record.title, deadline: review.deadline, message: review.message, link });
  }

  async mailDecision(record: MetadataRow, action: ReviewAction, comment: string) {
    const owner = await this.repo.user(record.owner_id);
    if (!owner) return;
    const language = mailLanguage(owner.language);
    const fresh = (await this.access.find(record.id)) ?? record;
    const { results } = await this.queries.feedbackOf(fresh, false);
    const published = PUBLISHING.includes(action);
    await this.send(owner, published ? 'published' : 'decision', {
      title: record.title,
      decision: translate(language, `review.actions.${action}`),
      comment: comment || translate(language, 'review.mail.noComment'),
      comments: this.commentLines(language, results),
      link: published ? canonicalUrl(this.options.publicUrl, language, landingPath(record.id)) : this.recordLink(language, record.id),
    });
  }

  /** The periodic reminder: experts past their deadline who have not answered get one reminder. */
  async remindOverdue(): Promise<number> {
    const today = new Date().toISOString().slice(0, 10);
    let sent = 0;
    for (const review of await this.repo.overdue(today, 200)) {
      const claimed = await this.repo.claimReminder(review.id);
      if (!claimed) continue;
      const record = await this.access.find(review.metadata_id);
      if (record) await this.mailInvitation(review, record, 'reminder');
      sent += 1;
    }
    return sent;
  }
}
