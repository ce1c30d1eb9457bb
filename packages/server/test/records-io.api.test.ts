import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, runPortalCli, type TestPortal } from './helpers.js';

/**
 * `npm run portal -- import-records` and `export-records`: a data centre moving its catalogue in.
 * The fixture holds four DataCite records: the Tibetan Plateau's glaciers (Chinese), Arctic sea ice
 * (a polar cap), permafrost around the Bering Strait (a box across the 180th meridian), and a
 * traverse in East Antarctica.
 */
const fixture = path.join(import.meta.dirname, 'fixtures/datacite-records.xml');
const DOIS = ['10.5072/TPDC.Glacier.2021.001', '10.5072/ARCTIC.SeaIce.2023.014', '10.5072/BERING.Permafrost.2020.007', '10.5072/CHINARE.Antarctic.2024.003'];

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
  await portal.accounts.createActiveUser({ username: 'datacentre', email: 'datacentre@example.org', password: 'operator-pass-1', isStaff: true });
  await portal.accounts.createActiveUser({ username: 'someone', email: 'someone@example.org', password: 'someone-pass-1' });
});
afterAll(async () => {
  await portal?.close();
});

async function writeFile(name: string, content: string): Promise<string> {
  const file = path.join(portal.config.dataDir, name);
  await fs.writeFile(file, content);
  return file;
}

