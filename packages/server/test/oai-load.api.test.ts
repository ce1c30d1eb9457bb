import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, buildCatalogue } from './factories.js';
import { createTestPortal, type TestPortal } from './helpers.js';

/**
 * Issue 16, "OAI ListRecords in iso19139 costs about 300 ms of CPU a page, anonymous and unlimited":
 * renderings are kept per datestamp (a change of the record moves its datestamp on), and each address
 * has a rate, past which OAI-PMH's flow control answers (503 with Retry-After).
 */

let portal: TestPortal;
const ids: Record<string, string> = {};
const OLD = '2024-01-10T10:00:00Z';

beforeAll(async () => {
  portal = await createTestPortal({ rateLimits: { oai: { max: 6, timeWindowMs: 60_000 } } });
  const owner = await buildAccount(portal, { staff: true });
  Object.assign(
    ids,
    await buildCatalogue(portal, owner.id, [
      { key: 'a', language: 'en', zh: { title: '冰川甲', abstract: '冰川。' }, en: { title: 'Glacier A', abstract: 'Glaciers of A.' }, published: '2024-01-10' },
      { key: 'b', language: 'en', zh: { title: '冰川乙', abstract: '冰川。' }, en: { title: 'Glacier B', abstract: 'Glaciers of B.' }, published: '2024-01-10' },
    ]),
  );
});
afterAll(async () => {
  await portal?.close();
});

const harvest = async (query: string, address = '10.0.0.1') => portal.app.inject({ method: 'GET', url: `/oai?${query}`, remoteAddress: address });

describe('renderings kept per datestamp', () => {
  it('answers a page again from what it rendered, and renders anew once the datestamp moves', async () => {
    await portal.database.db.updateTable('oai_items').set({ datestamp: OLD }).execute();
    const list = 'verb=ListRecords&metadataPrefix=iso19139';
    const first = await harvest(list, '10.0.1.1');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Glacier A');

    // Changed behind the feed's back (its datestamp stays): the kept rendering is what is answered.
    await portal.database.db.updateTable('metadata').set({ title: 'Glacier A renamed' }).where('id', '=', ids.a!).execute();
    const again = await harvest(list, '10.0.1.2');
    expect(again.body).toContain('Glacier A<');
    expect(again.body).not.toContain('Glacier A renamed');
    const single = await harvest(`verb=GetRecord&metadataPrefix=iso19139&identifier=oai:portal.test:${ids.a}`, '10.0.1.3');
    expect(single.body).not.toContain('Glacier A renamed');
    // Another format is another rendering.
    expect((await harvest('verb=ListRecords&metadataPrefix=oai_dc', '10.0.1.4')).body).toContain('Glacier A renamed');

    // The change as the feed records it: a new datestamp, a new rendering.
    await portal.database.db.updateTable('oai_items').set({ datestamp: '2024-02-01T00:00:00Z' }).where('metadata_id', '=', ids.a!).execute();
    const changed = await harvest(list, '10.0.1.5');
    expect(changed.body).toContain('Glacier A renamed');
    expect(changed.body).toContain('Glacier B');
  });

  it("keeps no rendering made within its datestamp's second (a second change in it keeps the datestamp)", async () => {
    const now = `${new Date().toISOString().slice(0, 19)}Z`;
    await portal.database.db.updateTable('oai_items').set({ datestamp: now }).where('metadata_id', '=', ids.b!).execute();
    expect((await harvest('verb=ListRecords&metadataPrefix=iso19139', '10.0.2.1')).body).toContain('Glacier B');
    await portal.database.db.updateTable('metadata').set({ title: 'Glacier B renamed' }).where('id', '=', ids.b!).execute();
    expect((await harvest('verb=ListRecords&metadataPrefix=iso19139', '10.0.2.2')).body).toContain('Glacier B renamed');
  });
});

describe('a rate per address', () => {
  it('answers 503 with Retry-After past the rate, to that address only', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 8; i++) {
      last = await portal.app.inject({ method: 'GET', url: '/oai?verb=Identify', remoteAddress: '10.9.9.9', headers: { 'accept-language': 'en' } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 503, 503]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json().detail).toMatch(/Too many requests from your address\. Please wait \d+ seconds/);
    // POST counts too, and another harvester is not held up.
    expect(
      (
        await portal.app.inject({
          method: 'POST',
          url: '/oai',
          remoteAddress: '10.9.9.9',
          payload: 'verb=Identify',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(503);
    expect((await harvest('verb=Identify', '10.9.9.10')).statusCode).toBe(200);
  });
});
