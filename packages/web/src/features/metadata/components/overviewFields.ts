import { FUND_THIRD_POLE, FUND_THREE_POLE, metadataUpdateSchema } from '@portal/shared';
import { metadataI18nFields } from '@portal/shared/contracts/metadata';
import type { MetadataRecord } from '../api';

/** The Overview's field list: which record fields it edits, their labels, and how a typed value is sent. */

/** The record's own fields the Overview edits (PUT /api/metadata/metadata/{id}/). */
export const RECORD_FIELDS = [
  'title',
  'description',
  'data_source',
  'use_term',
  'usage_method',
  'citation',
  'file_size',
  'doi',
  'doi_category',
  'protection_period',
  'protection_description',
  'time_start',
  'time_end',
  'time_description',
  'east',
  'south',
  'west',
  'north',
  'scale',
  'coordinate_system',
  'projection',
  'license',
  'temporal_resolution',
  'spatial_resolution',
  'dist_unit',
  'dist_country',
  'dist_province',
  'dist_city',
  'dist_address',
  'dist_phone',
  'dist_email',
  'sharing_policy',
  'submitting_type',
  'platform',
  'subtopic_three_pole',
  'subtopic_third_pole',
] as const satisfies readonly (keyof MetadataRecord)[];

/** Each field's label (catalogue key under `editor.fields.`), in the form, its errors and the document view. */
export const FIELD_LABELS: Record<RecordField | 'en_title' | 'en_description', string> = {
  title: 'title',
  en_title: 'titleEn',
  description: 'description',
  en_description: 'descriptionEn',
  data_source: 'dataSource',
  use_term: 'useTerm',
  usage_method: 'usageMethod',
  citation: 'citation',
  file_size: 'fileSize',
  doi: 'doi',
  doi_category: 'doiCategory',
  protection_period: 'protectionPeriod',
  protection_description: 'protectionDescription',
  time_start: 'timeStart',
  time_end: 'timeEnd',
  time_description: 'timeDescription',
  east: 'east',
  south: 'south',
  west: 'west',
  north: 'north',
  scale: 'scale',
  coordinate_system: 'coordinateSystem',
  projection: 'projection',
  license: 'license',
  temporal_resolution: 'temporalResolution',
  spatial_resolution: 'spatialResolution',
  dist_unit: 'dist_unit',
  dist_country: 'dist_country',
  dist_province: 'dist_province',
  dist_city: 'dist_city',
  dist_address: 'dist_address',
  dist_phone: 'dist_phone',
  dist_email: 'dist_email',
  sharing_policy: 'sharingPolicy',
  submitting_type: 'submittingType',
  platform: 'platform',
  subtopic_three_pole: 'subtopicThreePole',
  subtopic_third_pole: 'subtopicThirdPole',
};

/** The Overview's number fields: cleared, they are stored as null; every other field as ''. */
export const NUMBER_FIELDS = new Set<string>(['file_size', 'east', 'south', 'west', 'north', 'scale']);
/** Fields shown as a Select: a stored '' shows the placeholder. */
export const SELECT_FIELDS = new Set<string>(['projection', 'license', 'temporal_resolution']);

export const shape = metadataUpdateSchema.shape;

export type RecordField = (typeof RECORD_FIELDS)[number];
export type OverviewValues = Partial<Record<RecordField, unknown>> & { en_title?: string; en_description?: string };

/** A field's value as the server takes it: a cleared number is null, a cleared text or option ''. */
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/**
 * A field's value as the server takes it. A number field holds what was typed: a number is sent as
 * one, anything else (`12a`) as typed, so that the schema refuses it at the field instead of the
 * letter silently vanishing.
 */
export const sendable = (key: string, value: unknown) => {
  if (NUMBER_FIELDS.has(key)) {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') return value;
    const typed = value.trim();
    return typed === '' ? null : NUMBER_TEXT.test(typed) ? Number(typed) : value;
  }
  return value ?? '';
};

/** The fields the form shows for this record (the sub-topic numbers only with their fund). */
export const fieldsOf = (record: MetadataRecord): RecordField[] =>
  RECORD_FIELDS.filter(
    (key) => (key !== 'subtopic_three_pole' || record.fund.includes(FUND_THREE_POLE)) && (key !== 'subtopic_third_pole' || record.fund.includes(FUND_THIRD_POLE)),
  );

/** The catalogue key of a field's first problem by the server's own schema, or undefined when it is valid. */
export function problemOf(key: string, value: unknown): string | undefined {
  const schema = key === 'en_title' ? metadataI18nFields.title : key === 'en_description' ? metadataI18nFields.description : shape[key as RecordField];
  const result = schema?.safeParse(value);
  return result && !result.success ? result.error.issues[0]?.message : undefined;
}
