import { randomUUID } from 'node:crypto';
import { buildDataFile, buildOrder, buildUsers, ORDER_FORM_EN, type Person, buildCatalogue } from './factories.js';
import { EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';

/**
 * Builders of the orders API tests: two data owners with published datasets of each sharing
 * policy (real data files, uploaded through the API), an applicant, another user and staff.
 */

export type { Person } from './factories.js';

export interface OrdersCast {
  ownerA: Person;
  ownerB: Person;
  applicant: Person;
  other: Person;
  staff: Person;
  /** Datasets by key: openA (online, owner A), mailA (offlineEmail, owner A), mailB (offlineEmail, owner B), centerB (offlineCenter, owner B). */
  ids: Record<'openA' | 'mailA' | 'mailB' | 'centerB', string>;
  /** One data file of each dataset: its id and its bytes. */
  files: Record<'openA' | 'mailA' | 'mailB' | 'centerB', { id: string; content: Buffer }>;
}

export const FORM_EN = ORDER_FORM_EN;

export async function createOrdersCast(portal: TestPortal): Promise<OrdersCast> {
  const { ownerA, ownerB, applicant, other, staff } = await buildUsers(portal, {
    ownerA: { realname: 'Owner Ang' },
    ownerB: { realname: 'Owner Bai' },
    // Both sign in on English pages: their mails (decisions, reminders) are in English.
    applicant: { realname: 'Ada Applicant', language: 'en' },
    other: { realname: 'Other Ou', language: 'en' },
    staff: { staff: true, realname: 'Staff Shi' },
  });
  const tag = randomUUID().slice(0, 6);
  const entry = (key: string, sharing: string, n: number) => ({
    key,
    sharing,
    language: 'zh-hans' as const,
    zh: { title: `北极海冰厚度数据集 ${key} ${tag}` },
    en: { title: `Arctic sea-ice thickness ${key} ${tag}` },
    doi: `10.11888/Test.${tag}.${n}`,
    published: '2024-01-0' + n,
  });
  const a = await buildCatalogue(portal, ownerA.id, [entry('openA', 'online', 1), entry('mailA', 'offlineEmail', 2)]);
  const b = await buildCatalogue(portal, ownerB.id, [entry('mailB', 'offlineEmail', 3), entry('centerB', 'offlineCenter', 4)]);
  const ids = { openA: a.openA!, mailA: a.mailA!, mailB: b.mailB!, centerB: b.centerB! };
  // The provider's published address of one dataset: its requests go there too.
  await portal.database.db.updateTable('metadata').set({ dist_email: 'distributor-a@example.org' }).where('id', '=', ids.mailA).execute();
  const files = {} as OrdersCast['files'];
  for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
    const content = Buffer.from(`${key} ${tag} `.repeat(500));
    // Written as an upload leaves it (a published record's files take no upload: record-policy.ts changeFiles).
    const id = await buildDataFile(portal, ids[key], staff, { name: `${key}.csv`, content, mime: 'text/csv' });
    files[key] = { id, content };
  }
  return { ownerA, ownerB, applicant, other, staff, ids, files };
}

export const addLine = (portal: TestPortal, token: string | null, metadataId: string, headers: Record<string, string> = EN) =>
  call(portal, 'POST', '/api/account/line_item/', token, { body: { metadata_id: metadataId }, headers });

export const apply = (portal: TestPortal, token: string | null, line: string[], form: Record<string, unknown> = FORM_EN, headers: Record<string, string> = EN) =>
  call(portal, 'POST', '/api/account/order/', token, { body: { ...form, line }, headers });

export const handle = (portal: TestPortal, token: string | null, orders: string[], status: string, reason = '', headers: Record<string, string> = EN) =>
  call(portal, 'POST', '/account/order-handle/', token, { body: { orders, status, reason }, headers });

export const haveDownload = async (portal: TestPortal, token: string | null, id: string) =>
  expectStatus(await call(portal, 'GET', `/metadata/have-download/?id=${id}`, token), 200);

export const downloadFile = (portal: TestPortal, token: string | null, fileId: string, headers: Record<string, string> = EN) =>
  call(portal, 'GET', `/api/metadata/meta-file/${fileId}/download/`, token, { headers });

/** Puts datasets in the applicant's basket and applies for all of them; answers the reply (the factories' buildOrder). */
export const order = (portal: TestPortal, person: Person, metadataIds: string[]) => buildOrder(portal, person, metadataIds);
