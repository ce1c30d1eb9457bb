import { FUND_THIRD_POLE, FUND_THREE_POLE, KEYWORD_TYPES, METADATA_LIMITS, type KeywordType } from '../domain/metadata.js';

/**
 * The submission checklist of spec section 5, written once: the server's /metadata/metadata-submit/
 * answers with these reasons and the editor shows the same list. Each reason is a catalogue key
 * under `metadata.submit.reasons.`.
 */
export const SUBMISSION_REASONS = [
  'title',
  'titleEn',
  'abstract',
  'abstractEn',
  'fileSize',
  'time',
  'usageMethod',
  'spatial',
  'subtopic',
  'keywords',
  'thumbnail',
  'dataFile',
  'platform',
  'authorEnglish',
  'provider',
] as const;
export type SubmissionReason = (typeof SUBMISSION_REASONS)[number];

/**
 * The editor's fields that a reason asks for each on its own: the Overview marks them required.
 * `time` names none (two dates or a description will do); the other reasons are other tabs' lists.
 * The English title and abstract of a Chinese record are `en_title` and `en_description` there.
 */
export const SUBMISSION_FIELDS = {
  title: ['title'],
  titleEn: ['en_title'],
  abstract: ['description'],
  abstractEn: ['en_description'],
  fileSize: ['file_size'],
  usageMethod: ['usage_method'],
  spatial: ['east', 'south', 'west', 'north'],
  subtopic: ['subtopic_three_pole', 'subtopic_third_pole'],
  platform: ['platform'],
} as const satisfies Partial<Record<SubmissionReason, readonly string[]>>;

/** Every field of the checklist that carries the required mark. */
export const REQUIRED_FIELDS: ReadonlySet<string> = new Set(Object.values(SUBMISSION_FIELDS).flat());

/** What the checklist looks at, gathered from the record and everything attached to it. */
export interface SubmissionFacts {
  title: string;
  /** The English title: the record's own when it is written in English, else its English version's. */
  titleEn: string;
  description: string;
  descriptionEn: string;
  fileSize: number | null;
  timeStart: string;
  timeEnd: string;
  timeDescription: string;
  usageMethod: string;
  east: number | null;
  west: number | null;
  south: number | null;
  north: number | null;
  fundIds: string[];
  subtopicThreePole: string;
  subtopicThirdPole: string;
  keywordCounts: Partial<Record<KeywordType, number>>;
  thumbnailCount: number;
  dataFileCount: number;
  platform: string;
  /** How many of the authors linked to the record (every role) have no English translation. */
  authorsWithoutEnglish: number;
  providerCount: number;
}

const filled = (value: string | null | undefined) => typeof value === 'string' && value.trim() !== '';
const isNumber = (value: number | null) => typeof value === 'number' && Number.isFinite(value);

/** Characters of a description as the checklist counts them: trimmed, whitespace runs as one. */
export function descriptionLength(text: string): number {
  return [...text.trim().replace(/\s+/g, ' ')].length;
}

/**
 * The word count the Overview shows: Latin words, and each Chinese, Japanese or Korean character
 * as a word of its own (how Chinese writers count 字).
 */
export function countWords(text: string): number {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  const words = text
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu, ' ')
    .split(/[^\p{L}\p{N}'’-]+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return cjk + words;
}

/** Every reason the record cannot be submitted yet, in the spec's order; empty when it can. */
export function submissionProblems(facts: SubmissionFacts): SubmissionReason[] {
  const problems: SubmissionReason[] = [];
  if (!filled(facts.title)) problems.push('title');
  if (!filled(facts.titleEn)) problems.push('titleEn');
  if (descriptionLength(facts.description) < METADATA_LIMITS.abstractMinLength) problems.push('abstract');
  if (!filled(facts.descriptionEn)) problems.push('abstractEn');
  if (!isNumber(facts.fileSize) || facts.fileSize! <= 0) problems.push('fileSize');
  if (!(filled(facts.timeStart) && filled(facts.timeEnd)) && !filled(facts.timeDescription)) problems.push('time');
  if (!filled(facts.usageMethod)) problems.push('usageMethod');
  if (![facts.east, facts.west, facts.south, facts.north].every(isNumber)) problems.push('spatial');
  if ((facts.fundIds.includes(FUND_THREE_POLE) && !filled(facts.subtopicThreePole)) || (facts.fundIds.includes(FUND_THIRD_POLE) && !filled(facts.subtopicThirdPole))) {
    problems.push('subtopic');
  }
  // "At least 3 keywords, and all keyword types must be added": 3 or more in all, every type among them.
  const keywordTotal = KEYWORD_TYPES.reduce((sum, type) => sum + (facts.keywordCounts[type] ?? 0), 0);
  if (keywordTotal < METADATA_LIMITS.keywordsMin || KEYWORD_TYPES.some((type) => !facts.keywordCounts[type])) problems.push('keywords');
  if (facts.thumbnailCount < 1) problems.push('thumbnail');
  if (facts.dataFileCount < 1) problems.push('dataFile');
  if (!filled(facts.platform)) problems.push('platform');
  // With no author at all, the missing provider says it; the English is asked of authors that exist.
  if (facts.authorsWithoutEnglish > 0) problems.push('authorEnglish');
  if (facts.providerCount < 1) problems.push('provider');
  return problems;
}
