import fs from 'node:fs';
import path from 'node:path';
import { translate } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OaiIndex } from '../src/modules/oai/oai-index.js';
import { readRecordsFile } from '../src/modules/records-io/records-file.js';
import { RecordsIoRepo } from '../src/modules/records-io/records-io.repo.js';
import { RecordsIoService } from '../src/modules/records-io/records-io.service.js';
import { SearchIndex } from '../src/modules/search/search-index.js';
import { xmllintErrors } from './exports-builders.js';
import { buildRecord, buildUser, buildExportRecord } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { addAuthor, authorForm, call, countRows, expectStatus, postResource, resourceUrl, setStatus } from './metadata-builders.js';

/**
 * Identifiers of people, organisations and funders (issue 17): ORCID iDs on authors, ROR IDs on
 * their affiliation and on the affiliation list, Crossref Funder IDs or ROR IDs on funds. Checked by
 * the shared rule (check digits, every written form in, one stored form out) on every write; staff
 * set them on shared entries in place; DataCite, schema.org and ISO 19139 carry them, valid against
 * the official schemas in ../shared/xsd; the DataCite importer reads them from DataCite's own full
 * example. A checkout without ../shared skips the schema and example checks and says so.
 */

const SHARED_XSD = path.resolve(import.meta.dirname, '../../../../shared/xsd');
const CATALOG = path.join(SHARED_XSD, 'catalog.xml');
const HAVE_SCHEMAS = fs.existsSync(CATALOG);
const WITHOUT = HAVE_SCHEMAS ? '' : ` (skipped: the official schemas are not here, ${SHARED_XSD} is missing)`;
const FULL_EXAMPLE = path.join(SHARED_XSD, 'schema.datacite.org/meta/kernel-4.5/example/datacite-example-full-v4.xml');
const SCHEMAS = {
  datacite45: 'http://schema.datacite.org/meta/kernel-4.5/metadata.xsd',
  datacite46: 'http://schema.datacite.org/meta/kernel-4.6/metadata.xsd',
  gmd: 'http://schemas.opengis.net/iso/19139/20070417/gmd/gmd.xsd',
};

let portal: TestPortal;
let owner: { id: string; token: string };
let staff: { id: string; token: string };
let stranger: { id: string; token: string };

const ZH = { 'accept-language': 'zh-hans' };

beforeAll(async () => {
  portal = await createTestPortal();
  owner = await buildUser(portal);
  staff = await buildUser(portal, { staff: true });
  stranger = await buildUser(portal);
  // xmllint (exports-builders' xmllintErrors) finds the published schema addresses in ../shared/xsd, offline.
  process.env.XML_CATALOG_FILES = CATALOG;
});
afterAll(async () => {
  await portal?.close();
});

/** A refused write: 400 with the field's message in the caller's language, and nothing written. */
async function expectRefused(name: string, body: Record<string, unknown>, field: string, key: string, table: string) {
  const before = await countRows(portal, table);
  for (const [headers, language] of [
    [EN, 'en'],
    [ZH, 'zh-hans'],
  ] as const) {
    const reply = expectStatus(await call(portal, 'POST', resourceUrl(name), owner.token, { body, headers }), 400);
    expect(reply[field], JSON.stringify(reply)).toEqual([translate(language, key)]);
  }
  expect(await countRows(portal, table)).toBe(before);
}

describe('ORCID iD on authors', () => {
  it('takes the address, the bare id and the 16 characters without hyphens, and stores the bare id', async () => {
    const byAddress = await postResource(portal, owner.token, 'author', authorForm({ orcid: 'https://orcid.org/0000-0002-1694-233x' }));
    expect(byAddress.orcid).toBe('0000-0002-1694-233X');
    const bare = await postResource(portal, owner.token, 'author', authorForm({ orcid: '0000000218250097' }));
    expect(bare.orcid).toBe('0000-0002-1825-0097');
    const stored = await portal.database.db.selectFrom('authors').select('orcid').where('id', '=', bare.id).executeTakeFirstOrThrow();
    expect(stored.orcid).toBe('0000-0002-1825-0097');
    const none = await postResource(portal, owner.token, 'author', authorForm());
    expect(none.orcid).toBe('');
  });

  it('refuses a wrong check digit at the field, in both languages, and writes nothing', async () => {
    await expectRefused('author', authorForm({ orcid: '0000-0002-1825-0098' }), 'orcid', 'identifiers.orcidInvalid', 'authors');
    await expectRefused('author', authorForm({ orcid: 'https://orcid.org/0000-0002-1694-2330' }), 'orcid', 'identifiers.orcidInvalid', 'authors');
    await expectRefused('author', authorForm({ orcid: 'https://example.org/0000-0002-1825-0097' }), 'orcid', 'identifiers.orcidInvalid', 'authors');
  });

  it('is changed and cleared with PATCH; a form post carries it too', async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm({ orcid: '0000-0002-1825-0097' }), true);
    expect(author.orcid).toBe('0000-0002-1825-0097');
    const changed = expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), owner.token, { body: { orcid: 'orcid.org/0000-0001-5727-2427' } }), 200);
    expect(changed.orcid).toBe('0000-0001-5727-2427');
    const wrong = expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), owner.token, { body: { orcid: '0000-0001-5727-2428' }, headers: ZH }), 400);
    expect(wrong.orcid).toEqual([translate('zh-hans', 'identifiers.orcidInvalid')]);
    const cleared = expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), owner.token, { body: { orcid: '' } }), 200);
    expect(cleared.orcid).toBe('');
  });
});