async function search(target: TestPortal, query: string, language = 'zh-hans') {
  const response = await target.app.inject({ method: 'GET', url: `/api/metadata/search/?${query}`, headers: { 'accept-language': language } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { count: number; results: { id: string; title: string; doi: string }[]; facets: Record<string, { value: string; count: number }[]> };
}

const recordCount = async (target: TestPortal) =>
  Number(
    (
      await target.database.db
        .selectFrom('metadata')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function recordByDoi(target: TestPortal, doi: string) {
  const row = await target.database.db.selectFrom('metadata').select('id').where('doi', '=', doi).executeTakeFirstOrThrow();
  const response = await target.app.inject({ method: 'GET', url: `/api/metadata/metadata/${row.id}/` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function keywordsOf(target: TestPortal, id: string) {
  return target.database.db
    .selectFrom('meta_keyword')
    .innerJoin('keywords', 'keywords.id', 'meta_keyword.keyword_id')
    .leftJoin('keyword_i18n', 'keyword_i18n.keyword_id', 'keywords.id')
    .select(['keywords.name', 'keywords.type', 'keyword_i18n.name as translation'])
    .where('meta_keyword.metadata_id', '=', id)
    .orderBy('keywords.name')
    .execute();
}

async function authorsOf(target: TestPortal, id: string) {
  return target.database.db
    .selectFrom('meta_author')
    .innerJoin('authors', 'authors.id', 'meta_author.author_id')
    .leftJoin('author_i18n', 'author_i18n.author_id', 'authors.id')
    .select(['authors.name', 'authors.affiliation', 'meta_author.role', 'author_i18n.name as name_en', 'author_i18n.affiliation as affiliation_en'])
    .where('meta_author.metadata_id', '=', id)
    .orderBy('meta_author.sort')
    .execute();
}

describe('npm run portal -- import-records', () => {
  it('refuses without a staff owner or with a file it cannot read: exit code 2, nothing written', async () => {
    // Each kind of bad file is refused in records-file.test.ts; here, that the tool stops before writing.
    const cases: [string[], string][] = [
      [['import-records', fixture], 'needs --owner USERNAME'],
      [['import-records', fixture, '--owner', 'someone'], 'someone is not an active staff account'],
      [
        ['import-records', await writeFile('broken.xml', `<resources>${(await fs.readFile(fixture, 'utf8')).split('<resources')[1]!.slice(0, 3000)}`), '--owner', 'datacentre'],
        'not well-formed XML',
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runPortalCli(portal, ...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toContain(message);
    }
    expect(await recordCount(portal)).toBe(0);
  }, 180_000);

  it('loads DataCite records published, in both languages, and the catalogue finds them', async () => {
    const { code, stdout } = await runPortalCli(portal, 'import-records', fixture, '--owner', 'datacentre');
    expect(code, stdout).toBe(0);
    expect(stdout).toContain('Imported 4, skipped 0, errors 0 of 4 record(s) (datacite-xml)');

    const glacier = await recordByDoi(portal, DOIS[0]!);
    expect(glacier).toMatchObject({
      status: 'published',
      language: 'zh-hans',
      title: '青藏高原冰川编目数据集（2000—2020年）',
      license: 'CC BY 4.0',
      time_start: '2000-01-01',
      time_end: '2020-12-31',
      west: 73.5,
      east: 104.5,
      south: 26,
      north: 39.8,
      published_at: '2021-03-15T00:00:00.000Z',
      embargo_until: '2022-03-15T00:00:00.000Z',
      subtopic_three_pole: 'XDA20-01-02',
      dist_unit: '国家青藏高原科学数据中心',
      owner_name: 'datacentre',
    });
    expect(glacier.description).toMatch(/^本数据集基于Landsat/);
    expect(glacier.fund).toContain('5');
    expect(glacier.translations).toEqual([
      expect.objectContaining({ language: 'en', title: 'Glacier inventory of the Tibetan Plateau (2000–2020)', data_source: expect.stringMatching(/^Band ratio/) }),
    ]);
    expect(await keywordsOf(portal, glacier.id)).toEqual(
      expect.arrayContaining([
        { name: '冰川', type: 'theme', translation: 'glacier' },
        { name: '冰川编目', type: 'theme', translation: 'glacier inventory' },
        { name: '冰冻圈科学', type: 'discipline', translation: 'cryospheric science' },
        { name: '青藏高原', type: 'place', translation: 'Tibetan Plateau' },
      ]),
    );
    expect(await authorsOf(portal, glacier.id)).toEqual([
      {
        name: '李新',
        affiliation: '中国科学院青藏高原研究所',
        role: 'resourceProvider',
        name_en: 'Xin Li',
        affiliation_en: 'Institute of Tibetan Plateau Research, Chinese Academy of Sciences',
      },
      {
        name: 'Wang, Lei',
        affiliation: 'Institute of Tibetan Plateau Research, Chinese Academy of Sciences',
        role: 'resourceProvider',
        name_en: 'Wang, Lei',
        affiliation_en: 'Institute of Tibetan Plateau Research, Chinese Academy of Sciences',
      },
      { name: '姚檀栋', affiliation: '中国科学院青藏高原研究所', role: 'principalInvestigator', name_en: 'Tandong Yao', affiliation_en: '' },
    ]);

    const bering = await recordByDoi(portal, DOIS[2]!);
    expect(bering).toMatchObject({
      language: 'en',
      west: 165,
      east: -160,
      license: 'CC BY-SA 4.0',
      time_start: '2015-06-01',
      time_end: '2019-09-30',
      published_at: '2020-01-01T00:00:00.000Z',
    });
    expect(bering.title).toBe('Permafrost temperature and coastal erosion around the Bering Strait: borehole and shoreline observations, 2015–2019');
    const antarctic = await recordByDoi(portal, '10.5072/CHINARE.Antarctic.2024.003');
    expect(antarctic).toMatchObject({ language: 'zh-hans', south: -80.4, north: -69.4, time_start: '2010-12-01', time_end: '2023-02-28' });
    expect(await recordByDoi(portal, DOIS[1]!)).toMatchObject({ license: 'CC BY-NC 4.0', west: -180, east: 180, north: 90, time_start: '1979-01-01', time_end: '2022-12-31' });

    // Chinese two characters, an English word (singular of the text's plural), both languages' titles.
    const glaciers = await search(portal, `q=${encodeURIComponent('冰川')}`);
    expect(glaciers.results.map((r) => r.doi)).toEqual([DOIS[0]]);
    expect(glaciers.facets.theme!.map((f) => f.value)).toContain('glacier');
    expect((await search(portal, 'q=glacier', 'en')).results.map((r) => r.title)).toEqual(['Glacier inventory of the Tibetan Plateau (2000–2020)']);
    expect((await search(portal, 'q=borehole', 'en')).results.map((r) => r.doi)).toEqual([DOIS[2]]);
    expect((await search(portal, `q=${encodeURIComponent('冻土')}`)).results.map((r) => r.title)).toEqual(['白令海峡两岸多年冻土温度与海岸侵蚀观测']);
    // Boxes: across the 180th meridian, and the North Pole's cap.
    expect((await search(portal, 'bbox=170,55,-170,66')).results.map((r) => r.doi).sort()).toEqual([DOIS[1], DOIS[2]].sort());
    expect((await search(portal, 'bbox=-180,85,180,90')).results.map((r) => r.doi)).toEqual([DOIS[1]]);
    expect((await search(portal, `place=${encodeURIComponent('east antarctica')}`)).results.map((r) => r.doi)).toEqual([DOIS[3]]);
    expect((await search(portal, 'fund=5')).count).toBe(1);
  }, 180_000);

  it('skips records already in the catalogue: a second import changes nothing', async () => {
    const before = await recordCount(portal);
    const { code, stdout } = await runPortalCli(portal, 'import-records', fixture, '--owner', 'datacentre');
    expect(code).toBe(0);
    expect(stdout).toContain('Imported 0, skipped 4, errors 0');
    expect(stdout).toContain(`record 1: skipped: DOI ${DOIS[0]} is already in the catalogue`);
    expect(await recordCount(portal)).toBe(before);
    expect((await search(portal, 'q=glacier')).count).toBe(1);
  }, 180_000);

  it('reads an OAI-PMH reply: deleted records skipped, records it cannot take listed with their position', async () => {
    const oai = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
  <ListRecords>
    <record><header status="deleted"><identifier>oai:datacite.org:1</identifier></header></record>
    <record><header><identifier>oai:datacite.org:2</identifier></header><metadata>
      <oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/"><payload>
        <resource xmlns="http://datacite.org/schema/kernel-4">
          <identifier identifierType="DOI">10.5072/QINGHAI.Lake.2022.002</identifier>
          <creators><creator><creatorName>张鹏</creatorName><givenName>Peng</givenName><familyName>Zhang</familyName></creator></creators>
          <titles><title xml:lang="zh">青海湖水位与面积逐月变化（1990—2022年）</title><title xml:lang="en" titleType="TranslatedTitle">Monthly water level and area of Qinghai Lake, 1990–2022</title></titles>
          <publicationYear>2022</publicationYear>
          <subjects><subject xml:lang="zh">湖泊</subject><subject xml:lang="en">lake</subject></subjects>
          <descriptions><description xml:lang="zh" descriptionType="Abstract">基于卫星测高与Landsat影像的青海湖逐月水位和湖泊面积。</description></descriptions>
          <geoLocations><geoLocation><geoLocationPoint><pointLongitude>100.2</pointLongitude><pointLatitude>36.9</pointLatitude></geoLocationPoint></geoLocation></geoLocations>
        </resource>
      </payload></oai_datacite>
    </metadata></record>
    <record><header><identifier>oai:datacite.org:3</identifier></header><metadata>
      <resource xmlns="http://datacite.org/schema/kernel-4"><titles><title>No identifier here</title></titles></resource>
    </metadata></record>
    <record><header><identifier>oai:datacite.org:4</identifier></header><metadata>
      <resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.5072/bad.box</identifier><titles><title>Upside-down box</title></titles>
        <geoLocations><geoLocation><geoLocationBox><westBoundLongitude>10</westBoundLongitude><eastBoundLongitude>20</eastBoundLongitude><southBoundLatitude>50</southBoundLatitude><northBoundLatitude>40</northBoundLatitude></geoLocationBox></geoLocation></geoLocations>
      </resource>
    </metadata></record>
    <record><header><identifier>oai:datacite.org:5</identifier></header><metadata>
      <resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.5072/tpdc.glacier.2021.001</identifier><titles><title>The glacier inventory again, DOI in lower case</title></titles></resource>
    </metadata></record>
  </ListRecords>
</OAI-PMH>`;
    const before = await recordCount(portal);
    const { code, stdout } = await runPortalCli(portal, 'import-records', await writeFile('oai.xml', oai), '--owner', 'datacentre');
    expect(code, stdout).toBe(1);
    expect(stdout).toContain('Imported 1, skipped 2, errors 2 of 5 record(s)');
    expect(stdout).toContain('record 1: skipped: deleted at the source');
    expect(stdout).toContain('record 3: error: no DOI');
    expect(stdout).toContain('record 4: error: north:');
    expect(stdout).toContain('record 5: skipped: DOI 10.5072/tpdc.glacier.2021.001 is already in the catalogue');
    expect(await recordCount(portal)).toBe(before + 1);
    const lake = await recordByDoi(portal, '10.5072/QINGHAI.Lake.2022.002');
    expect(lake).toMatchObject({ west: 100.2, east: 100.2, south: 36.9, north: 36.9, published_at: '2022-01-01T00:00:00.000Z' });
    expect((await search(portal, `q=${encodeURIComponent('青海湖')}`)).results.map((r) => r.id)).toEqual([lake.id]);
  }, 180_000);
});

describe('npm run portal -- export-records, and back', () => {
  it('writes every published record, and a fresh portal importing the file holds the same catalogue', async () => {
    const file = path.join(portal.config.dataDir, 'catalogue.json');
    // The distributor's organisation and address in the record's other language travel with its translation (issue 16).
    const distributor = {
      dist_unit: 'National Tibetan Plateau Data Center',
      dist_address: '16 Lincui Road',
      dist_city: 'Beijing',
      dist_province: 'Beijing Municipality',
      dist_country: 'China',
    };
    const { id: glacierId } = await recordByDoi(portal, DOIS[0]!);
    await portal.database.db.updateTable('metadata_i18n').set(distributor).where('metadata_id', '=', glacierId).where('language', '=', 'en').execute();
    const exported = await runPortalCli(portal, 'export-records', file);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('Exported 5 published record(s)');
    const records = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, any>[];
    expect(records).toHaveLength(5);
    const glacier = records.find((r) => r.doi === DOIS[0])!;
    expect(glacier).toMatchObject({ status: 'published', title: '青藏高原冰川编目数据集（2000—2020年）', fund: expect.arrayContaining(['5']) });
    expect(glacier.keywords).toContainEqual({ name: '冰川', type: 'theme', language: 'zh-hans', translations: [{ language: 'en', name: 'glacier' }] });
    expect(glacier.authors[0]).toMatchObject({ name: '李新', role: 'resourceProvider', translations: [expect.objectContaining({ language: 'en', name: 'Xin Li' })] });
    expect(glacier.translations).toEqual([expect.objectContaining({ language: 'en', ...distributor })]);

    const fresh = await createTestPortal();
    try {
      await fresh.accounts.createActiveUser({ username: 'newcentre', email: 'newcentre@example.org', password: 'operator-pass-1', isStaff: true });
      const imported = await runPortalCli(fresh, 'import-records', file, '--owner', 'newcentre');
      expect(imported.code, imported.stdout).toBe(0);
      expect(imported.stdout).toContain('Imported 5, skipped 0, errors 0 of 5 record(s) (portal-json)');
      for (const original of records) {
        const copy = await recordByDoi(fresh, original.doi);
        // The same record (its id too), owned by the new portal's account; views are counted anew.
        const { owner_id, owner, owner_name, created_at, updated_at, hit_count, translations, fund, keywords, authors, funds, ...fields } = original;
        // The review facts travel in the file but stay out of the public record reply.
        const { topic_review_status, is_pre_review, review_round, published_without_review, unpublish_reason, ...shown } = fields;
        expect(copy).toMatchObject({ ...shown, owner_name: 'newcentre' });
        expect(copy).not.toHaveProperty('review_round');
        const reviewFacts = await fresh.database.db
          .selectFrom('metadata')
          .select(['topic_review_status', 'is_pre_review', 'review_round', 'published_without_review', 'unpublish_reason'])
          .where('id', '=', copy.id)
          .executeTakeFirstOrThrow();
        expect(reviewFacts).toEqual({ topic_review_status, is_pre_review, review_round, published_without_review, unpublish_reason });
        expect(copy.translations.map(({ id, ...t }: Record<string, unknown>) => t)).toEqual(translations.map(({ id, ...t }: Record<string, unknown>) => t));
        expect(await keywordsOf(fresh, copy.id)).toEqual(await keywordsOf(portal, original.id));
        expect(await authorsOf(fresh, copy.id)).toEqual(await authorsOf(portal, original.id));
        expect(copy.fund.length).toBe(fund.length);
      }
      expect((await search(fresh, `q=${encodeURIComponent('冰川')}`)).results.map((r) => r.doi)).toEqual([DOIS[0]]);
      expect((await search(fresh, 'q=permafrost', 'en')).results.map((r) => r.doi)).toEqual([DOIS[2]]);
      expect((await search(fresh, 'bbox=170,55,-170,66')).count).toBe(2);

      // Imported again into the same portal: every record is already there (by DOI or id).
      const again = await runPortalCli(fresh, 'import-records', file, '--owner', 'newcentre');
      expect(again.stdout).toContain('Imported 0, skipped 5, errors 0');
    } finally {
      await fresh.close();
    }
  }, 300_000);
});
