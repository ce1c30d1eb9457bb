import type { Language } from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import type { UsageService } from '../usage/index.js';
import type { OrderMails } from './order-mails.js';
import type { OrderOutbox } from './order-outbox.js';
import type { OrderQueries } from './order-queries.js';
import type { OrdersRepo } from './orders.repo.js';

export interface OrdersServiceOptions {
  /** ORDER_VALID_DAYS: how long an approval stands. */
  validDays: number;
  /** Where applicants are sent for the data centre's own requests (ADMIN_EMAIL). */
  adminEmail: string;
  /** ORDER_APPLY_PER_HOUR: applications and reapplications one account may send in any hour (staff are exempt). */
  appliesPerHour?: number;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** A record's citation in the language's style ('' when it has none): the voucher lists them. */
  cite: (metadataId: string, language: Language) => Promise<string>;
}

/** What the orders' use cases share: the database, the repo, the outbox and mails, the readers, the usage counts. */
export interface OrdersContext {
  db: Db;
  repo: OrdersRepo;
  access: MetadataAccess;
  usage: UsageService;
  outbox: OrderOutbox;
  mails: OrderMails;
  queries: OrderQueries;
  options: OrdersServiceOptions;
}

export const DAY = 86_400_000;

/** When an approval given now ends. */
export function expiryOf(context: OrdersContext, now: Date): string {
  return new Date(now.getTime() + context.options.validDays * DAY).toISOString();
}
