import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExportRecord, buildUser, linkAuthors, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { addLine, apply } from './orders-builders.js';

/**
 * Who the citations name (issue 16): the creators of the shared rule (rules/creators.ts: resource
 * provider, principal investigator, producer, owner), exactly those and in the record's author order,
 * in every format (GB/T 7714, APA, RIS, BibTeX, CSL-JSON, DataCite, ISO 19139, schema.org, DCAT, the
 * landing page's citation_author tags, the voucher); everyone else a contributor under their roles;
 * the data centre as the author of a record with no creator.
 */
let portal: TestPortal;
let webDist: string;
let owner: Person;
const ids = {} as Record<'issue' | 'cast' | 'nobody', string>;

type Link = [zh: string, en: string, role: string];
const WANG_FANG: [string, string] = ['王芳', 'Wang Fang'];
const LI_WEI: [string, string] = ['李伟', 'Li Wei'];

/** Links people to a record in this order (sort 0, 1, ...): one author row per Chinese name. */
const linkPeople = (id: string, links: Link[]) =>
  linkAuthors(
    portal,
    id,
    links.map(([zh, en, role], sort) => ({ name: zh, nameEn: en, affiliation: [`${zh}研究所`, `Institute of ${en}`], role, sort, eventDate: '2024-05-01' })),
    owner.id,
  );

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  owner = await buildUser(portal);
  const record = (key: string, doi: string) => ({
    key,
    language: 'zh-hans' as const,
    zh: { title: `冰川编目数据集 ${key}`, abstract: '冰川编目。' },
    en: { title: `Glacier inventory ${key}`, abstract: 'A glacier inventory.' },
    themes: [['冰川', 'glacier']] as [string, string][],
    license: 'CC BY 4.0',
    sharing: 'online',
    published: '2024-03-01',
    box: [80, 30, 90, 35] as [number, number, number, number],
    doi,
    files: [1000],
  });
  // The issue's record: 王芳 on the Author Information tab as manager, 李伟 the data resource provider.
  ids.issue = await buildExportRecord(portal, owner.id, record('issue', '10.11888/Creators.1'));
  await linkPeople(ids.issue, [
    [...WANG_FANG, 'manager'],
    [...LI_WEI, 'resourceProvider'],
  ]);
  // Every role: the creators are not the providers alone, and their order is the record's.
  ids.cast = await buildExportRecord(portal, owner.id, record('cast', '10.11888/Creators.2'));
  await linkPeople(ids.cast, [
    [...WANG_FANG, 'manager'],
    [...LI_WEI, 'resourceProvider'],
    ['陈明', 'Chen Ming', 'principalInvestigator'],
    ['周敏', 'Zhou Min', 'contactParty'],
    ['欧阳丽', 'Ouyang Li', 'producer'],
    ['孙强', 'Sun Qiang', 'owner'],
    ['吴刚', 'Wu Gang', 'metadataAuthor'],
    [...LI_WEI, 'contactParty'],
    ['陈明', 'Chen Ming', 'resourceProvider'],
  ]);
  // No one in a creator role.
  ids.nobody = await buildExportRecord(portal, owner.id, record('nobody', '10.11888/Creators.3'));
  await linkPeople(ids.nobody, [['周敏', 'Zhou Min', 'contactParty']]);
});

afterAll(async () => {
  await portal?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url, headers });
async function exported(id: string, format: string, lang: 'en' | 'zh-hans') {
  const response = await get(`/api/metadata/metadata/${id}/export/?format=${format}&lang=${lang}`);
  if (response.statusCode !== 200) throw new Error(`${format} of ${id}: ${response.statusCode} ${response.body}`);
  return response.body;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, isArray: (_n, _p, _l, isAttribute) => !isAttribute });
/* eslint-disable @typescript-eslint/no-explicit-any */
const at = (node: any, ...names: string[]): any[] => names.reduce<any[]>((nodes, name) => nodes.flatMap((n) => n?.[name] ?? []), [node]);
const textOf = (node: any): string => (typeof node === 'string' ? node : (node?.['#text'] ?? ''));

/** The creators as each language's citations give them: Chinese names in Chinese, romanized in English. */
const CAST_CREATORS = {
  'zh-hans': [
    { family: '李', given: '伟' },
    { family: '陈', given: '明' },
    { family: '欧阳', given: '丽' },
    { family: '孙', given: '强' },
  ],
  en: [
    { family: 'Li', given: 'Wei' },
    { family: 'Chen', given: 'Ming' },
    { family: 'Ouyang', given: 'Li' },
    { family: 'Sun', given: 'Qiang' },
  ],
};
const ISSUE_CREATORS = { 'zh-hans': [{ family: '李', given: '伟' }], en: [{ family: 'Li', given: 'Wei' }] };
const CENTRE = { 'zh-hans': '三极科学数据门户', en: 'Three Poles Data Portal' };

