import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildExportRecord, buildCatalogue, type CatalogueEntry } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';

/**
 * The DataCite and ISO 19139 exports and the OAI-PMH records against the official schemas (issues 16,
 * 17): DataCite 4.5 (what the documents name) and 4.6, ISO/TS 19139:2007 with GML 3.2.1, copied
 * unmodified into ../shared/xsd with an XML catalog that maps their published addresses to the copies
 * (see its README); DataCite's OAI envelope and DIF 10 from test/xsd. Records with every optional part
 * and with none, made in Chinese and in English, boxes across 180° and at the pole, open-ended and
 * described time, text beyond the BMP; whole OAI-PMH ListRecords pages of 100 records in every format,
 * where every id must be unique in the page. OWSLib (Debian's python3-owslib) reads the ISO 19139
 * documents as GeoNetwork's harvesters do. A checkout without ../shared has no schemas: these tests say
 * so in their names and are skipped.
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
  /** OAI-PMH with oai_dc and the official payload schemas (test/xsd/oai-pmh/). */
  oai: path.join(import.meta.dirname, 'xsd/oai-pmh/harvest-official.xsd'),
  dif10: path.join(import.meta.dirname, 'xsd/dif10/dif_v10.2.xsd'),
};

/** Debian's python3-owslib, run by the system's Python (a Python of another installation lacks it). */
const PYTHON = '/usr/bin/python3';
const HAVE_OWSLIB = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import owslib.iso'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!HAVE_OWSLIB) console.warn('xsd-conformance: the OWSLib check is skipped, python3-owslib is not installed (apt-get install python3-owslib)');

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
/** The OAI-PMH page size (the default): a page holds 100 records. */
const PAGE = 100;
/** Cheap records that fill the pages, in every kind of box and time, all with a DOI. */
const FILLERS = 100;

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
  // The distributor's organisation and address (street, city, province, country) in the other language (the record's own are FULL_EXTRAS's).
  const { unit, address, city, country } = FULL_EXTRAS.distributor;
  const distributor = {
    'zh-hans': { dist_unit: unit, dist_address: address, dist_city: city, dist_province: '北京', dist_country: country },
    en: {
      dist_unit: 'National Tibetan Plateau Data Center',
      dist_address: '16 Lincui Road, Chaoyang District, Beijing',
      dist_city: 'Beijing',
      dist_province: 'Beijing Municipality',
      dist_country: 'China',
    },
  };
  await db
    .updateTable('metadata')
    .set({ ...words[own], dist_province: '北京' })
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('metadata_i18n')
    .set({ ...words[other], ...distributor[other] })
    .where('metadata_id', '=', id)
    .execute();
  const keywordId = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('keywords')
    .values({ id: keywordId, name: english ? 'Holocene' : '全新世', type: 'temporal', language: own, created_by: ownerId, created_at: now })
    .execute();
  await db
    .insertInto('keyword_i18n')
    .values({ id: randomUUID(), keyword_id: keywordId, language: other, name: english ? '全新世' : 'Holocene' })
    .execute();
  await db.insertInto('meta_keyword').values({ id: randomUUID(), metadata_id: id, keyword_id: keywordId }).execute();
}

