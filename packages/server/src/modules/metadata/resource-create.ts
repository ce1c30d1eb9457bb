import { LANGUAGES, METADATA_LIMITS } from '@portal/shared';
import { lockUserRow, newId, type Tx } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { AuthenticatedUser } from '../account/index.js';
import type { ResourceDef } from './resource-def.js';
import { CREATED_TABLES } from './resources.js';
import type { ResourcesRepo, Row } from './resources.repo.js';
import { invalid } from './shared-entries.js';

/**
 * How long an identical second create by the same account is taken for the same click sent twice
 * (a double click, a resent request): refused with a 409 (`checkRepeatedCreate`).
 */
export const REPEATED_CREATE_WINDOW_MS = 10_000;
/** Columns a create writes itself, never part of what makes two creates identical. */
const OWN_COLUMNS = new Set(['id', 'created_by', 'created_at']);

/** The record a write names (`metadata`), if any. */
export const recordNamed = (input: Row): string | undefined => (typeof input.metadata === 'string' ? input.metadata : undefined);

/** The per-record limits (funds), counted inside the writing transaction after the record is locked. */
export async function checkRecordLimits(repo: ResourcesRepo, def: ResourceDef, recordId: string): Promise<void> {
  const limit = def.maxPerRecord
    ? { table: def.table, messageKey: def.maxPerRecord.messageKey, max: def.maxPerRecord.count }
    : def.table === 'funds'
      ? { table: 'meta_fund' as const, messageKey: 'metadata.fund.tooMany', max: METADATA_LIMITS.fundsMax }
      : undefined;
  if (!limit) return;
  if ((await repo.countOfRecord(limit.table, recordId)) >= limit.max) throw invalid('non_field_errors', limit.messageKey);
}

/**
 * An identical create by the same account a moment ago (`REPEATED_CREATE_WINDOW_MS`) is the same
 * click sent twice: refused with a 409 that says so, and nothing is written. Refused rather than
 * answered with the first row, because an author is made by two requests (author/, then
 * meta-author/): a second author answered with the first one's row would still fail on its link,
 * after the first flow told the user it was added; one clear refusal stops the second flow at its
 * first step. Identical means every column the create writes, and what it writes beside its row
 * from the same body (an author's English name and affiliation, the record a literature entry or
 * fund is linked to, a keyword's translation). Only shared entries (authors, literature, keywords,
 * funds ...) can repeat: link rows and translations have unique keys of their own, and a keyword
 * added to a record has its own rule (`metadata.keyword.exists`, at the field). Checked in the
 * writing transaction after locking the account's row, so that two requests at once take turns
 * and the second sees the first's row.
 */
export async function checkRepeatedCreate(trx: Tx, repo: ResourcesRepo, def: ResourceDef, user: AuthenticatedUser, values: Row, input: Row): Promise<void> {
  if (!CREATED_TABLES.has(def.table) || def.parent) return;
  const recordId = recordNamed(input);
  const table = def.table;
  if (table === 'keywords' && recordId) return;
  await lockUserRow(trx, user.id);
  const since = new Date(Date.now() - REPEATED_CREATE_WINDOW_MS).toISOString();
  const own = Object.fromEntries(Object.entries(values).filter(([column]) => !OWN_COLUMNS.has(column)));
  let beside: Parameters<ResourcesRepo['createdAlike']>[4];
  if (table === 'authors') beside = { child: 'author_i18n', column: 'author_id', match: { language: 'en', name: input.name_en ?? '', affiliation: input.affiliation_en ?? '' } };
  if (table === 'literature' && recordId) beside = { child: 'citations', column: 'literature_id', match: { metadata_id: recordId } };
  if (table === 'funds' && recordId) beside = { child: 'meta_fund', column: 'fund_id', match: { metadata_id: recordId } };
  if (table === 'keywords') {
    const translation = typeof input.translation === 'string' ? input.translation.trim() : '';
    beside = { child: 'keyword_i18n', column: 'keyword_id', match: translation ? { name: translation } : undefined };
  }
  if (await repo.createdAlike(table, user.id, since, own, beside)) throw new AppError('CONFLICT', 'metadata.repeatedCreate');
}

/** What one POST does beyond its own row: the translations and record links the editor sends along. */
export async function afterCreate(repo: ResourcesRepo, def: ResourceDef, id: string, input: Row): Promise<void> {
  const metadataId = recordNamed(input);
  if (def.table === 'authors') {
    await repo.insert('author_i18n', { id: newId(), author_id: id, language: 'en', name: input.name_en, affiliation: input.affiliation_en ?? '', address: '' });
  }
  if (def.table === 'literature' && metadataId) {
    await repo.insert('citations', { id: newId(), metadata_id: metadataId, literature_id: id, sort: input.sort ?? 0 });
  }
  if (def.table === 'funds' && metadataId) {
    await repo.insert('meta_fund', { id: newId(), metadata_id: metadataId, fund_id: id });
  }
  if (def.table === 'keywords') {
    const language = (input.language as string | undefined) ?? 'zh-hans';
    if (typeof input.translation === 'string' && input.translation.trim()) {
      const other = LANGUAGES.find((l) => l !== language)!;
      await repo.insert('keyword_i18n', { id: newId(), keyword_id: id, language: other, name: input.translation.trim() });
    }
    if (metadataId) {
      if (await repo.recordHasKeyword(metadataId, input.type as string, String(input.name))) throw invalid('name', 'metadata.keyword.exists');
      await repo.insert('meta_keyword', { id: newId(), metadata_id: metadataId, keyword_id: id });
    }
    if (!input.language) await repo.update('keywords', id, { language });
  }
}
