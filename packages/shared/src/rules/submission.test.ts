import { describe, expect, it } from 'vitest';
import { METADATA_TEXT_LIMITS } from '../contracts/metadata.js';
import { KEYWORD_TYPES, METADATA_LIMITS } from '../domain/metadata.js';
import { catalogues } from '../i18n/index.js';
import { LANGUAGES } from '../domain/constants.js';
import { SUBMISSION_REASONS, type SubmissionReason } from './submission.js';

/**
 * Issue 16: the checklist's reasons name each field by the label the editor shows it under (a tab's
 * name for what a tab holds), in quotes, and state the limits a user runs into.
 */
const NAMED: Record<SubmissionReason, string[]> = {
  title: ['editor.fields.title'],
  titleEn: ['editor.fields.titleEn'],
  abstract: ['editor.fields.description'],
  abstractEn: ['editor.fields.descriptionEn'],
  fileSize: ['editor.fields.fileSize'],
  time: ['editor.fields.timeStart', 'editor.fields.timeEnd', 'editor.fields.timeDescription'],
  usageMethod: ['editor.fields.usageMethod'],
  spatial: ['editor.fields.east', 'editor.fields.west', 'editor.fields.south', 'editor.fields.north'],
  subtopic: ['editor.fields.subtopicThreePole', 'editor.fields.subtopicThirdPole'],
  keywords: ['editor.tabs.keywords'],
  thumbnail: ['editor.tabs.thumbnail'],
  dataFile: ['editor.tabs.files'],
  platform: ['editor.fields.platform'],
  authorEnglish: ['editor.author.english'],
  provider: ['editor.tabs.providers'],
};

const lookup = (tree: object, key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree) as string;
const quoted = (label: string) => `“${label}”`;

describe('the submission checklist (spec section 5)', () => {
  for (const language of LANGUAGES) {
    const catalogue = catalogues[language];
    const reason = (name: SubmissionReason) => lookup(catalogue, `metadata.submit.reasons.${name}`);
    const number = (value: number) => (language === 'en' ? value.toLocaleString('en') : String(value));

    it(`names every field by its label (${language})`, () => {
      const unnamed = SUBMISSION_REASONS.flatMap((name) => NAMED[name].filter((key) => !reason(name).includes(quoted(lookup(catalogue, key)))).map((key) => `${name}: ${key}`));
      expect(unnamed).toEqual([]);
    });

    it(`states the keyword rule and the text limits (${language})`, () => {
      expect(reason('keywords')).toContain(String(METADATA_LIMITS.keywordsMin));
      for (const type of KEYWORD_TYPES) expect(reason('keywords')).toContain(lookup(catalogue, `metadata.options.keywordType.${type}`));
      expect(reason('title')).toContain(number(METADATA_TEXT_LIMITS.title));
      expect(reason('titleEn')).toContain(number(METADATA_TEXT_LIMITS.title));
      expect(reason('abstract')).toContain(number(METADATA_LIMITS.abstractMinLength));
      expect(reason('abstract')).toContain(number(METADATA_TEXT_LIMITS.long));
      expect(reason('abstractEn')).toContain(number(METADATA_TEXT_LIMITS.long));
    });
  }
});
