import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { DataciteStandin } from './datacite-standin.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { buildCompleteRecord, call, expectStatus, patchRecord, submit } from './metadata-builders.js';
import { createCast, decide, type Cast } from './review-builders.js';

/**
 * DOI registration (issue 17) end to end: records published through the workflow, their DOI minted by
 * the portal and registered with a local DataCite stand-in (datacite-standin.ts, a real HTTP server
 * speaking DataCite's REST API contract), including each failure DataCite answers and the retries.
 */

const ACCOUNT = { user: 'TPDC.PORTAL', password: 'correct horse', prefix: '10.55555', repository: 'TPDC.PORTAL' };
const ZH = { 'accept-language': 'zh-hans' };
const LATER = (minutes: number) => new Date(Date.now() + minutes * 60_000);

let standin: DataciteStandin;
let portal: TestPortal;
let cast: Cast;

beforeAll(async () => {
  standin = await new DataciteStandin(ACCOUNT).start();
  portal = await createTestPortal({
    env: {
      DATACITE_API: `${standin.url}/api`,
      DATACITE_PREFIX: ACCOUNT.prefix,
      DATACITE_USER: ACCOUNT.user,
      DATACITE_PASSWORD: ACCOUNT.password,
      DATACITE_DOI_PATTERN: '{prefix}/tpdc.{number}',
      // Long enough for the stand-in's schema check (an xmllint process) on a loaded machine: at 400 ms a
      // busy CI run timed out an ordinary call.
      DATACITE_TIMEOUT_MS: '2000',
    },
  });
  cast = await createCast(portal);
}, 60_000);

afterAll(async () => {
  await portal?.close();
  await standin?.stop();
});

beforeEach(() => {
  standin.password = ACCOUNT.password;
  standin.domains = '*';
  standin.mountedAt = '/api';
});

/** A complete record of the category "DOI assigned by the data centre", submitted and published by staff. */
async function publishRecord(fields: Record<string, unknown> = {}): Promise<string> {
  const record = await buildCompleteRecord(portal, cast.creator);
  await patchRecord(portal, cast.creator.token, record.id, { doi_category: 'public', sharing_policy: 'online', ...fields });
  expectStatus(await submit(portal, cast.creator.token, record.id), 200);
  expectStatus(await decide(portal, cast.staff.token, record.id, { review_status: 'publish_without_review' }), 200);
  return record.id;
}

/** Waits for the send started after the last reply, then runs the job as it would run at `now`. */
async function runJob(now?: Date): Promise<void> {
  await portal.doi.settled();
  await portal.doi.deliverDue(now);
  await portal.doi.settled();
}

const stored = (id: string) => portal.database.db.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const registration = (id: string, headers = EN) => call(portal, 'GET', `/api/metadata/metadata/${id}/doi-registration/`, cast.staff.token, { headers });

describe('configuration', () => {
  it('needs the prefix, the account and its password together, a valid prefix and a pattern under it', () => {
    expect(loadConfig({}).datacite).toBeUndefined();
    expect(() => loadConfig({ DATACITE_PREFIX: '10.55555' })).toThrow(/DATACITE_USER, DATACITE_PASSWORD missing/);
    expect(() => loadConfig({ DATACITE_PREFIX: '11.5', DATACITE_USER: 'a', DATACITE_PASSWORD: 'b' })).toThrow(/DATACITE_PREFIX/);
    expect(() => loadConfig({ DATACITE_PREFIX: '10.55555', DATACITE_USER: 'a', DATACITE_PASSWORD: 'b', DATACITE_DOI_PATTERN: '10.1234/x.{number}' })).toThrow(
      /DATACITE_DOI_PATTERN/,
    );
    expect(() => loadConfig({ DATACITE_PREFIX: '10.55555', DATACITE_USER: 'a', DATACITE_PASSWORD: 'b', DATACITE_DOI_PATTERN: '{prefix}/tpdc' })).toThrow(/DATACITE_DOI_PATTERN/);
    expect(loadConfig({ DATACITE_PREFIX: '10.55555', DATACITE_USER: 'a', DATACITE_PASSWORD: 'b' }).datacite).toEqual({
      api: 'https://api.datacite.org',
      prefix: '10.55555',
      user: 'a',
      password: 'b',
      doiPattern: '10.55555/tpdc.{number}',
      timeoutMs: 30_000,
    });
  });
});

