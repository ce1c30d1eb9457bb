import { describe, expect, it } from 'vitest';
import {
  fundSchema,
  keywordStandardSchema,
  mediaSchema,
  metaAuthorSchema,
  metadataRecordPageSchema,
  metadataRecordSchema,
  resourceReply,
  storedFileSchema,
  submitCheckSchema,
} from './metadata-replies.js';

const now = '2026-01-02T03:04:05.000Z';

/** A record's stored row as the server presents it: every column, plus owner, fund ids and translations. */
function presentedRecord() {
  const texts = Object.fromEntries(
    [
      'title',
      'article_name',
      'article_publication',
      'category',
      'platform',
      'source_project',
      'data_series',
      'description',
      'data_source',
      'use_term',
      'usage_method',
      'citation',
      'doi',
      'doi_category',
      'protection_period',
      'protection_description',
      'time_start',
      'time_end',
      'time_description',
      'coordinate_system',
      'projection',
      'license',
      'temporal_resolution',
      'spatial_resolution',
      'subtopic_three_pole',
      'subtopic_third_pole',
      'dist_unit',
      'dist_country',
      'dist_province',
      'dist_city',
      'dist_address',
      'dist_phone',
      'dist_email',
      'sharing_policy',
      'submitting_type',
    ].map((key) => [key, '']),
  );
  return {
    ...texts,
    id: 'r1',
    title: 'Glacier mass balance',
    owner_id: 'u1',
    owner: 'u1',
    owner_name: '李冻土',
    status: 'published',
    language: 'zh-hans',
    file_size: 12.5,
    east: 90,
    west: 80,
    south: 30,
    north: 40,
    scale: null,
    hit_count: 3,
    created_at: now,
    updated_at: now,
    submitted_at: now,
    published_at: now,
    embargo_until: null,
    fund: ['5'],
    translations: [
      {
        id: 't1',
        metadata_id: 'r1',
        language: 'en',
        title: 'Glacier',
        description: '',
        data_source: '',
        use_term: '',
        usage_method: '',
        citation: '',
        time_description: '',
        dist_unit: '',
        dist_address: '',
        dist_city: '',
        dist_province: '',
        dist_country: '',
      },
    ],
    // The review's facts: stored on the row, answered by the review state only.
    topic_review_status: 'pass',
    is_pre_review: 1,
    review_round: 2,
    published_without_review: 0,
    unpublish_reason: 'an earlier dispute',
  };
}

describe('metadataRecordSchema', () => {
  it('keeps what a record reply carries and drops the review facts and any other column', () => {
    const record = metadataRecordSchema.parse({ ...presentedRecord(), storage_secret: 'x' });
    expect(record).toMatchObject({ id: 'r1', title: 'Glacier mass balance', owner: 'u1', owner_name: '李冻土', file_size: 12.5, fund: ['5'], embargo_until: null });
    expect(record.translations).toEqual([expect.objectContaining({ language: 'en', title: 'Glacier' })]);
    for (const field of ['topic_review_status', 'is_pre_review', 'review_round', 'published_without_review', 'unpublish_reason', 'storage_secret']) {
      expect(record, field).not.toHaveProperty(field);
    }
  });

  it('answers every field of the record the editor writes', () => {
    const record = metadataRecordSchema.parse(presentedRecord());
    expect(Object.keys(record)).toEqual(expect.arrayContaining(['dist_email', 'sharing_policy', 'scale', 'north']));
  });

  it('refuses a reply that is not what the web reads (a number as text)', () => {
    expect(metadataRecordSchema.safeParse({ ...presentedRecord(), hit_count: '3' }).success).toBe(false);
  });

  it("takes a list page with the lists' extra fields", () => {
    const { translations: _, ...listed } = presentedRecord();
    const page = metadataRecordPageSchema.parse({ count: 1, next: null, previous: null, results: [{ ...listed, translation_title: null, review_label: 'published' }] });
    expect(page.results[0]).toMatchObject({ translation_title: null, review_label: 'published' });
    expect(page.results[0]).not.toHaveProperty('translations');
  });
});