describe('ROR IDs on affiliations', () => {
  it("an author's affiliation: the address in any case in, the bare id stored; a wrong checksum refused", async () => {
    const author = await postResource(portal, owner.token, 'author', authorForm({ affiliation_ror: 'https://ror.org/03YRM5C26' }));
    expect(author.affiliation_ror).toBe('03yrm5c26');
    await expectRefused('author', authorForm({ affiliation_ror: 'https://ror.org/03yrm5c27' }), 'affiliation_ror', 'identifiers.rorInvalid', 'authors');
    await expectRefused('author', authorForm({ affiliation_ror: '03yrl5c26' }), 'affiliation_ror', 'identifiers.rorInvalid', 'authors');
  });

  it('an entry of the shared affiliation list', async () => {
    const entry = await postResource(portal, owner.token, 'affiliation', { name: '中国科学院青藏高原研究所', name_en: 'ITP CAS', ror: '04wxnsj81' });
    expect(entry.ror).toBe('04wxnsj81');
    await expectRefused('affiliation', { name: '某单位', ror: '04wxnsj82' }, 'ror', 'identifiers.rorInvalid', 'affiliations');
  });
});

describe('funder identifiers on funds', () => {
  it('a Crossref Funder ID (DOI, its address or doi:) or a ROR ID; anything else refused', async () => {
    const crossref = await postResource(portal, owner.token, 'fund', { name: '国家自然科学基金', name_en: 'NSFC', funder_identifier: 'https://doi.org/10.13039/501100001809' });
    expect(crossref.funder_identifier).toBe('10.13039/501100001809');
    const ror = await postResource(portal, owner.token, 'fund', { name: '某基金会', name_en: 'A foundation', funder_identifier: 'https://ror.org/03yrm5c26' });
    expect(ror.funder_identifier).toBe('03yrm5c26');
    await expectRefused('fund', { name: '基金', name_en: 'Fund', funder_identifier: '10.13039/NSFC' }, 'funder_identifier', 'identifiers.funderInvalid', 'funds');
    await expectRefused('fund', { name: '基金', name_en: 'Fund', funder_identifier: 'https://ror.org/03yrm5c27' }, 'funder_identifier', 'identifiers.funderInvalid', 'funds');
    await expectRefused('fund', { name: '基金', name_en: 'Fund', funder_identifier: '10.5555/501100001809' }, 'funder_identifier', 'identifiers.funderInvalid', 'funds');
  });
});

