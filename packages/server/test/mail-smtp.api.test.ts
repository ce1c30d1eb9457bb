import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from './factories.js';
import { countUsers, createTestPortal, EN, form, FORM, linkIn, login, postRegistration, readOutbox, type TestAccount, type TestPortal } from './helpers.js';

interface ReceivedMail {
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** A real SMTP server on a free port of 127.0.0.1, without TLS or login, keeping what it receives. */
let server: SMTPServer;
let port: number;
const received: ReceivedMail[] = [];
/** While set, the server refuses every message (a mail server that is down or full). */
let refusing = false;

let portal: TestPortal;
let account: TestAccount;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            from: parsed.from?.value[0]?.address ?? '',
            to: Array.isArray(parsed.to) ? parsed.to[0]!.text : (parsed.to?.text ?? ''),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.server.address() as AddressInfo).port;
  portal = await createTestPortal({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Portal Test <portal@example.org>' } });
  account = await buildAccount(portal, { realname: '钱海冰' });
});

afterAll(async () => {
  await portal.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('mail by SMTP (SMTP_URL)', () => {
  it('delivers the forgot-password mail with its link to the SMTP server, not to the outbox', async () => {
    // The account's mail language is English: its last sign-in was on an English page.
    await login(portal.app, account.username, account.password, EN);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/account/forgot/',
      headers: { ...FORM, ...EN },
      payload: form({ email: account.email }),
    });
    expect(response.statusCode).toBe(200);

    const mails = received.filter((m) => m.envelopeTo.includes(account.email));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.from).toBe('portal@example.org');
    expect(mail.to).toBe(account.email);
    expect(mail.subject).toBe('Three Poles Data Portal: reset your password');
    expect(mail.text).toContain('Dear 钱海冰,');
    expect(linkIn(mail.text)).toMatch(/^http:\/\/portal\.test\/en\/personal\/#\/reset\?key=[0-9a-f]{40}$/);
    expect(await readOutbox(portal.outbox)).toEqual([]);

    // The mailed key resets the password.
    const key = new URL(linkIn(mail.text)).hash.split('key=')[1]!;
    const reset = await portal.app.inject({
      method: 'POST',
      url: '/account/reset/',
      headers: FORM,
      payload: form({ key, password: 'sea-ice-extent-2026', password2: 'sea-ice-extent-2026' }),
    });
    expect(reset.statusCode).toBe(200);
  });

  it('removes a new account again when its verification mail cannot be sent', async () => {
    refusing = true;
    try {
      const before = await countUsers(portal);
      const { registration, response } = await postRegistration(portal);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ detail: '出错了，请稍后再试' });
      expect(await countUsers(portal)).toBe(before);

      // The person can simply try again once the mail server is back.
      refusing = false;
      const retry = await postRegistration(portal, { username: registration.username!, email: registration.email! });
      expect(retry.response.statusCode).toBe(201);
      expect(received.filter((m) => m.envelopeTo.includes(registration.email!))).toHaveLength(1);
    } finally {
      refusing = false;
    }
  });
});
