import jsonld from 'jsonld';
import { Parser as TurtleParser, Writer as QuadWriter, type Quad } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@portal/shared';
import { buildUser, buildExportRecord } from './factories.js';
import { type TestPortal } from './helpers.js';
import { createLandingTestPortal, localDocumentLoader } from './exports-builders.js';
import { expectStatus } from './metadata-builders.js';
import { decide } from './review-builders.js';

/**
 * Content negotiation on a landing page address (issue 17), as the DOI resolvers' clients and RDF
 * tools ask: every media type with and without parameters, the next choice when an export cannot be
 * made, errors in the page's language, 410 for a withdrawn record; the DCAT record as Turtle and
 * RDF/XML read back by n3 and rdfxml-streaming-parser into the same graph as its JSON-LD; the
 * schema.org and DCAT files, access and time described in words.
 */
let portal: TestPortal;
let close: () => Promise<void>;
const ids = {} as Record<'full' | 'noDoi' | 'onRequest' | 'withdrawn' | 'draft' | 'sici', string>;

const DOI = '10.11888/Glacio.tpdc.270101';
/** A SICI DOI (import accepts it): `<` and `>`, which no IRI may hold, `;`, and a `#` that would start a fragment. */
const SICI_DOI = '10.1002/(SICI)1097-4636(199706)35:4<475::AID-JBM8>3.0.CO;2-E';
const SICI_URL = 'https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C475::AID-JBM8%3E3.0.CO;2-E';
const CITED_DOI = '10.1000/a#b<c>';
const CITED_URL = 'https://doi.org/10.1000/a%23b%3Cc%3E';
/** Everything that could end a string or an element in Turtle, RDF/XML or HTML, and a character beyond the BMP. */
const NASTY_TITLE = 'Ice "cores" \\ <of> & \'Tibet\' } </script> 𠮷\nsecond line';

beforeAll(async () => {
  ({ portal, close } = await createLandingTestPortal());
  const owner = await buildUser(portal);
  const staff = await buildUser(portal, { staff: true });
  ids.full = await buildExportRecord(portal, owner.id, {
    key: 'full',
    language: 'zh-hans',
    zh: { title: '青藏高原冰川面积变化数据集', abstract: '本数据集记录了青藏高原冰川面积的长期变化。' },
    en: { title: NASTY_TITLE, abstract: 'Annual glacier outlines of the Tibetan Plateau derived from Landsat imagery.' },
    themes: [['冰川', 'glacier']],
    authors: [['张冰川', 'Zhang Bingchuan']],
    license: 'CC BY 4.0',
    sharing: 'online',
    published: '2021-05-01',
    time: ['1990-01-01', '2020-12-31'],
    box: [73, 26, 105, 40],
    doi: DOI,
    files: [1_000_000, 2_500_000],
  });
  ids.noDoi = await buildExportRecord(portal, owner.id, {
    key: 'noDoi',
    language: 'en',
    zh: { title: '南极海冰', abstract: '南极海冰范围。' },
    en: { title: 'Antarctic sea ice', abstract: 'Daily Antarctic sea ice extent.' },
    authors: [['Anna Karlsson', 'Anna Karlsson']],
    license: 'CC BY 4.0',
    sharing: 'online',
    published: '2022-03-10',
  });
  // Its time is described in words only.
  await portal.database.db.updateTable('metadata').set({ time_description: 'Every austral winter since the first satellite records' }).where('id', '=', ids.noDoi).execute();
  await portal.database.db.updateTable('metadata_i18n').set({ time_description: '自有卫星记录以来的每个南半球冬季' }).where('metadata_id', '=', ids.noDoi).execute();
  ids.onRequest = await buildExportRecord(portal, owner.id, {
    key: 'onRequest',
    language: 'en',
    zh: { title: '冰芯记录', abstract: '冰芯。' },
    en: { title: 'Ice core records', abstract: 'Ice cores drilled on the Guliya ice cap.' },
    sharing: 'offlineEmail',
    published: '2023-01-20',
    files: [4096],
  });
  ids.withdrawn = await buildExportRecord(portal, owner.id, {
    key: 'withdrawn',
    language: 'en',
    zh: { title: '撤销的冰湖数据', abstract: '冰湖' },
    en: { title: 'Withdrawn glacial lakes', abstract: 'Glacial lakes.' },
    published: '2023-01-01',
    doi: '10.11888/Hydro.tpdc.300109',
  });
  expectStatus(await decide(portal, staff.token, ids.withdrawn, { review_status: 'unpublish', content: 'Duplicates another dataset.' }), 200);
  ids.sici = await buildExportRecord(
    portal,
    owner.id,
    {
      key: 'sici',
      language: 'en',
      zh: { title: '生物材料', abstract: '材料。' },
      en: { title: 'Biomaterials', abstract: 'Materials.' },
      authors: [['Anna Karlsson', 'Anna Karlsson']],
      license: 'CC BY 4.0',
      published: '2022-06-01',
      doi: SICI_DOI,
    },
    { literature: [{ title: '引文', title_en: 'Cited', doi: CITED_DOI, type: 'article', year: '2020' }] },
  );
  ids.draft = await buildExportRecord(portal, owner.id, { key: 'draft', status: 'draft', language: 'en', zh: { title: '草稿' }, en: { title: 'Draft' } });
}, 60_000);

