import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertExportRecord } from './exports-builders.js';
import { createTestPortal, createUserWithToken, type TestPortal } from './helpers.js';
import type { CatalogueEntry } from './search-builders.js';

/**
 * The DataCite and ISO 19139 exports and the OAI-PMH records against the official schemas (issue 16):
 * DataCite 4.5 (what the documents name) and 4.6, ISO/TS 19139:2007 with GML 3.2.1, copied unmodified
 * into ../shared/xsd with an XML catalog that maps their published addresses to the copies (see its
 * README). Records with every optional part and with none, made in Chinese and in English; whole
 * OAI-PMH list pages of several records, where every id must be unique in the page. A checkout
 * without ../shared has no schemas: these tests say so in their names and are skipped.
 */

const SHARED_XSD = path.resolve(import.meta.dirname, '../../../../shared/xsd');
const CATALOG = path.join(SHARED_XSD, 'catalog.xml');
const HAVE_SCHEMAS = fs.existsSync(CATALOG);
const WITHOUT = HAVE_SCHEMAS ? '' : ` (skipped: the official schemas are not here, ${SHARED_XSD} is missing)`;
if (!HAVE_SCHEMAS) console.warn(`xsd-conformance: skipped, ${CATALOG} does not exist (../shared/xsd holds the official schemas)`);

const SCHEMAS = {
  datacite45: 'http://schema.datacite.org/meta/kernel-4.5/metadata.xsd',
  datacite46: 'http://schema.datacite.org/meta/kernel-4.6/metadata.xsd',
  gmd: 'http://schemas.opengis.net/iso/19139/20070417/gmd/gmd.xsd',
  /** OAI-PMH with oai_dc and the two official payload schemas (test/xsd/oai-pmh/). */
  oai: path.join(import.meta.dirname, 'xsd/oai-pmh/harvest-official.xsd'),
};

/**
 * xmllint's verdict on each document against one schema, offline (the catalog serves the published
 * addresses): name -> '' when valid, else its complaints. One xmllint run for them all, so that the
 * large GML schemas are read once.
 */
