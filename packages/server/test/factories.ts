import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Tx } from '../src/db/index.js';
import type { AuthorI18nTable, AuthorTable, MetaAuthorTable, MetaDisciplineTable, MetadataI18nTable, MetadataTable } from '../src/db/schema.js';
import { buildRegistration, EN, login, tokenHeader, type TestAccount, type TestPortal } from './helpers.js';

/**
 * The API tests' factories: the one way a test makes the people, records, reviews and orders it
 * needs. People are made as an operator makes them (no captcha, no mail) and signed in; records are
 * written as the portal holds them in their status (with their other-language version), and every
 * derived view (search index, OAI-PMH feed) is brought in step in the same transaction, as the
 * writing calls do. What a test checks of the API itself it still does through the API.
 */

/** An account and a token of it. */
export type Person = TestAccount & { token: string };

export interface UserSpec {
  staff?: boolean;
  /** users.is_project: 1 or 2 for project leaders. */
  project?: number;
  /** The language of the page the user signed in on, which becomes the mail language ('en'); none: the portal's default. */
  language?: 'en' | 'zh-hans';
  realname?: string;
  username?: string;
  email?: string;
}

/** An active account made as an operator makes it (no captcha, no mail), not signed in. */
export async function buildAccount(portal: TestPortal, spec: UserSpec = {}): Promise<TestAccount> {
  const registration = buildRegistration();
  const username = spec.username ?? registration.username!;
  const password = registration.password!;
  const user = await portal.accounts.createActiveUser({
    username,
    email: spec.email ?? registration.email!,
    password,
    realname: spec.realname ?? registration.realname!,
    isStaff: spec.staff,
    isProject: spec.project,
  });
  return { id: user.id, username, email: user.email, password };
}

/** An active account signed in once: its token. */
export async function buildUser(portal: TestPortal, spec: UserSpec = {}): Promise<Person> {
  const account = await buildAccount(portal, spec);
  const headers = spec.language === 'en' ? EN : spec.language ? { 'accept-language': spec.language } : {};
  return { ...account, token: await login(portal.app, account.username, account.password, headers) };
}

/** Several people at once, by role: `buildUsers(portal, { owner: {}, staff: { staff: true } })`. */
export async function buildUsers<K extends string>(portal: TestPortal, specs: Record<K, UserSpec>): Promise<Record<K, Person>> {
  const keys = Object.keys(specs) as K[];
  const people = await Promise.all(keys.map((key) => buildUser(portal, specs[key])));
  return Object.fromEntries(keys.map((key, i) => [key, people[i]])) as Record<K, Person>;
}

// ---- Records ----

/** A name in both languages: [Chinese, English]. */
export type Pair = [zh: string, en: string];

/** What a record holds, described by what the portal shows of it; everything but its owner is optional. */
export interface RecordSpec {
  owner: string | { id: string };
  /** 'draft' unless given; any other status is submitted now. */
  status?: string;
  /** The record's own language ('zh-hans'); its other version goes to metadata_i18n. */
  language?: 'zh-hans' | 'en';
  /** Its own language's title (`冰川记录 <id>` unless given) and abstract. */
  title?: string;
  abstract?: string;
  /** The other language's version (empty unless given, as a new draft's). */
  translation?: { title: string; abstract?: string };
  themes?: Pair[];
  places?: Pair[];
  /** Keywords of type discipline. */
  disciplines?: Pair[];
  /** Discipline standards linked through meta_discipline. */
  standards?: Pair[];
  authors?: Pair[];
  /** Fund ids. */
  funds?: string[];
  threePole?: string;
  thirdPole?: string;
  license?: string;
  sharing?: string;
  resolution?: string;
  /** Day of publication, YYYY-MM-DD (none unless given, whatever the status). */
  published?: string;
  time?: [string, string];
  /** west, south, east, north. */
  box?: [number, number, number, number];
  doi?: string;
  hits?: number;
  /** Sizes of its data files. */
  files?: number[];
  /** Any other column as stored (review_round, topic_review_status, submitting_type ('general' unless given), ...). */
  columns?: Partial<Insertable<MetadataTable>>;
}

/** A record written as the portal holds it in its status; returns its id. */
export async function buildRecord(portal: TestPortal, spec: RecordSpec): Promise<string> {
  const [id] = await buildRecords(portal, [spec]);
  return id!;
}

/**
 * Records written in one transaction, in order; keywords, standards and authors with the same Chinese
 * name are shared between them. The search index and the OAI-PMH feed follow in the transaction.
 */
