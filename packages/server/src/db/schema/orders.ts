/** Orders and downloads (migration 0006). */
export interface CartLineTable {
  id: string;
  user_id: string;
  metadata_id: string;
  created_at: string;
}

export interface ApplicationTable {
  id: string;
  applicant_id: string;
  real_name: string;
  email: string;
  phone: string;
  zipcode: string;
  affiliation: string;
  address: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  reason: string;
  ip: string;
  /** The applicant's language when applying: its mails use the account's mail language, this one once the account is gone. */
  language: string;
  created_at: string;
}

export interface OrderTable {
  id: string;
  application_id: string;
  applicant_id: string;
  /** Who decides: `online` (granted at once), `center` (the data centre's staff), `owner` (owner_id). */
  handler: string;
  owner_id: string | null;
  status: string;
  decision_reason: string;
  decided_by: string | null;
  decided_at: string | null;
  expires_at: string | null;
  reminded_at: string | null;
  voucher_code: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderLineTable {
  id: string;
  order_id: string;
  metadata_id: string;
}

/** The outbox of orders' mails (migration 0007): written with the order, sent and retried by the sender. */
export interface OrderMailTable {
  id: string;
  order_id: string;
  /** request, decision or overdue. */
  kind: string;
  /** The To header: one address, or the owner's and the distribution addresses joined by ', '. */
  recipient: string;
  subject: string;
  body: string;
  /** pending, sent, or failed (given up). */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string;
  created_at: string;
  sent_at: string | null;
}

/** The orders module's tables: basket, applications, orders and their mails' outbox (modules/orders: orders.repo.ts and order-outbox.ts write them; migrations 0006, 0007). */
export interface OrdersTables {
  cart_lines: CartLineTable;
  applications: ApplicationTable;
  orders: OrderTable;
  order_lines: OrderLineTable;
  order_mails: OrderMailTable;
}