/** The authors of the record as RIS, BibTeX and CSL-JSON give them, read by citation-js. */
async function referenceAuthors(id: string, language: 'en' | 'zh-hans') {
  const authors = (data: unknown[]) => {
    expect(data).toHaveLength(1);
    // An organisation is one name: a literal in CSL, a family name without a given name in RIS and BibTeX.
    return ((data[0] as Record<string, unknown>).author as Record<string, string>[]).map((a) =>
      a.literal || !a.given ? { literal: a.literal || a.family } : { family: a.family, given: a.given },
    );
  };
  return {
    ris: authors((await Cite.async(await exported(id, 'ris', language), { forceType: '@ris/file' })).data),
    bibtex: authors((await Cite.async(await exported(id, 'bibtex', language), { forceType: '@biblatex/text' })).data),
    csl: authors(JSON.parse(await exported(id, 'csl', language))),
  };
}

describe('the citations name exactly the creators, in the record order', () => {
  it('RIS, BibTeX and CSL-JSON in both languages', async () => {
    for (const language of ['zh-hans', 'en'] as const) {
      for (const [id, expected] of [
        [ids.cast, CAST_CREATORS[language]],
        [ids.issue, ISSUE_CREATORS[language]],
        [ids.nobody, [{ literal: CENTRE[language] }]],
      ] as const) {
        const found = await referenceAuthors(id, language);
        expect(found, `${id} ${language}`).toEqual({ ris: expected, bibtex: expected, csl: expected });
      }
    }
  });

  it('GB/T 7714 and APA', async () => {
    expect(await exported(ids.cast, 'gbt7714', 'zh-hans')).toMatch(/^李伟, 陈明, 欧阳丽, 等\. 冰川编目数据集 cast\[DS\/OL\]/);
    expect(await exported(ids.cast, 'gbt7714', 'en')).toMatch(/^LI W, CHEN M, OUYANG L, et al\. Glacier inventory cast\[DS\/OL\]/);
    expect(await exported(ids.cast, 'apa', 'en')).toMatch(/^Li, W\., Chen, M\., Ouyang, L\., & Sun, Q\. \(2024\)\. Glacier inventory cast \[Data set\]/);
    expect(await exported(ids.issue, 'gbt7714', 'zh-hans')).toMatch(/^李伟\. 冰川编目数据集 issue\[DS\/OL\]/);
    expect(await exported(ids.issue, 'apa', 'en')).toMatch(/^Li, W\. \(2024\)\. Glacier inventory issue \[Data set\]/);
    // No creator: the data centre is the author (an organisation, not split into names).
    expect(await exported(ids.nobody, 'gbt7714', 'zh-hans')).toMatch(/^三极科学数据门户\. 冰川编目数据集 nobody\[DS\/OL\]/);
    expect(await exported(ids.nobody, 'apa', 'en')).toMatch(/^Three Poles Data Portal\. \(2024\)\. Glacier inventory nobody \[Data set\]/);
  });
});

describe('DataCite: the creators, and everyone else a contributor of their type', () => {
  const read = async (id: string) => at(xml.parse(await exported(id, 'datacite', 'en')), 'resource')[0];
  const contributors = (resource: any) => at(resource, 'contributors', 'contributor').map((c) => [c['@contributorType'], textOf(at(c, 'contributorName')[0])]);

  it('lists the creators in order and every role with a contributorType', async () => {
    const resource = await read(ids.cast);
    const creators = at(resource, 'creators', 'creator');
    expect(creators.map((c) => [textOf(at(c, 'creatorName')[0]), textOf(at(c, 'familyName')[0]), textOf(at(c, 'givenName')[0])])).toEqual([
      ['李伟', 'Li', 'Wei'],
      ['陈明', 'Chen', 'Ming'],
      ['欧阳丽', 'Ouyang', 'Li'],
      ['孙强', 'Sun', 'Qiang'],
    ]);
    expect(contributors(resource)).toEqual([
      ['DataManager', '王芳'],
      ['ContactPerson', '李伟'],
      ['ProjectLeader', '陈明'],
      ['ContactPerson', '周敏'],
      ['Producer', '欧阳丽'],
      ['RightsHolder', '孙强'],
      // A metadata author has no type of their own; still named.
      ['Other', '吴刚'],
    ]);
    const issue = await read(ids.issue);
    expect(at(issue, 'creators', 'creator').map((c) => textOf(at(c, 'creatorName')[0]))).toEqual(['李伟']);
    expect(contributors(issue)).toEqual([['DataManager', '王芳']]);
  });

  it('names the data centre as the creator of a record with no creator role', async () => {
    const resource = await read(ids.nobody);
    expect(at(resource, 'creators', 'creator', 'creatorName').map((n) => [n['@nameType'], textOf(n)])).toEqual([['Organizational', CENTRE.en]]);
    expect(contributors(resource)).toEqual([['ContactPerson', '周敏']]);
  });
});

