import type { Language } from '@portal/shared';
import { newId, type Tx } from '../../db/index.js';
import { EMPTY_RECORD_FIELDS, EMPTY_TRANSLATION_FIELDS, presentRecord, type RecordChangeListener, type RecordImport } from '../metadata/index.js';
import { checkCandidate, ImportRefusal, type Candidate, type ImportedRecord } from './candidates.js';
import type { RecordsIoRepo } from './records-io.repo.js';

/**
 * `npm run portal -- import-records` and `export-records`: published records in and out.
 *
 * Import decisions:
 * - A record whose DOI (any case), or, from a portal export, whose id is already here is skipped,
 *   whatever its status: an import never overwrites what the portal holds (run it twice, nothing
 *   changes). A DOI that stands twice in one file is imported once.
 * - Records are written published, owned by the operator's account given, with the file's
 *   publication date (or now), as published without this portal's review; each gets a
 *   `publish_without_review` step in its trail that names the file.
 * - Keywords, authors and funds are shared entries: an import reuses the owner's entries with the
 *   same names and translations (so a catalogue of thousands of records links a few hundred
 *   keywords) and makes the missing ones; the programme funds 5 and 6 are linked by id.
 * - Each batch is one transaction, which writes the search index and the OAI-PMH feed too.
 */

export interface ImportSummary {
  imported: number;
  skipped: { position: number; reason: string }[];
  errors: { position: number; reason: string }[];
}

type SharedRow = Record<string, unknown> & { id: string };

const OTHER: Record<Language, Language> = { 'zh-hans': 'en', en: 'zh-hans' };

const keywordKey = (k: { name: string; type: string; language: string; translations: { language: string; name: string }[] }) =>
  [k.type, k.name, k.language, ...k.translations.map((t) => `${t.language}:${t.name}`).sort()].join('\u0000');
const AUTHOR_FIELDS = ['name', 'email', 'affiliation', 'phone', 'address', 'country', 'province', 'city', 'zipcode', 'orcid', 'affiliation_ror'] as const;
const authorKey = (a: Record<(typeof AUTHOR_FIELDS)[number], string> & { translations: { language: string; name: string; affiliation: string; address: string }[] }) =>
  [...AUTHOR_FIELDS.map((f) => a[f]), ...a.translations.map((t) => [t.language, t.name, t.affiliation, t.address].join(':')).sort()].join('\u0000');
const FUND_FIELDS = ['name', 'name_en', 'serial_number', 'principal', 'phone', 'email', 'funder_identifier'] as const;
const fundKey = (f: Record<(typeof FUND_FIELDS)[number], string>) => FUND_FIELDS.map((k) => f[k]).join('\u0000');

export class RecordsIoService {
  constructor(
    private readonly repo: RecordsIoRepo,
    /** The derived views that follow written records (the search index, the OAI-PMH feed). */
    private readonly indexes: RecordChangeListener[],
  ) {}

  /** The account imported records belong to: an active staff account (the data centre's). */
  async importOwner(username: string): Promise<string> {
    const user = await this.repo.accounts.accountNamed(username);
    if (!user) throw new ImportRefusal(`--owner: there is no account ${username}`);
    if (!user.is_staff || !user.is_active) throw new ImportRefusal(`--owner: ${user.username} is not an active staff account (imported records belong to the data centre)`);
    return user.id;
  }

