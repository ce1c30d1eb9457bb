import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasIllegalText, stripIllegalText } from '@portal/shared';
import { xmllintErrors } from './exports-builders.js';
import { buildUser, buildExportRecord } from './factories.js';
import { createTestPortal, FORM, type TestPortal } from './helpers.js';

/**
 * Text stored before input refused the characters XML cannot carry (C0 controls but tab and line
 * breaks, U+FFFE / U+FFFF; issue 16): written into the rows directly, as an old row or an import
 * holds it, it must leave every XML the portal writes well-formed, without the character: the
 * DataCite and ISO 19139 exports and every OAI-PMH reply (a harvester stops for good at an
 * ill-formed page). And an OAI-PMH argument holding one is badArgument, in a well-formed reply.
 */

const OAI_XSD = path.join(import.meta.dirname, 'xsd/oai-pmh/harvest.xsd');
const HOST = 'portal.test';

let portal: TestPortal;
let id: string;
/** The characters written into the rows: every kind XML refuses (NUL too where the database keeps it). */
let bad: string[];
/** A text with the characters before each space: `dirty(text)` as stored, the text itself once they are gone. */
let dirty: (text: string) => string;

beforeAll(async () => {
  portal = await createTestPortal({ env: { OAI_PAGE_SIZE: '50' } });
  const owner = await buildUser(portal);
  // PostgreSQL refuses NUL in text; lone surrogates reach neither database (both drivers write UTF-8,
  // which has none): the shared rule's unit tests cover them, and the OAI arguments below.
  bad = ['\u0001', '\u0008', '\u000B', '\u000C', '\u000E', '\u001F', '\uFFFE', '\uFFFF', ...(portal.database.dialect === 'sqlite' ? ['\u0000'] : [])];
  dirty = (text: string) => text.replace(/ /g, `${bad.join('')} `);
  id = await buildExportRecord(
    portal,
    owner.id,
    {
      key: 'pasted',
      language: 'en',
      zh: { title: dirty('青藏高原 冰川 数据集'), abstract: dirty('青藏高原 冰川 的 年度 边界。') },
      en: { title: dirty('Glacier outlines of the Tibetan Plateau'), abstract: dirty('Annual glacier outlines pasted from a word processor.') },
      themes: [[dirty('冰川 编目'), dirty('glacier inventory')]],
      places: [[dirty('青藏 高原'), dirty('Tibetan Plateau')]],
      authors: [[dirty('张 冰川'), dirty('Zhang Bingchuan')]],
      license: 'CC BY 4.0',
      sharing: 'online',
      published: '2021-05-01',
      time: ['1990-01-01', '2020-12-31'],
      box: [73, 26, 105, 40],
      doi: '10.11888/Glacio.tpdc.270099',
      files: [1000],
    },
    {
      affiliation: [dirty('中国科学院 青藏高原 研究所'), dirty('Institute of Tibetan Plateau Research')],
      extraRoles: ['principalInvestigator'],
      fund: [dirty('冰川 项目'), dirty('Glacier project'), '41930000'],
      literature: [{ title: dirty('冰川 变化'), title_en: dirty('Glacier changes'), link: 'https://example.org/glacier-changes', type: 'reference', year: '2015' }],
      distributor: { unit: dirty('国家 数据 中心'), email: 'data@example.org', phone: '+86 10 8409 7000', address: dirty('林萃路 16号'), city: '北京', country: '中国' },
      dataSource: [dirty('Landsat 影像 解译。'), dirty('Visual interpretation of Landsat scenes.')],
    },
  );
  // Stored as written: the test is of text the input checks never saw.
  const stored = await portal.database.db.selectFrom('metadata').select('title').where('id', '=', id).executeTakeFirstOrThrow();
  expect(bad.every((c) => stored.title.includes(c))).toBe(true);
});

afterAll(async () => {
  await portal?.close();
});