export async function buildRecords(portal: TestPortal, specs: RecordSpec[]): Promise<string[]> {
  return portal.database.db.transaction().execute(async (trx) => {
    const writer = new RecordWriter(trx);
    const ids: string[] = [];
    for (const spec of specs) ids.push(await writer.write(spec));
    // As the writing calls do: every derived view (search index, OAI-PMH feed) follows in the transaction.
    await portal.metadataAccess.changed(trx, ids);
    return ids;
  });
}

/**
 * Moves a record to a status without its workflow's call (for the tests of what a status allows), with
 * the derived views in step in the same transaction, as the workflow's calls keep them.
 */
export async function setRecordStatus(portal: TestPortal, id: string, status: string): Promise<void> {
  await portal.database.db.transaction().execute(async (trx) => {
    await trx.updateTable('metadata').set({ status }).where('id', '=', id).execute();
    await portal.metadataAccess.changed(trx, [id]);
  });
}

/** Writes records and their attached rows in one transaction, inserting a shared row the first time its key is seen. */
class RecordWriter {
  private readonly shared = new Map<string, string>();
  private readonly now = new Date().toISOString();

  constructor(private readonly trx: Tx) {}

  private async once(key: string, insert: (id: string) => Promise<unknown>): Promise<string> {
    let id = this.shared.get(key);
    if (!id) {
      id = randomUUID();
      this.shared.set(key, id);
      await insert(id);
    }
    return id;
  }

  async write(spec: RecordSpec): Promise<string> {
    const { trx, now } = this;
    const id = randomUUID();
    const ownerId = typeof spec.owner === 'string' ? spec.owner : spec.owner.id;
    const language = spec.language ?? 'zh-hans';
    const english = language === 'en';
    const status = spec.status ?? 'draft';
    const [west, south, east, north] = spec.box ?? [null, null, null, null];
    const row = {
      id,
      owner_id: ownerId,
      status,
      language,
      title: spec.title ?? `冰川记录 ${id.slice(0, 8)}`,
      description: spec.abstract ?? '',
      license: spec.license ?? '',
      sharing_policy: spec.sharing ?? '',
      temporal_resolution: spec.resolution ?? '',
      subtopic_three_pole: spec.threePole ?? '',
      subtopic_third_pole: spec.thirdPole ?? '',
      doi: spec.doi ?? '',
      time_start: spec.time?.[0] ?? '',
      time_end: spec.time?.[1] ?? '',
      west,
      south,
      east,
      north,
      hit_count: spec.hits ?? 0,
      submitting_type: 'general',
      created_at: now,
      updated_at: now,
      submitted_at: status === 'draft' ? null : now,
      published_at: spec.published ? `${spec.published}T08:00:00.000Z` : null,
      ...spec.columns,
    };
    // The other columns take the defaults of their migrations.
    await trx
      .insertInto('metadata')
      .values(row as Insertable<MetadataTable>)
      .execute();
    await trx
      .insertInto('metadata_i18n')
      .values({
        id: randomUUID(),
        metadata_id: id,
        language: english ? 'zh-hans' : 'en',
        title: spec.translation?.title ?? '',
        description: spec.translation?.abstract ?? '',
      } as Insertable<MetadataI18nTable>)
      .execute();
    await this.attach(id, ownerId, language, spec);
    return id;
  }

