import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasIllegalText } from '@portal/shared';
import { up as cleanText } from '../src/db/migrations/0008-clean-text.js';
import { buildRecord, buildUser, type Person } from './factories.js';
import { createTestPortal, EN, FORM, form, type TestPortal } from './helpers.js';
import { addAuthor, authorForm, call, expectStatus, multipart, recordUrl, resourceUrl } from './metadata-builders.js';

/**
 * Issue 16, "XML-illegal characters" and "NUL bytes on PostgreSQL": text XML cannot carry is refused
 * on every route before a database sees it (PostgreSQL answered NUL with a 500 and a stack trace),
 * with a message naming the field, in the caller's language, on both databases alike; text stored
 * before the rule is cleaned by a migration.
 */

type User = Person;

let portal: TestPortal;
let owner: User;
beforeAll(async () => {
  portal = await createTestPortal();
  owner = await buildUser(portal);
});
afterAll(async () => {
  await portal.close();
});

const BAD = ['\u0000', '\u0001', '\u0008', '\u000B', '\u000C', '\u001F', '\uFFFE', '\uFFFF', '\uD800'];

describe('anonymous routes refuse NUL and control characters instead of failing', () => {
  it('answers 404 for an id holding one, as JSON and as a page', async () => {
    for (const url of ['/api/metadata/metadata/a%00b/', '/api/metadata/metadata/a%01b/', '/api/metadata/metadata/a%00b/tombstone/', '/api/voucher/verify/AB%00CD/']) {
      const response = await portal.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().detail, url).toBeTruthy();
    }
    const page = await portal.app.inject({ method: 'GET', url: '/data/a%00b/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
  });

  it("answers 400 naming the query parameter (search q, a list's search)", async () => {
    for (const url of ['/api/metadata/search/?q=ice%00', '/api/metadata/search/suggest/?q=%0B', '/api/metadata/search/?q=a%EF%BF%BF']) {
      const response = await portal.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
      expect(response.statusCode, url).toBe(400);
      const body = response.json();
      expect(body.q, url).toEqual([expect.stringContaining('control character')]);
      expect(body.detail, url).toMatch(/^q: /);
    }
    const list = await call(portal, 'GET', '/api/metadata/metadata/?search=a%00b', owner.token);
    expect(list.statusCode).toBe(400);
    expect(list.json().search).toHaveLength(1);
  });

  it('refuses a login whose username or password holds NUL (form and JSON), in Chinese too', async () => {
    const asForm = await portal.app.inject({ method: 'POST', url: '/account/profile-login/', headers: FORM, payload: form({ username: 'a\u0000b', password: 'x' }) });
    expect(asForm.statusCode).toBe(400);
    expect(asForm.json().username[0]).toContain('控制字符');
    const asJson = await portal.app.inject({ method: 'POST', url: '/account/profile-login/', headers: EN, payload: { username: owner.username, password: 'p\u0000' } });
    expect(asJson.statusCode).toBe(400);
    expect(asJson.json().password[0]).toContain('control character');
  });

  it('refuses a basket line whose dataset id holds NUL', async () => {
    const response = await call(portal, 'POST', '/api/account/line_item/', owner.token, { body: { metadata_id: 'x\u0000y' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().metadata_id).toHaveLength(1);
  });
});

describe('text fields refuse characters XML cannot carry', () => {
  it('refuses each in a title and keeps the stored title, naming the field', async () => {
    const record = await buildRecord(portal, { owner, title: 'Glacier mass balance' });
    for (const bad of BAD) {
      const response = await call(portal, 'PATCH', recordUrl(record), owner.token, { body: { title: `Close${bad}` }, headers: EN });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().title, JSON.stringify(bad)).toHaveLength(1);
      expect(response.json().detail).toMatch(/^title: .*control character/);
    }
    const stored = await portal.database.db.selectFrom('metadata').select('title').where('id', '=', record).executeTakeFirstOrThrow();
    expect(stored.title).toBe('Glacier mass balance');
    // Tab, line breaks, pairs of surrogates and other characters are text, and pass.
    expectStatus(await call(portal, 'PATCH', recordUrl(record), owner.token, { body: { description: 'a\tb\r\nc 😀 冰川 \u00A0' } }), 200);
  });

  it('names the field inside a nested body and in a form post', async () => {
    const create = await call(portal, 'POST', '/api/metadata/metadata/', owner.token, { body: { language: 'en', title: 'T\u0007' } });
    expect(create.statusCode).toBe(400);
    expect(create.json().title).toHaveLength(1);
    const author = await call(portal, 'POST', resourceUrl('author'), owner.token, { body: authorForm({ name_en: 'Wang\u001b' }), asForm: true });
    expect(author.statusCode).toBe(400);
    expect(author.json().name_en).toHaveLength(1);
  });

  it('refuses a multipart field holding one before anything is stored', async () => {
    const record = await buildRecord(portal, { owner });
    const body = await multipart([
      ['metadata', `${record}\u0000`],
      ['file', { filename: 'a.csv', content: 'x,y\n1,2\n' }],
    ]);
    const response = await portal.app.inject({
      method: 'POST',
      url: '/metadata/upload-file/',
      headers: { ...body.headers, authorization: `Token ${owner.token}` },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('the migration cleans text stored before the rule', () => {
  it('removes the characters from every text column it finds them in, and only those', async () => {
    const record = await buildRecord(portal, { owner, title: 'clean' });
    const author = await addAuthor(portal, owner.token, record);
    // PostgreSQL never stored NUL; SQLite may have.
    const nul = portal.database.dialect === 'sqlite' ? '\u0000' : '';
    await portal.database.db
      .updateTable('metadata')
      .set({ title: `Gla${nul}ci\u000Ber\uFFFF`, description: 'line\none\ttab\u0001' })
      .where('id', '=', record)
      .execute();
    await portal.database.db.updateTable('authors').set({ name: 'Wang\u001F Fang' }).where('id', '=', author.author.id).execute();
    const untouched = await portal.database.db.selectFrom('metadata').select('updated_at').where('id', '=', record).executeTakeFirstOrThrow();

    await cleanText(portal.database.db as unknown as Kysely<unknown>);

    const row = await portal.database.db.selectFrom('metadata').select(['title', 'description', 'updated_at']).where('id', '=', record).executeTakeFirstOrThrow();
    expect(row.title).toBe('Glacier');
    expect(row.description).toBe('line\none\ttab');
    expect(row.updated_at).toBe(untouched.updated_at);
    const authorRow = await portal.database.db.selectFrom('authors').select('name').where('id', '=', author.author.id).executeTakeFirstOrThrow();
    expect(authorRow.name).toBe('Wang Fang');
    const texts = await portal.database.db.selectFrom('metadata').select(['title', 'description']).execute();
    for (const text of texts.flatMap((t) => [t.title, t.description])) expect(hasIllegalText(text ?? '')).toBe(false);
  });
});
