import type { FastifyBaseLogger } from 'fastify';
import { translate, type Language } from '@portal/shared';
import type { DoiRegistration, RecordDoi } from '@portal/shared/contracts/doi';
import type { DataciteConfig } from '../../config.js';
import type { Db, Tx } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { canonicalUrl, landingPath } from '../landing/index.js';
import { bareDoi, citableRecordOf, dataciteXml, type SiteFacts } from '../exports/index.js';
import { readAttached } from '../metadata/index.js';
import type { MetadataAccess, MetadataRow, RecordChangeListener } from '../metadata/index.js';
import { retryDelayMs } from '../../retry.js';
import { DataciteClient, DataciteError, type DataciteProblem, type DoiAttributes, type DoiReply } from './datacite-client.js';
import { DoiRepo, type RegistrationRow, type WantedState } from './doi.repo.js';
import { contentFingerprint, versionOf } from './record-versions.js';

/**
 * DOI registration (issue 17) and the facts of a published record that move with its publication
 * (its version, its access right).
 *
 * Which records get a DOI. Decision: the DOI category `public`, which both catalogues word as the
 * data centre assigning the DOI ("DOI assigned by the data centre", "由数据中心分配 DOI"); `own` is the
 * provider's own DOI ("自有 DOI") and `exist` one the data already has, both typed in by the provider.
 * (The issue's text says "own"; the words the providers choose from say `public`.) A published
 * record of category `public` without a DOI gets one under DATACITE_PREFIX (DATACITE_DOI_PATTERN), in
 * the transaction that publishes it, so the page, the catalogue and the OAI-PMH feed show it at once.
 * Only DOIs the portal minted are registered and kept in step; a DOI typed in is the provider's.
 *
 * Registration is an outbox (`doi_registrations`, as the order mails' outbox): each change of the
 * record marks its DOI due in the change's transaction; a sender tells DataCite after the reply has
 * gone (`afterResponse`), and the job every minute takes what is left, with backoff (1 minute doubling
 * to 6 hours, given up after MAX_REGISTRATION_ATTEMPTS). A try claims its row first (a lease), so two
 * senders never send one DOI at once, and a change during a try leaves the row due. Publication never
 * waits for DataCite. Failures (DataCite's status and `errors[]`, or no reply) stay on the row for staff.
 * What DataCite is asked to hold: findable (`event: publish`, the landing page, the DataCite XML)
 * while the record is published; registered (`event: hide`) once it is withdrawn or deleted, the URL
 * still the landing page, which then serves the tombstone (410): a findable DOI cannot be deleted.
 */

const MINUTE = 60_000;
/** How long a claimed registration is left to its sender before another run may try it. */
export const REGISTRATION_LEASE_MS = 10 * MINUTE;
/** Tries before a registration is given up (about two days of backoff); a change of the record starts it again. */
export const MAX_REGISTRATION_ATTEMPTS = 15;
/** Registrations one run of the job sends at most. */
const BATCH = 50;

const at = (now: Date, plusMs = 0) => new Date(now.getTime() + plusMs).toISOString();

export interface DoiServiceOptions {
  site: SiteFacts;
  datacite: DataciteConfig | undefined;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
}