  /**
   * Writes the records of a file, `batchSize` a transaction. Candidates are checked first; a
   * database error ends the import (the batches before it stay written) and is thrown.
   */
  async importRecords(
    candidates: Candidate[],
    options: {
      ownerId: string;
      source: string;
      batchSize?: number;
      now?: Date;
      onBatch?: (done: number, total: number) => void;
      /** false: leave the search index alone (a bulk load that rebuilds it afterwards, as bench/search.ts does). */
      index?: boolean;
    },
  ): Promise<ImportSummary> {
    const now = (options.now ?? new Date()).toISOString();
    const summary: ImportSummary = { imported: 0, skipped: [], errors: [] };
    const records: ImportedRecord[] = [];
    for (const candidate of candidates) {
      if ('skipped' in candidate) summary.skipped.push({ position: candidate.position, reason: candidate.skipped });
      else if ('error' in candidate) summary.errors.push({ position: candidate.position, reason: candidate.error });
      else {
        const checked = checkCandidate(candidate.position, candidate.value, now);
        if ('error' in checked) summary.errors.push({ position: candidate.position, reason: checked.error });
        else records.push(checked);
      }
    }
    const shared = new SharedEntries(this.repo.records, options.ownerId, now);
    const seen = { dois: new Set<string>(), ids: new Set<string>() };
    const batchSize = options.batchSize ?? 200;
    for (let at = 0; at < records.length; at += batchSize) {
      const batch = records.slice(at, at + batchSize);
      await this.repo.records.transaction(async (trx) => {
        const existing = await this.repo.records.existing(trx, batch.map((r) => r.fields.doi ?? '').filter(Boolean), batch.map((r) => r.id ?? '').filter(Boolean));
        const written: { record: ImportedRecord; id: string }[] = [];
        for (const record of batch) {
          const doi = (record.fields.doi ?? '').toLowerCase();
          const reason =
            doi && existing.dois.has(doi)
              ? `DOI ${record.fields.doi} is already in the catalogue`
              : doi && seen.dois.has(doi)
                ? `DOI ${record.fields.doi} stands earlier in the file`
                : record.id && (existing.ids.has(record.id) || seen.ids.has(record.id))
                  ? `record ${record.id} is already in the catalogue`
                  : null;
          if (reason) {
            summary.skipped.push({ position: record.position, reason });
            continue;
          }
          if (doi) seen.dois.add(doi);
          const id = record.id ?? newId();
          seen.ids.add(id);
          written.push({ record, id });
        }
        if (!written.length) return;
        await shared.prepare(
          trx,
          written.map((w) => w.record),
        );
        await this.writeRecords(trx, written, shared, options, now);
        if (options.index !== false)
          for (const index of this.indexes)
            await index.sync(
              trx,
              written.map((w) => w.id),
            );
        summary.imported += written.length;
      });
      options.onBatch?.(Math.min(at + batchSize, records.length), records.length);
    }
    summary.skipped.sort((a, b) => a.position - b.position);
    summary.errors.sort((a, b) => a.position - b.position);
    return summary;
  }

  private async writeRecords(trx: Tx, written: { record: ImportedRecord; id: string }[], shared: SharedEntries, options: { ownerId: string; source: string }, now: string) {
    const metadata = [];
    const translations = [];
    const keywordLinks = [];
    const authorLinks = [];
    const fundLinks = [];
    const events = [];
    for (const { record, id } of written) {
      metadata.push({
        ...EMPTY_RECORD_FIELDS,
        ...record.fields,
        id,
        owner_id: options.ownerId,
        status: 'published',
        language: record.language,
        created_at: now,
        updated_at: now,
        submitted_at: record.publishedAt,
        published_at: record.publishedAt,
        embargo_until: record.embargoUntil,
        published_without_review: 1,
      });
      // Every record has its version in the other language, as the editor makes it.
      const otherLanguage = OTHER[record.language];
      const versions = record.translations.some((t) => t.language === otherLanguage) ? record.translations : [...record.translations, { language: otherLanguage }];
      for (const version of versions) translations.push({ ...EMPTY_TRANSLATION_FIELDS, ...version, id: newId(), metadata_id: id });
      for (const keywordId of new Set(record.keywords.map((k) => shared.keyword(k)))) keywordLinks.push({ id: newId(), metadata_id: id, keyword_id: keywordId });
      const linked = new Set<string>();
      for (const author of record.authors) {
        const authorId = shared.author(author);
        if (linked.has(`${authorId}\u0000${author.role}`)) continue;
        linked.add(`${authorId}\u0000${author.role}`);
        authorLinks.push({ id: newId(), metadata_id: id, author_id: authorId, role: author.role, event_date: author.event_date, sort: author.sort });
      }
      for (const fundId of new Set(record.funds.map((f) => shared.fund(f)))) fundLinks.push({ id: newId(), metadata_id: id, fund_id: fundId });
      events.push({
        id: newId(),
        metadata_id: id,
        actor_id: options.ownerId,
        role: 'staff',
        action: 'publish_without_review',
        from_status: 'draft',
        to_status: 'published',
        comment: `Imported from ${options.source} (record ${record.position})`,
        review_id: null,
        created_at: now,
      });
    }
    await this.repo.records.insert(trx, 'metadata', metadata);
    await this.repo.records.insert(trx, 'metadata_i18n', translations);
    await this.repo.records.insert(trx, 'meta_keyword', keywordLinks);
    await this.repo.records.insert(trx, 'meta_author', authorLinks);
    await this.repo.records.insert(trx, 'meta_fund', fundLinks);
    await this.repo.insertTrail(trx, events);
  }

