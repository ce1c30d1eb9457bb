import zlib from 'node:zlib';
import { expect, request, type APIRequestContext, type APIResponse } from '@playwright/test';
import { KEYWORD_TYPES, type Language } from '@portal/shared';
import { E2E_PORT } from '../playwright.config';
import { uniqueName } from './fixtures';

/**
 * Records made through the API, as the editor would make them, for specs whose subject comes after
 * authoring (review): a person's API session, a complete record (submitted for review or not) and
 * what an anonymous visitor reads of it.
 */

/** A small valid PNG (a blue square), made by hand: signature, IHDR, IDAT, IEND. */
export function tinyPng(side = 16): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.concat(Array.from({ length: side }, () => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: side }, () => [11, 79, 138]).flat())])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The JSON of a reply that must have `status`, showing the body when it has not. */
export async function expectJson<T = any>(response: APIResponse, status = 200): Promise<T> {
  expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

/** A person's API session: logged in by the spec's login call, then the `Token` header (no cookies); `baseURL`: a portal a spec started itself. */
export async function apiSession(username: string, password: string, baseURL = `http://localhost:${E2E_PORT}`): Promise<APIRequestContext> {
  const anonymous = await request.newContext({ baseURL });
  const { token } = await expectJson<{ token: string }>(await anonymous.post('/account/profile-login/', { form: { username, password } }));
  await anonymous.dispose();
  return request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Token ${token}` } });
}

/** What a visitor without an account reads of a record: the status of the reply and, when 200, the record. */
export async function anonymousRecord(id: string): Promise<{ status: number; record?: Record<string, unknown> }> {
  const anonymous = await request.newContext({ baseURL: `http://localhost:${E2E_PORT}` });
  try {
    const reply = await anonymous.get(`/api/metadata/metadata/${id}/`);
    return { status: reply.status(), record: reply.ok() ? await reply.json() : undefined };
  } finally {
    await anonymous.dispose();
  }
}

/** What a spec may choose of a complete record: its area, its version in the other language, more keywords. */
export interface RecordOptions {
  box?: { west: number; south: number; east: number; north: number };
  translation?: {
    title: string;
    description: string;
    use_term?: string;
    usage_method?: string;
    data_source?: string;
    dist_unit?: string;
    dist_address?: string;
    dist_city?: string;
    dist_province?: string;
    dist_country?: string;
  };
  keywords?: { name: string; type: (typeof KEYWORD_TYPES)[number]; language: Language; translation: string }[];
}

/**
 * A record that passes every item of the submission checklist (spec section 5), with fund 5 (the
 * three-pole programme), submitted for review by its creator. Returns its id and title.
 */
export async function submitCompleteRecord(
  api: APIRequestContext,
  title: string,
  language: Language = 'zh-hans',
  options: RecordOptions = {},
): Promise<{ id: string; title: string }> {
  const record = await completeRecord(api, title, language, options);
  const submitted = await expectJson(await api.post('/metadata/metadata-submit/', { data: { id: record.id } }));
  expect(submitted.status).toBe('true');
  return record;
}

/** A draft that passes every item of the submission checklist, not submitted yet (its creator does that). */
export async function completeRecord(api: APIRequestContext, title: string, language: Language = 'zh-hans', options: RecordOptions = {}): Promise<{ id: string; title: string }> {
  const english = language === 'en';
  const record = await expectJson(await api.post('/api/metadata/metadata/', { data: { language, title } }), 201);
  const abstract = english
    ? 'Annual glacier outlines of the Tibetan Plateau derived from Landsat imagery, checked by hand against high-resolution images, with the area of every glacier and its change between 1990 and 2020 in each basin.'
    : '本数据集记录了青藏高原冰川面积与物质平衡的长期变化。'.repeat(8);
  await expectJson(
    await api.patch(`/api/metadata/metadata/${record.id}/`, {
      data: {
        description: abstract,
        file_size: 12.5,
        time_start: '1990-01-01',
        time_end: '2020-12-31',
        usage_method: english ? 'One file a year: glacier_YYYY.nc' : '文件按年份命名：glacier_YYYY.nc',
        ...(options.box ?? { east: 105, west: 73, south: 26, north: 40 }),
        platform: 'portal',
        subtopic_three_pole: 'XDA20-01',
      },
    }),
  );
  // The version in the other language: the checklist asks for an English title and abstract.
  const other = record.translations.find((t: { language: string }) => t.language !== language);
  await expectJson(
    await api.patch(`/api/metadata/metadata-i18n/${other.id}/`, {
      data:
        options.translation ??
        (english
          ? { title: `${title}（中文）`, description: '青藏高原冰川面积变化。' }
          : { title: `${title} (English)`, description: 'Glacier area changes of the Tibetan Plateau.' }),
    }),
  );
  await expectJson(await api.post('/api/metadata/meta-fund/', { data: { metadata: record.id, fund: '5' } }), 201);
  for (const type of KEYWORD_TYPES) {
    await expectJson(
      await api.post('/api/metadata/keyword/', { data: { name: `${type}-${record.id.slice(0, 6)}`, type, metadata: record.id, translation: `${type} keyword` } }),
      201,
    );
  }
  for (const keyword of options.keywords ?? []) {
    await expectJson(await api.post('/api/metadata/keyword/', { data: { ...keyword, metadata: record.id } }), 201);
  }
  const author = await expectJson(
    await api.post('/api/metadata/author/', {
      data: {
        name: '张冰川',
        name_en: 'Zhang Bingchuan',
        email: `author-${record.id.slice(0, 8)}@example.org`,
        affiliation: '中国科学院青藏高原研究所',
        affiliation_en: 'Institute of Tibetan Plateau Research, CAS',
      },
    }),
    201,
  );
  await expectJson(await api.post('/api/metadata/meta-author/', { data: { metadata: record.id, author: author.id, role: 'resourceProvider', event_date: '2024-05-01' } }), 201);
  const upload = async (url: string, fields: Record<string, string>, file: { name: string; mimeType: string; buffer: Buffer }) => {
    const response = await api.post(url, { multipart: { ...fields, file } });
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  };
  await upload('/api/metadata/meta-media/', { metadata: record.id, type: 'thumbnail' }, { name: 'thumb.png', mimeType: 'image/png', buffer: tinyPng() });
  await upload('/metadata/upload-file/', { metadata: record.id }, { name: 'glacier_1990.csv', mimeType: 'text/csv', buffer: Buffer.from('year,area_km2\n1990,1234.5\n') });
  return { id: record.id, title };
}

type Person = { username: string; password: string };

/**
 * A dataset published by the desk for `owner`: open access (`online`, granted at once) or shared on
 * request by the owner (`offlineEmail`), with its one data file. The title is in English.
 */
export async function publishedRecord(owner: Person, staff: Person, sharingPolicy: 'online' | 'offlineEmail'): Promise<{ id: string; title: string }> {
  const ownerApi = await apiSession(owner.username, owner.password);
  const staffApi = await apiSession(staff.username, staff.password);
  const record = await completeRecord(ownerApi, `Lake ice phenology ${sharingPolicy} ${uniqueName('od')}`, 'en');
  await expectJson(await ownerApi.patch(`/api/metadata/metadata/${record.id}/`, { data: { sharing_policy: sharingPolicy, license: 'CC BY 4.0' } }));
  expect((await expectJson(await ownerApi.post('/metadata/metadata-submit/', { data: { id: record.id } }))).status).toBe('true');
  await expectJson(
    await staffApi.patch(`/api/metadata/review-status/${record.id}/set_review_status/`, {
      data: { review_status: 'publish_without_review', content: 'Published for an end-to-end spec.', from_status: 'submitted' },
    }),
  );
  await ownerApi.dispose();
  await staffApi.dispose();
  return record;
}

/**
 * `applicant` applies for one dataset through the API, as the basket and the application form do: the
 * dataset into the basket, then the form (country Norway). Returns the placement's reply.
 */
export async function applyFor(applicant: APIRequestContext, metadataId: string): Promise<{ status: string }> {
  const line = await expectJson(await applicant.post('/api/account/line_item/', { data: { metadata_id: metadataId } }), 201);
  return expectJson(
    await applicant.post('/api/account/order/', {
      data: {
        realName: 'Requesting Scientist',
        email: 'scientist@example.org',
        phone: '+47 1234 5678',
        zipcode: '9019',
        affiliation: 'Arctic University of Norway',
        address: 'Hansine Hansens veg 18, Tromsø',
        country: 'NO',
        reason: 'Lake ice timing for a regional climate model evaluation.',
        line: [line.id],
      },
    }),
    201,
  );
}
