import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, linkAuthors } from './factories.js';
import { createTestPortal, EN, mailsTo, readOutbox, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { insertReview } from './review-builders.js';
import { addLine, apply, createOrdersCast, downloadFile, FORM_EN, handle, haveDownload, order, type OrdersCast } from './orders-builders.js';

const ZH = { 'accept-language': 'zh-hans' };

describe('orders: basket, application, handling and the download rule', () => {
  let portal: TestPortal;
  let cast: OrdersCast;

  beforeAll(async () => {
    portal = await createTestPortal();
    cast = await createOrdersCast(portal);
  });
  afterAll(async () => portal?.close());

  describe('the basket', () => {
    it('takes a published dataset once, answers who may not, and lists lines with titles in both languages', async () => {
      const { applicant, ids, ownerA } = cast;
      expect((await addLine(portal, null, ids.openA)).statusCode).toBe(401);
      const line = expectStatus(await addLine(portal, applicant.token, ids.openA), 201);
      expect(line).toMatchObject({ metadata_id: ids.openA, sharing_policy: 'online', embargo_until: null });
      expect(line.title).toMatch(/^北极海冰厚度数据集 openA/);
      expect(line.title_en).toMatch(/^Arctic sea-ice thickness openA/);

      const again = await addLine(portal, applicant.token, ids.openA);
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe('This dataset is already in your data cart.');
      expect((await addLine(portal, applicant.token, ids.openA, ZH)).json().detail).toBe('该数据已在您的数据车中。');

      const own = await addLine(portal, ownerA.token, ids.openA);
      expect(own.statusCode).toBe(409);
      expect(own.json().detail).toMatch(/your own dataset/);
      expect((await addLine(portal, applicant.token, 'no-such-record')).statusCode).toBe(404);

      const page = expectStatus(await call(portal, 'GET', '/api/account/line_item/', applicant.token), 200);
      expect(page.count).toBe(1);
      expect(page.results[0].id).toBe(line.id);
      // Nobody else sees or removes the line.
      expect(expectStatus(await call(portal, 'GET', '/api/account/line_item/', cast.other.token), 200).count).toBe(0);
      expect((await call(portal, 'DELETE', `/api/account/line_item/${line.id}/`, cast.other.token, { headers: EN })).statusCode).toBe(404);
      expect((await call(portal, 'DELETE', `/api/account/line_item/${line.id}/`, applicant.token)).statusCode).toBe(204);
      expect(expectStatus(await call(portal, 'GET', '/api/account/line_item/', applicant.token), 200).count).toBe(0);
    });

    it('refuses an unpublished record as unknown and a dataset in its protection period with its date', async () => {
      const { applicant, ownerA, ids } = cast;
      const draft = await call(portal, 'POST', '/api/metadata/metadata/', ownerA.token, { body: { language: 'zh-hans', title: '未发布的草稿数据集' } });
      const draftId = expectStatus(draft, 201).id;
      expect((await addLine(portal, applicant.token, draftId)).statusCode).toBe(404);

      await portal.database.db.updateTable('metadata').set({ embargo_until: '2999-06-30T00:00:00.000Z' }).where('id', '=', ids.mailA).execute();
      try {
        const refused = await addLine(portal, applicant.token, ids.mailA);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().detail).toBe('This dataset is in its protection period: its data can be ordered and downloaded from 2999-06-30.');
        const verdict = await haveDownload(portal, applicant.token, ids.mailA);
        expect(verdict).toMatchObject({ have_download: false, reason: 'embargo', available_from: '2999-06-30T00:00:00.000Z' });
        // The creator and staff download it all the same.
        expect((await downloadFile(portal, ownerA.token, cast.files.mailA.id)).statusCode).toBe(200);
        expect((await downloadFile(portal, cast.staff.token, cast.files.mailA.id)).statusCode).toBe(200);
        expect((await downloadFile(portal, applicant.token, cast.files.mailA.id)).json().detail).toMatch(/protection period/);
      } finally {
        await portal.database.db.updateTable('metadata').set({ embargo_until: null }).where('id', '=', ids.mailA).execute();
      }
    });

    it('deletes several lines at once, and none when one of them is not the caller’s', async () => {
      const { applicant, other, ids } = cast;
      const one = expectStatus(await addLine(portal, applicant.token, ids.mailA), 201);
      const two = expectStatus(await addLine(portal, applicant.token, ids.mailB), 201);
      const foreign = expectStatus(await addLine(portal, other.token, ids.mailB), 201);
      expect((await call(portal, 'DELETE', `/api/account/line_item/?line=${one.id},${foreign.id}`, applicant.token)).statusCode).toBe(404);
      expect((await call(portal, 'DELETE', `/api/account/line_item/?line=${one.id},${two.id}`, applicant.token)).statusCode).toBe(204);
      expect(expectStatus(await call(portal, 'GET', '/api/account/line_item/', applicant.token), 200).count).toBe(0);
      expect((await call(portal, 'DELETE', `/api/account/line_item/${foreign.id}/`, other.token)).statusCode).toBe(204);
    });
  });

  describe('applying', () => {
    it('checks every field of the form in the caller’s language and keeps the basket', async () => {
      const { applicant, ids } = cast;
      const line = expectStatus(await addLine(portal, applicant.token, ids.openA), 201);
      const bad = await apply(portal, applicant.token, [line.id], { ...FORM_EN, phone: '', country: 'XX', reason: '' });
      expect(bad.statusCode).toBe(400);
      const fields = bad.json();
      expect(JSON.stringify(fields)).toContain('Please input your phone number!');
      expect(JSON.stringify(fields)).toContain('Please choose your country or region!');
      const zh = await apply(portal, applicant.token, [line.id], { ...FORM_EN, realName: '' }, ZH);
      expect(zh.statusCode).toBe(400);
      expect(JSON.stringify(zh.json())).toMatch(/[\u4e00-\u9fff]/);
      const none = await apply(portal, applicant.token, []);
      expect(none.statusCode).toBe(400);
      expect(JSON.stringify(none.json())).toContain('Please select at least one dataset.');
      // Another user's line, or one not in any basket: nothing is written.
      const foreign = await apply(portal, cast.other.token, [line.id]);
      expect(foreign.statusCode).toBe(409);
      expect(expectStatus(await call(portal, 'GET', '/api/account/line_item/', applicant.token), 200).count).toBe(1);
      expect(expectStatus(await call(portal, 'GET', '/api/account/order/', applicant.token), 200).count).toBe(0);
      await call(portal, 'DELETE', `/api/account/line_item/${line.id}/`, applicant.token);
    });

    it('grants open data at once: Success, downloadable, with a voucher', async () => {
      const { applicant, ids, files } = cast;
      expect(await haveDownload(portal, null, ids.openA)).toMatchObject({ have_download: false, reason: 'login' });
      const reply = await order(portal, applicant, [ids.openA]);
      expect(reply.status).toBe('Success');
      expect(reply.order.orders).toHaveLength(1);
      const [granted] = reply.order.orders;
      expect(granted).toMatchObject({ status: 'approved', handler: 'online', applicant: 'Ada Applicant' });
      expect(granted.voucher_code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      expect(new Date(granted.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
      expect(expectStatus(await call(portal, 'GET', '/api/account/line_item/', applicant.token), 200).count).toBe(0);
      expect(await haveDownload(portal, applicant.token, ids.openA)).toMatchObject({ have_download: true, reason: 'ok' });
      const file = await downloadFile(portal, applicant.token, files.openA.id);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(files.openA.content)).toBe(true);
      // Open access: any signed-in user downloads it, with or without an order.
      expect((await downloadFile(portal, cast.other.token, files.openA.id)).statusCode).toBe(200);
      expect((await downloadFile(portal, null, files.openA.id)).statusCode).toBe(401);
    });

    it('splits a request across owners, mails each handler once, and waits', async () => {
      const { applicant, ownerA, ownerB, staff, ids, files } = cast;
      const before = (await readOutbox(portal.outbox)).length;
      const reply = await order(portal, applicant, [ids.openA, ids.mailA, ids.mailB, ids.centerB]);
      expect(reply.status).toBe('Waiting');
      const byHandler = Object.fromEntries(reply.order.orders.map((o: any) => [o.handler === 'owner' ? o.owner_name : o.handler, o]));
      expect(Object.keys(byHandler).sort()).toEqual(['Owner Ang', 'Owner Bai', 'center', 'online']);
      expect(byHandler.online.status).toBe('approved');
      for (const key of ['Owner Ang', 'Owner Bai', 'center']) expect(byHandler[key].status).toBe('waiting');
      expect(byHandler['Owner Ang'].lines.map((l: any) => l.metadata_id)).toEqual([ids.mailA]);
      expect(byHandler['Owner Ang'].contact_email).toBe('distributor-a@example.org');

      const mails = (await readOutbox(portal.outbox)).slice(before);
      const toA = mails.filter((m) => m.to.includes(ownerA.email));
      expect(toA).toHaveLength(1);
      expect(toA[0]!.to).toContain('distributor-a@example.org');
      expect(toA[0]!.text).toContain('Ada Applicant');
      expect(mails.filter((m) => m.to.includes(ownerB.email))).toHaveLength(1);
      expect(mails.filter((m) => m.to.includes(staff.email))).toHaveLength(1);

      expect(await haveDownload(portal, applicant.token, ids.mailA)).toMatchObject({ have_download: false, reason: 'waiting' });
      expect(await haveDownload(portal, cast.other.token, ids.mailA)).toMatchObject({ have_download: false, reason: 'order' });
      const waiting = await downloadFile(portal, applicant.token, files.mailA.id);
      expect(waiting.statusCode).toBe(403);
      expect(waiting.json().detail).toBe('Your application for this dataset is under review.');

      // The owners see their own share; staff the data centre's and every owner's; the applicant none to decide.
      const incomingA = expectStatus(await call(portal, 'GET', '/api/account/order/?role=handler&status=waiting', ownerA.token), 200);
      expect(incomingA.results.map((o: any) => o.id)).toEqual([byHandler['Owner Ang'].id]);
      expect(incomingA.results[0].application).toMatchObject({ realName: 'Ada Applicant', country: 'NO', affiliation: 'Institute of Polar Studies' });
      const incomingStaff = expectStatus(await call(portal, 'GET', '/api/account/order/?role=handler&status=waiting', staff.token), 200);
      expect(incomingStaff.results.map((o: any) => o.id)).toEqual(expect.arrayContaining([byHandler['Owner Ang'].id, byHandler['Owner Bai'].id, byHandler.center.id]));
      expect(expectStatus(await call(portal, 'GET', '/api/account/order/?role=handler', applicant.token), 200).count).toBe(0);

      // Deciding: only the order's owner (or staff); a rejection needs a reason.
      const orderA = byHandler['Owner Ang'].id;
      expect((await handle(portal, applicant.token, [orderA], 'approved')).statusCode).toBe(403);
      expect((await handle(portal, ownerB.token, [orderA], 'approved')).statusCode).toBe(404);
      expect((await handle(portal, ownerA.token, [orderA, byHandler['Owner Bai'].id], 'approved')).statusCode).toBe(404);
      const noReason = await handle(portal, ownerB.token, [byHandler['Owner Bai'].id], 'rejected');
      expect(noReason.statusCode).toBe(400);
      expect(JSON.stringify(noReason.json())).toContain('Give a reason');

      const approved = expectStatus(await handle(portal, ownerA.token, [orderA], 'approved'), 200);
      expect(approved.results[0]).toMatchObject({ status: 'approved', voucher_code: expect.any(String) });
      const again = await handle(portal, ownerA.token, [orderA], 'rejected', 'changed my mind');
      expect(again.statusCode).toBe(409);
      const rejected = expectStatus(await handle(portal, ownerB.token, [byHandler['Owner Bai'].id], 'rejected', 'The data are reserved for the project until 2026.'), 200);
      expect(rejected.results[0]).toMatchObject({ status: 'rejected', decision_reason: 'The data are reserved for the project until 2026.' });
      expect(expectStatus(await handle(portal, staff.token, [byHandler.center.id], 'approved'), 200).results[0].status).toBe('approved');

      // The applicant hears of each decision.
      const decisions = (await mailsTo(portal, FORM_EN.email)).filter((m) => /Approved|Order rejected/.test(m.subject));
      expect(decisions.length).toBeGreaterThanOrEqual(3);
      expect(decisions.some((m) => m.text.includes('reserved for the project'))).toBe(true);

      // Now: approved files download, the rejected one does not.
      expect(await haveDownload(portal, applicant.token, ids.mailA)).toMatchObject({ have_download: true, order: orderA });
      const got = await downloadFile(portal, applicant.token, files.mailA.id);
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(files.mailA.content)).toBe(true);
      expect((await downloadFile(portal, applicant.token, files.centerB.id)).statusCode).toBe(200);
      expect((await downloadFile(portal, applicant.token, files.mailB.id)).statusCode).toBe(403);
      expect((await downloadFile(portal, cast.other.token, files.mailA.id)).statusCode).toBe(403);

      // Downloadable datasets: the approved ones, each with its order.
      const downloadable = expectStatus(await call(portal, 'GET', '/api/data/downloadable/', applicant.token), 200);
      const listed = Object.fromEntries(downloadable.results.map((d: any) => [d.metadata_id, d]));
      expect(Object.keys(listed).sort()).toEqual([ids.openA, ids.mailA, ids.centerB].sort());
      expect(listed[ids.mailA]).toMatchObject({ order: orderA, file_count: 1, total_size: files.mailA.content.length });
    });

    it('ends access when an approval expires, and shows it as expired', async () => {
      const { applicant, ids, files, ownerA } = cast;
      const reply = await order(portal, cast.other, [ids.mailA]);
      const [waiting] = reply.order.orders;
      expectStatus(await handle(portal, ownerA.token, [waiting.id], 'approved'), 200);
      expect((await downloadFile(portal, cast.other.token, files.mailA.id)).statusCode).toBe(200);
      await portal.database.db
        .updateTable('orders')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', waiting.id)
        .execute();
      const refused = await downloadFile(portal, cast.other.token, files.mailA.id);
      expect(refused.statusCode).toBe(403);
      const shown = expectStatus(await call(portal, 'GET', `/api/account/order/${waiting.id}/`, cast.other.token), 200);
      expect(shown.status).toBe('expired');
      expect(shown.voucher_code).toBeNull();
      expect(expectStatus(await call(portal, 'GET', '/api/account/order/?status=expired', cast.other.token), 200).results.map((o: any) => o.id)).toEqual([waiting.id]);
      // An expired order is applied for again with its form; the new one waits for the owner.
      const again = expectStatus(await call(portal, 'POST', '/account/reapply/', cast.other.token, { body: { order: waiting.id } }), 201);
      expect(again.status).toBe('Waiting');
      expect(again.order.orders[0]).toMatchObject({ status: 'waiting', handler: 'owner' });
      expect(again.order.realName).toBe(FORM_EN.realName);
      expect(applicant.id).not.toBe(cast.other.id);
    });

    it('lets the applicant answer a return, withdraw, and apply again; refuses what the state does not allow', async () => {
      const { applicant, ownerB, ids } = cast;
      const reply = await order(portal, applicant, [ids.mailB]);
      const id = reply.order.orders[0].id;
      expectStatus(await handle(portal, ownerB.token, [id], 'returned', 'Please name the project the data are for.'), 200);
      expect(expectStatus(await call(portal, 'GET', `/api/account/order/${id}/`, applicant.token), 200)).toMatchObject({
        status: 'returned',
        decision_reason: 'Please name the project the data are for.',
      });
      expect((await call(portal, 'PUT', `/api/account/order/${id}/`, cast.other.token, { body: FORM_EN })).statusCode).toBe(404);
      const answered = expectStatus(
        await call(portal, 'PUT', `/api/account/order/${id}/`, applicant.token, { body: { ...FORM_EN, reason: 'For the NSFC project 42000000: sea-ice validation.' } }),
        200,
      );
      expect(answered).toMatchObject({ status: 'waiting', application: { reason: 'For the NSFC project 42000000: sea-ice validation.' } });

      const removed = expectStatus(await call(portal, 'POST', '/account/delete_order/', applicant.token, { body: { orders: [id] } }), 200);
      expect(removed.results[0].status).toBe('deleted');
      const late = await handle(portal, ownerB.token, [id], 'approved');
      expect(late.statusCode).toBe(409);
      expect(late.json().detail).toMatch(/already been decided or withdrawn/);
      expect((await call(portal, 'PUT', `/api/account/order/${id}/`, applicant.token, { body: FORM_EN, headers: EN })).statusCode).toBe(409);
      expect((await call(portal, 'POST', '/account/delete_order/', cast.other.token, { body: { orders: [id] } })).statusCode).toBe(404);
      const again = expectStatus(await call(portal, 'POST', '/account/reapply/', applicant.token, { body: { order: id } }), 201);
      expect(again.order.orders[0].status).toBe('waiting');
      const waitingOrder = again.order.orders[0].id;
      expect((await call(portal, 'POST', '/account/reapply/', applicant.token, { body: { order: waitingOrder }, headers: EN })).statusCode).toBe(409);
    });

    it('lets one of two decisions at the same moment win, and one of a decision and a deletion', async () => {
      const { applicant, ownerB, staff, ids } = cast;
      const first = (await order(portal, applicant, [ids.mailB])).order.orders[0].id;
      const both = await Promise.all([handle(portal, ownerB.token, [first], 'approved'), handle(portal, staff.token, [first], 'rejected', 'Not for this purpose.')]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const second = (await order(portal, cast.other, [ids.mailB])).order.orders[0].id;
      const race = await Promise.all([
        handle(portal, ownerB.token, [second], 'approved'),
        call(portal, 'POST', '/account/delete_order/', cast.other.token, { body: { orders: [second] } }),
      ]);
      // A deletion may follow an approval (the applicant withdraws), never the other way round: either
      // both pass in that order and the order ends deleted, or the one that came second is refused.
      const final = expectStatus(await call(portal, 'GET', `/api/account/order/${second}/`, cast.other.token), 200).status;
      const [decision, deletion] = race.map((r) => r.statusCode);
      if (decision === 200 && deletion === 200) expect(final).toBe('deleted');
      else if (decision === 409) expect([deletion, final]).toEqual([200, 'deleted']);
      else expect([decision, deletion, final]).toEqual([200, 409, 'approved']);
    });
  });

  describe('zips and command-line links', () => {
    it('zips approved files with a manifest a real unzip and sha256sum accept, and refuses what is not granted', async () => {
      const { applicant, files } = cast;
      // The applicant holds approvals of openA, mailA and centerB from the split above; mailB was rejected.
      const reply = await call(portal, 'GET', `/api/data/zip/?files=${files.openA.id},${files.mailA.id}`, applicant.token);
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toBe('application/zip');
      expect(Number(reply.headers['content-length'])).toBe(reply.rawPayload.length);
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'orders-zip-'));
      try {
        await fs.writeFile(path.join(folder, 'data.zip'), reply.rawPayload);
        execFileSync('unzip', ['-q', 'data.zip'], { cwd: folder });
        execFileSync('sha256sum', ['-c', '--strict', 'MANIFEST-SHA256.txt'], { cwd: folder });
        const listed = (await fs.readFile(path.join(folder, 'MANIFEST-SHA256.txt'), 'utf8')).trim().split('\n');
        expect(listed).toHaveLength(2);
        const openPath = listed.find((line) => line.includes('openA.csv'))!.split('  ')[1]!;
        expect(openPath).toMatch(/^北极海冰厚度数据集 openA .*\/openA\.csv$/);
        expect((await fs.readFile(path.join(folder, openPath))).equals(files.openA.content)).toBe(true);
      } finally {
        await fs.rm(folder, { recursive: true, force: true });
      }

      // Someone with no order: the open file alone would do, with a requestable one nothing is sent.
      const stranger = await buildUser(portal, { realname: 'Stranger Shen' });
      expect((await call(portal, 'GET', `/api/data/zip/?files=${files.openA.id}`, stranger.token)).statusCode).toBe(200);
      const refused = await call(portal, 'GET', `/api/data/zip/?files=${files.openA.id},${files.mailB.id}`, stranger.token, { headers: EN });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain('PK');
      expect((await call(portal, 'GET', `/api/data/zip/?files=${files.openA.id}`, null)).statusCode).toBe(401);
      const none = await call(portal, 'GET', '/api/data/zip/?files=', applicant.token, { headers: EN });
      expect(none.statusCode).toBe(400);
      expect(JSON.stringify(none.json())).toContain('Please select the file');
      const many = Array.from({ length: 51 }, () => randomUUID()).join(',');
      const tooMany = await call(portal, 'GET', `/api/data/zip/?files=${many}`, applicant.token, { headers: EN });
      expect(tooMany.statusCode).toBe(400);
      expect(JSON.stringify(tooMany.json())).toContain('More than 50 files are selected. Please reselect');
      expect((await call(portal, 'GET', `/api/data/zip/?files=${randomUUID()}`, applicant.token)).statusCode).toBe(404);
      // Over 100 MB together (as the rows say): refused before a byte is read.
      await portal.database.db
        .updateTable('meta_file')
        .set({ size: 150 * 1024 * 1024 })
        .where('id', '=', files.mailA.id)
        .execute();
      try {
        const large = await call(portal, 'GET', `/api/data/zip/?files=${files.openA.id},${files.mailA.id}`, applicant.token, { headers: EN });
        expect(large.statusCode).toBe(400);
        expect(large.json().detail).toMatch(/larger than 100 MB/);
      } finally {
        await portal.database.db.updateTable('meta_file').set({ size: files.mailA.content.length }).where('id', '=', files.mailA.id).execute();
      }
    });

    it('lists an approved order’s signed links, which download without a sign-in, resume, and stop with the order', async () => {
      const { ownerA, files, ids } = cast;
      const scientist = cast.other;
      const placed = await order(portal, scientist, [ids.mailA]);
      const id = placed.order.orders[0].id;
      expect((await call(portal, 'GET', `/api/account/order/${id}/links/`, scientist.token, { headers: EN })).statusCode).toBe(409);
      expectStatus(await handle(portal, ownerA.token, [id], 'approved'), 200);
      expect((await call(portal, 'GET', `/api/account/order/${id}/links/`, cast.applicant.token)).statusCode).toBe(404);
      const list = await call(portal, 'GET', `/api/account/order/${id}/links/`, scientist.token);
      expect(list.statusCode).toBe(200);
      const links = list.body.trim().split('\n');
      expect(links).toHaveLength(1);
      const url = new URL(links[0]!);
      expect(url.origin).toBe('http://portal.test');
      expect(url.pathname.endsWith('/mailA.csv')).toBe(true);

      const whole = await portal.app.inject({ method: 'GET', url: url.pathname });
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(files.mailA.content)).toBe(true);
      const rest = await portal.app.inject({ method: 'GET', url: url.pathname, headers: { range: 'bytes=100-' } });
      expect(rest.statusCode).toBe(206);
      expect(rest.rawPayload.equals(files.mailA.content.subarray(100))).toBe(true);

      // A real wget reads the list (this portal's links name http://portal.test: the test server's address instead).
      const address = await portal.app.listen({ port: 0, host: '127.0.0.1' });
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'orders-wget-'));
      try {
        await fs.writeFile(path.join(folder, 'links.txt'), list.body.replaceAll('http://portal.test', address));
        // Asynchronously: the server answering wget runs in this process.
        await promisify(execFile)('wget', ['-q', '-c', '--tries=1', '--timeout=30', '-i', 'links.txt'], { cwd: folder });
        expect((await fs.readFile(path.join(folder, 'mailA.csv'))).equals(files.mailA.content)).toBe(true);
      } finally {
        await fs.rm(folder, { recursive: true, force: true });
      }

      // Another file under the same signature, a changed expiry, another signature: forged.
      const parts = url.pathname.split('/');
      const withFile = (file: string) => [...parts.slice(0, 5), file, ...parts.slice(6)].join('/');
      const withExpiry = [...parts.slice(0, 6), String(Number(parts[6]) + 3600), ...parts.slice(7)].join('/');
      for (const forged of [withFile(files.openA.id), withExpiry, url.pathname.replace(/\/[A-Za-z0-9_-]{43}\//, `/${'A'.repeat(43)}/`)]) {
        const reply = await portal.app.inject({ method: 'GET', url: forged, headers: EN });
        expect(reply.statusCode, forged).toBe(403);
        expect(reply.json().detail).toBe('This download link is not valid. Copy it again from your download page.');
      }
      // Withdrawn: the same link no longer serves.
      expectStatus(await call(portal, 'POST', '/account/delete_order/', scientist.token, { body: { orders: [id] } }), 200);
      const after = await portal.app.inject({ method: 'GET', url: url.pathname, headers: EN });
      expect(after.statusCode).toBe(403);
      expect(after.json().detail).toMatch(/expired/);
    });
  });

  describe('vouchers', () => {
    it('shows an approved order’s voucher to its applicant, and anyone can check its code', async () => {
      const { applicant, ids } = cast;
      const reply = await order(portal, applicant, [ids.openA]);
      const granted = reply.order.orders[0];
      expect((await call(portal, 'GET', `/api/account/voucher/${granted.id}/`, cast.other.token)).statusCode).toBe(404);
      const voucher = expectStatus(await call(portal, 'GET', `/api/account/voucher/${granted.id}/`, applicant.token, { headers: EN }), 200);
      expect(voucher).toMatchObject({ code: granted.voucher_code, applicant: 'Ada Applicant', valid: true, approved_by: 'Open access, granted at once' });
      expect(voucher.datasets[0]).toMatchObject({ metadata_id: ids.openA, doi: expect.stringMatching(/^10\.11888\//) });
      expect(voucher.datasets[0].citation).toContain(voucher.datasets[0].doi);

      const checked = expectStatus(await call(portal, 'GET', `/api/voucher/verify/${granted.voucher_code.toLowerCase()}/`, null, { headers: EN }), 200);
      expect(checked.order).toBe(granted.id);
      const unknown = await call(portal, 'GET', '/api/voucher/verify/AAAA-BBBB-CCCC/', null, { headers: EN });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().detail).toBe('No voucher has this verification code.');
      expectStatus(await call(portal, 'POST', '/account/delete_order/', applicant.token, { body: { orders: [granted.id] } }), 200);
      expect(expectStatus(await call(portal, 'GET', `/api/voucher/verify/${granted.voucher_code}/`, null), 200).valid).toBe(false);
    });
  });

  describe('statistics', () => {
    it('counts a download once per visitor and 30 seconds, never a robot’s, and shows them to the creator and staff', async () => {
      const { ownerA, ids, files } = cast;
      const before = expectStatus(await call(portal, 'GET', `/api/metadata/statistics/${ids.openA}/`, ownerA.token), 200);
      const reader = cast.other;
      await downloadFile(portal, reader.token, files.openA.id);
      await downloadFile(portal, reader.token, files.openA.id);
      await downloadFile(portal, reader.token, files.openA.id, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
      const after = expectStatus(await call(portal, 'GET', `/api/metadata/statistics/${ids.openA}/?by=month`, ownerA.token), 200);
      // The reader's first download in this window may have been counted by an earlier test.
      expect(after.totals.downloads - before.totals.downloads).toBeLessThanOrEqual(1);
      expect(after.by).toBe('month');
      // Titled in both languages, so that the page reads no record (which would count a view).
      expect(after.title).toMatch(/^北极海冰厚度数据集 openA/);
      expect(after.title_en).toMatch(/^Arctic sea-ice thickness openA/);
      expect(after.series.at(-1).period).toBe(new Date().toISOString().slice(0, 7));
      // Orders that count: not withdrawn (the voucher test withdrew one), not rejected; all from Norway.
      const counted = Number(
        (
          await portal.database.db
            .selectFrom('order_lines as l')
            .innerJoin('orders as o', 'o.id', 'l.order_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('l.metadata_id', '=', ids.openA)
            .where('o.status', 'in', ['waiting', 'returned', 'approved'])
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(counted).toBeGreaterThanOrEqual(2);
      expect(after.totals.orders).toBe(counted);
      expect(after.countries.find((c: any) => c.country === 'NO')?.orders).toBe(counted);
      expect((await call(portal, 'GET', `/api/metadata/statistics/${ids.openA}/`, cast.applicant.token)).statusCode).toBe(403);
      expect((await call(portal, 'GET', `/api/metadata/statistics/${ids.openA}/`, cast.staff.token)).statusCode).toBe(200);

      // After the window, the same reader counts again; the catalogue's entry follows. The window is
      // passed as the job forgets it (from the database and this instance's memory of what it counted).
      await portal.usage.forgetDownloads(new Date(Date.now() + 60_000));
      const count = async () =>
        Number((await portal.database.db.selectFrom('search_entries').select('download_count').where('metadata_id', '=', ids.openA).executeTakeFirstOrThrow()).download_count);
      const entryBefore = await count();
      await downloadFile(portal, reader.token, files.openA.id);
      expect(await count()).toBe(entryBefore + 1);
      const timeOrders = expectStatus(await call(portal, 'GET', `/api/account/order-date-statistics/?id=${ids.openA}`, ownerA.token), 200);
      expect(timeOrders.timeOrders.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10) });
    });

    it('writes a burst of downloads in one transaction: each visitor once, a repeat in the same burst not, a robot never', async () => {
      const { ids, files } = cast;
      const { db } = portal.database;
      await db.deleteFrom('recent_downloads').execute();
      const counters = async () => {
        const entry = await db.selectFrom('search_entries').select('download_count').where('metadata_id', '=', ids.openA).executeTakeFirstOrThrow();
        const record = await db.selectFrom('metadata').select('download_count').where('id', '=', ids.openA).executeTakeFirstOrThrow();
        const daily = await db
          .selectFrom('usage_days')
          .select((eb) => eb.fn.sum<number | string>('count').as('n'))
          .where('metadata_id', '=', ids.openA)
          .where('kind', '=', 'download')
          .where('country', '=', 'SE')
          .executeTakeFirst();
        return [Number(entry.download_count), Number(record.download_count), Number(daily?.n ?? 0)];
      };
      const before = await counters();
      const visitors = ['burst-1', 'burst-2', 'burst-3', 'burst-4', 'burst-5'];
      const browser = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0';
      const transaction = vi.spyOn(db, 'transaction');
      try {
        const counted = await Promise.all([
          ...visitors.map((userId) => portal.usage.countDownload(ids.openA, files.openA.id, { userId, ip: '127.0.0.1', userAgent: browser, country: 'SE' })),
          portal.usage.countDownload(ids.openA, files.openA.id, { userId: 'burst-1', ip: '127.0.0.1', userAgent: browser, country: 'SE' }),
          portal.usage.countDownload(ids.openA, files.openA.id, { ip: '127.0.0.1', userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)', country: 'SE' }),
        ]);
        expect(counted).toEqual([true, true, true, true, true, false, false]);
        expect(transaction).toHaveBeenCalledTimes(1);
      } finally {
        transaction.mockRestore();
      }
      expect(await counters()).toEqual(before.map((n) => n + visitors.length));
      // Within the window, the same visitors count no more.
      expect(await portal.usage.countDownload(ids.openA, files.openA.id, { userId: 'burst-2', ip: '127.0.0.1', userAgent: browser, country: 'SE' })).toBe(false);
      expect(await counters()).toEqual(before.map((n) => n + visitors.length));
    });
  });

  describe('apply statistics', () => {
    it('counts the caller’s datasets as their provider, author (by e-mail) and assessor, with their orders', async () => {
      const { ownerA, ownerB, other, ids } = cast;
      // Owner B is an author of dataset openA; the other user answered its review.
      await linkAuthors(portal, ids.openA, [{ name: '白作者', email: ownerB.email.toUpperCase(), role: 'author', sort: 1 }], ownerA.id);
      await insertReview(portal, ids.openA, other.id, { status: 'pass' });
      // An application withdrawn by its applicant is no application any more.
      const withdrawn = (await order(portal, other, [ids.mailA])).order.orders[0].id;
      expectStatus(await call(portal, 'POST', '/account/delete_order/', other.token, { body: { orders: [withdrawn] } }), 200);
      const standing = async (id: string) =>
        Number(
          (
            await portal.database.db
              .selectFrom('order_lines as l')
              .innerJoin('orders as o', 'o.id', 'l.order_id')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('l.metadata_id', '=', id)
              .where('o.status', '<>', 'deleted')
              .executeTakeFirstOrThrow()
          ).n,
        );

      const mine = expectStatus(await call(portal, 'GET', '/api/metadata/apply-statistics/', ownerA.token), 200);
      const provider = mine.roles.find((r: any) => r.role === 'provider');
      expect(provider.datasets).toBe(2);
      expect(mine.count).toBe(2);
      expect(mine.results.map((r: any) => r.metadata_id).sort()).toEqual([ids.openA, ids.mailA].sort());
      const openA = mine.results.find((r: any) => r.metadata_id === ids.openA);
      expect(openA.orders).toBeGreaterThan(0);
      for (const row of mine.results) expect(row.orders, row.metadata_id).toBe(await standing(row.metadata_id));
      expect(provider.orders).toBe(mine.results.reduce((sum: number, r: any) => sum + r.orders, 0));
      expect(provider.downloads).toBe(mine.results.reduce((sum: number, r: any) => sum + r.downloads, 0));

      const asAuthor = expectStatus(await call(portal, 'GET', '/api/metadata/apply-statistics/?role=author', ownerB.token), 200);
      expect(asAuthor.results.map((r: any) => r.metadata_id)).toEqual([ids.openA]);
      expect(asAuthor.roles.find((r: any) => r.role === 'provider').datasets).toBe(2);
      const asAssessor = expectStatus(await call(portal, 'GET', '/api/metadata/apply-statistics/?role=assessor', other.token), 200);
      expect(asAssessor.results.map((r: any) => r.metadata_id)).toEqual([ids.openA]);
      expect(asAssessor.roles.find((r: any) => r.role === 'provider').datasets).toBe(0);
      expect((await call(portal, 'GET', '/api/metadata/apply-statistics/?role=reader', other.token)).statusCode).toBe(400);
    });
  });

  describe('the three-day rule', () => {
    it('tells the applicant once, after three days without an answer, to contact the provider', async () => {
      const { ownerA, ids } = cast;
      const applicant = cast.other;
      const reply = await order(portal, applicant, [ids.mailA]);
      const id = reply.order.orders[0].id;
      expect(reply.order.orders[0].reply_overdue).toBe(false);
      await portal.database.db
        .updateTable('orders')
        .set({ created_at: new Date(Date.now() - 4 * 86_400_000).toISOString() })
        .where('id', '=', id)
        .execute();
      const shown = expectStatus(await call(portal, 'GET', `/api/account/order/${id}/`, applicant.token), 200);
      expect(shown).toMatchObject({ reply_overdue: true, contact_email: 'distributor-a@example.org' });
      const before = (await mailsTo(portal, FORM_EN.email)).length;
      expect(await portal.orders.remindOverdue()).toBeGreaterThanOrEqual(1);
      expect(await portal.orders.remindOverdue()).toBe(0);
      const told = (await mailsTo(portal, FORM_EN.email)).slice(before);
      expect(told.filter((m) => m.text.includes('distributor-a@example.org'))).toHaveLength(1);
      expectStatus(await handle(portal, ownerA.token, [id], 'rejected', 'Closing this test request.'), 200);
    });
  });
});