describe('resourceReply', () => {
  const author = {
    id: 'a1',
    name: '李冻土',
    email: 'li@example.org',
    affiliation: 'ITP',
    phone: '',
    address: '',
    country: '',
    province: '',
    city: '',
    zipcode: '',
    orcid: '0000-0002-1825-0097',
    affiliation_ror: '',
    created_by: 'u1',
    created_at: now,
    translations: [{ id: 'ai1', author_id: 'a1', language: 'en', name: 'Li Dongtu', affiliation: 'ITP', address: '' }],
  };

  it('answers `x` beside each `x_id`, and `copied_from` after a write to a copy', () => {
    const reply = resourceReply(metaAuthorSchema).parse({
      id: 'l1',
      metadata_id: 'r1',
      metadata: 'r1',
      author_id: 'a1',
      author: 'a1',
      role: 'resourceProvider',
      event_date: '2024-01-01',
      sort: 0,
      author_detail: author,
      copied_from: 'l0',
    });
    expect(reply).toMatchObject({ metadata_id: 'r1', metadata: 'r1', author_id: 'a1', author: 'a1', copied_from: 'l0' });
    expect(reply.author_detail?.translations[0]).toMatchObject({ name: 'Li Dongtu' });
    expect(reply.author_detail).toMatchObject({ orcid: '0000-0002-1825-0097', affiliation_ror: '' });
  });

  it('keeps a nullable reference nullable', () => {
    const top = resourceReply(keywordStandardSchema).parse({ id: 's1', parent_id: null, parent: null, code: '1', name: '冰冻圈', name_en: 'Cryosphere', sort: 0 });
    expect(top).toMatchObject({ parent_id: null, parent: null });
    expect(top).not.toHaveProperty('copied_from');
  });

  it('drops columns the schema does not name', () => {
    const fund = resourceReply(fundSchema).parse({
      id: 'f1',
      name: '基金',
      name_en: 'Fund',
      serial_number: '',
      principal: '',
      phone: '',
      email: '',
      funder_identifier: '10.13039/501100001809',
      is_core: false,
      created_by: null,
      created_at: now,
      internal_note: 'not for callers',
    });
    expect(fund).not.toHaveProperty('internal_note');
  });
});

describe('stored files', () => {
  const stored = { id: 'f1', metadata_id: 'r1', metadata: 'r1', name: 'data.nc', size: 1024, mime: 'application/x-netcdf', sha256: 'ab'.repeat(32), created_at: now };

  it('never answers where the bytes are kept', () => {
    const file = storedFileSchema.parse({ ...stored, storage_key: 'ab/cdef', created_by: 'u1' });
    expect(file).toEqual({ id: 'f1', metadata: 'r1', name: 'data.nc', size: 1024, mime: 'application/x-netcdf', sha256: 'ab'.repeat(32), created_at: now });
    const thumbnail = mediaSchema.parse({ ...stored, storage_key: 'ab/cdef', resized_key: 'ab/ghij', type: 'thumbnail', image: '/i/', original: '/i/?size=original' });
    expect(thumbnail).not.toHaveProperty('storage_key');
    expect(thumbnail).not.toHaveProperty('resized_key');
    expect(thumbnail).toMatchObject({ type: 'thumbnail', image: '/i/' });
  });
});

describe('submitCheckSchema', () => {
  it('takes the checklist reasons, and no other', () => {
    expect(submitCheckSchema.parse({ status: 'false', reasons: ['title', 'keywords'], msg: ['a', 'b'] }).reasons).toEqual(['title', 'keywords']);
    expect(submitCheckSchema.safeParse({ status: 'false', reasons: ['unknown'], msg: ['a'] }).success).toBe(false);
  });
});
