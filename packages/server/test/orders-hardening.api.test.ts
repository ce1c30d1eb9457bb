import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from './factories.js';
import { createTestPortal, EN, mailsTo, readOutbox, type TestPortal } from './helpers.js';
import { call, expectStatus } from './metadata-builders.js';
import { addLine, apply, createOrdersCast, FORM_EN, handle, order, type OrdersCast, type Person } from './orders-builders.js';

/**
 * Issue 16's holes in orders: withdrawing and reapplying without limit, an expired order's voucher
 * checking as valid, the spec's seven application fields refused without a country, and order mails
 * lost when the process dies (or the mailer fails) after the order is committed.
 */

const ZH = { 'accept-language': 'zh-hans' };
const LIMIT = 20;

const withdraw = (portal: TestPortal, person: Person, id: string) => call(portal, 'POST', '/account/delete_order/', person.token, { body: { orders: [id] }, headers: EN });
const reapply = (portal: TestPortal, person: Person, id: string, headers = EN) => call(portal, 'POST', '/account/reapply/', person.token, { body: { order: id }, headers });

/** The spec's seven fields, nothing else (spec section 3, "Application form"). */
const SEVEN_FIELDS = (({ realName, email, phone, zipcode, affiliation, address, reason }) => ({ realName, email, phone, zipcode, affiliation, address, reason }))(FORM_EN);

async function requestMailsTo(portal: TestPortal, email: string) {
  // The owners' language is Chinese: their requests are known by the link to decide them.
  return (await mailsTo(portal, email)).filter((mail) => mail.text.includes('/personal/#/application/'));
}