  /** Keywords, standards, authors, funds and data files. */
  private async attach(id: string, ownerId: string, language: 'zh-hans' | 'en', spec: RecordSpec): Promise<void> {
    const { trx, now } = this;
    const english = language === 'en';
    const keywords: [string, Pair[] | undefined][] = [
      ['theme', spec.themes],
      ['place', spec.places],
      ['discipline', spec.disciplines],
    ];
    for (const [type, pairs] of keywords) {
      for (const [zh, en] of pairs ?? []) {
        // A keyword is written in the language of the record that first used it, translated into the other.
        const keywordId = await this.once(`keyword|${type}|${zh}`, async (kid) => {
          await trx
            .insertInto('keywords')
            .values({ id: kid, name: english ? en : zh, type, language, created_by: ownerId, created_at: now })
            .execute();
          await trx
            .insertInto('keyword_i18n')
            .values({ id: randomUUID(), keyword_id: kid, language: english ? 'zh-hans' : 'en', name: english ? zh : en })
            .execute();
        });
        await trx.insertInto('meta_keyword').values({ id: randomUUID(), metadata_id: id, keyword_id: keywordId }).execute();
      }
    }
    for (const [zh, en] of spec.standards ?? []) {
      const standardId = await this.once(`standard|${zh}`, (sid) =>
        trx.insertInto('keyword_standards').values({ id: sid, parent_id: null, code: '', name: zh, name_en: en, sort: 0 }).execute(),
      );
      await trx
        .insertInto('meta_discipline')
        .values({ id: randomUUID(), metadata_id: id, keyword_standard_id: standardId, number: 1 } as Insertable<MetaDisciplineTable>)
        .execute();
    }
    for (const [sort, [zh, en]] of (spec.authors ?? []).entries()) {
      const authorId = await this.once(`author|${zh}`, async (aid) => {
        await trx
          .insertInto('authors')
          .values({ id: aid, name: zh, email: `${aid}@example.org`, created_by: ownerId, created_at: now } as Insertable<AuthorTable>)
          .execute();
        await trx
          .insertInto('author_i18n')
          .values({ id: randomUUID(), author_id: aid, language: 'en', name: en } as Insertable<AuthorI18nTable>)
          .execute();
      });
      await trx
        .insertInto('meta_author')
        .values({ id: randomUUID(), metadata_id: id, author_id: authorId, role: 'resourceProvider', sort } as Insertable<MetaAuthorTable>)
        .execute();
    }
    for (const fund of spec.funds ?? []) await trx.insertInto('meta_fund').values({ id: randomUUID(), metadata_id: id, fund_id: fund }).execute();
    for (const size of spec.files ?? []) {
      await trx
        .insertInto('meta_file')
        .values({
          id: randomUUID(),
          metadata_id: id,
          name: 'data.nc',
          mime: 'application/x-netcdf',
          storage_key: `test/${randomUUID()}`,
          sha256: '',
          size,
          created_by: ownerId,
          created_at: now,
        })
        .execute();
    }
  }
}

// ---- Reviews ----

export interface ReviewSpec {
  record: string;
  expert: string | { id: string };
  round?: number;
  /** 'invited' (default), 'opened', 'declined' or an outcome ('pass', ...). */
  status?: string;
  signed?: number;
  /** YYYY-MM-DD; two weeks from today unless given. */
  deadline?: string;
  content?: string;
}

/** A day `n` days from today, as 'YYYY-MM-DD' (negative: in the past). */
export function inDays(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

/** An expert's review row of a round, as the invitation and the expert's answer leave it. */
export async function buildReview(portal: TestPortal, spec: ReviewSpec): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const status = spec.status ?? 'invited';
  const answered = !['invited', 'opened', 'declined'].includes(status);
  await portal.database.db
    .insertInto('reviews')
    .values({
      id,
      metadata_id: spec.record,
      expert_id: typeof spec.expert === 'string' ? spec.expert : spec.expert.id,
      round: spec.round ?? 1,
      status,
      content: spec.content ?? (answered ? 'Looks sound.' : ''),
      signed: spec.signed ?? 0,
      after_modification: 0,
      deadline: spec.deadline ?? inDays(14),
      message: '',
      invited_by: null,
      created_at: now,
      opened_at: status === 'invited' ? null : now,
      answered_at: answered ? now : null,
      reminded_at: null,
    })
    .execute();
  return id;
}

// ---- Orders ----

/** The applicant's form of a data order (English). */
export const ORDER_FORM_EN = {
  realName: 'Ada Applicant',
  email: 'ada.applicant@example.org',
  phone: '+86 10 6000 0000',
  zipcode: '100101',
  affiliation: 'Institute of Polar Studies',
  address: '1 Ice Road, Beijing',
  country: 'NO',
  reason: 'Validating a sea-ice model against observations for a thesis chapter.',
};

/** A data order as the applicant makes it (through the API: basket, then application); answers the reply. */
export async function buildOrder(portal: TestPortal, applicant: Person, recordIds: string[], form: Record<string, unknown> = ORDER_FORM_EN) {
  const post = async (url: string, payload: Record<string, unknown>) => {
    const response = await portal.app.inject({ method: 'POST', url, headers: { ...tokenHeader(applicant.token), ...EN }, payload });
    if (response.statusCode !== 201) throw new Error(`expected 201 from ${url}, got ${response.statusCode}: ${response.body}`);
    return response.json();
  };
  const line = [];
  for (const id of recordIds) line.push((await post('/api/account/line_item/', { metadata_id: id })).id);
  return post('/api/account/order/', { ...form, line });
}