describe('publishing a record whose DOI the data centre assigns', () => {
  it('mints a DOI in the publishing transaction and registers it findable, with the landing page and the DataCite XML', async () => {
    const id = await publishRecord();
    const record = await stored(id);
    expect(record.doi).toMatch(/^10\.55555\/tpdc\.\d+$/);
    expect(record.version_number).toBe(1);
    // The catalogue and the exports show it at once.
    const datacite = await call(portal, 'GET', `/api/metadata/metadata/${id}/export/?format=datacite`, null);
    expect(datacite.statusCode).toBe(200);
    expect(datacite.body).toContain(`<identifier identifierType="DOI">${record.doi}</identifier>`);

    await runJob();
    const registered = standin.get(record.doi)!;
    expect(registered.state).toBe('findable');
    expect(registered.url).toBe(`http://portal.test/data/${id}/`);
    expect(registered.xml).toContain(`<identifier identifierType="DOI">${record.doi}</identifier>`);
    expect(registered.xml).toContain('<version>1</version>');
    expect(registered.xml).toContain('rightsURI="http://purl.org/coar/access_right/c_abf2"');
    const create = standin.requests.find((r) => r.method === 'POST' && r.body?.data?.attributes?.doi === record.doi)!;
    expect(create.status).toBe(201);
    expect(create.body.data.attributes.event).toBe('publish');
    expect(Buffer.from(create.body.data.attributes.xml, 'base64').toString('utf8')).toBe(registered.xml);

    const view = expectStatus(await registration(id), 200);
    expect(view).toMatchObject({ doi: record.doi, doi_category: 'public', version_number: 1, access_right: 'open', configured: true });
    expect(view.registrations).toEqual([
      expect.objectContaining({ doi: record.doi, wanted: 'findable', state: 'findable', status: 'done', last_status: 0, errors: [], problem: '' }),
    ]);
  });

  it('gives each record the next number, and leaves a DOI the provider typed in (another category) alone', async () => {
    const first = await publishRecord();
    const second = await publishRecord();
    const [a, b] = [(await stored(first)).doi, (await stored(second)).doi];
    expect(Number(b.split('.').at(-1))).toBe(Number(a.split('.').at(-1)) + 1);
    const own = await publishRecord({ doi_category: 'own', doi: '10.9999/provider.1' });
    expect((await stored(own)).doi).toBe('10.9999/provider.1');
    await runJob();
    expect(standin.get('10.9999/provider.1')).toBeUndefined();
    expect(expectStatus(await registration(own), 200).registrations).toEqual([]);
  });

  it('does not wait for DataCite: the publication answers while DataCite holds the call', async () => {
    standin.stallNext(3_500);
    const before = standin.requests.length;
    const id = await publishRecord();
    expect((await stored(id)).status).toBe('published');
    expect(standin.requests.length).toBe(before);
    await runJob();
    // No reply within the timeout: kept as such, due again later.
    const [row] = expectStatus(await registration(id), 200).registrations;
    expect(row).toMatchObject({ status: 'pending', last_status: 0, attempts: 1 });
    expect(row.problem).toBe('DataCite did not answer (timeout or network); it will be tried again.');
    // DataCite carried the call out all the same: the retry's POST is "already taken", and a PUT completes it.
    // Once DataCite has carried it out (3.5 s after the call came; later on a loaded machine).
    await vi.waitFor(() => expect(standin.requests.length).toBeGreaterThan(before), { timeout: 20_000, interval: 100 });
    await runJob(LATER(2));
    const doi = (await stored(id)).doi;
    expect(standin.requests.filter((r) => r.body?.data?.attributes?.doi === doi || r.path.endsWith(doi)).map((r) => `${r.method} ${r.status}`)).toEqual([
      'POST 201',
      'POST 422',
      'PUT 200',
    ]);
    expect(expectStatus(await registration(id), 200).registrations[0]).toMatchObject({ status: 'done', state: 'findable', problem: '' });
  });
});