async function dailyOrderCount(portal: TestPortal, metadataId: string): Promise<number> {
  const row = await portal.database.db
    .selectFrom('usage_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('count'), eb.lit(0)).as('n'))
    .where('metadata_id', '=', metadataId)
    .where('kind', '=', 'order')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('orders under abuse: withdraw and reapply, vouchers, the seven fields', () => {
  let portal: TestPortal;
  let cast: OrdersCast;

  beforeAll(async () => {
    portal = await createTestPortal({ env: { ORDER_APPLY_PER_HOUR: String(LIMIT) } });
    cast = await createOrdersCast(portal);
  });
  afterAll(async () => portal?.close());

  describe('withdraw and reapply', () => {
    it('replays 30 withdraw -> reapply rounds: the hourly limit stops them, the owner gets one mail per application, and statistics count the order that stands', async () => {
      const { applicant, ownerA, ids } = cast;
      const first = (await order(portal, applicant, [ids.mailA])).order.orders[0].id;
      let current = first;
      const replies: number[] = [];
      for (let round = 0; round < 30; round += 1) {
        await withdraw(portal, applicant, current);
        const again = await reapply(portal, applicant, current);
        replies.push(again.statusCode);
        if (again.statusCode === 201) current = again.json().order.orders[0].id;
      }
      // The first application and 19 reapplications pass; then 429 for the rest of the hour.
      expect(replies.filter((s) => s === 201)).toHaveLength(LIMIT - 1);
      expect(replies.slice(LIMIT - 1).every((s) => s === 429)).toBe(true);
      const refused = await reapply(portal, applicant, current);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toBe(`You have sent ${LIMIT} data applications in the last hour, the most one account may. Please try again later.`);
      expect((await reapply(portal, applicant, current, ZH)).json().detail).toBe(`您在过去一小时内已提交 ${LIMIT} 次数据申请，已达到每个账户的上限，请稍后再试。`);
      // The basket's applications count against the same limit.
      const line = expectStatus(await addLine(portal, applicant.token, ids.mailB), 201);
      expect((await apply(portal, applicant.token, [line.id])).statusCode).toBe(429);
      expectStatus(await call(portal, 'DELETE', `/api/account/line_item/${line.id}/`, applicant.token), 204);

      // One mail to the owner per application that passed, not per round.
      expect(await requestMailsTo(portal, ownerA.email)).toHaveLength(LIMIT);

      // An hour later the applicant may apply again: one order stands.
      await portal.database.db
        .updateTable('applications')
        .set({ created_at: new Date(Date.now() - 3_700_000).toISOString() })
        .where('applicant_id', '=', applicant.id)
        .execute();
      const standing = expectStatus(await reapply(portal, applicant, current), 201).order.orders[0].id;
      // While it stands, no other of the applicant's orders of that dataset is applied for again.
      const twice = await reapply(portal, applicant, first);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().detail).toBe('You already have an order for this dataset that is under review or still valid: see My orders.');
      expect((await reapply(portal, applicant, first, ZH)).json().detail).toBe('您对该数据已有审核中或仍在有效期内的订单，请在“我的订单”中查看。');
      expect(await requestMailsTo(portal, ownerA.email)).toHaveLength(LIMIT + 1);

      // The owner's queue holds the one request that waits.
      const queue = expectStatus(await call(portal, 'GET', '/api/account/order/?role=handler&status=waiting&status=returned', ownerA.token), 200);
      expect(queue.results.map((o: any) => o.id)).toEqual([standing]);

      // Every statistic counts that one order, not the withdrawn ones.
      const statistics = expectStatus(await call(portal, 'GET', `/api/metadata/statistics/${ids.mailA}/`, ownerA.token), 200);
      expect(statistics.totals.orders).toBe(1);
      expect(statistics.series.reduce((sum: number, s: any) => sum + s.orders, 0)).toBe(1);
      expect(statistics.countries).toEqual([{ country: 'NO', downloads: 0, orders: 1 }]);
      expect(await dailyOrderCount(portal, ids.mailA)).toBe(1);
      expect(expectStatus(await call(portal, 'GET', `/account/order-statistics/?id=${ids.mailA}`, ownerA.token), 200).orderCount).toBe(1);
      const timeOrders = expectStatus(await call(portal, 'GET', `/api/account/order-date-statistics/?id=${ids.mailA}`, ownerA.token), 200).timeOrders;
      expect(timeOrders.reduce((sum: number, t: any) => sum + t.count, 0)).toBe(1);
      const applyStatistics = expectStatus(await call(portal, 'GET', '/api/metadata/apply-statistics/', ownerA.token), 200);
      expect(applyStatistics.results.find((r: any) => r.metadata_id === ids.mailA)).toMatchObject({ orders: 1, waiting: 1 });

      // A rejection takes it out of the counts too.
      expectStatus(await handle(portal, ownerA.token, [standing], 'rejected', 'Not for this purpose.'), 200);
      expect(expectStatus(await call(portal, 'GET', `/api/metadata/statistics/${ids.mailA}/`, ownerA.token), 200).totals.orders).toBe(0);
      expect(await dailyOrderCount(portal, ids.mailA)).toBe(0);
    });

    it('calls an order standing while it waits, is returned, or is approved and unexpired; not once rejected or expired', async () => {
      const { other, ownerB, ids } = cast;
      // Approved at once (open data), then expired.
      const openFirst = (await order(portal, other, [ids.openA])).order.orders[0].id;
      expectStatus(await withdraw(portal, other, openFirst), 200);
      const openSecond = expectStatus(await reapply(portal, other, openFirst), 201).order.orders[0];
      expect(openSecond.status).toBe('approved');
      expect((await reapply(portal, other, openFirst)).statusCode).toBe(409);
      await portal.database.db
        .updateTable('orders')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', openSecond.id)
        .execute();
      expect(expectStatus(await reapply(portal, other, openFirst), 201).status).toBe('Success');

      // Waiting, returned, rejected.
      const mailFirst = (await order(portal, other, [ids.mailB])).order.orders[0].id;
      expectStatus(await withdraw(portal, other, mailFirst), 200);
      const mailSecond = expectStatus(await reapply(portal, other, mailFirst), 201).order.orders[0].id;
      expect((await reapply(portal, other, mailFirst)).statusCode).toBe(409);
      expectStatus(await handle(portal, ownerB.token, [mailSecond], 'returned', 'Name the project, please.'), 200);
      expect((await reapply(portal, other, mailFirst)).statusCode).toBe(409);
      expectStatus(await handle(portal, ownerB.token, [mailSecond], 'rejected', 'Not for this purpose.'), 200);
      const mailThird = expectStatus(await reapply(portal, other, mailFirst), 201).order.orders[0].id;
      expect((await call(portal, 'GET', `/api/account/order/${mailThird}/`, other.token)).json().status).toBe('waiting');

      // Two reapplications at the same moment, from two withdrawn orders of the dataset: one passes.
      expectStatus(await withdraw(portal, other, mailThird), 200);
      const both = await Promise.all([reapply(portal, other, mailFirst), reapply(portal, other, mailThird)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    });

    it('does not hold staff to the hourly limit', async () => {
      const { staff, ids } = cast;
      let current = (await order(portal, staff, [ids.mailA])).order.orders[0].id;
      for (let round = 0; round < LIMIT; round += 1) {
        expectStatus(await withdraw(portal, staff, current), 200);
        current = expectStatus(await reapply(portal, staff, current), 201).order.orders[0].id;
      }
    });
  });

  describe("the voucher in the reader's language", () => {
    it("shows the terms of use as the provider translated them (it showed the record's own language only)", async () => {
      const { other: applicant, ids } = cast;
      const record = await portal.database.db.selectFrom('metadata').select(['language']).where('id', '=', ids.openA).executeTakeFirstOrThrow();
      await portal.database.db.updateTable('metadata').set({ use_term: 'OWN TERMS' }).where('id', '=', ids.openA).execute();
      await portal.database.db
        .updateTable('metadata_i18n')
        .set({ use_term: 'TRANSLATED TERMS' })
        .where('metadata_id', '=', ids.openA)
        .where('language', '!=', record.language)
        .execute();
      const granted = (await order(portal, applicant, [ids.openA])).order.orders[0];
      const termsIn = async (headers: Record<string, string>) =>
        expectStatus(await call(portal, 'GET', `/api/voucher/verify/${granted.voucher_code}/`, null, { headers }), 200).datasets[0].use_term;
      const own = record.language === 'en' ? EN : ZH;
      const other = record.language === 'en' ? ZH : EN;
      expect(await termsIn(own)).toBe('OWN TERMS');
      expect(await termsIn(other)).toBe('TRANSLATED TERMS');
    });
  });

  describe('the public voucher check', () => {
    it('says an order past its validity expired, and finds a code typed in lower case or without dashes', async () => {
      const { other: applicant, ids } = cast;
      const granted = (await order(portal, applicant, [ids.openA])).order.orders[0];
      const code: string = granted.voucher_code;
      const check = async (typed: string) => expectStatus(await call(portal, 'GET', `/api/voucher/verify/${encodeURIComponent(typed)}/`, null, { headers: EN }), 200);
      expect(await check(code)).toMatchObject({ order: granted.id, valid: true, status: 'approved' });
      for (const typed of [code.toLowerCase(), code.replaceAll('-', ''), code.replaceAll('-', '').toLowerCase(), ` ${code.replaceAll('-', ' ')} `]) {
        expect((await check(typed)).order, typed).toBe(granted.id);
      }

      // Expiry is computed, never stored: past ORDER_VALID_DAYS the order reads as expired.
      const validDays = portal.config.orderValidDays;
      const approvedLongAgo = new Date(Date.now() - (validDays + 1) * 86_400_000);
      await portal.database.db
        .updateTable('orders')
        .set({ decided_at: approvedLongAgo.toISOString(), expires_at: new Date(approvedLongAgo.getTime() + validDays * 86_400_000).toISOString() })
        .where('id', '=', granted.id)
        .execute();
      expect(await check(code.toLowerCase())).toMatchObject({ order: granted.id, valid: false, status: 'expired' });
      expect(expectStatus(await call(portal, 'GET', `/api/account/voucher/${granted.id}/`, applicant.token), 200)).toMatchObject({ valid: false, status: 'expired' });

      expectStatus(await withdraw(portal, applicant, granted.id), 200);
      expect(await check(code)).toMatchObject({ valid: false, status: 'deleted' });
      expect((await call(portal, 'GET', '/api/voucher/verify/AAAA-BBBB-CCCC/', null)).statusCode).toBe(404);
    });
  });

  describe('the application form', () => {
    it('accepts the spec’s seven fields alone: the country is the one given last, or unknown', async () => {
      const { ownerB, ids } = cast;
      const person = await buildUser(portal, { realname: 'New Comer' });
      const line = expectStatus(await addLine(portal, person.token, ids.mailB), 201);
      const placed = expectStatus(await apply(portal, person.token, [line.id], SEVEN_FIELDS), 201);
      expect(placed.order.country).toBe('');
      expect(placed.order.orders[0].application.country).toBe('');
      // The owner reads that it was not given.
      const mail = (await requestMailsTo(portal, ownerB.email)).at(-1)!;
      expect(mail.text).toContain(`${FORM_EN.affiliation}，未填写国家或地区`);
      const statistics = expectStatus(await call(portal, 'GET', `/api/metadata/statistics/${ids.mailB}/`, ownerB.token), 200);
      expect(statistics.countries.find((c: any) => c.country === '')?.orders).toBe(1);

      // An empty country is no country; a wrong one is still refused.
      const second = expectStatus(await addLine(portal, person.token, ids.centerB), 201);
      expect((await apply(portal, person.token, [second.id], { ...SEVEN_FIELDS, country: 'XX' })).statusCode).toBe(400);
      expect(expectStatus(await apply(portal, person.token, [second.id], { ...SEVEN_FIELDS, country: 'FI' }), 201).order.country).toBe('FI');
      // Given once, it is taken for the next application that leaves it out.
      const third = expectStatus(await addLine(portal, person.token, ids.openA), 201);
      expect(expectStatus(await apply(portal, person.token, [third.id], { ...SEVEN_FIELDS, country: '' }), 201).order.country).toBe('FI');

      // Answering a return without a country keeps the stored one; naming one moves its count.
      const id = placed.order.orders[0].id;
      expectStatus(await handle(portal, ownerB.token, [id], 'returned', 'Which project?'), 200);
      expect(expectStatus(await call(portal, 'PUT', `/api/account/order/${id}/`, person.token, { body: SEVEN_FIELDS }), 200).application.country).toBe('');
      expectStatus(await handle(portal, ownerB.token, [id], 'returned', 'Which project, again?'), 200);
      expect(expectStatus(await call(portal, 'PUT', `/api/account/order/${id}/`, person.token, { body: { ...SEVEN_FIELDS, country: 'SE' } }), 200).application.country).toBe('SE');
      const moved = expectStatus(await call(portal, 'GET', `/api/metadata/statistics/${ids.mailB}/`, ownerB.token), 200);
      expect(moved.countries.find((c: any) => c.country === 'SE')?.orders).toBe(1);
      expect(moved.countries.find((c: any) => c.country === '')).toBeUndefined();
    });
  });
});

describe('order mails: an outbox written with the order', () => {
  let portal: TestPortal;
  let cast: OrdersCast;

  beforeAll(async () => {
    portal = await createTestPortal();
    cast = await createOrdersCast(portal);
  });
  afterAll(async () => portal?.close());

  it('keeps the mails of an order committed while the mailer fails, and the job sends each once when it works again', async () => {
    const { applicant, ownerA, ownerB, ids } = cast;
    // The mailer writes .eml files into DATA_DIR/mail: a file in its place makes every send fail.
    await fs.rm(portal.outbox, { recursive: true, force: true });
    await fs.writeFile(portal.outbox, 'not a folder');
    const placed = await order(portal, applicant, [ids.mailA, ids.mailB]);
    expect(placed.status).toBe('Waiting');
    const pending = await portal.database.db.selectFrom('order_mails').selectAll().where('status', '=', 'pending').execute();
    expect(pending.map((m) => m.recipient).sort()).toEqual([`${ownerA.email}, distributor-a@example.org`, ownerB.email].sort());
    expect(pending.every((m) => m.attempts === 1 && m.last_error !== '')).toBe(true);
    // Not due yet (backoff), and the mailer still fails.
    expect(await portal.orders.sendPendingMails()).toBe(0);
    expect(await portal.orders.sendPendingMails(new Date(Date.now() + 5 * 60_000))).toBe(0);
    expect((await portal.database.db.selectFrom('order_mails').select('attempts').execute()).every((m) => m.attempts === 2)).toBe(true);

    await fs.rm(portal.outbox);
    // Two runs at once (two instances): each mail goes once.
    const later = new Date(Date.now() + 60 * 60_000);
    const sent = await Promise.all([portal.orders.sendPendingMails(later), portal.orders.sendPendingMails(later)]);
    expect(sent[0] + sent[1]).toBe(2);
    expect(await portal.orders.sendPendingMails(new Date(Date.now() + 24 * 60 * 60_000))).toBe(0);
    expect(await requestMailsTo(portal, ownerA.email)).toHaveLength(1);
    expect(await requestMailsTo(portal, ownerB.email)).toHaveLength(1);
    expect(await portal.database.db.selectFrom('order_mails').select('status').where('status', '<>', 'sent').execute()).toEqual([]);

    // With a working mailer a decision's mail goes out at once, from the outbox.
    const orderA = placed.order.orders.find((o: any) => o.owner_name === 'Owner Ang').id;
    expectStatus(await handle(portal, ownerA.token, [orderA], 'approved'), 200);
    const decisions = (await mailsTo(portal, FORM_EN.email)).filter((m) => /Approved/.test(m.subject));
    expect(decisions).toHaveLength(1);
    const row = await portal.database.db.selectFrom('order_mails').selectAll().where('order_id', '=', orderA).where('kind', '=', 'decision').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect((await readOutbox(portal.outbox)).length).toBe(3);
  });
});
