import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestPortal, type TestPortal } from './helpers.js';
import { insertCatalogue, type CatalogueEntry } from './search-builders.js';

/**
 * Builders of the exports' API tests: published records written as the catalogue tests write them
 * (search-builders.ts), with what only the exports show added: affiliations, other roles, funds with
 * serial numbers, literature, the distributor's contact, the protection period, and the authors'
 * private contact details that no export may carry.
 */

/** What an author keeps private: none of it may appear in an export. */
export const PRIVATE_AUTHOR = { phone: '+86 10 5555 0199', address: '99 Hidden Lane, Haidian', email: 'private-author@example.org' };

export interface ExportRecordExtras {
  /** Affiliation of every author: [Chinese, English]. */
  affiliation?: [string, string];
  /** Links the first author again in these roles. */
  extraRoles?: string[];
  /** A fund of its own with a serial number: [Chinese name, English name, serial number]. */
  fund?: [string, string, string];
  literature?: { title: string; title_en: string; doi?: string; link?: string; type: string; year: string }[];
  distributor?: { unit: string; email: string; phone: string; address: string; city: string; country: string };
  embargoUntil?: string;
  dataSource?: [string, string];
  updated?: string;
}

/**
 * A test portal with a built web app (an index.html stand-in in a folder of its own), so that a
 * landing page request the exports do not answer reaches the page handling; `close` ends the portal
 * and removes the folder.
 */
export async function createLandingTestPortal(): Promise<{ portal: TestPortal; close: () => Promise<void> }> {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  const portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  return {
    portal,
    close: async () => {
      await portal.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    },
  };
}

/** Writes one published (or other) record with its extras; returns its id. */
export async function insertExportRecord(portal: TestPortal, ownerId: string, entry: CatalogueEntry, extras: ExportRecordExtras = {}): Promise<string> {
  const { [entry.key]: id } = await insertCatalogue(portal, ownerId, [entry]);
  const db = portal.database.db;
  const now = new Date().toISOString();
  const authorIds = (await db.selectFrom('meta_author').select(['author_id', 'sort']).where('metadata_id', '=', id!).orderBy('sort').execute()).map((r) => r.author_id);
  if (authorIds.length) {
    const [zh, en] = extras.affiliation ?? ['', ''];
    await db
      .updateTable('authors')
      .set({ affiliation: zh, ...PRIVATE_AUTHOR })
      .where('id', 'in', authorIds)
      .execute();
    await db.updateTable('author_i18n').set({ affiliation: en, address: PRIVATE_AUTHOR.address }).where('author_id', 'in', authorIds).execute();
  }
  for (const [index, role] of (extras.extraRoles ?? []).entries()) {
    await db
      .insertInto('meta_author')
      .values({ id: randomUUID(), metadata_id: id!, author_id: authorIds[0]!, role, event_date: '2024-05-01', sort: 100 + index })
      .execute();
  }
  if (extras.fund) {
    const fundId = randomUUID();
    const [name, name_en, serial_number] = extras.fund;
    await db
      .insertInto('funds')
      .values({ id: fundId, name, name_en, serial_number, principal: '', phone: '', email: '', is_core: 0, created_by: ownerId, created_at: now })
      .execute();
    await db.insertInto('meta_fund').values({ id: randomUUID(), metadata_id: id!, fund_id: fundId }).execute();
  }
  for (const [sort, entryOf] of (extras.literature ?? []).entries()) {
    const literatureId = randomUUID();
    await db
      .insertInto('literature')
      .values({
        id: literatureId,
        title: entryOf.title,
        title_en: entryOf.title_en,
        type: entryOf.type,
        year: entryOf.year,
        publisher: '',
        link: entryOf.link ?? '',
        language: 'zh-hans',
        doi: entryOf.doi ?? '',
        ris: '',
        abstract: '',
        comment: '',
        reference_type: '',
        sort,
        created_by: ownerId,
        created_at: now,
      })
      .execute();
    await db.insertInto('citations').values({ id: randomUUID(), metadata_id: id!, literature_id: literatureId, sort }).execute();
  }
  const distributor = extras.distributor;
  await db
    .updateTable('metadata')
    .set({
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
      ...(extras.dataSource ? { data_source: entry.language === 'en' ? extras.dataSource[1] : extras.dataSource[0] } : {}),
      updated_at: extras.updated ? `${extras.updated}T09:30:00.000Z` : entry.published ? `${entry.published}T08:00:00.000Z` : now,
    })
    .where('id', '=', id!)
    .execute();
  if (extras.dataSource) {
    await db
      .updateTable('metadata_i18n')
      .set({ data_source: entry.language === 'en' ? extras.dataSource[0] : extras.dataSource[1] })
      .where('metadata_id', '=', id!)
      .execute();
  }
  return id!;
}

/** The JSON-LD contexts the tests serve from files (no network): remote address -> file. */
const LOCAL_CONTEXTS: Record<string, string> = {
  'https://schema.org/': 'schema-org-context.jsonld',
  'https://schema.org': 'schema-org-context.jsonld',
};

/** A jsonld document loader that reads contexts from packages/server/test/jsonld/ and refuses any other address. */
export async function localDocumentLoader(url: string) {
  const file = LOCAL_CONTEXTS[url];
  if (!file) throw new Error(`no network in the tests: ${url} is not a local context`);
  const document = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'jsonld', file), 'utf8'));
  return { contextUrl: undefined, documentUrl: url, document };
}

/**
 * xmllint's verdict on a document, offline (--nonet): '' when it is well-formed (and valid against
 * `schema` when one is given), its complaint otherwise.
 */
export function xmllintErrors(xml: string, schema?: string): string {
  try {
    execFileSync('xmllint', ['--noout', '--nonet', ...(schema ? ['--schema', schema] : []), '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}