afterAll(async () => {
  await close();
});

const get = (url: string, headers: Record<string, string> = {}) => portal.app.inject({ method: 'GET', url, headers });
const exported = (id: string, format: string, language: string) => get(`/api/metadata/metadata/${id}/export/?format=${format}&lang=${language}`);

describe('the media types a landing page answers', () => {
  it('gives each export by its media type, parameters honoured, Vary: Accept on every reply', async () => {
    const cases: [string, string, string, string][] = [
      // [path, Accept, expected content type, the export it equals]
      [`/en/data/${ids.full}/`, 'application/vnd.datacite.datacite+xml', 'application/vnd.datacite.datacite+xml; charset=utf-8', 'datacite'],
      [`/en/data/${ids.full}/`, 'application/ld+json', 'application/ld+json; charset=utf-8', 'schemaorg'],
      [`/en/data/${ids.full}/`, 'application/ld+json; profile="https://schema.org"', 'application/ld+json; charset=utf-8', 'schemaorg'],
      [`/en/data/${ids.full}/`, 'application/ld+json;profile=http://schema.org/;q=0.9', 'application/ld+json; charset=utf-8', 'schemaorg'],
      [`/data/${ids.full}/`, 'application/ld+json; profile="http://www.w3.org/ns/dcat#"', 'application/ld+json; charset=utf-8', 'dcat'],
      [`/en/data/${ids.full}/`, 'application/vnd.schemaorg.ld+json', 'application/ld+json; charset=utf-8', 'schemaorg'],
      [`/data/${ids.full}/`, 'text/turtle', 'text/turtle; charset=utf-8', 'turtle'],
      [`/data/${ids.full}/`, 'application/rdf+xml', 'application/rdf+xml; charset=utf-8', 'rdfxml'],
      [`/zh-hans/data/${ids.full}/`, 'application/x-research-info-systems', 'application/x-research-info-systems; charset=utf-8', 'ris'],
      [`/en/data/${ids.full}/`, 'application/x-bibtex', 'application/x-bibtex; charset=utf-8', 'bibtex'],
      [`/en/data/${ids.full}/`, 'application/vnd.citationstyles.csl+json', 'application/vnd.citationstyles.csl+json; charset=utf-8', 'csl'],
    ];
    for (const [url, accept, type, format] of cases) {
      const response = await get(url, { accept });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-type'], accept).toBe(type);
      expect(response.headers.vary, accept).toBe('Accept');
      const language = url.startsWith('/en/') ? 'en' : 'zh-hans';
      expect(response.body, accept).toBe((await exported(ids.full!, format, language)).body);
    }
  });

  it("gives a formatted citation (text/x-bibliography) in the style and locale asked for, else the page language's", async () => {
    const bibliography = async (url: string, accept: string) => {
      const response = await get(url, { accept });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-type'], accept).toBe('text/x-bibliography; charset=utf-8');
      expect(response.headers.vary).toBe('Accept');
      return response.body;
    };
    const apaEnglish = (await exported(ids.full!, 'apa', 'en')).body;
    const gbtChinese = (await exported(ids.full!, 'gbt7714', 'zh-hans')).body;
    expect(apaEnglish).toContain('[Data set]');
    expect(gbtChinese).toContain('[DS/OL]');
    expect(await bibliography(`/en/data/${ids.full}/`, 'text/x-bibliography')).toBe(apaEnglish);
    expect(await bibliography(`/data/${ids.full}/`, 'text/x-bibliography')).toBe(gbtChinese);
    expect(await bibliography(`/data/${ids.full}/`, 'text/x-bibliography; style=apa; locale=en-US')).toBe(apaEnglish);
    expect(await bibliography(`/en/data/${ids.full}/`, 'text/x-bibliography; style=gb-t-7714; locale=zh-CN')).toBe(gbtChinese);
    expect(await bibliography(`/en/data/${ids.full}/`, 'text/x-bibliography; style="china-national-standard-gb-t-7714-2015-numeric"; locale=zh-Hans')).toBe(gbtChinese);
    expect(await bibliography(`/en/data/${ids.full}/`, 'text/x-bibliography; locale=zh')).toBe(gbtChinese);
  });

  it('refuses a citation style or locale it does not make, in the page language; a client that takes HTML gets the page', async () => {
    for (const [url, language] of [
      [`/en/data/${ids.full}/`, 'en'],
      [`/data/${ids.full}/`, 'zh-hans'],
    ] as const) {
      const refused = await get(url, { accept: 'text/x-bibliography; style=chicago-author-date', 'accept-language': language === 'en' ? 'zh-hans' : 'en' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toBe(translate(language, 'metadata.exports.style'));
    }
    expect((await get(`/en/data/${ids.full}/`, { accept: 'text/x-bibliography; locale=fr' })).statusCode).toBe(400);
    const page = await get(`/en/data/${ids.full}/`, { accept: 'text/x-bibliography; style=mla, text/html;q=0.2' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it("follows the client's weights, and leaves browsers and curl's */* to the page", async () => {
    const preferred = await get(`/en/data/${ids.full}/`, { accept: 'text/html;q=0.5, text/turtle;q=0.9, application/rdf+xml;q=0.8' });
    expect(preferred.headers['content-type']).toBe('text/turtle; charset=utf-8');
    for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '*/*', '', 'image/png']) {
      const response = await get(`/en/data/${ids.full}/`, accept ? { accept } : {});
      expect(response.headers['content-type'], accept).toBe('text/html; charset=utf-8');
      expect(response.statusCode, accept).toBe(200);
    }
    // Ranges that say q=0 for the page leave the exports, the server's first one first.
    expect((await get(`/en/data/${ids.full}/`, { accept: 'text/html;q=0, application/xhtml+xml;q=0, */*' })).headers['content-type']).toBe(
      'application/vnd.datacite.datacite+xml; charset=utf-8',
    );
  });
});

describe('what a landing page answers a machine when the export cannot be given', () => {
  it('serves the page for DataCite without a DOI when HTML is accepted too, else the next type accepted', async () => {
    const page = await get(`/en/data/${ids.noDoi}/`, { accept: 'application/vnd.datacite.datacite+xml, text/html;q=0.5' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.vary).toContain('Accept');
    const next = await get(`/en/data/${ids.noDoi}/`, { accept: 'application/vnd.datacite.datacite+xml, application/ld+json;q=0.8' });
    expect(next.statusCode).toBe(200);
    expect(next.json()['@type']).toBe('Dataset');
  });

  it('says there is no DOI in the page language, whatever Accept-Language says', async () => {
    for (const [url, language, other] of [
      [`/en/data/${ids.noDoi}/`, 'en', 'zh-hans'],
      [`/data/${ids.noDoi}/`, 'zh-hans', 'en'],
      [`/zh-hans/data/${ids.noDoi}/`, 'zh-hans', 'en'],
    ] as const) {
      const response = await get(url, { accept: 'application/vnd.datacite.datacite+xml', 'accept-language': other });
      expect(response.statusCode, url).toBe(409);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json(), url).toEqual({ detail: translate(language, 'metadata.exports.noDoi') });
    }
  });

  it("answers 410 for a withdrawn record, with its tombstone's facts, as its page does", async () => {
    for (const [url, language] of [
      [`/en/data/${ids.withdrawn}/`, 'en'],
      [`/data/${ids.withdrawn}/`, 'zh-hans'],
    ] as const) {
      for (const accept of ['application/ld+json', 'text/turtle', 'text/x-bibliography', 'application/vnd.datacite.datacite+xml']) {
        const response = await get(url, { accept, 'accept-language': language === 'en' ? 'zh-hans' : 'en' });
        expect(response.statusCode, `${url} ${accept}`).toBe(410);
        expect(response.headers.vary).toBe('Accept');
        const tombstone = (await get(`/api/metadata/metadata/${ids.withdrawn}/tombstone/`, { 'accept-language': language })).json();
        expect(response.json(), accept).toEqual({ detail: translate(language, 'metadata.exports.withdrawn'), ...tombstone });
        expect(response.json()).toMatchObject({ doi: '10.11888/Hydro.tpdc.300109', reason: 'Duplicates another dataset.', title: 'Withdrawn glacial lakes' });
      }
      const page = await get(url, { accept: 'application/ld+json, text/html;q=0.1' });
      expect(page.statusCode).toBe(410);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('answers 404 in the page language for a record never published, or the not-found page to a client that takes HTML', async () => {
    for (const id of [ids.draft!, 'no-such-record']) {
      const english = await get(`/en/data/${id}/`, { accept: 'application/ld+json', 'accept-language': 'zh-hans' });
      expect(english.statusCode).toBe(404);
      expect(english.json()).toEqual({ detail: translate('en', 'metadata.notFound') });
      const chinese = await get(`/data/${id}/`, { accept: 'text/turtle', 'accept-language': 'en' });
      expect(chinese.json()).toEqual({ detail: translate('zh-hans', 'metadata.notFound') });
      const page = await get(`/en/data/${id}/`, { accept: 'text/turtle, */*;q=0.1' });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });
});

/** The graph of N-Quads text in canonical form (RDFC-1.0): blank node labels no longer matter; language tags in lower case, as RDF compares them. */
async function canonical(nquads: string): Promise<string[]> {
  const text = (await jsonld.canonize(nquads as never, { algorithm: 'URDNA2015', inputFormat: 'application/n-quads' } as never)) as unknown as string;
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/"@([A-Za-z-]+) /, (_, tag: string) => `"@${tag.toLowerCase()} `))
    .sort();
}

function nquadsOf(quads: Quad[]): Promise<string> {
  const writer = new QuadWriter({ format: 'N-Quads' });
  writer.addQuads(quads);
  return new Promise((resolve, reject) => writer.end((error, result: string) => (error ? reject(error) : resolve(result))));
}

function parseRdfXml(xml: string): Promise<Quad[]> {
  const quads: Quad[] = [];
  const parser = new RdfXmlParser({ baseIRI: 'http://portal.test/' });
  return new Promise((resolve, reject) => {
    parser.on('data', (quad: Quad) => quads.push(quad));
    parser.on('error', reject);
    parser.on('end', () => resolve(quads));
    parser.write(xml);
    parser.end();
  });
}

describe('the DCAT record as RDF', () => {
  it('reads back from Turtle (n3) and RDF/XML (rdfxml-streaming-parser) as the same graph as its JSON-LD, every text intact', async () => {
    for (const id of [ids.full!, ids.noDoi!, ids.onRequest!]) {
      const dcat = (await exported(id, 'dcat', 'en')).json();
      const expected = await canonical((await jsonld.toRDF(dcat, { format: 'application/n-quads', documentLoader: localDocumentLoader } as never)) as unknown as string);
      expect(expected.length).toBeGreaterThan(20);
      const turtle = (await exported(id, 'turtle', 'en')).body;
      const fromTurtle = new TurtleParser({ format: 'text/turtle' }).parse(turtle);
      expect(await canonical(await nquadsOf(fromTurtle)), `${id} turtle`).toEqual(expected);
      const xml = (await exported(id, 'rdfxml', 'en')).body;
      expect(await canonical(await nquadsOf(await parseRdfXml(xml))), `${id} rdf/xml`).toEqual(expected);
    }
    // The title that holds quotes, a backslash, markup, a line break and 𠮷 comes back whole from both.
    const titles = (quads: Quad[]) => quads.filter((q) => q.predicate.value === 'http://purl.org/dc/terms/title').map((q) => q.object.value);
    expect(titles(new TurtleParser().parse((await exported(ids.full!, 'turtle', 'en')).body))).toContain(NASTY_TITLE);
    expect(titles(await parseRdfXml((await exported(ids.full!, 'rdfxml', 'en')).body))).toContain(NASTY_TITLE);
  });

  it('percent-encodes a DOI that holds < and > (SICI) as the same IRI in Turtle, RDF/XML, JSON-LD and the Link header', async () => {
    const turtle = (await exported(ids.sici!, 'turtle', 'en')).body;
    const fromTurtle = new TurtleParser({ format: 'text/turtle' }).parse(turtle);
    const fromXml = await parseRdfXml((await exported(ids.sici!, 'rdfxml', 'en')).body);
    const dcat = (await exported(ids.sici!, 'dcat', 'en')).json();
    const expected = await canonical((await jsonld.toRDF(dcat, { format: 'application/n-quads', documentLoader: localDocumentLoader } as never)) as unknown as string);
    expect(await canonical(await nquadsOf(fromTurtle))).toEqual(expected);
    expect(await canonical(await nquadsOf(fromXml))).toEqual(expected);
    for (const quads of [fromTurtle, fromXml]) {
      const iris = quads
        .flatMap((quad) => [quad.subject, quad.object])
        .filter((term) => term.termType === 'NamedNode')
        .map((term) => term.value);
      expect(iris).toContain(SICI_URL);
      expect(iris).toContain(CITED_URL);
    }
    const schemaorg = (await exported(ids.sici!, 'schemaorg', 'en')).json();
    expect(schemaorg.sameAs).toBe(SICI_URL);
    expect(schemaorg.identifier).toMatchObject({ value: `doi:${SICI_DOI}`, url: SICI_URL });
    const page = await get(`/en/data/${ids.sici}/`, { accept: 'text/html' });
    expect(page.headers.link).toContain(`<${SICI_URL}> ; rel="cite-as"`);
    expect(page.body).toContain(`<meta name="dcterms.identifier" content="${SICI_URL}" />`);
  });

  it('is a download of the export API too', async () => {
    const response = await exported(ids.full!, 'turtle', 'en');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${ids.full}.dcat.ttl"`);
    expect((await exported(ids.full!, 'rdfxml', 'en')).headers['content-disposition']).toBe(`attachment; filename="${ids.full}.dcat.rdf"`);
  });
});

describe('schema.org and DCAT: the files, their access, time in words', () => {
  const fileRows = async (id: string) =>
    portal.database.db.selectFrom('meta_file').select(['id', 'name', 'mime', 'size']).where('metadata_id', '=', id).orderBy('created_at').orderBy('id').execute();

  it('gives each data file as a DataDownload with its own address, media type and size', async () => {
    const files = await fileRows(ids.full!);
    expect(files).toHaveLength(2);
    const dataset = (await exported(ids.full!, 'schemaorg', 'en')).json();
    expect(dataset.distribution).toEqual(
      files.map((file) => ({
        '@type': 'DataDownload',
        name: file.name,
        contentUrl: `http://portal.test/api/metadata/meta-file/${file.id}/download/`,
        encodingFormat: file.mime,
        contentSize: `${file.size} B`,
      })),
    );
    // Never the landing page as a download.
    expect(JSON.stringify(dataset.distribution)).not.toContain('/data/');
    const expanded = (await jsonld.expand(dataset, { documentLoader: localDocumentLoader } as never)) as unknown as Record<string, unknown>[];
    const downloads = expanded[0]!['https://schema.org/distribution'] as { '@type': string[]; 'https://schema.org/contentUrl': unknown[] }[];
    expect(downloads.map((d) => d['@type'])).toEqual([['https://schema.org/DataDownload'], ['https://schema.org/DataDownload']]);
    expect(downloads.every((d) => d['https://schema.org/contentUrl'].length === 1)).toBe(true);
    const dcat = (await exported(ids.full!, 'dcat', 'en')).json();
    expect(dcat['dcat:distribution'].map((d: Record<string, { '@id': string }>) => d['dcat:downloadURL']!['@id'])).toEqual(
      files.map((f) => `http://portal.test/api/metadata/meta-file/${f.id}/download/`),
    );
  });

  it('is free to access only when the sharing policy is online', async () => {
    expect((await exported(ids.full!, 'schemaorg', 'en')).json().isAccessibleForFree).toBe(true);
    expect((await exported(ids.noDoi!, 'schemaorg', 'en')).json().isAccessibleForFree).toBe(true);
    const onRequest = (await exported(ids.onRequest!, 'schemaorg', 'en')).json();
    expect(onRequest.isAccessibleForFree).toBe(false);
    expect(onRequest.distribution).toHaveLength(1);
  });

  it('carries a time described only in words in the language asked for, and in DCAT in both', async () => {
    expect((await exported(ids.noDoi!, 'schemaorg', 'en')).json().temporalCoverage).toBe('Every austral winter since the first satellite records');
    expect((await exported(ids.noDoi!, 'schemaorg', 'zh-hans')).json().temporalCoverage).toBe('自有卫星记录以来的每个南半球冬季');
    expect((await exported(ids.full!, 'schemaorg', 'en')).json().temporalCoverage).toBe('1990-01-01/2020-12-31');
    const temporal = (await exported(ids.noDoi!, 'dcat', 'en')).json()['dct:temporal'];
    expect(temporal['rdfs:label']).toEqual(
      expect.arrayContaining([
        { '@value': 'Every austral winter since the first satellite records', '@language': 'en' },
        { '@value': '自有卫星记录以来的每个南半球冬季', '@language': 'zh-Hans' },
      ]),
    );
    expect(temporal['dcat:startDate']).toBeUndefined();
  });
});
