import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AuthorTable, FundTable, LiteratureTable, MetadataI18nTable } from '../../db/schema.js';

/**
 * The rows attached to records, read for many records at once: one query per table and per chunk
 * of ids, whatever their number. The one reader behind every derived view of a record (the search
 * index, the operators' export file, the metadata exports), so that they see a record alike.
 *
 * Rows come in a stable order: keywords by type and name, authors and literature by their sort
 * number (then their link's id), funds by id. The author rows are whole (e-mail, phone, address):
 * each caller keeps what it may show.
 */

interface Translation {
  language: string;
  name: string;
}

export interface AttachedKeyword {
  id: string;
  name: string;
  type: string;
  language: string;
  translations: Translation[];
}

export interface AttachedAuthor extends Selectable<AuthorTable> {
  role: string;
  event_date: string;
  sort: number;
  translations: { language: string; name: string; affiliation: string; address: string }[];
}

export interface AttachedLiterature extends Selectable<LiteratureTable> {
  translations: { language: string; title: string; publisher: string }[];
}

export interface AttachedRows {
  translations: Selectable<MetadataI18nTable>[];
  keywords: AttachedKeyword[];
  authors: AttachedAuthor[];
  funds: Selectable<FundTable>[];
  /** Only when asked for (`literature: true`). */
  literature: AttachedLiterature[];
  /** The data files' count, bytes and media types; only when asked for (`files: true`). */
  files: { count: number; bytes: number; mediaTypes: string[] };
}

/** Ids per `in (...)` list, well inside both databases' parameter limits. */
const READ_CHUNK = 500;

/** Rows grouped by a key column. */
function groupBy<T, K extends keyof T>(rows: T[], key: K): Map<T[K], T[]> {
  const map = new Map<T[K], T[]>();
  for (const row of rows) {
    const list = map.get(row[key]);
    if (list) list.push(row);
    else map.set(row[key], [row]);
  }
  return map;
}

/**
 * What is attached to each of these records, read in `db` (a transaction, when the caller writes
 * from it). Every id given gets an entry, empty when nothing is attached.
 */