  /**
   * Writes every published record in the portal's own file format (see records-file.ts in shared),
   * one record a line, through `write`; returns how many.
   */
  async exportRecords(write: (chunk: string) => Promise<void>, pageSize = 500): Promise<number> {
    let count = 0;
    let after = '';
    await write('[');
    for (;;) {
      const records = await this.repo.records.publishedAfter(after, pageSize);
      if (!records.length) break;
      const ids = records.map((r) => r.id);
      const [attached, owners] = await Promise.all([this.repo.records.attached(ids), this.repo.accounts.namesOf(records.map((r) => r.owner_id))]);
      const lines = records.map((record) => {
        const { translations, keywords, authors, funds } = attached.get(record.id)!;
        // What the portal derives from the record (modules/doi: its version, its access right) the importing portal makes anew.
        const {
          version_number: _version,
          version_fingerprint: _fingerprint,
          version_published_at: _versionAt,
          access_right: _access,
          ...presented
        } = presentRecord(
          record,
          funds.map((f) => f.id),
          owners.get(record.owner_id) ?? '',
        );
        const entry = {
          ...presented,
          translations,
          keywords: keywords.map((k) => ({ name: k.name, type: k.type, language: k.language, translations: k.translations })),
          authors: authors.map((a) => ({
            ...Object.fromEntries(AUTHOR_FIELDS.map((f) => [f, a[f]])),
            role: a.role,
            event_date: a.event_date,
            sort: a.sort,
            translations: a.translations,
          })),
          funds: funds.map((f) => ({ id: f.id, ...Object.fromEntries(FUND_FIELDS.map((k) => [k, f[k]])), is_core: Number(f.is_core) === 1 })),
        };
        return JSON.stringify(entry);
      });
      await write(`${count ? ',' : ''}\n${lines.join(',\n')}`);
      count += records.length;
      after = ids.at(-1)!;
    }
    await write('\n]\n');
    return count;
  }
}

/** How one kind of shared entry is recognised among the owner's and made. */
interface EntryKind<E extends { name: string }, R extends SharedRow> {
  known: Map<string, string>;
  key(entry: E): string;
  /** The owner's entries with these names, one row per translation. */
  find(trx: Tx, names: string[]): Promise<R[]>;
  keyOfRows(rows: R[]): string;
  table: 'keywords' | 'authors' | 'funds';
  row(entry: E): Record<string, unknown>;
  translations?: { table: 'keyword_i18n' | 'author_i18n'; rows(id: string, entry: E): Record<string, unknown>[] };
}

type KeywordEntry = ImportedRecord['keywords'][number];
type AuthorEntry = ImportedRecord['authors'][number];
type FundEntry = ImportedRecord['funds'][number];

/**
 * The shared entries an import links, found among the owner's or made, remembered for the rest of
 * the import (an import that fails stops, so no remembered id outlives a rolled-back batch).
 */
class SharedEntries {
  private readonly programmeFunds = new Set<string>();
  private readonly keywords: EntryKind<KeywordEntry, Awaited<ReturnType<RecordImport['ownKeywords']>>[number]>;
  private readonly authors: EntryKind<AuthorEntry, Awaited<ReturnType<RecordImport['ownAuthors']>>[number]>;
  private readonly funds: EntryKind<FundEntry, Awaited<ReturnType<RecordImport['ownFunds']>>[number]>;