/** A document that xmllint reads (and, with a schema, validates), with none of the characters left. */
function expectCleanXml(xml: string, schema?: string) {
  expect(xmllintErrors(xml, schema)).toBe('');
  expect(hasIllegalText(xml)).toBe(false);
}

async function oai(query: string) {
  const response = await portal.app.inject({ method: 'GET', url: `/oai?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
  expectCleanXml(response.body, OAI_XSD);
  return response.body;
}

describe('exports of a record holding characters XML cannot carry', () => {
  it('DataCite and ISO 19139 are well-formed, with the texts as stored less those characters', async () => {
    for (const format of ['datacite', 'iso19139']) {
      const response = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${id}/export/?format=${format}` });
      expect(response.statusCode, response.body).toBe(200);
      expectCleanXml(response.body);
      for (const text of [
        'Glacier outlines of the Tibetan Plateau',
        '青藏高原 冰川 数据集',
        'Annual glacier outlines pasted from a word processor.',
        'glacier inventory',
        '张 冰川',
      ]) {
        expect(response.body, `${format}: ${text}`).toContain(text);
      }
    }
  });

  it('every other format still answers', async () => {
    for (const format of ['dcat', 'schemaorg', 'ris', 'bibtex', 'csl', 'apa', 'gbt7714']) {
      const response = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${id}/export/?format=${format}` });
      expect(response.statusCode, `${format}: ${response.body}`).toBe(200);
    }
  });
});

describe('OAI-PMH replies holding such a record', () => {
  it('ListRecords in every format, GetRecord, ListIdentifiers and ListSets are well-formed and valid', async () => {
    for (const prefix of ['oai_dc', 'datacite', 'oai_datacite', 'iso19139', 'dif10']) {
      const list = await oai(`verb=ListRecords&metadataPrefix=${prefix}`);
      expect(list, prefix).toContain(stripIllegalText(dirty('Glacier outlines of the Tibetan Plateau')));
      expect(list).toContain(`<identifier>oai:${HOST}:${id}</identifier>`);
      await oai(`verb=GetRecord&metadataPrefix=${prefix}&identifier=oai:${HOST}:${id}`);
    }
    await oai('verb=ListIdentifiers&metadataPrefix=oai_dc');
    // The theme keyword is a set: its name (the set's name and description) holds the characters too.
    expect(await oai('verb=ListSets')).toContain('glacier inventory');
  });
});

describe('OAI-PMH arguments holding such a character', () => {
  it('are badArgument, named in a well-formed reply without the character, on GET and POST', async () => {
    const queries = [
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${HOST}:a%01b`,
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${HOST}:a%00b`,
      'verb=ListRecords&metadataPrefix=oai%0Bdc',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-01%1F',
      'verb=ListIdentifiers&resumptionToken=%EF%BF%BE',
      'verb=Identify&x%01y=1',
    ];
    for (const query of queries) {
      const body = await oai(query);
      expect(body, query).toMatch(/<error code="badArgument">/);
      // badArgument names the base URL only, not the arguments.
      expect(body).toContain('<request>http://portal.test/oai</request>');
    }
    const posted = await portal.app.inject({ method: 'POST', url: '/oai', headers: FORM, payload: `verb=GetRecord&metadataPrefix=oai_dc&identifier=a%01b` });
    expect(posted.statusCode).toBe(200);
    expectCleanXml(posted.body, OAI_XSD);
    expect(posted.body).toMatch(/<error code="badArgument">/);
  });

  it('a verb holding one is badVerb, its echo in the message without the character', async () => {
    const body = await oai('verb=Identify%01');
    expect(body).toMatch(/<error code="badVerb">Identify is not an OAI-PMH verb\.<\/error>/);
  });

  it('a lone surrogate sent as UTF-8 bytes arrives as U+FFFD, which XML carries', async () => {
    const body = await oai(`verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${HOST}:a%ED%A0%80b`);
    expect(body).toMatch(/<error code="idDoesNotExist">/);
  });
});
