import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { rows, type Database } from '../../platform/db.ts';
import { startYookassaWorld, until, type YookassaWorld } from '../../../test/yookassa-world.ts';
import { makeService } from '../../../test/fixtures.ts';
import { servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import { RECONCILE_SWEEP_JOB, scheduleReconcileSweep } from './jobs.ts';

// Contract tests: the real YooKassa client against a YooKassa-like HTTP server on 127.0.0.1, and
// webhooks sent by that server over HTTP to the app listening on 127.0.0.1.

let world: YookassaWorld;
let database: Database;
let app: FastifyInstance;
let smtp: YookassaWorld['smtp'];
let deliver = true;
let providerUrl = '';
let user: YookassaWorld['user'];
let confirmOnProvider: YookassaWorld['confirmOnProvider'];

beforeAll(async () => {
  world = await startYookassaWorld({ deliverWebhooks: () => deliver, userTag: 'pay' });
  ({ database, smtp, providerUrl, app, user, confirmOnProvider } = world);
});
afterAll(async () => {
  await world.close();
});

async function entryFor(u: { headers: Record<string, string> }, price = 1500) {
  const s = await makeService(database.db, { price });
  const res = await app.inject({ method: 'POST', url: '/api/entry', headers: u.headers, payload: { service_id: s.id, pay_type: 3, is_extramural: 0 } });
  return res.json().data as { id: number; number: string };
}

const pay = (u: { headers: Record<string, string> }, id: number, payload: Record<string, unknown> = {}) =>
  app.inject({ method: 'POST', url: `/api/entry/${id}/pay`, headers: u.headers, payload });
const status = async (id: number) => (await rows<{ status: number }>(database.db, sql`select status from entries where id = ${id}`))[0].status;
const paymentRows = async (uuid: string) =>
  (await rows<{ n: number; double: boolean }>(database.db, sql`select count(*)::int as n, bool_or(is_double) as double from payments where uuid = ${uuid}`))[0];
const webhook = (uuid: string, event = 'payment.succeeded') =>
  app.inject({ method: 'POST', url: '/api/yookassa/webhook', payload: { type: 'notification', event, object: { id: uuid, status: 'succeeded', paid: true } } });

describe('paying an entry online', () => {
  it('creates one provider payment per attempt (idempotence key), even on a double click', async () => {
    const u = await user();
    const e = await entryFor(u);
    const [a, b] = await Promise.all([pay(u, e.id), pay(u, e.id)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().id).toBe(b.json().id);
    expect(a.json().confirmation.confirmation_url).toBe(`${providerUrl}/pay/${a.json().id}`);
    const again = await pay(u, e.id);
    expect(again.json().id).toBe(a.json().id);
    const [count] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from sandbox_payments where body->'metadata'->>'entry_ids' = ${String(e.id)}`,
    );
    expect(count.n).toBe(1);
    const [entry] = await rows<{ payment_uuid: string }>(database.db, sql`select payment_uuid from entries where id = ${e.id}`);
    expect(entry.payment_uuid).toBe(a.json().id);
  });

  it('the provider webhook, re-fetched from the API, pays the entry, notifies and mails the user', async () => {
    const u = await user();
    const e = await entryFor(u, 2400);
    const { id: uuid } = (await pay(u, e.id)).json();
    const res = await confirmOnProvider(uuid);
    expect(res.status).toBe(303);
    await until(async () => (await status(e.id)) === 2);
    expect(await paymentRows(uuid)).toEqual({ n: 1, double: false });
    await app.jobs.runDue();
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).length > 0);
    expect(mail.html || mail.text).toContain(e.number);
    const me = (await app.inject({ method: 'GET', url: '/api/get', headers: u.headers })).json();
    expect(me.left_sum).toBe(0);
    const [note] = await rows<{ text_clear: string }>(database.db, sql`select text_clear from notifications where user_id = ${u.id} order by id desc limit 1`);
    expect(note.text_clear).toContain('оплачена');
    // Our return page asks too; nothing changes twice.
    const [ct] = await rows<{ id: number }>(database.db, sql`select id from card_transactions where uuid = ${uuid}`);
    const refresh = await app.inject({ method: 'POST', url: `/api/yookassa/${ct.id}/refresh`, headers: u.headers });
    expect(refresh.json().data.status).toBe('succeeded');
    expect(await paymentRows(uuid)).toEqual({ n: 1, double: false });
  });

  it('a forged webhook changes nothing: unknown payment, or a pending one the API says is pending', async () => {
    expect((await webhook('00000000-0000-0000-0000-000000000000')).statusCode).toBe(200);
    const u = await user();
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    const res = await webhook(uuid);
    expect(res.statusCode).toBe(200);
    expect(await status(e.id)).toBe(1);
    expect((await paymentRows(uuid)).n).toBe(0);
  });

  it('an amount that differs from our record changes nothing', async () => {
    const u = await user();
    const e = await entryFor(u, 1000);
    const { id: uuid } = (await pay(u, e.id)).json();
    await database.db.execute(sql`update card_transactions set sum = 10 where uuid = ${uuid}`);
    deliver = false;
    await confirmOnProvider(uuid);
    deliver = true;
    await webhook(uuid);
    expect(await status(e.id)).toBe(1);
    expect((await paymentRows(uuid)).n).toBe(0);
  });

  it('20 concurrent duplicate webhooks pay once', async () => {
    const u = await user();
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    deliver = false;
    await confirmOnProvider(uuid);
    deliver = true;
    const answers = await Promise.all(Array.from({ length: 20 }, () => webhook(uuid)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(await status(e.id)).toBe(2);
    expect(await paymentRows(uuid)).toEqual({ n: 1, double: false });
    await app.jobs.runDue();
    const [notes] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from notifications where user_id = ${(await rows<{ created_by: number }>(database.db, sql`select created_by from entries where id = ${e.id}`))[0].created_by} and text_clear like '%оплачена%'`,
    );
    expect(notes.n).toBe(1);
  });

  it('the reconciliation job pays after a dropped webhook', async () => {
    const u = await user();
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    deliver = false;
    await confirmOnProvider(uuid);
    deliver = true;
    expect(await status(e.id)).toBe(1);
    await database.db.execute(sql`update jobs set run_at = now() - interval '1 second' where name = 'reconcile-payment' and unique_key = ${uuid}`);
    await app.jobs.runDue();
    expect(await status(e.id)).toBe(2);
  });

  it('the sweep over the provider’s list of payments (GET /v3/payments) pays what a lost webhook and a given-up reconcile job missed', async () => {
    const u = await user();
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    deliver = false;
    await confirmOnProvider(uuid);
    deliver = true;
    // The payment's own reconcile job is gone (it gives up after 24 hours).
    await database.db.execute(sql`delete from jobs where name = 'reconcile-payment' and unique_key = ${uuid}`);
    await scheduleReconcileSweep(database.db);
    await scheduleReconcileSweep(database.db);
    await database.db.execute(sql`update jobs set run_at = now() - interval '1 second' where name = ${RECONCILE_SWEEP_JOB} and done_at is null`);
    await app.jobs.runDue();
    expect(await status(e.id)).toBe(2);
    expect(await paymentRows(uuid)).toEqual({ n: 1, double: false });
    // One sweep stays scheduled, in about 10 minutes.
    const open = await rows<{ minutes: number }>(
      database.db,
      sql`select round(extract(epoch from run_at - now()) / 60)::int as minutes from jobs where name = ${RECONCILE_SWEEP_JOB} and done_at is null`,
    );
    expect(open).toEqual([{ minutes: 10 }]);
  });

  it('the provider’s payment is logged under the system, the operator’s under the operator; a canceled payment leaves the entry unpaid', async () => {
    const u = await user();
    const op = await user(1);
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    await confirmOnProvider(uuid);
    await until(async () => (await paymentRows(uuid)).n === 1);
    expect(await paymentRows(uuid)).toEqual({ n: 1, double: false });
    const eOffice = await entryFor(u);
    await pay(op, eOffice.id, { pay_type: 2 });
    // Both payments are in the change log, in the same transaction as the payment: the operator's
    // under the operator, the provider's under the system.
    const logged = await rows<{ entity_id: number; user_id: number | null; diff: Record<string, { old: unknown; new: unknown }> }>(
      database.db,
      sql`select l.entity_id, l.user_id, l.diff from change_logs l join payment_entries pe on pe.payment_id = l.entity_id where l.type = 'payment' and pe.entry_id in (${e.id}, ${eOffice.id}) order by l.id`,
    );
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ user_id: null, diff: { uuid: { old: null, new: uuid }, is_double: { old: null, new: false } } });
    expect(logged[1]).toMatchObject({ user_id: op.id, diff: { sum: { old: null, new: 1500 }, pay_type: { old: null, new: 2 } } });
    const log = (await app.inject({ method: 'GET', url: `/api/log?type=payment&entity_id=${logged[0].entity_id}`, headers: op.headers })).json();
    expect(log.data[0]).toMatchObject({ type_label: 'Платёж', user_label: 'Система' });

    const e2 = await entryFor(u);
    const second = (await pay(u, e2.id)).json();
    await confirmOnProvider(second.id, 'cancel');
    await until(
      async () => (await rows<{ status: string }>(database.db, sql`select status from card_transactions where uuid = ${second.id}`))[0].status === 'canceled',
    );
    expect(await status(e2.id)).toBe(1);
    // A late "succeeded" hint after the cancel cannot move it: the API says canceled.
    await webhook(second.id);
    expect(await status(e2.id)).toBe(1);
  });
});