  constructor(
    private readonly repo: RecordImport,
    private readonly ownerId: string,
    private readonly now: string,
  ) {
    const translated = <R extends { translation_language: string | null }>(rows: R[]) => rows.filter((r) => r.translation_language);
    this.keywords = {
      known: new Map(),
      key: keywordKey,
      find: (trx, names) => repo.ownKeywords(trx, ownerId, names),
      keyOfRows: (rows) => keywordKey({ ...rows[0]!, translations: translated(rows).map((r) => ({ language: r.translation_language!, name: r.translation_name! })) }),
      table: 'keywords',
      row: (k) => ({ name: k.name, type: k.type, language: k.language }),
      translations: { table: 'keyword_i18n', rows: (id, k) => k.translations.map((t) => ({ id: newId(), keyword_id: id, language: t.language, name: t.name })) },
    };
    this.authors = {
      known: new Map(),
      key: authorKey,
      find: (trx, names) => repo.ownAuthors(trx, ownerId, names),
      keyOfRows: (rows) =>
        authorKey({
          ...rows[0]!,
          translations: translated(rows).map((r) => ({
            language: r.translation_language!,
            name: r.translation_name!,
            affiliation: r.translation_affiliation ?? '',
            address: r.translation_address ?? '',
          })),
        }),
      table: 'authors',
      row: (a) => Object.fromEntries(AUTHOR_FIELDS.map((f) => [f, a[f]])),
      translations: {
        table: 'author_i18n',
        rows: (id, a) => a.translations.map((t) => ({ id: newId(), author_id: id, language: t.language, name: t.name, affiliation: t.affiliation, address: t.address })),
      },
    };
    this.funds = {
      known: new Map(),
      key: fundKey,
      find: (trx, names) => repo.ownFunds(trx, ownerId, names),
      keyOfRows: (rows) => fundKey(rows[0]!),
      table: 'funds',
      // A programme fund is the data centre's own: another portal's is imported as an ordinary fund.
      row: (f) => ({ ...Object.fromEntries(FUND_FIELDS.map((k) => [k, f[k]])), is_core: 0 }),
    };
  }

  /** Finds or makes, in `trx`, every shared entry these records link. */
  async prepare(trx: Tx, records: ImportedRecord[]): Promise<void> {
    await this.findOrMake(
      trx,
      records.flatMap((r) => r.keywords),
      this.keywords,
    );
    await this.findOrMake(
      trx,
      records.flatMap((r) => r.authors),
      this.authors,
    );
    const core = records.flatMap((r) => r.funds).filter((f) => f.is_core && f.id);
    for (const id of await this.repo.fundIds(trx, [...new Set(core.map((f) => f.id))])) this.programmeFunds.add(id);
    await this.findOrMake(
      trx,
      records.flatMap((r) => r.funds).filter((f) => !this.isProgrammeFund(f)),
      this.funds,
    );
  }

  private async findOrMake<E extends { name: string }, R extends SharedRow>(trx: Tx, entries: E[], kind: EntryKind<E, R>): Promise<void> {
    const missing = [...new Map(entries.map((e) => [kind.key(e), e]))].filter(([key]) => !kind.known.has(key));
    if (!missing.length) return;
    for (const [id, rows] of groupById(
      await kind.find(
        trx,
        missing.map(([, e]) => e.name),
      ),
    ))
      kind.known.set(kind.keyOfRows(rows), id);
    const made = missing.filter(([key]) => !kind.known.has(key)).map(([key, entry]) => ({ key, id: newId(), entry }));
    await this.repo.insert(
      trx,
      kind.table,
      made.map((m) => ({ id: m.id, ...kind.row(m.entry), created_by: this.ownerId, created_at: this.now })),
    );
    if (kind.translations)
      await this.repo.insert(
        trx,
        kind.translations.table,
        made.flatMap((m) => kind.translations!.rows(m.id, m.entry)),
      );
    for (const m of made) kind.known.set(m.key, m.id);
  }

  private isProgrammeFund(f: FundEntry): boolean {
    return f.is_core && this.programmeFunds.has(f.id);
  }

  keyword(k: KeywordEntry): string {
    return this.keywords.known.get(keywordKey(k))!;
  }

  author(a: AuthorEntry): string {
    return this.authors.known.get(authorKey(a))!;
  }

  fund(f: FundEntry): string {
    return this.isProgrammeFund(f) ? f.id : this.funds.known.get(fundKey(f))!;
  }
}

function groupById<T extends SharedRow>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.id, [...(groups.get(row.id) ?? []), row]);
  return groups;
}