describe('staff set identifiers on shared entries', () => {
  it('in place on an author of a published record; its creator may not, nor may another user', async () => {
    const record = await buildRecord(portal, { owner, title: '冰川物质平衡' });
    const { author } = await addAuthor(portal, owner.token, record);
    await setStatus(portal, record, 'published');
    const body = { orcid: '0000-0002-1825-0097', affiliation_ror: 'https://ror.org/04wxnsj81' };
    // The existing rules of shared entries: the creator's entry used by a published record is locked, a stranger has no right.
    expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), owner.token, { body }), 409);
    expect([403, 404]).toContain((await call(portal, 'PATCH', resourceUrl('author', author.id), stranger.token, { body })).statusCode);
    const changed = expectStatus(await call(portal, 'PATCH', resourceUrl('author', author.id), staff.token, { body }), 200);
    expect(changed).toMatchObject({ id: author.id, orcid: '0000-0002-1825-0097', affiliation_ror: '04wxnsj81' });
    expect(changed.copied_from).toBeUndefined();
    const links = expectStatus(await call(portal, 'GET', `${resourceUrl('meta-author')}?metadata__id=${record}`, owner.token), 200);
    expect(links.results[0].author_detail).toMatchObject({ orcid: '0000-0002-1825-0097', affiliation_ror: '04wxnsj81' });
  });

  it("on a fund (a user's own copy when it is in their draft, as every shared entry)", async () => {
    const record = await buildRecord(portal, { owner, title: '冻土温度' });
    const fund = await postResource(portal, owner.token, 'fund', { name: '冻土项目', name_en: 'Permafrost project', metadata: record });
    const own = expectStatus(await call(portal, 'PATCH', resourceUrl('fund', fund.id), owner.token, { body: { funder_identifier: '10.13039/501100001809' } }), 200);
    expect(own).toMatchObject({ id: fund.id, funder_identifier: '10.13039/501100001809' });
    await setStatus(portal, record, 'published');
    const byStaff = expectStatus(await call(portal, 'PATCH', resourceUrl('fund', fund.id), staff.token, { body: { funder_identifier: 'https://ror.org/03yrm5c26' } }), 200);
    expect(byStaff).toMatchObject({ id: fund.id, funder_identifier: '03yrm5c26' });
  });
});

