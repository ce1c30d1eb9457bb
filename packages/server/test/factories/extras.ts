import { randomUUID } from 'node:crypto';
import type { Tx } from '../../src/db/index.js';

/**
 * The optional parts of a record that only the exports, landing pages and feeds show: affiliations,
 * other roles, funds with serial numbers, literature, the distributor's contact, the protection
 * period, the data source, and the authors' private contact details that no export may carry.
 */

/** What an author keeps private: none of it may appear in an export. */
export const PRIVATE_AUTHOR = { phone: '+86 10 5555 0199', address: '99 Hidden Lane, Haidian', email: 'private-author@example.org' };

export interface RecordExtras {
  /** Affiliation of every author: [Chinese, English]. */
  affiliation?: [string, string];
  /** Links the first author again in these roles. */
  extraRoles?: string[];
  /** A fund of its own with a serial number: [Chinese name, English name, serial number]. */
  fund?: [string, string, string];
  literature?: { title: string; title_en: string; doi?: string; link?: string; type: string; year: string }[];
  distributor?: { unit: string; email: string; phone: string; address: string; city: string; country: string };
  /** YYYY-MM-DD: a one-year protection period ending that day. */
  embargoUntil?: string;
  /** The data source: [Chinese, English]. */
  dataSource?: [string, string];
  /** Day of the last update, YYYY-MM-DD (the day of publication unless given, else now). */
  updated?: string;
}

/** The columns of the record's own row and of its other-language version that the extras set. */
export function extraColumns(extras: RecordExtras, english: boolean, published: string | undefined, now: string) {
  const distributor = extras.distributor;
  const [sourceZh, sourceEn] = extras.dataSource ?? [];
  const record = {
    ...(distributor
      ? {
          dist_unit: distributor.unit,
          dist_email: distributor.email,
          dist_phone: distributor.phone,
          dist_address: distributor.address,
          dist_city: distributor.city,
          dist_country: distributor.country,
        }
      : {}),
    ...(extras.embargoUntil ? { embargo_until: `${extras.embargoUntil}T00:00:00.000Z`, protection_period: 'oneYear' } : {}),
    ...(extras.dataSource ? { data_source: english ? sourceEn : sourceZh } : {}),
    updated_at: extras.updated ? `${extras.updated}T09:30:00.000Z` : published ? `${published}T08:00:00.000Z` : now,
  };
  const translation = extras.dataSource ? { data_source: english ? sourceZh! : sourceEn! } : {};
  return { record, translation };
}

/** The rows the extras add beside the record's own: authors' private details and affiliations, roles, fund, literature. */
export async function writeExtras(trx: Tx, id: string, ownerId: string, extras: RecordExtras, now: string): Promise<void> {
  const authorIds = (await trx.selectFrom('meta_author').select(['author_id', 'sort']).where('metadata_id', '=', id).orderBy('sort').execute()).map((r) => r.author_id);
  if (authorIds.length) {
    const [zh, en] = extras.affiliation ?? ['', ''];
    await trx
      .updateTable('authors')
      .set({ affiliation: zh, ...PRIVATE_AUTHOR })
      .where('id', 'in', authorIds)
      .execute();
    await trx.updateTable('author_i18n').set({ affiliation: en, address: PRIVATE_AUTHOR.address }).where('author_id', 'in', authorIds).execute();
  }
  for (const [index, role] of (extras.extraRoles ?? []).entries()) {
    await trx
      .insertInto('meta_author')
      .values({ id: randomUUID(), metadata_id: id, author_id: authorIds[0]!, role, event_date: '2024-05-01', sort: 100 + index })
      .execute();
  }
  if (extras.fund) {
    const fundId = randomUUID();
    const [name, name_en, serial_number] = extras.fund;
    await trx
      .insertInto('funds')
      .values({ id: fundId, name, name_en, serial_number, principal: '', phone: '', email: '', is_core: 0, created_by: ownerId, created_at: now })
      .execute();
    await trx.insertInto('meta_fund').values({ id: randomUUID(), metadata_id: id, fund_id: fundId }).execute();
  }
  for (const [sort, entry] of (extras.literature ?? []).entries()) {
    const literatureId = randomUUID();
    await trx
      .insertInto('literature')
      .values({
        id: literatureId,
        title: entry.title,
        title_en: entry.title_en,
        type: entry.type,
        year: entry.year,
        publisher: '',
        link: entry.link ?? '',
        language: 'zh-hans',
        doi: entry.doi ?? '',
        ris: '',
        abstract: '',
        comment: '',
        reference_type: '',
        sort,
        created_by: ownerId,
        created_at: now,
      })
      .execute();
    await trx.insertInto('citations').values({ id: randomUUID(), metadata_id: id, literature_id: literatureId, sort }).execute();
  }
}