describe(`the official schemas${WITHOUT}`, () => {
  beforeAll(async () => {
    if (!HAVE_SCHEMAS) return;
    portal = await createTestPortal({ env: { OAI_PAGE_SIZE: String(PAGE) } });
    const owner = await buildUser(portal);
    ids.fullZh = await buildExportRecord(portal, owner.id, fullRecord('fullZh', 'zh-hans', '10.11888/Glacio.tpdc.271001'), FULL_EXTRAS);
    ids.fullEn = await buildExportRecord(portal, owner.id, fullRecord('fullEn', 'en', '10.11888/Glacio.tpdc.271002'), FULL_EXTRAS);
    for (const id of [ids.fullZh, ids.fullEn]) await addTheRest(id, owner.id);
    // No optional part: a title in the record's own language and the DOI, nothing else, no translation.
    for (const [key, language] of [
      ['bareZh', 'zh-hans'],
      ['bareEn', 'en'],
    ] as const) {
      ids[key] = await buildExportRecord(portal, owner.id, {
        key,
        language,
        zh: { title: `冰川 ${key}` },
        en: { title: `Glacier ${key}` },
        published: '2022-01-01',
        doi: `10.11888/Bare.${key}`,
      });
    }
    // No DOI either (ISO 19139 only); a time range with one end; a box across the 180th meridian; a polar cap.
    ids.noDoi = await buildExportRecord(portal, owner.id, {
      key: 'noDoi',
      language: 'zh-hans',
      zh: { title: '无 DOI 的数据集' },
      en: { title: 'A dataset without DOI' },
      published: '2022-02-01',
      time: ['2000-01-01', ''],
    });
    ids.antimeridian = await buildExportRecord(
      portal,
      owner.id,
      {
        key: 'antimeridian',
        language: 'en',
        zh: { title: '白令海海冰' },
        en: { title: 'Bering Sea ice' },
        authors: [['Anna Karlsson', 'Anna Karlsson']],
        published: '2022-03-10',
        box: [170, 50, -170, 65],
        doi: '10.11888/Ocean.1',
      },
      { affiliation: ['', 'Stockholm University'] },
    );
    ids.polar = await buildExportRecord(portal, owner.id, {
      key: 'polar',
      language: 'en',
      zh: { title: '北极' },
      en: { title: 'Arctic' },
      published: '2023-01-20',
      box: [-180, 60, 180, 90],
      time: ['', '2020-12-31'],
      doi: '10.11888/Polar.1',
    });
    // An open-ended range with a DOI, over the South Pole; its themes map to ISO topic categories and GCMD keywords.
    ids.openEnded = await buildExportRecord(portal, owner.id, {
      key: 'openEnded',
      language: 'en',
      zh: { title: '南极海冰' },
      en: { title: 'Antarctic sea ice' },
      themes: [
        ['海冰', 'sea ice'],
        ['冻土', 'permafrost'],
      ],
      published: '2023-01-25',
      box: [-180, -90, 180, -60],
      time: ['2015-01-01', ''],
      doi: '10.11888/Polar.2',
    });
    // Time only in words (no dates), in both languages.
    ids.described = await buildExportRecord(portal, owner.id, {
      key: 'described',
      language: 'zh-hans',
      zh: { title: '全新世湖泊沉积' },
      en: { title: 'Holocene lake sediments' },
      published: '2023-01-28',
      doi: '10.11888/Described.1',
    });
    await portal.database.db.updateTable('metadata').set({ time_description: '全新世中期，约距今 6000 年' }).where('id', '=', ids.described).execute();
    await portal.database.db
      .updateTable('metadata_i18n')
      .set({ time_description: 'Mid-Holocene, about 6000 years before present' })
      .where('metadata_id', '=', ids.described)
      .execute();
    // Characters beyond the BMP (𠮷, two UTF-16 units) in the title, the abstract and an author's name.
    ids.nonBmp = await buildExportRecord(portal, owner.id, {
      key: 'nonBmp',
      language: 'zh-hans',
      zh: { title: '𠮷林冰川 𠮷', abstract: '𠮷 字在基本多文种平面之外。' },
      en: { title: 'Glacier of 𠮷 (U+20BB7)', abstract: 'The character 𠮷 lies beyond the BMP.' },
      authors: [['𠮷田', 'Yoshida']],
      published: '2023-01-30',
      box: [80, 30, 81, 31],
      doi: '10.11888/NonBmp.1',
    });
    // Degrees so near 0 that JavaScript writes them with an exponent (1e-7), which xs:decimal has not.
    ids.nearZero = await buildExportRecord(portal, owner.id, {
      key: 'nearZero',
      language: 'en',
      zh: { title: '几内亚湾' },
      en: { title: 'Gulf of Guinea' },
      published: '2023-02-01',
      box: [-1e-7, -5e-7, 2.5e-7, 3e-7],
      doi: '10.11888/Ocean.2',
    });
    // No creator (shared rules/creators.ts): a publisher and a metadata author only; the data centre is cited.
    ids.noCreator = await buildExportRecord(portal, owner.id, {
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
    withDoi.push(...['fullZh', 'fullEn', 'bareZh', 'bareEn', 'antimeridian', 'polar', 'openEnded', 'described', 'nonBmp', 'nearZero', 'noCreator'].map((key) => ids[key]!));
    // The fillers, written at once: in turn across 180°, at the North Pole, open-ended, described only by the page's records, Chinese and English.
    const boxes: ([number, number, number, number] | undefined)[] = [[175, -20, -175, -10], [-180, 80, 180, 90], [90, 27, 100, 36], undefined];
    const times: ([string, string] | undefined)[] = [['2001-01-01', ''], ['', '2010-12-31'], ['1980-01-01', '1990-12-31'], undefined];
    await buildCatalogue(
      portal,
      owner.id,
      Array.from({ length: FILLERS }, (_, n): CatalogueEntry => ({
        key: `filler${n}`,
        language: n % 2 ? 'en' : 'zh-hans',
        zh: { title: `填充数据集 ${n} 𠮷`, abstract: `第 ${n} 个 & <填充>。` },
        en: { title: `Filler dataset ${n}`, abstract: `Number ${n} & <filler>.` },
        themes: n % 3 ? [['积雪', 'snow cover']] : [],
        authors: [[`作者${n}`, `Author ${n}`]],
        published: '2024-01-01',
        box: boxes[n % boxes.length],
        time: times[n % times.length],
        doi: `10.11888/Filler.${n}`,
      })),
    );
  }, 300_000);

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
    // A range open at one end (RKMS-ISO8601) leaves that side empty: valid, and not a single day.
    expect(documents.openEnded).toContain('<date dateType="Collected">2015-01-01/</date>');
    expect(documents.polar).toContain('<date dateType="Collected">/2020-12-31</date>');
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
      expect(
        references.filter((reference) => !locales.includes(reference!)),
        key,
      ).toEqual([]);
      if (key.startsWith('full')) expect(references.length, key).toBeGreaterThan(5);
    }
    // The Chinese record: the distributor's organisation and address (delivery point, city, province, country), and the terms of use, in both languages.
    const zh = documents.fullZh!;
    const translated = (property: string) =>
      new RegExp(
        `<gmd:${property} xsi:type="gmd:PT_FreeText_PropertyType">\\s*<gco:CharacterString>([^<]*)</gco:CharacterString>[\\s\\S]*?<gmd:LocalisedCharacterString[^>]*>([^<]*)<`,
        'g',
      );
    const pairs = (property: string) => [...zh.matchAll(translated(property))].map((m) => [m[1], m[2]]);
    expect(pairs('organisationName')).toContainEqual(['国家青藏高原科学数据中心', 'National Tibetan Plateau Data Center']);
    expect(pairs('deliveryPoint')).toContainEqual(['北京市朝阳区林萃路16号', '16 Lincui Road, Chaoyang District, Beijing']);
    expect(pairs('city')).toContainEqual(['北京', 'Beijing']);
    expect(pairs('administrativeArea')).toContainEqual(['北京', 'Beijing Municipality']);
    expect(pairs('country')).toContainEqual(['中国', 'China']);
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

  it.skipIf(!HAVE_SCHEMAS)('every OAI-PMH datacite, oai_datacite, iso19139 and dif10 record is valid, alone and in its reply', async () => {
    const replies: Record<string, string> = {};
    for (const [prefix, keys] of [
      ['datacite', withDoi.map(keyOf)],
      ['oai_datacite', withDoi.map(keyOf)],
      ['iso19139', Object.keys(ids)],
      ['dif10', Object.keys(ids)],
    ] as const) {
      for (const key of keys) replies[`${prefix} ${key}`] = await oai(`verb=GetRecord&metadataPrefix=${prefix}&identifier=oai:portal.test:${ids[key]}`);
    }
    const payloads = (prefix: string) =>
      Object.fromEntries(
        Object.entries(replies)
          .filter(([name]) => name.startsWith(`${prefix} `))
          .map(([name, reply]) => [name, payloadOf(reply)]),
      );
    expectValid(payloads('datacite'), SCHEMAS.datacite45);
    expectValid(payloads('iso19139'), SCHEMAS.gmd);
    expectValid(payloads('dif10'), SCHEMAS.dif10);
    expectValid(replies, SCHEMAS.oai);
  });

  it.skipIf(!HAVE_SCHEMAS)('the DIF 10 check refuses what the DIF 10 schema refuses', async () => {
    const dif = payloadOf(await oai(`verb=GetRecord&metadataPrefix=dif10&identifier=oai:portal.test:${ids.fullEn}`));
    const complaints = validate(
      {
        'no Entry_Title': dif.replace(/<Entry_Title>[^<]*<\/Entry_Title>/, ''),
        'a Platform type GCMD does not know': dif.replace('<Type>Not provided</Type>', '<Type>Bicycle</Type>'),
        'a date that is none': dif.replace(/<Metadata_Creation>[^<]*</, '<Metadata_Creation>May<'),
      },
      SCHEMAS.dif10,
    );
    for (const [name, errors] of Object.entries(complaints)) expect(errors, name).toContain('fails to validate');
  });

  it.skipIf(!HAVE_SCHEMAS)('Identify is valid with the default admin address (no ADMIN_EMAIL, no MAIL_FROM here)', async () => {
    const identify = await oai('verb=Identify');
    expect(identify).toContain('<adminEmail>noreply@portal.test</adminEmail>');
    expectValid({ Identify: identify }, SCHEMAS.oai);
    // The address the server used to default to fails the schema.
    const complaints = validate({ before: identify.replace('noreply@portal.test', 'noreply@localhost') }, SCHEMAS.oai);
    expect(complaints.before).toContain('fails to validate');
  });

  it.skipIf(!HAVE_SCHEMAS)(
    'every page of ListRecords is valid in every format, its records together (ids unique in the page)',
    async () => {
      const pages: Record<string, string> = {};
      for (const prefix of ['oai_dc', 'datacite', 'oai_datacite', 'iso19139', 'dif10']) {
        let reply = await oai(`verb=ListRecords&metadataPrefix=${prefix}`);
        for (let page = 1; ; page++) {
          pages[`${prefix} page ${page}`] = reply;
          const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(reply)?.[1];
          if (!token) break;
          reply = await oai(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`);
        }
      }
      // Whole pages: the first page of each format holds 100 records (every record has a DOI but one).
      const roots: Record<string, RegExp> = { oai_dc: /<oai_dc:dc /g, datacite: /<resource /g, oai_datacite: /<oai_datacite /g, iso19139: /<gmd:MD_Metadata /g, dif10: /<DIF /g };
      for (const [prefix, root] of Object.entries(roots)) expect((pages[`${prefix} page 1`]!.match(root) ?? []).length, prefix).toBe(PAGE);
      expect(Object.keys(pages).filter((name) => name.startsWith('iso19139 ')).length).toBe(2);
      expectValid(pages, SCHEMAS.oai);
    },
    120_000,
  );

  it.skipIf(!HAVE_SCHEMAS)('ISO 19139: topic categories, originators, both boxes across 180° in order, open and unknown ends, time in words', async () => {
    const iso = async (key: string) => exported(ids[key]!, 'iso19139');
    const categories = (xml: string) => [...xml.matchAll(/<gmd:MD_TopicCategoryCode>([^<]+)</g)].map((m) => m[1]);
    expect(categories(await iso('fullZh'))).toEqual(['inlandWaters']);
    expect(categories(await iso('openEnded')).sort()).toEqual(['geoscientificInformation', 'oceans']);
    // Nothing maps: the default.
    expect(categories(await iso('bareEn'))).toEqual(['geoscientificInformation']);
    // Across 180°: the part from the west side to 180 first, then from -180 to the east side.
    const boxes = [...(await iso('antimeridian')).matchAll(/<gmd:EX_GeographicBoundingBox>([\s\S]*?)<\/gmd:EX_GeographicBoundingBox>/g)].map((m) =>
      [...m[1]!.matchAll(/<gco:Decimal>([^<]+)</g)].map((d) => Number(d[1])),
    );
    expect(boxes).toEqual([
      [170, 180, 50, 65],
      [-180, -170, 50, 65],
    ]);
    // Open-ended: the end is now; no start: unknown.
    expect(await iso('noDoi')).toMatch(/<gml:beginPosition>2000-01-01<\/gml:beginPosition>\s*<gml:endPosition indeterminatePosition="now"\/>/);
    expect(await iso('polar')).toMatch(/<gml:beginPosition indeterminatePosition="unknown"\/>\s*<gml:endPosition>2020-12-31<\/gml:endPosition>/);
    // Time only in words: the extent's description, in both languages, and no time period.
    const described = await iso('described');
    expect(described).toMatch(
      /<gmd:EX_Extent>\s*<gmd:description xsi:type="gmd:PT_FreeText_PropertyType">\s*<gco:CharacterString>全新世中期，约距今 6000 年<\/gco:CharacterString>[\s\S]*?Mid-Holocene, about 6000 years before present/,
    );
    expect(described).not.toContain('gml:TimePeriod');
    // Beyond the BMP: whole characters.
    expect(await iso('nonBmp')).toContain('<gco:CharacterString>𠮷林冰川 𠮷</gco:CharacterString>');
  });

  it.skipIf(!HAVE_SCHEMAS || !HAVE_OWSLIB)(
    `OWSLib reads the creators, topic categories, boxes and time of the ISO 19139 documents${HAVE_OWSLIB ? '' : ' (skipped: python3-owslib is not installed)'}`,
    async () => {
      const keys = ['fullZh', 'fullEn', 'noCreator', 'antimeridian', 'noDoi', 'polar', 'described'];
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'xsd-conformance-owslib-'));
      try {
        for (const key of keys) fs.writeFileSync(path.join(folder, `${key}.xml`), await exported(ids[key]!, 'iso19139'));
        const script = [
          'import json, sys, warnings',
          'warnings.simplefilter("ignore")',
          'from owslib.iso import MD_Metadata',
          'from owslib.etree import etree',
          'out = {}',
          'for name in sys.argv[1:]:',
          '    md = MD_Metadata(etree.parse(name))',
          // OWSLib 0.28 made identification a list.
          '    ident = md.identification[0] if isinstance(md.identification, list) else md.identification',
          // Set only when the document has an extent.
          '    box = getattr(ident, "bbox", None)',
          '    out[name.rsplit("/", 1)[1][:-4]] = {',
          '        "creators": [c.name or c.organization for c in ident.creator],',
          '        "topics": ident.topiccategory,',
          '        "box": [box.minx, box.maxx, box.miny, box.maxy] if box else None,',
          '        "time": [getattr(ident, "temporalextent_start", None), getattr(ident, "temporalextent_end", None)],',
          '    }',
          'print(json.dumps(out, ensure_ascii=False))',
        ].join('\n');
        const read = JSON.parse(execFileSync(PYTHON, ['-c', script, ...keys.map((key) => path.join(folder, `${key}.xml`))], { encoding: 'utf8' }));
        // The creators in the record's order (names in the record's language); the data centre when there is none.
        expect(read.fullZh.creators).toEqual(['张冰川', 'Anna Karlsson']);
        expect(read.fullEn.creators).toEqual(['Zhang Bingchuan', 'Anna Karlsson']);
        expect(read.noCreator.creators).toEqual(['三极科学数据门户']);
        expect(read.fullZh.topics).toEqual(['inlandWaters']);
        expect(read.fullZh.box).toEqual(['73', '105', '26', '40']);
        // A client that reads one box gets the western part, from the box's own west side.
        expect(read.antimeridian.box).toEqual(['170', '180', '50', '65']);
        expect(read.fullZh.time).toEqual(['1990-01-01', '2020-12-31']);
        expect(read.noDoi.time).toEqual(['2000-01-01', null]);
        expect(read.polar.time).toEqual([null, '2020-12-31']);
        expect(read.described.time).toEqual([null, null]);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!HAVE_SCHEMAS)('DIF 10: science keywords, both boxes across 180° in order, open-ended and described time, text beyond the BMP', async () => {
    const dif = async (key: string) => payloadOf(await oai(`verb=GetRecord&metadataPrefix=dif10&identifier=oai:portal.test:${ids[key]}`));
    const open = await dif('openEnded');
    expect([...open.matchAll(/<Science_Keywords>\s*<Category>([^<]+)<\/Category>\s*<Topic>([^<]+)<\/Topic>\s*<Term>([^<]+)</g)].map((m) => m.slice(1).join(' > '))).toEqual([
      'EARTH SCIENCE > CRYOSPHERE > FROZEN GROUND',
      'EARTH SCIENCE > CRYOSPHERE > SEA ICE',
    ]);
    expect([...open.matchAll(/<ISO_Topic_Category>([^<]+)</g)].map((m) => m[1]).sort()).toEqual(['geoscientificInformation', 'oceans']);
    expect(open).toMatch(/<Ends_At_Present_Flag>true<\/Ends_At_Present_Flag>\s*<Range_DateTime>\s*<Beginning_Date_Time>2015-01-01<\/Beginning_Date_Time>\s*<\/Range_DateTime>/);
    // No keyword maps: GCMD's own placeholder, as its CMR writes it.
    expect(await dif('bareEn')).toMatch(/<Science_Keywords>\s*<Category>EARTH SCIENCE<\/Category>\s*<Topic>Not provided<\/Topic>\s*<Term>Not provided<\/Term>/);
    const rectangles = [...(await dif('antimeridian')).matchAll(/<Bounding_Rectangle>([\s\S]*?)<\/Bounding_Rectangle>/g)].map((m) =>
      [...m[1]!.matchAll(/>(-?[\d.]+)</g)].map((d) => Number(d[1])),
    );
    expect(rectangles).toEqual([
      [50, 65, 170, 180],
      [50, 65, -180, -170],
    ]);
    expect(await dif('polar')).toMatch(/<Beginning_Date_Time>unknown<\/Beginning_Date_Time>\s*<Ending_Date_Time>2020-12-31</);
    const described = await dif('described');
    expect(described).toMatch(
      /<Beginning_Date_Time>unknown<\/Beginning_Date_Time>\s*<\/Range_DateTime>\s*<Temporal_Info>\s*<Ancillary_Temporal_Keyword>Mid-Holocene, about 6000 years before present<\/Ancillary_Temporal_Keyword>\s*<Ancillary_Temporal_Keyword>全新世中期，约距今 6000 年</,
    );
    const nonBmp = await dif('nonBmp');
    expect(nonBmp).toContain('<Entry_Title>Glacier of 𠮷 (U+20BB7)</Entry_Title>');
    expect(nonBmp).toMatch(/<Contact_Person>\s*<First_Name>Yoshida<\/First_Name>|<Contact_Person>\s*<Last_Name>Yoshida<\/Last_Name>/);
    expect(nonBmp).not.toMatch(/\uFFFD/);
    // Every optional part: the Chinese record's DIF in English, with its citation, people, funds, licence, data centre, literature.
    const full = await dif('fullZh');
    expect(full).toContain('<Entry_Title>Glacier area changes of the Tibetan Plateau fullZh</Entry_Title>');
    expect(full).toContain('<Dataset_Language>Chinese</Dataset_Language>');
    expect(full).toMatch(
      /<Personnel>\s*<Role>INVESTIGATOR<\/Role>\s*<Role>TECHNICAL CONTACT<\/Role>\s*<Role>METADATA AUTHOR<\/Role>\s*<Contact_Person>\s*<First_Name>Bingchuan<\/First_Name>\s*<Last_Name>Zhang<\/Last_Name>/,
    );
    expect(full).toContain('<Short_Name>XDA20-01</Short_Name>');
    expect(full).toContain('<URL>https://creativecommons.org/licenses/by-nc-sa/4.0/</URL>');
    expect(full).toMatch(/<Organization_Name>\s*<Short_Name>National Tibetan Plateau Data Center<\/Short_Name>/);
    // The data centre's address in English, each part as the provider translated it.
    expect(full).toMatch(
      /<Address>\s*<Street_Address>16 Lincui Road, Chaoyang District, Beijing<\/Street_Address>\s*<City>Beijing<\/City>\s*<State_Province>Beijing Municipality<\/State_Province>\s*<Country>China<\/Country>\s*<\/Address>/,
    );
    expect(full).toMatch(/<Reference>[\s\S]*?<Identifier>10.1038\/nclimate1580<\/Identifier>/);
    expect(full).toContain('<Abstract mime_type="text/plain">Annual glacier outlines &amp; "other" &lt;things&gt; from Landsat.</Abstract>');
    // No optional part: the placeholders, no empty element.
    const bare = await dif('bareZh');
    expect(bare).toMatch(/<Project>\s*<Short_Name>Not provided<\/Short_Name>\s*<\/Project>/);
    expect(bare).toContain('<Granule_Spatial_Representation>NO_SPATIAL</Granule_Spatial_Representation>');
    expect(bare).not.toMatch(/<(\w+)(?: [^>]*)?><\/\1>|<\w+\/>/);
  });
});
