import { translate, type Language, type SiteVariant } from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../mail/mailer.js';

export interface NotifyOptions {
  publicUrl: string;
  siteVariant: SiteVariant;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** Whom a mail goes to: the address (or addresses), the name it greets, the language it is written in. */
export interface Recipient {
  email: string;
  name: string;
  language: string;
}

/** A mail rendered in its recipient's language. */
export interface RenderedMail {
  to: string;
  language: Language;
  subject: string;
  text: string;
}

/** The language of a user's mails (issue 16): English when it is, else Chinese. */
export const mailLanguage = (value: string): Language => (value === 'en' ? 'en' : 'zh-hans');

/** A user as a recipient: greeted by their real name, else their username. */
export const recipientOf = (user: { email: string; realname: string; username: string; language: string }): Recipient => ({
  email: user.email,
  name: user.realname || user.username,
  language: user.language,
});

/**
 * The portal's notices by mail: one text from the catalogues (`<catalogue>.<kind>Subject` and
 * `...Body`, given the site's name and the recipient's), rendered in the recipient's language, with
 * links into the site in that language (the personal centre's hash routes).
 */
export class Notify {
  constructor(
    private readonly mailer: Mailer,
    private readonly options: NotifyOptions,
  ) {}

  /** A page of the site in the language (`/en` before the path in English). */
  siteLink(language: Language, path: string): string {
    return `${this.options.publicUrl}${language === 'en' ? '/en' : ''}${path}`;
  }

  /** A screen of the personal centre (its hash route, `/data/order` ...) in the language. */
  personalLink(language: Language, path: string): string {
    return this.siteLink(language, `/personal/#${path}`);
  }

  /** The mail of `<catalogue>.<kind>` to the recipient, in their language. */
  render(to: Recipient, catalogue: string, kind: string, params: Record<string, string | number>): RenderedMail {
    const language = mailLanguage(to.language);
    const site = translate(language, `site.${this.options.siteVariant}.title`);
    const all = { ...params, site, name: to.name };
    return { to: to.email, language, subject: translate(language, `${catalogue}.${kind}Subject`, all), text: translate(language, `${catalogue}.${kind}Body`, all) };
  }

  /** Renders and sends the mail now; one that cannot go out is logged, and the step that sent it stands. */
  async send(to: Recipient, catalogue: string, kind: string, params: Record<string, string | number>): Promise<void> {
    const mail = this.render(to, catalogue, kind, params);
    try {
      await this.mailer.send({ to: mail.to, subject: mail.subject, text: mail.text });
    } catch (error) {
      // The step is taken and logged; a mail that could not go out is the operator's to see.
      this.options.log.error({ err: error, kind, to: to.email }, `${catalogue.split('.')[0]} mail not sent`);
    }
  }
}
