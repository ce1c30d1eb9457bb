import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, buildUser, type Person } from './factories.js';
import { createTestPortal, EN, type TestPortal } from './helpers.js';
import { authorForm, call, countRows, expectStatus, resourceUrl } from './metadata-builders.js';

/**
 * Issue 16: Add double-clicked in the author and provider dialogs made two identical rows. The
 * server refuses an identical create by the same account within a moment (a 409 in the caller's
 * language), whether the two requests arrive at once or one after the other.
 */

type User = Person;

let portal: TestPortal;
let owner: User;
let other: User;
beforeAll(async () => {
  portal = await createTestPortal();
  [owner, other] = await Promise.all([buildUser(portal), buildUser(portal)]);
});
afterAll(async () => {
  await portal.close();
});

const REPEATED = 'You added the same entry a moment ago; it was not added a second time.';
const post = (token: string, name: string, body: Record<string, unknown>, headers: Record<string, string> = EN) =>
  call(portal, 'POST', resourceUrl(name), token, { body, headers });

/** Moves the rows' creation back by `seconds`, as if they had been made that long ago. */
const age = (table: string, ids: string[], seconds: number) =>
  portal.database.db
    .updateTable(table as 'authors')
    .set({ created_at: new Date(Date.now() - seconds * 1000).toISOString() })
    .where('id', 'in', ids)
    .execute();

describe('POST author/, literature/, fund/: the same create twice in a moment', () => {
  it('makes one author of two identical posts at once; the other is a 409 that says why', async () => {
    const body = authorForm();
    const replies = await Promise.all([post(owner.token, 'author', body), post(owner.token, 'author', body)]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([201, 409]);
    const refused = replies.find((reply) => reply.statusCode === 409)!;
    expect(refused.json().detail).toBe(REPEATED);
    expect(await countRows(portal, 'authors', { email: body.email })).toBe(1);
  });

  it('refuses an identical author posted right after the first, in Chinese too, and takes it again once the moment is over', async () => {
    const body = authorForm();
    const first = expectStatus(await post(owner.token, 'author', body), 201);
    const again = await post(owner.token, 'author', body, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('刚才已添加过相同的条目，未再次添加。');
    expect(await countRows(portal, 'authors', { email: body.email })).toBe(1);

    await age('authors', [first.id], 11);
    expectStatus(await post(owner.token, 'author', body), 201);
    expect(await countRows(portal, 'authors', { email: body.email })).toBe(2);
  });

  it('takes a create that differs in anything, or comes from someone else', async () => {
    const body = authorForm();
    expectStatus(await post(owner.token, 'author', body), 201);
    // Only the English name differs: it is written beside the row, and still makes another author.
    expectStatus(await post(owner.token, 'author', { ...body, name_en: `${body.name_en} Jr.` }), 201);
    expectStatus(await post(other.token, 'author', body), 201);
    expect(await countRows(portal, 'authors', { email: body.email })).toBe(3);
  });

  it('refuses the same literature entry for the same record, not for another record', async () => {
    const [record, second] = [await buildRecord(portal, { owner }), await buildRecord(portal, { owner })];
    const body = { title: '祁连山冰川物质平衡', type: 'reference', year: '2019', metadata: record };
    const replies = await Promise.all([post(owner.token, 'literature', body), post(owner.token, 'literature', body)]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([201, 409]);
    expect(await countRows(portal, 'citations', { metadata_id: record })).toBe(1);
    expectStatus(await post(owner.token, 'literature', { ...body, metadata: second }), 201);
    expect(await countRows(portal, 'citations', { metadata_id: second })).toBe(1);
  });

  it('refuses the same new funding project for a record twice in a row', async () => {
    const record = await buildRecord(portal, { owner });
    const body = { name: '冰川变化研究', name_en: 'Glacier change research', metadata: record };
    expectStatus(await post(owner.token, 'fund', body), 201);
    const again = await post(owner.token, 'fund', body);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(REPEATED);
    expect(await countRows(portal, 'meta_fund', { metadata_id: record })).toBe(1);
  });
});
