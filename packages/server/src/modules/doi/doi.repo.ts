import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DoiRegistrationTable } from '../../db/schema.js';
import { translationTitle } from '../metadata/index.js';

export type RegistrationRow = Selectable<DoiRegistrationTable>;
export type RegistrationWithTitle = RegistrationRow & { title: string | null; language: string | null; translation_title: string | null };
/** What DataCite should hold of a DOI: findable while its record is published, registered after. */
export type WantedState = 'findable' | 'registered';

/** The SQL of DOI registration: the minted DOIs and their outbox, the number sequence. */
export class DoiRepo {
  constructor(private readonly db: Db) {}

  withDb(db: Db): DoiRepo {
    return new DoiRepo(db);
  }

  /**
   * The next number of a pattern, skipping numbers some record's DOI already holds (imported or typed
   * in). The row's update holds its lock to the end of the caller's transaction, so two mints take
   * turns. The first mint of a pattern starts after the highest number already in use.
   */
  async nextDoi(pattern: string): Promise<string> {
    const [head, tail] = pattern.split('{number}') as [string, string];
    const used = async (doi: string) =>
      !!(await this.db
        .selectFrom('metadata')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['doi']), '=', doi.toLowerCase()))
        .executeTakeFirst()) || !!(await this.db.selectFrom('doi_registrations').select('doi').where('doi', '=', doi).executeTakeFirst());
    const increment = () =>
      this.db
        .updateTable('doi_sequence')
        .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
        .where('pattern', '=', pattern)
        .returning('last_number')
        .executeTakeFirst();
    let row = await increment();
    if (!row) {
      const taken = await this.db
        .selectFrom('metadata')
        .select('doi')
        .where((eb) => eb(eb.fn('lower', ['doi']), 'like', `${head.toLowerCase()}%`))
        .execute();
      const numbers = taken
        .map((r) => r.doi.trim().toLowerCase())
        .filter((doi) => doi.startsWith(head.toLowerCase()) && doi.endsWith(tail.toLowerCase()))
        .map((doi) => doi.slice(head.length, doi.length - tail.length))
        .filter((n) => /^\d+$/.test(n))
        .map(Number);
      // Two first mints at once: one inserts, the other waits for it and then increments after it.
      await this.db
        .insertInto('doi_sequence')
        .values({ pattern, last_number: numbers.length ? Math.max(...numbers) : 0 })
        .onConflict((oc) => oc.column('pattern').doNothing())
        .execute();
      row = (await increment())!;
    }
    let number = Number(row.last_number);
    while (await used(`${head}${number}${tail}`)) {
      number += 1;
      await this.db.updateTable('doi_sequence').set({ last_number: number }).where('pattern', '=', pattern).execute();
    }
    return `${head}${number}${tail}`;
  }

  async insert(doi: string, metadataId: string, now: string): Promise<void> {
    await this.db
      .insertInto('doi_registrations')
      .values({
        doi,
        metadata_id: metadataId,
        wanted: 'findable',
        state: '',
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_status: 0,
        last_error: '',
        created_at: now,
      })
      .execute();
  }

  ofRecords(ids: readonly string[]): Promise<RegistrationRow[]> {
    return this.db
      .selectFrom('doi_registrations')
      .selectAll()
      .where('metadata_id', 'in', [...ids])
      .execute();
  }

  /** A change DataCite must hear of: due now, tries counted anew (moving `next_attempt_at` also voids a try under way). */
  async want(doi: string, wanted: WantedState, now: string): Promise<void> {
    await this.db.updateTable('doi_registrations').set({ wanted, status: 'pending', attempts: 0, next_attempt_at: now }).where('doi', '=', doi).execute();
  }

  due(now: string, limit: number): Promise<RegistrationRow[]> {
    return this.db
      .selectFrom('doi_registrations')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  /** Takes a due row for one try: its next try moves to `lease` from the value read, so only one sender has it. */
  async claim(row: RegistrationRow, lease: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('doi_registrations')
      .set({ next_attempt_at: lease, attempts: row.attempts + 1, last_attempt_at: now })
      .where('doi', '=', row.doi)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The try's outcome, unless a change came meanwhile (it moved `next_attempt_at` off the lease: the row stays due). */
  async settle(doi: string, lease: string, values: Partial<Omit<RegistrationRow, 'doi' | 'metadata_id'>>): Promise<void> {
    await this.db.updateTable('doi_registrations').set(values).where('doi', '=', doi).where('next_attempt_at', '=', lease).execute();
  }

  /** The title of the record's translation (the version in the language it is not written in), if it has one. */
  async translationTitleOf(metadataId: string, recordLanguage: string): Promise<string | null> {
    const row = await this.db.selectFrom('metadata_i18n').select('title').where('metadata_id', '=', metadataId).where('language', '<>', recordLanguage).executeTakeFirst();
    return row?.title ?? null;
  }

  find(doi: string): Promise<RegistrationRow | undefined> {
    return this.db.selectFrom('doi_registrations').selectAll().where('doi', '=', doi).executeTakeFirst();
  }

  /**
   * Staff's list: not done first (failed, then pending), then the latest. `failing`: only those whose
   * last try failed and that are not done (a success clears `last_error`; a change keeps it until the next try).
   */
  async list(filter: { status?: string; failing?: boolean }, offset: number, limit: number): Promise<{ count: number; rows: RegistrationWithTitle[] }> {
    let query = this.db.selectFrom('doi_registrations').leftJoin('metadata', 'metadata.id', 'doi_registrations.metadata_id');
    if (filter.status) query = query.where('doi_registrations.status', '=', filter.status);
    if (filter.failing) query = query.where('doi_registrations.status', '<>', 'done').where('doi_registrations.last_error', '<>', '');
    const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll('doi_registrations')
      .select(['metadata.title', 'metadata.language'])
      .select(translationTitle.as('translation_title'))
      .orderBy((eb) => eb.case().when('doi_registrations.status', '=', 'failed').then(0).when('doi_registrations.status', '=', 'pending').then(1).else(2).end())
      .orderBy('doi_registrations.last_attempt_at', 'desc')
      .orderBy('doi_registrations.doi')
      .offset(offset)
      .limit(limit)
      .execute();
    return { count: Number(count), rows };
  }

  /** Published records whose protection period was running when they were last exported and has ended by `now`. */
  async endedEmbargoes(now: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('metadata')
      .select('id')
      .where('status', '=', 'published')
      .where('access_right', 'in', ['embargoed', ''])
      .where('embargo_until', 'is not', null)
      .where('embargo_until', '<=', now)
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}
