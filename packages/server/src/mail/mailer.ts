import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../file-modes.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is written as an .eml file under
 * `${dataDir}/mail` (the embedded default, and what end-to-end tests read links from).
 */
export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: options.from, ...message });
        options.log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent by SMTP');
      },
    };
  }
  const outbox = path.join(options.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await fs.mkdir(outbox, { recursive: true, mode: PRIVATE_FOLDER });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // Written aside and renamed, so a reader never sees half a message.
      const temporary = path.join(outbox, `.${name}.tmp`);
      await fs.writeFile(temporary, info.message as Buffer, { mode: PRIVATE_FILE });
      await fs.rename(temporary, path.join(outbox, name));
      options.log.info({ to: message.to, subject: message.subject, file: path.join(outbox, name) }, 'mail written to outbox');
    },
  };
}