export async function readAttached(db: Db, ids: readonly string[], extra: { literature?: boolean; files?: boolean } = {}): Promise<Map<string, AttachedRows>> {
  const attached = new Map<string, AttachedRows>();
  for (const id of ids) attached.set(id, { translations: [], keywords: [], authors: [], funds: [], literature: [], files: { count: 0, bytes: 0, mediaTypes: [] } });
  const unique = [...new Set(ids)];
  for (let at = 0; at < unique.length; at += READ_CHUNK) {
    const chunk = unique.slice(at, at + READ_CHUNK);
    const [translations, keywords, keywordTranslations, authors, authorTranslations, funds, literature, literatureTranslations, files, mediaTypes] = await Promise.all([
      db.selectFrom('metadata_i18n').selectAll().where('metadata_id', 'in', chunk).orderBy('language').execute(),
      db
        .selectFrom('meta_keyword')
        .innerJoin('keywords', 'keywords.id', 'meta_keyword.keyword_id')
        .select(['meta_keyword.metadata_id', 'keywords.id', 'keywords.name', 'keywords.type', 'keywords.language'])
        .where('meta_keyword.metadata_id', 'in', chunk)
        .orderBy('keywords.type')
        .orderBy('keywords.name')
        .execute(),
      db
        .selectFrom('keyword_i18n')
        .innerJoin('meta_keyword', 'meta_keyword.keyword_id', 'keyword_i18n.keyword_id')
        .select(['keyword_i18n.keyword_id', 'keyword_i18n.language', 'keyword_i18n.name'])
        .where('meta_keyword.metadata_id', 'in', chunk)
        .distinct()
        .execute(),
      db
        .selectFrom('meta_author')
        .innerJoin('authors', 'authors.id', 'meta_author.author_id')
        .selectAll('authors')
        .select(['meta_author.metadata_id', 'meta_author.role', 'meta_author.event_date', 'meta_author.sort'])
        .where('meta_author.metadata_id', 'in', chunk)
        .orderBy('meta_author.sort')
        .orderBy('meta_author.id')
        .execute(),
      db
        .selectFrom('author_i18n')
        .innerJoin('meta_author', 'meta_author.author_id', 'author_i18n.author_id')
        .select(['author_i18n.author_id', 'author_i18n.language', 'author_i18n.name', 'author_i18n.affiliation', 'author_i18n.address'])
        .where('meta_author.metadata_id', 'in', chunk)
        .distinct()
        .execute(),
      db
        .selectFrom('meta_fund')
        .innerJoin('funds', 'funds.id', 'meta_fund.fund_id')
        .selectAll('funds')
        .select('meta_fund.metadata_id')
        .where('meta_fund.metadata_id', 'in', chunk)
        .orderBy('funds.id')
        .execute(),
      extra.literature
        ? db
            .selectFrom('citations')
            .innerJoin('literature', 'literature.id', 'citations.literature_id')
            .selectAll('literature')
            .select(['citations.metadata_id', 'citations.sort as link_sort'])
            .where('citations.metadata_id', 'in', chunk)
            .orderBy('citations.sort')
            .orderBy('citations.id')
            .execute()
        : [],
      extra.literature
        ? db
            .selectFrom('literature_i18n')
            .innerJoin('citations', 'citations.literature_id', 'literature_i18n.literature_id')
            .select(['literature_i18n.literature_id', 'literature_i18n.language', 'literature_i18n.title', 'literature_i18n.publisher'])
            .where('citations.metadata_id', 'in', chunk)
            .distinct()
            .execute()
        : [],
      extra.files
        ? db
            .selectFrom('meta_file')
            .select((eb) => ['metadata_id', eb.fn.countAll<number | string>().as('count'), eb.fn.sum<number | string | null>('size').as('bytes')])
            .where('metadata_id', 'in', chunk)
            .groupBy('metadata_id')
            .execute()
        : [],
      extra.files ? db.selectFrom('meta_file').select(['metadata_id', 'mime']).where('metadata_id', 'in', chunk).where('mime', '<>', '').distinct().orderBy('mime').execute() : [],
    ]);
    const keywordNames = groupBy(keywordTranslations, 'keyword_id');
    const authorNames = groupBy(authorTranslations, 'author_id');
    const literatureTitles = groupBy(literatureTranslations, 'literature_id');
    for (const row of translations) attached.get(row.metadata_id)!.translations.push(row);
    for (const { metadata_id, ...keyword } of keywords) {
      const names = (keywordNames.get(keyword.id) ?? []).map(({ language, name }) => ({ language, name }));
      attached.get(metadata_id)!.keywords.push({ ...keyword, translations: names });
    }
    for (const { metadata_id, ...author } of authors) {
      const names = (authorNames.get(author.id) ?? []).map(({ language, name, affiliation, address }) => ({ language, name, affiliation, address }));
      attached.get(metadata_id)!.authors.push({ ...author, sort: Number(author.sort), translations: names });
    }
    for (const { metadata_id, ...fund } of funds) attached.get(metadata_id)!.funds.push(fund);
    for (const { metadata_id, link_sort: _linkSort, ...entry } of literature) {
      const titles = (literatureTitles.get(entry.id) ?? []).map(({ language, title, publisher }) => ({ language, title, publisher }));
      attached.get(metadata_id)!.literature.push({ ...entry, translations: titles });
    }
    for (const row of files) attached.get(row.metadata_id)!.files = { count: Number(row.count), bytes: Number(row.bytes ?? 0), mediaTypes: [] };
    for (const row of mediaTypes) attached.get(row.metadata_id)!.files.mediaTypes.push(row.mime);
  }
  return attached;
}