describe('failures are kept, shown to staff in their language, and retried with backoff', () => {
  it('401: the repository account refused; tried again after a minute, it succeeds once the password is right', async () => {
    standin.password = 'changed at DataCite';
    const id = await publishRecord();
    await runJob();
    let view = expectStatus(await registration(id, ZH), 200);
    expect(view.registrations[0]).toMatchObject({ status: 'pending', last_status: 401, attempts: 1, errors: [{ status: '401', title: 'Bad credentials.' }] });
    expect(view.registrations[0].problem).toBe('DataCite 拒绝了数据仓储账号（401）：请检查 DATACITE_USER 和 DATACITE_PASSWORD。');
    // Not due before its backoff has passed.
    await runJob(new Date(Date.now() + 30_000));
    expect(expectStatus(await registration(id), 200).registrations[0].attempts).toBe(1);
    standin.password = ACCOUNT.password;
    await runJob(LATER(2));
    view = expectStatus(await registration(id), 200);
    expect(view.registrations[0]).toMatchObject({ status: 'done', state: 'findable', last_status: 0, errors: [], attempts: 2 });
  });

  it("422: DataCite's reasons are kept as it wrote them (here the repository's domains); fixed, the retry succeeds", async () => {
    standin.domains = 'example.org';
    const id = await publishRecord();
    await runJob();
    const list = expectStatus(await call(portal, 'GET', '/api/metadata/doi-registrations/?status=pending', cast.staff.token, { headers: EN }), 200);
    const row = list.results.find((r: { metadata_id: string }) => r.metadata_id === id);
    expect(row).toMatchObject({ last_status: 422, title: expect.any(String) });
    expect(row.errors).toEqual([{ source: 'url', title: `URL http://portal.test/data/${id}/ is not allowed by repository TPDC.PORTAL domain settings.` }]);
    expect(row.problem).toBe('DataCite refused the DOI or its metadata (422); its reasons are listed.');
    standin.domains = 'portal.test';
    await runJob(LATER(2));
    expect(expectStatus(await registration(id), 200).registrations[0]).toMatchObject({ status: 'done', state: 'findable' });
  });

  it('5xx: DataCite failing is retried, doubling the wait, and succeeds when it is back', async () => {
    standin.failNext(500);
    standin.failNext(503);
    const id = await publishRecord();
    await runJob();
    expect(expectStatus(await registration(id), 200).registrations[0]).toMatchObject({
      status: 'pending',
      last_status: 500,
      errors: [{ status: '500', title: 'Internal server error' }],
    });
    await runJob(LATER(2));
    const second = expectStatus(await registration(id), 200).registrations[0];
    expect(second).toMatchObject({ status: 'pending', last_status: 503, attempts: 2 });
    // The second wait is two minutes: not due after one.
    expect(new Date(second.next_attempt_at).getTime() - new Date(second.last_attempt_at).getTime()).toBe(2 * 60_000);
    await runJob(LATER(5));
    expect(expectStatus(await registration(id), 200).registrations[0]).toMatchObject({ status: 'done', state: 'findable', attempts: 3 });
  });

  it('404: the API is not at the configured address; staff retry once it is', async () => {
    standin.mountedAt = '/moved';
    const id = await publishRecord();
    await runJob();
    const row = expectStatus(await registration(id, ZH), 200).registrations[0];
    expect(row).toMatchObject({ last_status: 404, errors: [{ status: '404', title: "The resource you are looking for doesn't exist." }] });
    expect(row.problem).toBe('DataCite 没有此地址（404）：请检查 DATACITE_API。');
    standin.mountedAt = '/api';
    // Staff need not wait for the backoff.
    const retried = expectStatus(await call(portal, 'POST', `/api/metadata/metadata/${id}/doi-registration/retry/`, cast.staff.token, { headers: EN }), 200);
    expect(retried.registrations[0]).toMatchObject({ status: 'done', state: 'findable' });
  });

  it('gives up after 15 tries (about two days), and stays shown as given up', async () => {
    standin.password = 'changed at DataCite';
    const id = await publishRecord();
    await runJob();
    // Each try when its backoff has passed: 1, 2, 4 ... minutes, at most 6 hours.
    for (let tries = 1; tries < 20; tries += 1) {
      const { next_attempt_at: next } = await portal.database.db.selectFrom('doi_registrations').select('next_attempt_at').where('metadata_id', '=', id).executeTakeFirstOrThrow();
      await portal.doi.deliverDue(new Date(new Date(next).getTime() + 1_000));
    }
    const row = expectStatus(await registration(id), 200).registrations[0];
    expect(row).toMatchObject({ status: 'failed', attempts: 15, last_status: 401 });
    const failed = expectStatus(await call(portal, 'GET', '/api/metadata/doi-registrations/?status=failed', cast.staff.token), 200);
    expect(failed.results.map((r: { metadata_id: string }) => r.metadata_id)).toContain(id);
  });

  it("is for staff only: the record's creator, an expert and anyone signed in are refused, and nothing is retried for them", async () => {
    standin.password = 'changed at DataCite';
    const id = await publishRecord();
    await runJob();
    standin.password = ACCOUNT.password;
    for (const person of [cast.creator, cast.expert, cast.stranger, cast.leader]) {
      expect((await call(portal, 'GET', '/api/metadata/doi-registrations/', person.token)).statusCode).toBe(403);
      expect((await call(portal, 'GET', '/api/metadata/doi-registrations/?failing=true', person.token)).statusCode).toBe(403);
      expect((await call(portal, 'GET', `/api/metadata/metadata/${id}/doi-registration/`, person.token)).statusCode).toBe(403);
      expect((await call(portal, 'POST', `/api/metadata/metadata/${id}/doi-registration/retry/`, person.token)).statusCode).toBe(403);
    }
    expect((await call(portal, 'GET', '/api/metadata/doi-registrations/', null)).statusCode).toBe(401);
    expect((await call(portal, 'GET', `/api/metadata/metadata/${id}/doi-registration/`, null)).statusCode).toBe(401);
    expect((await call(portal, 'POST', `/api/metadata/metadata/${id}/doi-registration/retry/`, null)).statusCode).toBe(401);
    // The refused retries sent nothing: the registration still waits with its failure.
    await portal.doi.settled();
    expect(expectStatus(await registration(id), 200).registrations[0]).toMatchObject({ status: 'pending', last_status: 401, attempts: 1 });
    expect((await call(portal, 'GET', '/api/metadata/doi-registrations/?status=lost', cast.staff.token)).statusCode).toBe(400);
    expect((await call(portal, 'GET', '/api/metadata/doi-registrations/?failing=yes', cast.staff.token)).statusCode).toBe(400);
    expect(expectStatus(await call(portal, 'POST', `/api/metadata/metadata/${id}/doi-registration/retry/`, cast.staff.token), 200).registrations[0]).toMatchObject({
      status: 'done',
    });
  });

  it("failing=true lists those whose last try failed, waiting for the next or given up, not those done; titles in the reader's language", async () => {
    type Row = { metadata_id: string; title: string; status: string; problem: string };
    const all = async (query: string, headers = EN) => {
      const page = expectStatus(await call(portal, 'GET', `/api/metadata/doi-registrations/?pageSize=100${query}`, cast.staff.token, { headers }), 200);
      expect(page.count).toBe(page.results.length);
      return page.results as Row[];
    };
    const ids = (rows: Row[]) => rows.map((r) => r.metadata_id);
    // What earlier tests left waiting goes through now; the one given up above stays given up.
    await runJob(LATER(24 * 60));
    const done = await publishRecord();
    await runJob();
    standin.failNext(503);
    const failed = await publishRecord();
    await runJob();

    const failing = await all('&failing=true');
    const givenUp = (await all('&status=failed')).map((r) => r.metadata_id);
    expect(ids(failing).sort()).toEqual([failed, ...givenUp].sort());
    expect(failing.every((r) => r.status !== 'done' && r.problem)).toBe(true);
    expect(ids(await all('&status=pending&failing=true'))).toEqual([failed]);
    expect(ids(await all(''))).toEqual(expect.arrayContaining([done, failed, ...givenUp]));
    expect((await all('&failing=false')).length).toBe((await all('')).length);
    // The record is written in Chinese with an English translation: each reader gets the title in their language.
    const english = 'Glacier area changes of the Tibetan Plateau (1990-2020)';
    const chinese = '青藏高原冰川面积变化数据集（1990-2020）';
    expect((await all('&status=pending&failing=true'))[0]!.title).toBe(english);
    expect((await all('&status=pending&failing=true', ZH))[0]!.title).toBe(chinese);
    expect(expectStatus(await registration(failed), 200).registrations[0].title).toBe(english);
    expect(expectStatus(await registration(failed, ZH), 200).registrations[0].title).toBe(chinese);
    // Retried and done, it leaves the failing list.
    expectStatus(await call(portal, 'POST', `/api/metadata/metadata/${failed}/doi-registration/retry/`, cast.staff.token), 200);
    expect(ids(await all('&failing=true')).sort()).toEqual([...givenUp].sort());
  });
});