describe(`exports carry the identifiers${WITHOUT}`, () => {
  let id: string;
  let described: string;

  beforeAll(async () => {
    id = await buildExportRecord(
      portal,
      owner.id,
      {
        key: 'identified',
        language: 'zh-hans',
        zh: { title: '青藏高原冰川编目', abstract: '冰川边界。' },
        en: { title: 'Glacier inventory of the Tibetan Plateau', abstract: 'Glacier outlines.' },
        authors: [
          ['张冰川', 'Zhang Bingchuan'],
          ['李冻土', 'Li Dongtu'],
        ],
        published: '2024-03-01',
        doi: '10.11888/Glacio.Ids.1',
        time: ['2020-01-01', '2021-12-31'],
      },
      {
        affiliation: ['中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
        fund: ['国家自然科学基金', 'National Natural Science Foundation of China', '41671056'],
      },
    );
    // Staff set them through the API, as on any shared entry.
    const links = expectStatus(await call(portal, 'GET', `${resourceUrl('meta-author')}?metadata__id=${id}`, staff.token), 200);
    const first = links.results.find((l: { author_detail: { name: string } }) => l.author_detail.name === '张冰川').author_id;
    expectStatus(
      await call(portal, 'PATCH', resourceUrl('author', first), staff.token, { body: { orcid: 'https://orcid.org/0000-0002-1825-0097', affiliation_ror: '034t30j35' } }),
      200,
    );
    const fundId = (await portal.database.db.selectFrom('meta_fund').select('fund_id').where('metadata_id', '=', id).executeTakeFirstOrThrow()).fund_id;
    expectStatus(await call(portal, 'PATCH', resourceUrl('fund', fundId), staff.token, { body: { funder_identifier: 'https://doi.org/10.13039/501100001809' } }), 200);

    described = await buildExportRecord(portal, owner.id, {
      key: 'described',
      language: 'zh-hans',
      zh: { title: '全新世湖泊沉积' },
      en: { title: 'Holocene lake sediments' },
      published: '2023-01-28',
      doi: '10.11888/Described.Ids.1',
    });
    await portal.database.db.updateTable('metadata').set({ time_description: '全新世中期，约距今 6000 年' }).where('id', '=', described).execute();
    await portal.database.db.updateTable('metadata_i18n').set({ time_description: 'Mid-Holocene, about 6000 years before present' }).where('metadata_id', '=', described).execute();
  });

  const exported = async (recordId: string, format: string) => {
    const reply = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${recordId}/export/?format=${format}&lang=en` });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.body;
  };

  it.skipIf(!HAVE_SCHEMAS)('DataCite: nameIdentifier ORCID, affiliationIdentifier ROR, funderIdentifier; valid 4.5 and 4.6', async () => {
    const xml = await exported(id, 'datacite');
    expect(xml).toMatch(
      /<creatorName[^>]*>张冰川<\/creatorName>[\s\S]*?<nameIdentifier nameIdentifierScheme="ORCID" schemeURI="https:\/\/orcid.org">https:\/\/orcid.org\/0000-0002-1825-0097<\/nameIdentifier>\s*<affiliation affiliationIdentifier="https:\/\/ror.org\/034t30j35" affiliationIdentifierScheme="ROR" schemeURI="https:\/\/ror.org">中国科学院青藏高原研究所<\/affiliation>\s*<affiliation affiliationIdentifier="https:\/\/ror.org\/034t30j35"[^>]*>Institute of Tibetan Plateau Research, CAS<\/affiliation>/,
    );
    // The other author has none: no identifier is made up for them.
    expect(xml.match(/<nameIdentifier /g)?.length).toBe(xml.match(/张冰川<\/(creator|contributor)Name>/g)?.length);
    expect(xml).toMatch(
      /<funderName>National Natural Science Foundation of China<\/funderName>\s*<funderIdentifier funderIdentifierType="Crossref Funder ID">https:\/\/doi.org\/10.13039\/501100001809<\/funderIdentifier>\s*<awardNumber>41671056<\/awardNumber>/,
    );
    expect(xmllintErrors(xml, SCHEMAS.datacite45)).toBe('');
    expect(xmllintErrors(xml, SCHEMAS.datacite46)).toBe('');
  });

  it.skipIf(!HAVE_SCHEMAS)('DataCite: a funder ROR ID as funderIdentifierType ROR, valid', async () => {
    const fundId = (await portal.database.db.selectFrom('meta_fund').select('fund_id').where('metadata_id', '=', id).executeTakeFirstOrThrow()).fund_id;
    expectStatus(await call(portal, 'PATCH', resourceUrl('fund', fundId), staff.token, { body: { funder_identifier: '01h0zpd94' } }), 200);
    const xml = await exported(id, 'datacite');
    expect(xml).toContain('<funderIdentifier funderIdentifierType="ROR" schemeURI="https://ror.org">https://ror.org/01h0zpd94</funderIdentifier>');
    expect(xmllintErrors(xml, SCHEMAS.datacite45)).toBe('');
    expectStatus(await call(portal, 'PATCH', resourceUrl('fund', fundId), staff.token, { body: { funder_identifier: '10.13039/501100001809' } }), 200);
  });

  it.skipIf(!HAVE_SCHEMAS)('DataCite: a time told only in words is an Other date with its words as dateInformation, valid, and read back', async () => {
    const xml = await exported(described, 'datacite');
    expect(xml).toContain('<date dateType="Other" dateInformation="全新世中期，约距今 6000 年"/>');
    expect(xml).toContain('<date dateType="Other" dateInformation="Mid-Holocene, about 6000 years before present"/>');
    expect(xml).not.toContain('dateType="Collected"');
    expect(xmllintErrors(xml, SCHEMAS.datacite45)).toBe('');
    expect(xmllintErrors(xml, SCHEMAS.datacite46)).toBe('');
    const [candidate] = readRecordsFile(xml).candidates;
    const value = (candidate as { value: { time_description: string; translations: { time_description: string }[] } }).value;
    expect(value.time_description).toBe('全新世中期，约距今 6000 年');
    expect(value.translations[0]!.time_description).toBe('Mid-Holocene, about 6000 years before present');
    // A record with a start and an end says so as Collected, without words.
    expect(await exported(id, 'datacite')).not.toContain('dateType="Other"');
  });

  it("schema.org: the ORCID iD and ROR ID as sameAs and identifier, the funder ID as identifier and sameAs, the award number its MonetaryGrant's", async () => {
    const dataset = JSON.parse(await exported(id, 'schemaorg'));
    const zhang = [...dataset.creator].find((p: { name: string }) => p.name === 'Zhang Bingchuan');
    expect(zhang).toMatchObject({
      '@type': 'Person',
      sameAs: 'https://orcid.org/0000-0002-1825-0097',
      identifier: 'https://orcid.org/0000-0002-1825-0097',
      affiliation: { '@type': 'Organization', name: 'Institute of Tibetan Plateau Research, CAS', sameAs: 'https://ror.org/034t30j35' },
    });
    const li = [...dataset.creator].find((p: { name: string }) => p.name === 'Li Dongtu');
    expect(li.sameAs).toBeUndefined();
    const nsfc = {
      '@type': 'Organization',
      name: 'National Natural Science Foundation of China',
      identifier: 'https://doi.org/10.13039/501100001809',
      sameAs: 'https://doi.org/10.13039/501100001809',
    };
    expect(dataset.funder).toEqual([nsfc]);
    expect(dataset.funding).toEqual([{ '@type': 'MonetaryGrant', identifier: '41671056', name: 'National Natural Science Foundation of China', funder: nsfc }]);
  });

  it.skipIf(!HAVE_SCHEMAS)("ISO 19139: the ORCID iD as a CI_OnlineResource of the party's contact, valid against gmd.xsd", async () => {
    const xml = await exported(id, 'iso19139');
    expect(xml).toMatch(
      /<gmd:CI_ResponsibleParty>\s*<gmd:individualName[\s\S]*?张冰川[\s\S]*?<gmd:contactInfo>\s*<gmd:CI_Contact>\s*<gmd:onlineResource>\s*<gmd:CI_OnlineResource>\s*<gmd:linkage>\s*<gmd:URL>https:\/\/orcid.org\/0000-0002-1825-0097<\/gmd:URL>\s*<\/gmd:linkage>\s*<gmd:protocol>\s*<gco:CharacterString>WWW:LINK<\/gco:CharacterString>\s*<\/gmd:protocol>\s*<gmd:name>\s*<gco:CharacterString>ORCID<\/gco:CharacterString>/,
    );
    expect(xml).not.toMatch(/李冻土[\s\S]{0,400}orcid\.org/);
    expect(xmllintErrors(xml, SCHEMAS.gmd)).toBe('');
  });
});

describe(`import from DataCite XML${WITHOUT}`, () => {
  it.skipIf(!HAVE_SCHEMAS)("DataCite's full 4.5 example: the creator's ORCID iD, the affiliation's ROR ID and the Crossref Funder ID are kept", async () => {
    const { db, dialect } = portal.database;
    const service = new RecordsIoService(new RecordsIoRepo(db, dialect), [new SearchIndex(db, dialect), new OaiIndex(db)]);
    const { candidates } = readRecordsFile(fs.readFileSync(FULL_EXAMPLE, 'utf8'));
    const summary = await service.importRecords(candidates, { ownerId: staff.id, source: 'datacite-example-full-v4.xml' });
    expect(summary.errors).toEqual([]);
    expect(summary.imported).toBe(1);
    const record = await db.selectFrom('metadata').select('id').where('doi', '=', '10.82433/B09Z-4K37').executeTakeFirstOrThrow();
    const authors = await db
      .selectFrom('meta_author')
      .innerJoin('authors', 'authors.id', 'meta_author.author_id')
      .select(['authors.name', 'authors.orcid', 'authors.affiliation_ror', 'meta_author.role'])
      .where('meta_author.metadata_id', '=', record.id)
      .orderBy('meta_author.sort')
      .execute();
    expect(authors.find((a) => a.role === 'resourceProvider' && a.name === 'ExampleFamilyName, ExampleGivenName')).toMatchObject({
      orcid: '0000-0001-5727-2427',
      affiliation_ror: '04wxnsj81',
    });
    // The organisation named as a creator has a ROR ID of its own as nameIdentifier, no ORCID iD.
    expect(authors.find((a) => a.name === 'ExampleOrganization')).toMatchObject({ orcid: '', affiliation_ror: '' });
    const funds = await db
      .selectFrom('meta_fund')
      .innerJoin('funds', 'funds.id', 'meta_fund.fund_id')
      .select(['funds.name', 'funds.funder_identifier'])
      .where('meta_fund.metadata_id', '=', record.id)
      .execute();
    expect(funds).toEqual([{ name: 'Example AwardTitle', funder_identifier: '10.13039/501100000780' }]);
    // And out again, as DataCite wrote them.
    const xml = (await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${record.id}/export/?format=datacite` })).body;
    expect(xml).toContain('<nameIdentifier nameIdentifierScheme="ORCID" schemeURI="https://orcid.org">https://orcid.org/0000-0001-5727-2427</nameIdentifier>');
    expect(xml).toContain('affiliationIdentifier="https://ror.org/04wxnsj81"');
    expect(xml).toContain('<funderIdentifier funderIdentifierType="Crossref Funder ID">https://doi.org/10.13039/501100000780</funderIdentifier>');
    expect(xmllintErrors(xml, SCHEMAS.datacite45)).toBe('');
  });

  it('an identifier whose check digits fail is left out, the record still imported', async () => {
    const xml = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'identifiers-bad-check-digits.xml'), 'utf8');
    const { candidates } = readRecordsFile(xml);
    const value = (candidates[0] as { value: { authors: { orcid: string; affiliation_ror: string }[]; funds: { name: string; funder_identifier?: string }[] } }).value;
    expect(value.authors.map((a) => [a.orcid, a.affiliation_ror])).toEqual([['', '']]);
    expect(value.funds).toHaveLength(1);
    expect(value.funds[0]!.funder_identifier ?? '').toBe('');
  });
});