function validate(documents: Record<string, string>, schema: string): Record<string, string> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'xsd-conformance-'));
  try {
    const files = Object.entries(documents).map(([name, xml], index) => {
      const file = path.join(folder, `${index}.xml`);
      fs.writeFileSync(file, xml);
      return [name, file] as const;
    });
    let output = '';
    try {
      execFileSync('xmllint', ['--noout', '--nonet', '--schema', schema, ...files.map(([, file]) => file)], {
        env: { ...process.env, XML_CATALOG_FILES: CATALOG },
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      output = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    return Object.fromEntries(
      files.map(([name, file]) => [
        name,
        output
          .split('\n')
          .filter((line) => line.startsWith(file) && !line.endsWith(' validates'))
          .join('\n'),
      ]),
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Expects every document valid, naming the invalid ones with their complaints. */
function expectValid(documents: Record<string, string>, schema: string) {
  const complaints = Object.entries(validate(documents, schema)).filter(([, errors]) => errors);
  expect(complaints.map(([name, errors]) => `${name}:\n${errors}`).join('\n\n')).toBe('');
}

let portal: TestPortal;
/** The records by what they have: every optional part or none, made in Chinese or in English. */
const ids: Record<string, string> = {};
/** Records with a DOI (the others have no DataCite form). */
const withDoi: string[] = [];
const PAGE = 4;

/** Every optional part a record may have, in both languages, the record's own language `language`. */
function fullRecord(key: string, language: 'zh-hans' | 'en', doi: string): CatalogueEntry {
  return {
    key,
    language,
    zh: { title: `青藏高原冰川面积变化数据集 ${key}`, abstract: '本数据集记录了青藏高原冰川面积的长期变化 & <其他>。' },
    en: { title: `Glacier area changes of the Tibetan Plateau ${key}`, abstract: 'Annual glacier outlines & "other" <things> from Landsat.' },
    themes: [['冰川', 'glacier']],
    places: [['青藏高原', 'Tibetan Plateau']],
    disciplines: [['冰川学', 'glaciology']],
    authors: [
      ['张冰川', 'Zhang Bingchuan'],
      ['Anna Karlsson', 'Anna Karlsson'],
    ],
    funds: ['5', '6'],
    threePole: 'XDA20-01',
    thirdPole: 'XDA19-2',
    license: 'CC BY-NC-SA 4.0',
    sharing: 'online',
    published: '2021-05-01',
    time: ['1990-01-01', '2020-12-31'],
    box: [73, 26, 105, 40],
    doi,
    files: [1_000_000, 2_500_000],
  };
}

const FULL_EXTRAS = {
  affiliation: ['中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'] as [string, string],
  // Every role an author may have besides data resource provider.
  extraRoles: ['principalInvestigator', 'contactParty', 'manager', 'processor', 'distributor', 'producer', 'owner', 'publisher', 'metadataAuthor'],
  fund: ['国家自然科学基金冰川项目', 'NSFC glacier project', '41930000'] as [string, string, string],
  literature: [
    { title: '青藏高原冰川变化', title_en: 'Glacier changes on the Tibetan Plateau', doi: '10.1038/nclimate1580', type: 'citation', year: '2012' },
    { title: '冰川编目方法', title_en: 'Glacier inventory methods', link: 'https://example.org/inventory', type: 'reference', year: '2015' },
    { title: '应用', title_en: 'An application', link: 'https://example.org/application', type: 'application', year: '2020' },
  ],
  distributor: { unit: '国家青藏高原科学数据中心', email: 'data@tpdc.example.org', phone: '+86 10 8409 7000', address: '北京市朝阳区林萃路16号', city: '北京', country: '中国' },
  embargoUntil: '2022-05-01',
  dataSource: ['Landsat 影像目视解译。', 'Visual interpretation of Landsat scenes.'] as [string, string],
  updated: '2021-06-15',
};

/** What the builders do not write: the texts of use and citation, the time's words, the province, a temporal keyword. */
async function addTheRest(id: string, ownerId: string) {
  const db = portal.database.db;
  const record = await db.selectFrom('metadata').select('language').where('id', '=', id).executeTakeFirstOrThrow();
  const english = record.language === 'en';
  const [own, other] = english ? (['en', 'zh-hans'] as const) : (['zh-hans', 'en'] as const);
  const words = {
    'zh-hans': { usage_method: '文件按年份命名。', citation: '张冰川等，2021。', time_description: '逐年。', use_term: '使用数据须引用 <数据集>。' },
    en: { usage_method: 'Files are named by year.', citation: 'Zhang et al., 2021.', time_description: 'Yearly.', use_term: 'Users must cite the <dataset>.' },
  };
  // The distributor's organisation and address in the other language (the record's own are FULL_EXTRAS's).
  const distributor = {
    'zh-hans': { dist_unit: FULL_EXTRAS.distributor.unit, dist_address: FULL_EXTRAS.distributor.address },
    en: { dist_unit: 'National Tibetan Plateau Data Center', dist_address: '16 Lincui Road, Chaoyang District, Beijing' },
  };
  await db
    .updateTable('metadata')
    .set({ ...words[own], dist_province: '北京' })
    .where('id', '=', id)
    .execute();
  await db.updateTable('metadata_i18n').set({ ...words[other], ...distributor[other] }).where('metadata_id', '=', id).execute();
  const keywordId = randomUUID();
  const now = new Date().toISOString();
  await db.insertInto('keywords').values({ id: keywordId, name: english ? 'Holocene' : '全新世', type: 'temporal', language: own, created_by: ownerId, created_at: now }).execute();
  await db.insertInto('keyword_i18n').values({ id: randomUUID(), keyword_id: keywordId, language: other, name: english ? '全新世' : 'Holocene' }).execute();
  await db.insertInto('meta_keyword').values({ id: randomUUID(), metadata_id: id, keyword_id: keywordId }).execute();
}

describe(`the official schemas${WITHOUT}`, () => {
  beforeAll(async () => {
    if (!HAVE_SCHEMAS) return;
    portal = await createTestPortal({ env: { OAI_PAGE_SIZE: String(PAGE) } });
    const owner = await createUserWithToken(portal);
    ids.fullZh = await insertExportRecord(portal, owner.id, fullRecord('fullZh', 'zh-hans', '10.11888/Glacio.tpdc.271001'), FULL_EXTRAS);
    ids.fullEn = await insertExportRecord(portal, owner.id, fullRecord('fullEn', 'en', '10.11888/Glacio.tpdc.271002'), FULL_EXTRAS);
    for (const id of [ids.fullZh, ids.fullEn]) await addTheRest(id, owner.id);
    // No optional part: a title in the record's own language and the DOI, nothing else, no translation.
    for (const [key, language] of [
      ['bareZh', 'zh-hans'],
      ['bareEn', 'en'],
    ] as const) {
      ids[key] = await insertExportRecord(portal, owner.id, { key, language, zh: { title: `冰川 ${key}` }, en: { title: `Glacier ${key}` }, published: '2022-01-01', doi: `10.11888/Bare.${key}` });
    }
    // No DOI either (ISO 19139 only); a time range with one end; a box across the 180th meridian; a polar cap.
    ids.noDoi = await insertExportRecord(portal, owner.id, { key: 'noDoi', language: 'zh-hans', zh: { title: '无 DOI 的数据集' }, en: { title: 'A dataset without DOI' }, published: '2022-02-01', time: ['2000-01-01', ''] });
    ids.antimeridian = await insertExportRecord(
      portal,
      owner.id,
      { key: 'antimeridian', language: 'en', zh: { title: '白令海海冰' }, en: { title: 'Bering Sea ice' }, authors: [['Anna Karlsson', 'Anna Karlsson']], published: '2022-03-10', box: [170, 50, -170, 65], doi: '10.11888/Ocean.1' },
      { affiliation: ['', 'Stockholm University'] },
    );
    ids.polar = await insertExportRecord(portal, owner.id, { key: 'polar', language: 'en', zh: { title: '北极' }, en: { title: 'Arctic' }, published: '2023-01-20', box: [-180, 60, 180, 90], time: ['', '2020-12-31'], doi: '10.11888/Polar.1' });
    // Degrees so near 0 that JavaScript writes them with an exponent (1e-7), which xs:decimal has not.
    ids.nearZero = await insertExportRecord(portal, owner.id, { key: 'nearZero', language: 'en', zh: { title: '几内亚湾' }, en: { title: 'Gulf of Guinea' }, published: '2023-02-01', box: [-1e-7, -5e-7, 2.5e-7, 3e-7], doi: '10.11888/Ocean.2' });
    // No creator (shared rules/creators.ts): a publisher and a metadata author only; the data centre is cited.
    ids.noCreator = await insertExportRecord(portal, owner.id, {
      key: 'noCreator',
      language: 'zh-hans',
      zh: { title: '无作者的数据集' },
      en: { title: 'A dataset without creators' },
      authors: [
        ['王芳', 'Wang Fang'],
        ['吴刚', 'Wu Gang'],
      ],
      published: '2023-03-01',
      doi: '10.11888/NoCreator.1',
    });
    const links = await portal.database.db.selectFrom('meta_author').select('id').where('metadata_id', '=', ids.noCreator).orderBy('sort').execute();
    for (const [link, role] of links.map((l, index) => [l.id, index ? 'metadataAuthor' : 'publisher'] as const)) {
      await portal.database.db.updateTable('meta_author').set({ role }).where('id', '=', link).execute();
    }
    await portal.database.db.deleteFrom('metadata_i18n').where('metadata_id', 'in', [ids.bareZh!, ids.bareEn!]).execute();
    withDoi.push(...['fullZh', 'fullEn', 'bareZh', 'bareEn', 'antimeridian', 'polar', 'nearZero', 'noCreator'].map((key) => ids[key]!));
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  const exported = async (id: string, format: string) => {
    const response = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${id}/export/?format=${format}` });
    expect(response.statusCode, `${format} of ${id}: ${response.body}`).toBe(200);
    return response.body;
  };
  const keyOf = (id: string) => Object.entries(ids).find(([, value]) => value === id)![0];

  it.skipIf(!HAVE_SCHEMAS)('the check refuses what the schemas refuse', async () => {
    const datacite = await exported(ids.bareEn!, 'datacite');
    const iso = await exported(ids.bareEn!, 'iso19139');
    const complaints = validate(
      {
        'no publicationYear': datacite.replace(/<publicationYear>.*<\/publicationYear>/, ''),
        'a resourceTypeGeneral DataCite does not know': datacite.replace('resourceTypeGeneral="Dataset"', 'resourceTypeGeneral="Data"'),
      },
      SCHEMAS.datacite45,
    );
    for (const [name, errors] of Object.entries(complaints)) expect(errors, name).toContain('fails to validate');
    const isoComplaints = validate(
      {
        'no dateStamp': iso.replace(/<gmd:dateStamp>[\s\S]*?<\/gmd:dateStamp>/, ''),
        'a date that is none': iso.replace(/<gco:Date>[^<]*<\/gco:Date>/, '<gco:Date>the first of May</gco:Date>'),
      },
      SCHEMAS.gmd,
    );
    for (const [name, errors] of Object.entries(isoComplaints)) expect(errors, name).toContain('fails to validate');
  });

  it.skipIf(!HAVE_SCHEMAS)('every DataCite export is valid DataCite 4.5, and 4.6', async () => {
    const documents = Object.fromEntries(await Promise.all(withDoi.map(async (id) => [keyOf(id), await exported(id, 'datacite')] as const)));
    expectValid(documents, SCHEMAS.datacite45);
    expectValid(documents, SCHEMAS.datacite46);
    // The access right (COAR, issue 17) after the licence, then the terms of use: a rights statement in each language.
    const rights = [...documents.fullEn!.matchAll(/<rights( [^>]*)?>([^<]*)<\/rights>/g)].map((m) => [/xml:lang="([^"]+)"/.exec(m[1] ?? '')?.[1], m[2]]);
    expect(rights).toEqual([
      ['en', 'Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International'],
      ['en', 'open access'],
      ['en', 'Users must cite the &lt;dataset&gt;.'],
      ['zh-Hans', '使用数据须引用 &lt;数据集&gt;。'],
    ]);
  });

  it.skipIf(!HAVE_SCHEMAS)('every ISO 19139 export is valid against gmd.xsd', async () => {
    const documents = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([key, id]) => [key, await exported(id, 'iso19139')] as const)));
    expectValid(documents, SCHEMAS.gmd);
    // The degrees near 0 as decimals, the same numbers.
    expect([...documents.nearZero!.matchAll(/<gco:Decimal>([^<]+)<\/gco:Decimal>/g)].map((m) => m[1])).toEqual(['-0.0000001', '0.00000025', '-0.0000005', '0.0000003']);
    // The schema does not follow references: each translation names the document's own PT_Locale.
    for (const [key, xml] of Object.entries(documents)) {
      const locales = [...xml.matchAll(/<gmd:PT_Locale id="([^"]+)"/g)].map((m) => `#${m[1]}`);
      const references = [...xml.matchAll(/<gmd:LocalisedCharacterString locale="([^"]+)"/g)].map((m) => m[1]);
      expect(locales, key).toHaveLength(1);
      expect(references.filter((reference) => !locales.includes(reference!)), key).toEqual([]);
      if (key.startsWith('full')) expect(references.length, key).toBeGreaterThan(5);
    }
    // The Chinese record: the distributor's organisation and delivery point, and the terms of use, in both languages.
    const zh = documents.fullZh!;
    const translated = (property: string) => new RegExp(`<gmd:${property} xsi:type="gmd:PT_FreeText_PropertyType">\\s*<gco:CharacterString>([^<]*)</gco:CharacterString>[\\s\\S]*?<gmd:LocalisedCharacterString[^>]*>([^<]*)<`, 'g');
    const pairs = (property: string) => [...zh.matchAll(translated(property))].map((m) => [m[1], m[2]]);
    expect(pairs('organisationName')).toContainEqual(['国家青藏高原科学数据中心', 'National Tibetan Plateau Data Center']);
    expect(pairs('deliveryPoint')).toContainEqual(['北京市朝阳区林萃路16号', '16 Lincui Road, Chaoyang District, Beijing']);
    expect(pairs('useLimitation')).toEqual([['使用数据须引用 &lt;数据集&gt;。', 'Users must cite the &lt;dataset&gt;.']]);
    expect(zh).toMatch(/<gmd:resourceConstraints>\s*<gmd:MD_Constraints>\s*<gmd:useLimitation/);
  });

  /** The metadata payload of a GetRecord reply, as a document of its own. */
  const payloadOf = (reply: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${/<metadata>\s*([\s\S]*?)\s*<\/metadata>/.exec(reply)![1]}`;
  const oai = async (query: string) => {
    const response = await portal.app.inject({ method: 'GET', url: `/oai?${query}` });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it.skipIf(!HAVE_SCHEMAS)('every OAI-PMH oai_datacite and iso19139 record is valid, alone and in its reply', async () => {
    const replies: Record<string, string> = {};
    for (const [prefix, keys] of [
      ['oai_datacite', withDoi.map(keyOf)],
      ['iso19139', Object.keys(ids)],
    ] as const) {
      for (const key of keys) replies[`${prefix} ${key}`] = await oai(`verb=GetRecord&metadataPrefix=${prefix}&identifier=oai:portal.test:${ids[key]}`);
    }
    const payloads = (prefix: string) => Object.fromEntries(Object.entries(replies).filter(([name]) => name.startsWith(prefix)).map(([name, reply]) => [name, payloadOf(reply)]));
    expectValid(payloads('oai_datacite'), SCHEMAS.datacite45);
    expectValid(payloads('iso19139'), SCHEMAS.gmd);
    expectValid(replies, SCHEMAS.oai);
  });

  it.skipIf(!HAVE_SCHEMAS)('every page of ListRecords is valid in every format, its records together (ids unique in the page)', async () => {
    const pages: Record<string, string> = {};
    for (const prefix of ['oai_dc', 'oai_datacite', 'iso19139']) {
      let reply = await oai(`verb=ListRecords&metadataPrefix=${prefix}`);
      for (let page = 1; ; page++) {
        pages[`${prefix} page ${page}`] = reply;
        const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(reply)?.[1];
        if (!token) break;
        reply = await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
      }
    }
    // Pages of several records each: the first iso19139 page holds four.
    expect((pages['iso19139 page 1']!.match(/<gmd:MD_Metadata /g) ?? []).length).toBe(PAGE);
    expectValid(pages, SCHEMAS.oai);
  });
});