describe('changes, withdrawal and versions', () => {
  it('a change of the published record updates DataCite; withdrawal hides the DOI (registered, the address now the tombstone); republished after a change it is version 2', async () => {
    const id = await publishRecord();
    await runJob();
    const { doi } = await stored(id);

    // Staff correct the published record in place: DataCite gets the new metadata, the version stays.
    await patchRecord(portal, cast.staff.token, id, { title: '青藏高原冰川面积变化数据集（修订）' });
    await runJob();
    expect(standin.get(doi)!.xml).toContain('青藏高原冰川面积变化数据集（修订）');
    expect((await stored(id)).version_number).toBe(1);
    expect(standin.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(doi)).at(-1)!.status).toBe(200);

    expectStatus(await decide(portal, cast.staff.token, id, { review_status: 'unpublish', content: 'Superseded by a corrected release.' }), 200);
    await runJob();
    expect(standin.get(doi)).toMatchObject({ state: 'registered', url: `http://portal.test/data/${id}/` });
    expect(standin.requests.filter((r) => r.path.endsWith(doi)).at(-1)!.body.data.attributes.event).toBe('hide');
    // The address DataCite keeps is the landing page, which now answers the tombstone.
    expect(expectStatus(await call(portal, 'GET', `/api/metadata/metadata/${id}/tombstone/`, null), 200).doi).toBe(doi);
    // DataCite refuses to delete a DOI that was findable.
    const deleted = await fetch(`${standin.url}/api/dois/${doi}`, {
      method: 'DELETE',
      headers: { authorization: `Basic ${Buffer.from(`${ACCOUNT.user}:${ACCOUNT.password}`).toString('base64')}` },
    });
    expect(deleted.status).toBe(405);

    // Changed while withdrawn, then published again: version 2, the same DOI findable again.
    await patchRecord(portal, cast.staff.token, id, { usage_method: '文件按年份命名：glacier_v2_YYYY.nc' });
    expectStatus(await decide(portal, cast.staff.token, id, { review_status: 'publish' }), 200);
    await runJob();
    expect(await stored(id)).toMatchObject({ doi, version_number: 2 });
    expect(standin.get(doi)).toMatchObject({ state: 'findable' });
    expect(standin.get(doi)!.xml).toContain('<version>2</version>');
    const schemaOrg = expectStatus(await call(portal, 'GET', `/api/metadata/metadata/${id}/export/?format=schemaorg`, null), 200);
    expect(schemaOrg.version).toBe(2);
    expect(expectStatus(await call(portal, 'GET', `/api/metadata/metadata/${id}/export/?format=dcat`, null), 200)['dcat:version']).toBe('2');
    const iso = await call(portal, 'GET', `/api/metadata/metadata/${id}/export/?format=iso19139`, null);
    expect(iso.body).toMatch(/<gmd:edition>\s*<gco:CharacterString>2<\/gco:CharacterString>\s*<\/gmd:edition>/);

    // Withdrawn and published again unchanged: still version 2.
    expectStatus(await decide(portal, cast.staff.token, id, { review_status: 'unpublish', content: 'Checking the files.' }), 200);
    expectStatus(await decide(portal, cast.staff.token, id, { review_status: 'publish' }), 200);
    await runJob();
    expect((await stored(id)).version_number).toBe(2);
    expect(standin.get(doi)!.state).toBe('findable');
  });

  it('a deleted record keeps its DOI registered (hidden)', async () => {
    const id = await publishRecord();
    await runJob();
    const { doi } = await stored(id);
    expectStatus(await call(portal, 'DELETE', `/api/metadata/metadata/${id}/`, cast.staff.token), 204);
    await runJob();
    expect(standin.get(doi)!.state).toBe('registered');
  });
});

