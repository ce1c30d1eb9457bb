import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OaiIndex } from '../src/modules/oai/oai-index.js';
import { readRecordsFile } from '../src/modules/records-io/records-file.js';
import { RecordsIoRepo } from '../src/modules/records-io/records-io.repo.js';
import { RecordsIoService } from '../src/modules/records-io/records-io.service.js';
import { SearchIndex } from '../src/modules/search/search-index.js';
import { buildUser } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';

/**
 * DataCite's own example records (issue 16), as DataCite publishes them beside the 4.5 and 4.6
 * schemas in ../shared/xsd: the importer reads every one without error and keeps its DOI, its
 * title and its creators; what it imported exports back as valid DataCite. They are DataCite's
 * idea of a full record (every property, related items, languages the portal does not keep), not
 * the portal's. A checkout without ../shared has no examples: the test says so in its name and is
 * skipped.
 */

const SHARED_XSD = path.resolve(import.meta.dirname, '../../../../shared/xsd');
const KERNELS = ['4.5', '4.6'].map((version) => path.join(SHARED_XSD, `schema.datacite.org/meta/kernel-${version}`));
const HAVE_EXAMPLES = KERNELS.every((kernel) => fs.existsSync(path.join(kernel, 'example')));
const WITHOUT = HAVE_EXAMPLES ? '' : ` (skipped: DataCite's examples are not here, ${SHARED_XSD} is missing)`;
if (!HAVE_EXAMPLES) console.warn(`records-io-examples: skipped, ${SHARED_XSD} does not hold DataCite's kernel-4.5 and 4.6 examples`);

const EXAMPLES = HAVE_EXAMPLES
  ? KERNELS.flatMap((kernel) =>
      fs
        .readdirSync(path.join(kernel, 'example'))
        .filter((name) => name.endsWith('.xml'))
        .sort()
        .map((name) => path.join(kernel, 'example', name)),
    )
  : [];

/** What the example says, read here on its own: its DOI, its first title and its creators' names. */
function factsOf(xml: string) {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, isArray: (_n, _p, _l, attribute) => !attribute });
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const resource = parser.parse(xml).resource[0];
  const text = (node: any) =>
    String(typeof node === 'object' ? node['#text'] : node)
      .replace(/\s+/g, ' ')
      .trim();
  const titles = resource.titles[0].title as any[];
  const main = titles.find((t) => typeof t !== 'object' || !t['@titleType']) ?? titles[0];
  return {
    doi: text(resource.identifier.find((i: any) => i['@identifierType'] === 'DOI')),
    title: text(main),
    creators: (resource.creators[0].creator as any[]).map((c) => text(c.creatorName[0])),
  };
}

let portal: TestPortal;
let service: RecordsIoService;
let ownerId: string;

describe(`DataCite's example records${WITHOUT}`, () => {
  beforeAll(async () => {
    if (!HAVE_EXAMPLES) return;
    portal = await createTestPortal();
    const { db, dialect } = portal.database;
    service = new RecordsIoService(new RecordsIoRepo(db, dialect), [new SearchIndex(db, dialect), new OaiIndex(db)]);
    ownerId = (await buildUser(portal, { staff: true })).id;
  });
  afterAll(async () => {
    await portal?.close();
  });

  it.skipIf(!HAVE_EXAMPLES)('there are examples of both kernels', () => {
    expect(EXAMPLES.filter((file) => file.includes('kernel-4.5')).length).toBeGreaterThanOrEqual(5);
    expect(EXAMPLES.filter((file) => file.includes('kernel-4.6')).length).toBeGreaterThanOrEqual(5);
  });

  it.skipIf(!HAVE_EXAMPLES)(
    'each is read and imported without error, keeping its DOI, title and creators',
    async () => {
      const db = portal.database.db;
      for (const file of EXAMPLES) {
        const name = path.relative(SHARED_XSD, file);
        const xml = fs.readFileSync(file, 'utf8');
        const facts = factsOf(xml);
        const { format, candidates } = readRecordsFile(xml);
        expect(format).toBe('datacite-xml');
        expect(
          candidates.map((c) => ('error' in c ? `error: ${c.error}` : 'skipped' in c ? `skipped: ${c.skipped}` : 'read')),
          name,
        ).toEqual(['read']);
        const summary = await service.importRecords(candidates, { ownerId, source: path.basename(file) });
        expect(summary.errors, name).toEqual([]);
        // The 4.6 copy of a 4.5 example has its DOI: already imported, skipped, never written twice.
        expect(summary.imported + summary.skipped.length, name).toBe(1);
        if (summary.skipped.length) expect(summary.skipped[0]!.reason, name).toContain('is already in the catalogue');
        const record = await db.selectFrom('metadata').select(['id', 'title', 'doi', 'status']).where('doi', '=', facts.doi).executeTakeFirst();
        expect(record, `${name}: no record with DOI ${facts.doi}`).toBeDefined();
        expect(record!.status).toBe('published');
        // The title (a subtitle, when there is one, follows it).
        expect(record!.title.startsWith(facts.title), `${name}: ${record!.title}`).toBe(true);
        const creators = await db
          .selectFrom('meta_author')
          .innerJoin('authors', 'authors.id', 'meta_author.author_id')
          .select('authors.name')
          .where('meta_author.metadata_id', '=', record!.id)
          .where('meta_author.role', '=', 'resourceProvider')
          .orderBy('meta_author.sort')
          .execute();
        expect(
          creators.map((c) => c.name),
          name,
        ).toEqual(facts.creators);
      }
    },
    120_000,
  );

  it.skipIf(!HAVE_EXAMPLES)('what was imported exports back as valid DataCite 4.5', async () => {
    const records = await portal.database.db.selectFrom('metadata').select('id').where('doi', 'like', '10.82433/%').execute();
    expect(records.length).toBeGreaterThanOrEqual(10);
    const folder = fs.mkdtempSync(path.join(portal.config.dataDir, 'datacite-'));
    const files: string[] = [];
    for (const { id } of records) {
      const response = await portal.app.inject({ method: 'GET', url: `/api/metadata/metadata/${id}/export/?format=datacite` });
      expect(response.statusCode, response.body).toBe(200);
      files.push(path.join(folder, `${id}.xml`));
      fs.writeFileSync(files.at(-1)!, response.body);
    }
    let complaints = '';
    try {
      execFileSync('xmllint', ['--noout', '--nonet', '--schema', 'http://schema.datacite.org/meta/kernel-4.5/metadata.xsd', ...files], {
        env: { ...process.env, XML_CATALOG_FILES: path.join(SHARED_XSD, 'catalog.xml') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      complaints = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(complaints).toBe('');
  });
});
