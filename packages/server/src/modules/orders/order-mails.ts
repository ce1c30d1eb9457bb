import { countryName, translate, type Language, type Order } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { mailLanguage, recipientOf, type Notify, type Recipient } from '../notify/index.js';
import type { OrderMail } from './order-outbox.js';
import type { ApplicationRow, OrderRow, OrdersRepo } from './orders.repo.js';

/** The mails about orders, rendered in each recipient's language for the outbox (issue 16: sent after the commit). */
export class OrderMails {
  constructor(
    private readonly repo: OrdersRepo,
    private readonly notify: Notify,
  ) {}

  private datasetLines(language: Language, order: Order): string {
    return order.lines.map((line) => `- ${language === 'en' ? line.title_en : line.title}${line.doi ? ` (doi:${line.doi})` : ''}`).join('\n');
  }

  /** A mail about an order, rendered in its recipient's language, for the outbox. */
  private render(order: OrderRow, to: Recipient, kind: OrderMail['kind'], params: Record<string, string>): OrderMail {
    const mail = this.notify.render(to, 'orders.mail', kind, params);
    return { order_id: order.id, kind, recipient: mail.to, subject: mail.subject, body: mail.text };
  }

  /**
   * A new request to its handler: the data centre's staff, or the record's owner together with the
   * datasets' published distribution addresses, in one message (one mail per owner and application).
   */
  async requestMails(trx: Db, application: ApplicationRow, order: OrderRow, presented: Order): Promise<OrderMail[]> {
    const recipients: Recipient[] = [];
    if (order.handler === 'center') {
      for (const staff of await this.repo.staffUsers(trx)) recipients.push(recipientOf(staff));
    } else if (order.handler === 'owner' && order.owner_id) {
      const owner = (await this.repo.userNames(trx, [order.owner_id])).get(order.owner_id);
      if (owner) {
        const facts = await this.repo.datasets(
          trx,
          presented.lines.map((l) => l.metadata_id),
        );
        const addresses = new Set([owner.email, ...[...facts.values()].map((f) => f.dist_email.trim().toLowerCase()).filter(Boolean)]);
        recipients.push({ email: [...addresses].join(', '), name: owner.name, language: owner.language });
      }
    }
    return recipients.map((to) => {
      const language = mailLanguage(to.language);
      return this.render(order, to, 'request', {
        applicant: application.real_name,
        affiliation: application.affiliation,
        country: application.country ? countryName(application.country, language) : translate(language, 'orders.countryUnknown'),
        reason: application.reason,
        datasets: this.datasetLines(language, presented),
        link: this.notify.personalLink(language, `/application/${order.id}`),
      });
    });
  }

  /**
   * The language of the applicant's mails: their account's mail language (issue 16) when rendered, at
   * the commit; the language they applied in when the account is gone.
   */
  private async applicantLanguage(trx: Db, application: ApplicationRow): Promise<Language> {
    const applicant = (await this.repo.userNames(trx, [application.applicant_id])).get(application.applicant_id);
    return mailLanguage(applicant?.language ?? application.language);
  }

  async decisionMails(trx: Db, row: OrderRow, order: Order): Promise<OrderMail[]> {
    const application = (await this.repo.applications(trx, [row.application_id])).get(row.application_id);
    if (!application) return [];
    const language = await this.applicantLanguage(trx, application);
    return [
      this.render(row, { email: application.email, name: application.real_name, language }, 'decision', {
        status: translate(language, `orders.status.${order.status}`),
        reason: order.decision_reason,
        datasets: this.datasetLines(language, order),
        link: this.notify.personalLink(language, '/data/order'),
      }),
    ];
  }

  /** Tells the applicant their offline request waited three days: whom to contact directly. */
  async overdueMail(trx: Db, row: OrderRow, order: Order, application: ApplicationRow): Promise<OrderMail> {
    const language = await this.applicantLanguage(trx, application);
    return this.render(row, { email: application.email, name: application.real_name, language }, 'overdue', {
      datasets: this.datasetLines(language, order),
      contact: order.contact_email,
      link: this.notify.personalLink(language, '/data/order'),
    });
  }
}