describe('access rights', () => {
  it('an embargoed record is "embargoed access" with its end in DataCite and oai_dc; when the period ends every view turns open and DataCite hears of it', async () => {
    const id = await publishRecord({ protection_period: 'halfYear' });
    const record = await stored(id);
    const end = record.embargo_until!.slice(0, 10);
    expect(record.access_right).toBe('embargoed');
    await runJob();
    expect(standin.get(record.doi)!.xml).toContain(
      'rightsURI="http://purl.org/coar/access_right/c_f1cf" rightsIdentifier="c_f1cf" rightsIdentifierScheme="COAR" schemeURI="http://vocabularies.coar-repositories.org/access_rights/">embargoed access</rights>',
    );
    expect(standin.get(record.doi)!.xml).toContain(`<date dateType="Available">${end}</date>`);
    const oaiUrl = `/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:portal.test:${id}`;
    const before = (await portal.app.inject({ method: 'GET', url: oaiUrl })).body;
    expect(before).toContain('<dc:rights>http://purl.org/coar/access_right/c_f1cf</dc:rights>');
    expect(before).toContain(`<dc:date>info:eu-repo/date/embargoEnd/${end}</dc:date>`);

    // Before the end the job finds nothing to do for it.
    await portal.doi.noteEndedEmbargoes();
    expect((await stored(id)).access_right).toBe('embargoed');
    // The period ends (its end moved to a minute ago); the job's next run exports the record open, the
    // OAI-PMH datestamp moves (harvesters fetch it again), DataCite is updated.
    const datestamp = /<datestamp>([^<]+)<\/datestamp>/.exec(before)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await portal.database.db
      .updateTable('metadata')
      .set({ embargo_until: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect(await portal.doi.noteEndedEmbargoes()).toBeGreaterThanOrEqual(1);
    await runJob();
    expect((await stored(id)).access_right).toBe('open');
    const after = (await portal.app.inject({ method: 'GET', url: oaiUrl })).body;
    expect(after).toContain('<dc:rights>http://purl.org/coar/access_right/c_abf2</dc:rights>');
    expect(after).not.toContain('embargoEnd');
    expect(/<datestamp>([^<]+)<\/datestamp>/.exec(after)![1]! > datestamp).toBe(true);
    expect(standin.get(record.doi)!.xml).toContain('>open access</rights>');
    expect(await portal.doi.noteEndedEmbargoes()).toBe(0);
  });

  it('a record had by application is "restricted access"', async () => {
    const id = await publishRecord({ sharing_policy: 'offlineCenter' });
    expect((await stored(id)).access_right).toBe('restricted');
    const oai = (await portal.app.inject({ method: 'GET', url: `/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:portal.test:${id}` })).body;
    expect(oai).toContain('<dc:rights>http://purl.org/coar/access_right/c_16ec</dc:rights>');
  });
});

describe('the stand-in checks what DataCite checks', () => {
  const auth = { authorization: `Basic ${Buffer.from(`${ACCOUNT.user}:${ACCOUNT.password}`).toString('base64')}`, 'content-type': 'application/vnd.api+json' };
  const post = (attributes: Record<string, unknown>) =>
    fetch(`${standin.url}/api/dois`, { method: 'POST', headers: auth, body: JSON.stringify({ data: { type: 'dois', attributes } }) });

  it.skipIf(!new DataciteStandin(ACCOUNT).checksSchema)('refuses XML the DataCite schema refuses, naming the element, as DataCite does (422)', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><resource xmlns="http://datacite.org/schema/kernel-4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://datacite.org/schema/kernel-4 http://schema.datacite.org/meta/kernel-4.5/metadata.xsd"><identifier identifierType="DOI">10.55555/CHECK.1</identifier><titles><title>No creators</title></titles><publisher>P</publisher><publicationYear>2024</publicationYear><resourceType resourceTypeGeneral="Dataset">Dataset</resourceType></resource>`;
    const reply = await post({ doi: '10.55555/check.1', url: 'http://portal.test/x', event: 'publish', xml: Buffer.from(xml).toString('base64') });
    expect(reply.status).toBe(422);
    const body = await reply.json();
    expect(body.errors[0]).toMatchObject({ uid: '10.55555/check.1', title: expect.stringMatching(/^DOI 10\.55555\/check\.1: .* at line 1, column 0$/) });
  });

  it('refuses a DOI under another prefix (403), a publish without a URL (422) and a body that is not JSON:API (400)', async () => {
    expect((await post({ doi: '10.1234/x', event: 'publish', url: 'http://portal.test/x' })).status).toBe(403);
    const noUrl = await post({ doi: '10.55555/nourl', event: 'publish' });
    expect(noUrl.status).toBe(422);
    expect((await noUrl.json()).errors).toContainEqual({ source: 'url', title: "Can't be blank", uid: '10.55555/nourl' });
    expect((await fetch(`${standin.url}/api/dois`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(400);
  });
});