describe('marking paid at once', () => {
  it('an operator marks any entry paid; a user cannot pay or mark another user’s entry', async () => {
    const u = await user();
    const stranger = await user();
    const op = await user(1);
    const e = await entryFor(u);
    expect((await pay(stranger, e.id)).statusCode).toBe(404);
    // The operator names the pay type; none, or online, is refused.
    for (const payload of [{}, { pay_type: 3 }, { pay_type: 9 }]) {
      const refused = await pay(op, e.id, payload);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.pay_type).toEqual([PaymentMessages.chooseOfflinePayType]);
    }
    expect(await status(e.id)).toBe(1);
    const res = await pay(op, e.id, { pay_type: 1 });
    expect(res.json()).toEqual({ id: e.id, status: 2, immediate: true, confirmation: null });
    expect(await status(e.id)).toBe(2);
    const [recorded] = await rows<{ pay_type: number; entry_pay_type: number }>(
      database.db,
      sql`select p.pay_type, e.pay_type as entry_pay_type from payments p join payment_entries pe on pe.payment_id = p.id join entries e on e.id = pe.entry_id where e.id = ${e.id}`,
    );
    expect(recorded).toEqual({ pay_type: 1, entry_pay_type: 1 });
    const twice = await pay(op, e.id, { pay_type: 1 });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe(PaymentMessages.alreadyPaid);
  });
});

