import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AuthorI18nTable, AuthorTable, MetaAuthorTable } from '../../src/db/schema.js';
import type { TestPortal } from '../helpers.js';
import type { Pair } from './records.js';

/** A person linked to a record in a role, as the editor's Authors tab links one. */
export interface AuthorLink {
  /** The name as written (Chinese); one author row a name within a call. */
  name: string;
  /** The English name; no English version when not given. */
  nameEn?: string;
  /** The author's e-mail (`<id>@example.org` when not given). */
  email?: string;
  /** The affiliation: [Chinese, English]. */
  affiliation?: Pair;
  role: string;
  sort: number;
  /** YYYY-MM-DD of the role's event ('' when not given). */
  eventDate?: string;
}

/**
 * Links people to a record already made, in the roles given (buildRecord's `authors` makes resource
 * providers only); the same name in one call is one author row. Whoever `createdBy` names made the
 * author rows. The authors' ids, in the order of `links`.
 */
export async function linkAuthors(portal: TestPortal, recordId: string, links: AuthorLink[], createdBy?: string): Promise<string[]> {
  const db = portal.database.db;
  const now = new Date().toISOString();
  const byName = new Map<string, string>();
  const ids: string[] = [];
  for (const link of links) {
    let authorId = byName.get(link.name);
    if (!authorId) {
      authorId = randomUUID();
      byName.set(link.name, authorId);
      await db
        .insertInto('authors')
        .values({
          id: authorId,
          name: link.name,
          email: link.email ?? `${authorId}@example.org`,
          ...(link.affiliation ? { affiliation: link.affiliation[0] } : {}),
          ...(createdBy ? { created_by: createdBy } : {}),
          created_at: now,
        } as Insertable<AuthorTable>)
        .execute();
      if (link.nameEn !== undefined) {
        await db
          .insertInto('author_i18n')
          .values({
            id: randomUUID(),
            author_id: authorId,
            language: 'en',
            name: link.nameEn,
            ...(link.affiliation ? { affiliation: link.affiliation[1] } : {}),
          } as Insertable<AuthorI18nTable>)
          .execute();
      }
    }
    await db
      .insertInto('meta_author')
      .values({
        id: randomUUID(),
        metadata_id: recordId,
        author_id: authorId,
        role: link.role,
        sort: link.sort,
        ...(link.eventDate ? { event_date: link.eventDate } : {}),
      } as Insertable<MetaAuthorTable>)
      .execute();
    ids.push(authorId);
  }
  return ids;
}

/** A fund of the editor's fund picker ('' for what is not given). */
export async function buildFund(portal: TestPortal, fund: { id?: string; name: string; name_en: string; serialNumber?: string }): Promise<string> {
  const id = fund.id ?? randomUUID();
  await portal.database.db
    .insertInto('funds')
    .values({
      id,
      name: fund.name,
      name_en: fund.name_en,
      serial_number: fund.serialNumber ?? '',
      principal: '',
      phone: '',
      email: '',
      is_core: 0,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** A programme (XDA20, XDA19, ZKK ...) of the search's programme facet. */
export async function buildProgram(portal: TestPortal, program: { id?: string; code: string; name: string; name_en: string }): Promise<string> {
  const id = program.id ?? randomUUID();
  await portal.database.db.insertInto('programs').values({ id, code: program.code, name: program.name, name_en: program.name_en, created_at: new Date().toISOString() }).execute();
  return id;
}