describe('ISO 19139: the cited parties with their roles', () => {
  const read = async (id: string) => at(xml.parse(await exported(id, 'iso19139', 'en')), 'MD_Metadata')[0];
  const parties = (nodes: any[]) =>
    nodes.map((p) => [
      textOf(at(p, 'individualName', 'CharacterString')[0]) || textOf(at(p, 'organisationName', 'CharacterString')[0]),
      at(p, 'role', 'CI_RoleCode')[0]['@codeListValue'],
    ]);

  it('gives the creators first in their order, then the others; the metadata author is the metadata contact', async () => {
    const metadata = await read(ids.cast);
    expect(parties(at(metadata, 'identificationInfo', 'MD_DataIdentification', 'citation', 'CI_Citation', 'citedResponsibleParty', 'CI_ResponsibleParty'))).toEqual([
      ['李伟', 'originator'],
      ['李伟', 'pointOfContact'],
      ['陈明', 'principalInvestigator'],
      ['陈明', 'originator'],
      ['欧阳丽', 'originator'],
      ['孙强', 'owner'],
      ['王芳', 'custodian'],
      ['周敏', 'pointOfContact'],
    ]);
    expect(parties(at(metadata, 'contact', 'CI_ResponsibleParty')).slice(1)).toEqual([['吴刚', 'author']]);
    const nobody = await read(ids.nobody);
    expect(parties(at(nobody, 'identificationInfo', 'MD_DataIdentification', 'citation', 'CI_Citation', 'citedResponsibleParty', 'CI_ResponsibleParty'))).toEqual([
      ['周敏', 'pointOfContact'],
      [CENTRE['zh-hans'], 'originator'],
    ]);
  });
});

describe('schema.org and DCAT: creator and contributor', () => {
  it('schema.org names the creators, the other people as contributors', async () => {
    const dataset = JSON.parse(await exported(ids.cast, 'schemaorg', 'en'));
    expect(dataset.creator.map((c: any) => [c['@type'], c.name])).toEqual([
      ['Person', 'Li Wei'],
      ['Person', 'Chen Ming'],
      ['Person', 'Ouyang Li'],
      ['Person', 'Sun Qiang'],
    ]);
    expect(dataset.contributor.map((c: any) => c.name)).toEqual(['Wang Fang', 'Zhou Min', 'Wu Gang']);
    const issue = JSON.parse(await exported(ids.issue, 'schemaorg', 'zh-hans'));
    expect([issue.creator.map((c: any) => c.name), issue.contributor.map((c: any) => c.name)]).toEqual([['李伟'], ['王芳']]);
    const nobody = JSON.parse(await exported(ids.nobody, 'schemaorg', 'en'));
    expect(nobody.creator).toEqual([{ '@type': 'Organization', name: CENTRE.en }]);
  });

  it('DCAT: dct:creator and dct:contributor', async () => {
    const names = (people: any[]) => people.map((p) => p['foaf:name'].find((n: any) => n['@language'] === 'en')['@value']);
    const dataset = JSON.parse(await exported(ids.cast, 'dcat', 'en'));
    expect(names(dataset['dct:creator'])).toEqual(['Li Wei', 'Chen Ming', 'Ouyang Li', 'Sun Qiang']);
    expect(names(dataset['dct:contributor'])).toEqual(['Wang Fang', 'Zhou Min', 'Wu Gang']);
    const nobody = JSON.parse(await exported(ids.nobody, 'dcat', 'en'));
    expect([nobody['dct:creator'][0]['@type'], names(nobody['dct:creator'])]).toEqual(['foaf:Organization', [CENTRE.en]]);
  });
});

describe("the landing page's citation tags and the voucher", () => {
  const tags = (html: string, name: string) => [...html.matchAll(/<meta name="([^"]+)" content="([^"]*)" \/>/g)].filter(([, n]) => n === name).map(([, , c]) => c);

  it('citation_author: the creators in order, in the page language', async () => {
    for (const [prefix, expected] of [
      ['/en', ['Li Wei', 'Chen Ming', 'Ouyang Li', 'Sun Qiang']],
      ['', ['李伟', '陈明', '欧阳丽', '孙强']],
    ] as const) {
      const page = await get(`${prefix}/data/${ids.cast}/`, { accept: 'text/html' });
      expect(page.statusCode).toBe(200);
      expect(tags(page.body, 'citation_author'), prefix).toEqual(expected);
    }
    expect(tags((await get(`/data/${ids.issue}/`, { accept: 'text/html' })).body, 'citation_author')).toEqual(['李伟']);
    expect(tags((await get(`/en/data/${ids.nobody}/`, { accept: 'text/html' })).body, 'citation_author')).toEqual([CENTRE.en]);
  });

  it("the voucher's citation names the creators", async () => {
    const applicant = await buildUser(portal, { realname: 'Ada Applicant' });
    const line = expectStatus(await addLine(portal, applicant.token, ids.cast), 201).id;
    const order = expectStatus(await apply(portal, applicant.token, [line]), 201).order.orders[0];
    for (const [headers, expected] of [
      [EN, /^Li, W\., Chen, M\., Ouyang, L\., & Sun, Q\. \(2024\)/],
      [{ 'accept-language': 'zh-hans' }, /^李伟, 陈明, 欧阳丽, 等\./],
    ] as const) {
      const voucher = expectStatus(await call(portal, 'GET', `/api/account/voucher/${order.id}/`, applicant.token, { headers }), 200);
      expect(voucher.datasets[0].citation).toMatch(expected);
    }
  });
});
