import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMN_FACETS, FacetCache, type FacetCountRow } from '../src/modules/search/facet-cache.js';
import { buildUser, buildCatalogue, type CatalogueEntry } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';

/**
 * The facet cache holds each entry's facet values in one flat array as loaded and the entries
 * written since in a map of their own, and folds the map into the array when it grows. Two caches
 * over the same catalogue, one folding after every change and one never, must count, filter and
 * order alike, and as the database counts, while records are published, withdrawn and edited.
 */

let portal: TestPortal;
let ownerId: string;
let folding: FacetCache;
let keeping: FacetCache;

const THEMES: [string, string][] = [
  ['冰川', 'Glacier'],
  ['冻土', 'Permafrost'],
  ['积雪', 'Snow'],
];
const PLACES: [string, string][] = [
  ['青藏高原', 'Tibetan Plateau'],
  ['北极', 'Arctic'],
];
const LICENSES = ['CC BY 4.0', 'CC BY-NC 4.0'];

let serial = 0;
/** A published record whose facets vary with its number. */
function entry(): CatalogueEntry {
  serial += 1;
  const n = serial;
  return {
    key: `R${n}`,
    language: n % 3 ? 'zh-hans' : 'en',
    zh: { title: `测试记录 ${n}` },
    en: { title: `Test record ${n}` },
    themes: THEMES.filter((_, i) => (n + i) % 2 === 0),
    places: [PLACES[n % PLACES.length]!],
    license: LICENSES[n % LICENSES.length],
    published: `20${10 + (n % 9)}-0${1 + (n % 9)}-1${n % 10}`,
  };
}

async function publishSome(count: number): Promise<string[]> {
  return Object.values(await buildCatalogue(portal, ownerId, Array.from({ length: count }, entry)));
}

/** A change to some records as the writing calls make it: the rows, then every derived view in the transaction. */
async function change(ids: string[], values: { status?: string; license?: string }) {
  await portal.database.db.transaction().execute(async (trx) => {
    await trx.updateTable('metadata').set(values).where('id', 'in', ids).execute();
    await portal.metadataAccess.changed(trx, ids);
  });
}

/** The counts as the database has them: facet -> value -> entries. */
async function countedInSql(): Promise<Record<string, Record<string, number>>> {
  const db = portal.database.db;
  const counts: Record<string, Record<string, number>> = {};
  const listed = await sql<{ facet: string; value: string; n: number | string }>`select facet, value, count(*) as n from search_facets group by facet, value`.execute(db);
  for (const row of listed.rows) (counts[row.facet] ??= {})[row.value] = Number(row.n);
  for (const [facet, column] of Object.entries(COLUMN_FACETS)) {
    const rows = await sql<{ value: string; n: number | string }>`select ${sql.ref(column)} as value, count(*) as n from search_entries group by ${sql.ref(column)}`.execute(db);
    for (const row of rows.rows) if (row.value) (counts[facet] ??= {})[row.value] = Number(row.n);
  }
  return counts;
}

const asTable = (rows: FacetCountRow[]) => {
  const counts: Record<string, Record<string, number>> = {};
  for (const row of rows) (counts[row.facet] ??= {})[row.value] = row.n;
  return counts;
};

async function entries(): Promise<number[]> {
  const rows = await portal.database.db.selectFrom('search_entries').select('doc').execute();
  return rows.map((r) => Number(r.doc));
}

/** Both caches brought to the index as it is now, and checked against each other and the database. */
async function expectAlike() {
  const state = await folding.current();
  await Promise.all([folding.reach(state), keeping.reach(state)]);
  const docs = await entries();
  const truth = await countedInSql();
  for (const cache of [folding, keeping]) {
    expect(cache.size).toBe(docs.length);
    expect(asTable(cache.totalCounts())).toEqual(truth);
    expect(asTable(cache.countsOf(docs))).toEqual(truth);
  }
  // Every other entry, a facet filter, the newest page: the same from both.
  const half = docs.filter((_, i) => i % 2 === 0);
  expect(folding.countsOf(half)).toEqual(keeping.countsOf(half));
  const required = [
    { facet: 'theme', values: ['glacier'] },
    { facet: 'license', values: ['CC BY 4.0'] },
  ];
  const filtered = folding.withFacets(null, required);
  expect(filtered.length).toBeGreaterThan(0);
  expect(filtered).toEqual(keeping.withFacets(null, required));
  expect(folding.withFacets(half, required)).toEqual(keeping.withFacets(half, required));
  expect(folding.page(docs, 0, 7)).toEqual(keeping.page(docs, 0, 7));
  return { docs, truth };
}

beforeAll(async () => {
  portal = await createTestPortal();
  ownerId = (await buildUser(portal, { realname: 'Owner' })).id;
  await publishSome(30);
  const { db, dialect } = portal.database;
  folding = new FacetCache(db, dialect, { compactAfter: 0 });
  keeping = new FacetCache(db, dialect, { compactAfter: Number.POSITIVE_INFINITY });
}, 60_000);

afterAll(() => portal?.close());

describe('the facet cache, folded or not', () => {
  it('counts a loaded catalogue as the database does', async () => {
    const { docs, truth } = await expectAlike();
    expect(docs).toHaveLength(30);
    expect(truth.theme).toEqual({ glacier: 15, permafrost: 15, snow: 15 });
  });

  it('follows records published after the load', async () => {
    await publishSome(12);
    const { docs } = await expectAlike();
    expect(docs).toHaveLength(42);
  });

  it('follows records withdrawn, edited, and published again', async () => {
    const ids = await publishSome(6);
    await change(ids.slice(0, 3), { status: 'NotPublished' });
    await change(ids.slice(3), { license: 'CC0 1.0' });
    const { docs, truth } = await expectAlike();
    expect(docs).toHaveLength(45);
    expect(truth.license!['CC0 1.0']).toBe(3);
    await change(ids.slice(0, 3), { status: 'published' });
    expect((await expectAlike()).docs).toHaveLength(48);
  });

  it('starts again from a rebuilt index', async () => {
    await portal.searchIndex.rebuild();
    const { docs } = await expectAlike();
    expect(docs).toHaveLength(48);
  });
});