describe('service package payment and expiry', () => {
  async function enrolPackage(u: { headers: Record<string, string> }) {
    const a = await makeService(database.db, { price: 700 });
    const b = await makeService(database.db, { price: 300 });
    const [p] = await database.db.insert(servicePackages).values({ title: 'Пакет «Старт»', price: 800 }).returning();
    await database.db.insert(servicePackageServices).values([
      { service_package_id: p.id, service_id: a.id, position: 0 },
      { service_package_id: p.id, service_id: b.id, position: 1 },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: `/api/service-package/${p.id}/enroll`,
      headers: u.headers,
      payload: { services: { [a.id]: null, [b.id]: null } },
    });
    return (res.json().data.entries as Array<{ id: number }>).map((e) => e.id);
  }
  const expireNow = () => database.db.execute(sql`update jobs set run_at = now() - interval '1 second' where name = 'expire-package' and done_at is null`);

  it('one payment covers the package entries; the list names the package', async () => {
    const u = await user();
    const op = await user(1);
    const [first, second] = await enrolPackage(u);
    const { id: uuid } = (await pay(u, first)).json();
    const entry = (await app.inject({ method: 'GET', url: `/api/entry/${second}`, headers: u.headers })).json().data;
    expect(entry.awaiting_provider).toBe(true);
    await confirmOnProvider(uuid);
    await until(async () => (await status(second)) === 2);
    expect(await status(first)).toBe(2);
    const list = (await app.inject({ method: 'GET', url: `/api/payment?uuid=${uuid}`, headers: op.headers })).json();
    expect(list.data[0]).toMatchObject({ sum: 800, is_package: true, package_title: 'Пакет «Старт»', entry: { service: { title: 'Пакет «Старт»' } } });
    const mine = (await app.inject({ method: 'GET', url: '/api/payment', headers: u.headers })).json();
    expect(mine.data.map((p: { uuid: string }) => p.uuid)).toEqual([uuid]);
  });

  it('unpaid package entries are removed after 15 minutes by a job that survives a restart', async () => {
    const u = await user();
    const ids = await enrolPackage(u);
    const [job] = await rows<{ minutes: number }>(
      database.db,
      sql`select round(extract(epoch from run_at - now()) / 60)::int as minutes from jobs where name = 'expire-package' and done_at is null order by id desc limit 1`,
    );
    expect(job.minutes).toBe(15);
    // The app stops; a new instance starts on the same database and runs the job when due.
    // A stopped process drops its connections (the provider keeps keep-alive sockets to us).
    app.server.closeAllConnections();
    await app.close();
    app = await world.startApp();
    await expireNow();
    await app.jobs.runDue();
    const left = await rows<{ deleted: boolean }>(
      database.db,
      sql`select deleted_at is not null as deleted from entries where id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    expect(left.every((r) => r.deleted)).toBe(true);
    // The letter names the package once, its own quotes and kind word not doubled («Пакет «Старт»» → «Старт»).
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).startsWith('Заявки пакета'));
    expect(mail.subject).toBe('Заявки пакета «Старт» удалены');
    expect(mail.html).toContain('Пакет услуг «Старт» не был оплачен');
  });

  it('while the provider has not answered, expiry waits instead of removing', async () => {
    const u = await user();
    const ids = await enrolPackage(u);
    await pay(u, ids[0]);
    await expireNow();
    await app.jobs.runDue();
    expect(await status(ids[0])).toBe(1);
    const [e] = await rows<{ deleted: boolean }>(database.db, sql`select deleted_at is not null as deleted from entries where id = ${ids[0]}`);
    expect(e.deleted).toBe(false);
  });
});

describe('public payment form and the lists', () => {
  it('refuses missing fields with "Введите все поля!" and field errors', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/yookassa-entry/pay', payload: { fio: '', phone: '123', sum: 0 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(PaymentMessages.fillAll);
    expect(Object.keys(res.json().errors).sort()).toEqual(['fio', 'phone', 'sum']);
  });

  it('creates a payment without a user that operators find among transactions, not users', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/yookassa-entry/pay', payload: { fio: 'Сидоров Пётр', phone: '89001112233', sum: '2500.50' } });
    expect(res.statusCode).toBe(200);
    const uuid = res.json().id as string;
    await confirmOnProvider(uuid);
    const op = await user(1);
    await until(async () => {
      const list = (await app.inject({ method: 'GET', url: '/api/yookassa?isWithoutUser=1&fio=Сидоров', headers: op.headers })).json();
      return list.data[0]?.status === 'succeeded';
    });
    const list = (await app.inject({ method: 'GET', url: `/api/yookassa?uuid=${uuid}`, headers: op.headers })).json();
    expect(list.data[0]).toMatchObject({ uuid, sum: 2500.5, status_label: 'Подтверждён', buyer: 'Сидоров Пётр, +7 (900) 111-22-33', user_id: null });
    const u = await user();
    expect((await app.inject({ method: 'GET', url: '/api/yookassa', headers: u.headers })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/payment/statistics', headers: u.headers })).statusCode).toBe(403);
  });

  it('income per month comes from real payments', async () => {
    const op = await user(1);
    const stats = (await app.inject({ method: 'GET', url: '/api/payment/statistics', headers: op.headers })).json() as Record<string, number>;
    const months = Object.keys(stats);
    expect(months).toHaveLength(12);
    const [sum] = await rows<{ total: string }>(
      database.db,
      sql`select coalesce(sum(sum), 0)::text as total from payments where created_at > date_trunc('month', now())`,
    );
    expect(stats[months[months.length - 1]]).toBeCloseTo(Number(sum.total), 2);
    expect(Number(sum.total)).toBeGreaterThan(0);
  });

  it('filters payments by created_at typed with the mask', async () => {
    const op = await user(1);
    const [{ today }] = await rows<{ today: string }>(
      database.db,
      sql`select to_char(max(created_at) at time zone 'Europe/Moscow', 'YYYY-MM-DD') as today from payments`,
    );
    const res = await app.inject({ method: 'GET', url: `/api/payment?created_at=${encodeURIComponent(today + ' __:__:__')}`, headers: op.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: '/api/payment?created_at=abc', headers: op.headers })).statusCode).toBe(422);
  });

  it('filters by a range of Moscow days typed dd.mm.yyyy, answers the count and sum of what is chosen, and exports exactly that to Excel with a totals row', async () => {
    const op = await user(1);
    const client = await user(2);
    const entry = await entryFor(client, 2750);
    expect((await pay(op, entry.id, { immediate: true, pay_type: 1 })).statusCode).toBeLessThan(300);
    // One payment made just before a Moscow midnight: 23:30 on 01.03.2026 is 20:30 UTC.
    const [moved] = await rows<{ id: number }>(
      database.db,
      sql`update payments set created_at = '2026-03-01 20:30:00+00' where id = (select payment_id from payment_entries where entry_id = ${entry.id}) returning id`,
    );
    const list = (q: string) => app.inject({ method: 'GET', url: `/api/payment?${q}`, headers: op.headers });
    const onDay = (await list('date_from=01.03.2026&date_to=01.03.2026')).json();
    expect(onDay.data.map((p: { id: number }) => p.id)).toEqual([moved.id]);
    expect(onDay.totals).toEqual({ count: 1, sum: 2750, refunded: 0, net: 2750 });
    expect((await list('date_from=02.03.2026')).json().data.map((p: { id: number }) => p.id)).not.toContain(moved.id);
    expect((await list('date_to=28.02.2026')).json().data.map((p: { id: number }) => p.id)).not.toContain(moved.id);
    const all = (await list('per_page=15')).json();
    const [sum] = await rows<{ n: number; total: string }>(database.db, sql`select count(*)::int as n, coalesce(sum(sum), 0)::text as total from payments`);
    expect(all.totals).toMatchObject({ count: sum.n, sum: Number(sum.total) });
    // A user's totals are their own.
    const own = (await app.inject({ method: 'GET', url: '/api/payment', headers: client.headers })).json();
    expect(own.totals).toMatchObject({ count: 1, sum: 2750 });
    const backwards = await list('date_from=02.03.2026&date_to=01.03.2026');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors.date_to).toEqual(['Дата окончания раньше даты начала']);
    expect((await list('date_from=31.02.2026')).statusCode).toBe(422);

    const xlsx = await app.inject({ method: 'GET', url: '/api/payment/excel?date_from=01.03.2026&date_to=01.03.2026', headers: op.headers });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Платежи')!;
    expect(sheet.rowCount).toBe(3);
    // A typed date shown dd.mm.yyyy hh:mm in Moscow time: exceljs reads the wall time back as UTC.
    expect(sheet.getRow(2).getCell(2).value).toEqual(new Date('2026-03-01T23:30:00Z'));
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(sheet.getRow(2).getCell(3).value).toBe(entry.number);
    expect(sheet.getRow(2).getCell(7).value).toBe(2750);
    expect(sheet.getRow(3).getCell(2).value).toBe('Итого');
    expect(sheet.getRow(3).getCell(3).value).toBe('Платежей: 1');
    expect(sheet.getRow(3).getCell(7).value).toBe(2750);
    // Income, net of refunds, is said in the totals row.
    expect(sheet.getRow(3).getCell(9).value).toBe(`Доход: ${formatRub(2750)}`);
    expect((await app.inject({ method: 'GET', url: '/api/payment/excel', headers: client.headers })).statusCode).toBe(403);

    // Every payment of this file (packages, several entries, refunds) says in the export what the list says.
    const listed = (await list('per_page=100')).json();
    const whole = new ExcelJS.Workbook();
    await whole.xlsx.load((await app.inject({ method: 'GET', url: '/api/payment/excel', headers: op.headers })).rawPayload as unknown as ArrayBuffer);
    const exported = whole.getWorksheet('Платежи')!;
    expect(exported.rowCount).toBe(listed.meta.total + 2);
    const byNumbers = new Map<unknown, unknown[]>();
    for (let r = 2; r <= listed.meta.total + 1; r++) byNumbers.set(exported.getRow(r).getCell(3).value, (exported.getRow(r).values as unknown[]).slice(1));
    for (const p of listed.data as {
      entries: { number: string }[];
      entry: { user: { fio: string }; service: { title: string } } | null;
      sum: number;
      status_label: string;
      package_title: string | null;
      payTypeLabel: string;
    }[]) {
      const row = byNumbers.get(p.entries.map((e) => e.number).join(', ') || undefined)!;
      expect(row).toBeDefined();
      expect(row[3]).toBe(p.entry?.user.fio);
      if (p.package_title) expect(String(row[4]).startsWith(`${p.package_title} (`)).toBe(true);
      expect(row[5]).toBe(p.payTypeLabel || undefined);
      expect(row[6]).toBe(p.sum);
      expect(row[8]).toBe(p.status_label);
    }
  });
});

describe('requests without a body', () => {
  it('pay and read-all accept an empty POST, as browsers send it', async () => {
    const u = await user();
    const e = await entryFor(u);
    const res = await app.inject({ method: 'POST', url: `/api/entry/${e.id}/pay`, headers: u.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().confirmation.confirmation_url).toContain('/pay/');
    expect((await app.inject({ method: 'POST', url: '/api/notification/read-all', headers: u.headers })).statusCode).toBe(200);
  });
});