export class DoiService implements RecordChangeListener {
  readonly repo: DoiRepo;
  private readonly client: DataciteClient | undefined;
  /** Something was marked due since the last send (a hint only: the rows decide). */
  private hasWork = false;
  private sending: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly access: MetadataAccess,
    private readonly options: DoiServiceOptions,
  ) {
    this.repo = new DoiRepo(db);
    this.client = options.datacite ? new DataciteClient(options.datacite) : undefined;
  }

  // ---- In the transaction of every change (MetadataAccess listener; registered before the others, so they see a minted DOI) ----

  async sync(trx: Tx, ids: readonly string[]): Promise<void> {
    const records = await trx
      .selectFrom('metadata')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
    const now = new Date().toISOString();
    const repo = this.repo.withDb(trx);
    for (const record of records) {
      // A DOI minted here is the record's from now on.
      if (record.status === 'published') Object.assign(record, await this.followPublished(trx, record, now));
    }
    for (const row of await repo.ofRecords(ids)) {
      const record = records.find((r) => r.id === row.metadata_id);
      const carries = !!record && record.status === 'published' && bareDoi(record.doi).toLowerCase() === row.doi.toLowerCase();
      const wanted: WantedState = carries ? 'findable' : 'registered';
      // A published record's every change reaches DataCite's copy of its metadata; a withdrawn one's only its move.
      if (carries || row.wanted !== wanted) {
        await repo.want(row.doi, wanted, now);
        this.hasWork = true;
      }
    }
  }

  /** A record about to be deleted: its DOI stays registered (hidden), pointing at its address. */
  async forget(trx: Db, ids: readonly string[]): Promise<void> {
    const repo = this.repo.withDb(trx);
    for (const row of await repo.ofRecords(ids)) {
      await repo.want(row.doi, 'registered', new Date().toISOString());
      this.hasWork = true;
    }
  }

  /** Mints the DOI the data centre assigns, and keeps the version and the access right the exports show. */
  private async followPublished(trx: Tx, record: MetadataRow, now: string): Promise<Partial<MetadataRow>> {
    const values: Partial<MetadataRow> = {};
    if (this.options.datacite && record.doi_category === 'public' && !record.doi.trim()) {
      const doi = await this.repo.withDb(trx).nextDoi(this.options.datacite.doiPattern);
      await this.repo.withDb(trx).insert(doi, record.id, now);
      values.doi = doi;
      this.hasWork = true;
    }
    const attached = (await readAttached(trx, [record.id], { literature: true, files: true })).get(record.id)!;
    const files = await trx.selectFrom('meta_file').select(['name', 'sha256']).where('metadata_id', '=', record.id).execute();
    const citable = citableRecordOf({ ...record, ...values } as MetadataRow, attached, this.options.site);
    const version = versionOf(record, contentFingerprint(citable, files));
    if (
      version.version_number !== Number(record.version_number) ||
      version.version_fingerprint !== record.version_fingerprint ||
      version.version_published_at !== record.version_published_at
    ) {
      Object.assign(values, version);
    }
    if (citable.accessRight.term !== record.access_right) values.access_right = citable.accessRight.term;
    await this.access.setPublicationFacts(trx, record.id, values);
    return values;
  }

  // ---- Sending ----

  /** After a reply has gone (its transaction committed): sends what the request marked due, in the background. */
  afterResponse(): void {
    if (!this.hasWork || !this.client) return;
    this.hasWork = false;
    const previous = this.sending ?? Promise.resolve();
    const run: Promise<void> = previous
      .then(() => this.deliverDue())
      .then(
        () => undefined,
        (error) => this.options.log.error({ err: error }, 'DOI registration run failed'),
      )
      .finally(() => {
        if (this.sending === run) this.sending = undefined;
      });
    this.sending = run;
  }

  /** Waits for the sends `afterResponse` started (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.sending) await this.sending;
  }

  /** The job: every registration whose time has come; answers how many DataCite took. */
  async deliverDue(now = new Date()): Promise<number> {
    if (!this.client) return 0;
    let done = 0;
    for (const row of await this.repo.due(at(now), BATCH)) if (await this.attempt(row, now)) done += 1;
    return done;
  }

  private async attempt(row: RegistrationRow, now: Date): Promise<boolean> {
    const lease = at(now, REGISTRATION_LEASE_MS);
    if (!(await this.repo.claim(row, lease, at(now)))) return false;
    const attempts = row.attempts + 1;
    try {
      const reply = await this.send(row);
      await this.repo.settle(row.doi, lease, {
        status: 'done',
        state: reply?.state ?? row.state,
        last_status: 0,
        last_error: '',
        next_attempt_at: at(now),
        ...(reply && !row.registered_at ? { registered_at: at(now) } : {}),
      });
      return true;
    } catch (error) {
      const failure = error instanceof DataciteError ? error : new DataciteError(0, [{ title: String((error as Error)?.message ?? error) }]);
      const givenUp = attempts >= MAX_REGISTRATION_ATTEMPTS;
      await this.repo.settle(row.doi, lease, {
        status: givenUp ? 'failed' : 'pending',
        next_attempt_at: at(now, retryDelayMs(attempts)),
        last_status: failure.status,
        last_error: JSON.stringify(failure.problems).slice(0, 20_000),
      });
      const facts = { doi: row.doi, record: row.metadata_id, status: failure.status, errors: failure.problems, attempts };
      if (givenUp) this.options.log.error(facts, 'DOI registration given up');
      else this.options.log.warn(facts, 'DOI registration failed, will retry');
      return false;
    }
  }

  /** One call to DataCite bringing the DOI to what its row wants; undefined when there is nothing to tell it. */
  private async send(row: RegistrationRow): Promise<DoiReply | undefined> {
    const client = this.client!;
    const record = await this.access.find(row.metadata_id);
    if (!record) {
      // Deleted: a DOI DataCite never had needs nothing; one it has is hidden, its address kept.
      if (!row.state) return undefined;
      return client.update(row.doi, { event: 'hide', url: canonicalUrl(this.options.site.publicUrl, 'zh-hans', landingPath(row.metadata_id)) });
    }
    const attached = (await readAttached(this.db, [record.id], { literature: true, files: true })).get(record.id)!;
    const citable = citableRecordOf(record, attached, this.options.site);
    const attributes: DoiAttributes = { url: citable.url[citable.language], xml: dataciteXml({ ...citable, doi: row.doi }) };
    if (row.wanted === 'findable') {
      if (row.state) return client.update(row.doi, { ...attributes, event: 'publish' });
      try {
        return await client.create({ doi: row.doi, ...attributes, event: 'publish' });
      } catch (error) {
        // An earlier try created it and died before saying so.
        if (error instanceof DataciteError && error.isTaken) return client.update(row.doi, { ...attributes, event: 'publish' });
        throw error;
      }
    }
    // Withdrawn: registered, not findable; a DOI never registered is registered so (its landing page is the tombstone).
    return client.update(row.doi, { ...attributes, ...(row.state === 'registered' ? {} : { event: row.state ? 'hide' : 'register' }) });
  }

  // ---- The protection period's end ----

  /**
   * Records whose protection period has ended since they were exported: their access right turns
   * from embargoed, so every view of them follows (the OAI-PMH datestamp, the catalogue, DataCite).
   */
  async noteEndedEmbargoes(now = new Date()): Promise<number> {
    const ids = await this.repo.endedEmbargoes(at(now), 200);
    if (!ids.length) return 0;
    await this.db.transaction().execute((trx) => this.access.changed(trx, ids));
    this.afterResponse();
    return ids.length;
  }

  // ---- Staff ----

  async list(language: Language, filter: { status?: string; failing?: boolean }, offset: number, limit: number): Promise<{ count: number; results: DoiRegistration[] }> {
    const { count, rows } = await this.repo.list(filter, offset, limit);
    return { count, results: rows.map((row) => this.view(row, titleIn(language, row), language)) };
  }

  /** The record's DOI facts and its registrations (staff). */
  async ofRecord(language: Language, id: string): Promise<RecordDoi> {
    const record = await this.access.find(id);
    if (!record) throw new AppError('NOT_FOUND', 'metadata.notFound');
    const rows = await this.repo.ofRecords([id]);
    const title = titleIn(language, { ...record, translation_title: await this.repo.translationTitleOf(record.id, record.language) });
    return {
      id: record.id,
      doi: record.doi,
      doi_category: record.doi_category,
      version_number: Number(record.version_number),
      access_right: record.access_right,
      configured: !!this.client,
      registrations: rows.map((row) => this.view(row, title, language)),
    };
  }

  /** Staff ask for the record's registrations to be tried again now (after fixing the account, or the record). */
  async retry(language: Language, id: string): Promise<RecordDoi> {
    const record = await this.access.find(id);
    if (!record) throw new AppError('NOT_FOUND', 'metadata.notFound');
    if (!this.client) throw new AppError('CONFLICT', 'doi.notConfigured');
    const rows = await this.repo.ofRecords([id]);
    if (!rows.length) throw new AppError('CONFLICT', 'doi.noRegistration');
    for (const row of rows) await this.repo.want(row.doi, row.wanted as WantedState, new Date().toISOString());
    this.hasWork = true;
    this.afterResponse();
    await this.settled();
    return this.ofRecord(language, id);
  }

  private view(row: RegistrationRow, title: string | null, language: Language): DoiRegistration {
    let errors: DataciteProblem[] = [];
    try {
      errors = row.last_error ? JSON.parse(row.last_error) : [];
    } catch {
      errors = [{ title: row.last_error }];
    }
    return {
      doi: row.doi,
      metadata_id: row.metadata_id,
      title,
      wanted: row.wanted as DoiRegistration['wanted'],
      state: row.state,
      status: row.status as DoiRegistration['status'],
      attempts: row.attempts,
      next_attempt_at: row.status === 'done' ? null : row.next_attempt_at,
      last_attempt_at: row.last_attempt_at,
      registered_at: row.registered_at,
      last_status: row.last_status,
      errors,
      problem: row.status === 'done' || (!row.last_status && !errors.length) ? '' : translate(language, problemKey(row.last_status), { status: row.last_status }),
    };
  }
}

/** A record's title in the reader's language: its translation's when the record is written in the other one and has it. */
function titleIn(language: Language, record: { title: string | null; language: string | null; translation_title: string | null }): string | null {
  return (record.language !== language && record.translation_title) || record.title;
}

/** The catalogue's words for a failed call, by its HTTP status. */
function problemKey(status: number): string {
  if (status === 0) return 'doi.problem.noReply';
  if (status === 401 || status === 403) return 'doi.problem.credentials';
  if (status === 404) return 'doi.problem.notFound';
  if (status === 422) return 'doi.problem.refused';
  if (status >= 500) return 'doi.problem.unavailable';
  return 'doi.problem.other';
}
