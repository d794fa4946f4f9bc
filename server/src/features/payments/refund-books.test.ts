import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { EntryStatus } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { PrintMessages } from '@edu/domain/documents/print';
import { rows, type Database } from '../../platform/db.ts';
import { startYookassaWorld, until, type YookassaWorld } from '../../../test/yookassa-world.ts';
import { makeService } from '../../../test/fixtures.ts';

// Issue 28: a refund reaches the books. Every income figure is net of succeeded refunds; the refund
// says what happens to the entry (kept, or cancelled as «Возврат»: not printable, its seat freed);
// amounts with kopecks are exact; two refunds of the whole remainder at once record one.

let world: YookassaWorld;
let database: Database;
let app: FastifyInstance;
let user: YookassaWorld['user'];
let confirmOnProvider: YookassaWorld['confirmOnProvider'];

beforeAll(async () => {
  world = await startYookassaWorld({ userTag: 'books' });
  ({ database, app, user, confirmOnProvider } = world);
});
afterAll(async () => {
  await world.close();
});

type U = Awaited<ReturnType<YookassaWorld['user']>>;

const status = async (id: number) => (await rows<{ status: number }>(database.db, sql`select status from entries where id = ${id}`))[0].status;
const get = async (u: U, url: string) => {
  const res = await app.inject({ method: 'GET', url, headers: u.headers });
  expect(res.statusCode, url).toBe(200);
  return res.json();
};
const refund = (op: U, paymentId: number, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/api/payment/${paymentId}/refund`, headers: op.headers, payload });

/** A client's entry for a fresh service (`seats` places), paid online through the sandbox. */
async function paidOnline(u: U, o: { price: number | string; seats?: number; title?: string }) {
  const s = await makeService(database.db, { price: Number(o.price), max_participants: o.seats ?? 0, title: o.title ?? `Курс ${crypto.randomUUID()}` });
  const created = await app.inject({ method: 'POST', url: '/api/entry', headers: u.headers, payload: { service_id: s.id, pay_type: 3, is_extramural: 0 } });
  expect(created.statusCode).toBe(201);
  const e = created.json().data as { id: number; number: string };
  const { id: uuid } = (await app.inject({ method: 'POST', url: `/api/entry/${e.id}/pay`, headers: u.headers, payload: {} })).json();
  await confirmOnProvider(uuid);
  await until(async () => (await status(e.id)) === EntryStatus.paid);
  const [p] = await rows<{ id: number }>(database.db, sql`select payment_id as id from payment_entries where entry_id = ${e.id}`);
  return { e, uuid: uuid as string, paymentId: p.id, serviceId: s.id };
}

const overviewIncome = async (op: U, serviceId: number) => {
  const page = await get(op, `/api/service/overview?q=${serviceId}`);
  return (page.data as Array<{ id: number; income: number; paid: number; free: number | null }>).find((s) => s.id === serviceId)!;
};
const thisMonth = (figures: Record<string, number>) => figures[Object.keys(figures).at(-1)!];

describe('money with kopecks is exact', () => {
  it('a refund of 19,99 ₽ and of 2 499,99 ₽ is taken, recorded and sent to the provider to the kopeck', async () => {
    const u = await user();
    const op = await user(1);
    const { paymentId, uuid } = await paidOnline(u, { price: '4900' });
    const first = await refund(op, paymentId, { sum: '19,99', reason: 'Часть занятия', entry_action: 'keep' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.sum).toBe(19.99);
    const second = await refund(op, paymentId, { sum: 2499.99, reason: 'Ещё часть', entry_action: 'keep' });
    expect(second.json().data.sum).toBe(2499.99);
    const [provider] = await rows<{ refunded: string }>(
      database.db,
      sql`select body->'refunded_amount'->>'value' as refunded from sandbox_payments where id = ${uuid}`,
    );
    expect(provider.refunded).toBe('2519.98');
    const [left] = (await get(op, `/api/payment?uuid=${uuid}`)).data;
    expect(left).toMatchObject({ refunded_sum: 2519.98, refundable_sum: 2380.02 });
    // Hex and exponents are not money.
    for (const sum of ['0x10', '1e3', '1.005']) {
      const bad = await refund(op, paymentId, { sum, reason: 'x' });
      expect(bad.statusCode, sum).toBe(422);
      expect(bad.json().errors.sum[0]).toMatch(/[А-Яа-я]/);
    }
  });

  it('service and package prices with kopecks are stored exactly; the public form takes 19.99 ₽', async () => {
    const op = await user(1);
    const created = await app.inject({
      method: 'POST',
      url: '/api/yookassa-entry/pay',
      payload: { fio: 'Иванова Анна', phone: '+7 (999) 555-44-33', sum: '19.99', key: crypto.randomUUID() },
    });
    expect(created.statusCode).toBe(200);
    const [ct] = await rows<{ sum: string }>(database.db, sql`select sum::text as sum from card_transactions where uuid = ${created.json().id}`);
    expect(ct.sum).toBe('19.99');
    const priced = await app.inject({
      method: 'POST',
      url: '/api/publication-price',
      headers: op.headers,
      payload: { dict_service_subtype_id: 1, authors_num: 20, price: '1300.50' },
    });
    expect(priced.statusCode).toBe(422);
    expect(priced.json().errors.price).toEqual(['Цена — целое число рублей']);
  });
});

describe('a refund reaches the books', () => {
  it('a full refund that cancels: «Возврат» in both cabinets, not printable, the seat freed, income net everywhere, the card list says «Возвращён»', async () => {
    const u = await user();
    const op = await user(1);
    const incomeBefore = thisMonth(await get(op, '/api/payment/statistics'));
    const { e, uuid, paymentId, serviceId } = await paidOnline(u, { price: 4900, seats: 1 });
    expect(thisMonth(await get(op, '/api/payment/statistics'))).toBeCloseTo(incomeBefore + 4900, 2);
    expect(await overviewIncome(op, serviceId)).toMatchObject({ income: 4900, paid: 1, free: 0 });

    const res = await refund(op, paymentId, { sum: '4900', reason: 'Отказ от участия', entry_action: 'cancel' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'succeeded', entry_action: 'cancel' });
    expect(await status(e.id)).toBe(EntryStatus.refunded);

    // Both cabinets show «Возврат»; it is neither paid nor payable.
    for (const who of [u, op]) {
      const [shown] = (await get(who, `/api/entry?number=${e.number}`)).data;
      expect(shown).toMatchObject({ id: e.id, status: EntryStatus.refunded, statusLabel: 'Возврат', is_paid: false });
    }
    const payAgain = await app.inject({ method: 'POST', url: `/api/entry/${e.id}/pay`, headers: u.headers, payload: {} });
    expect(payAgain.statusCode).toBe(422);
    expect(payAgain.json().message).toBe(PaymentMessages.entryRefunded);
    // Not printable.
    const print = await app.inject({ method: 'GET', url: `/api/entry/${e.id}/print/certificate`, headers: op.headers });
    expect(print.statusCode).toBe(422);
    expect(print.json().message).toBe(PrintMessages.entryRefunded);
    // The seat is free again: another client takes the one place.
    const other = await user();
    const taken = await app.inject({
      method: 'POST',
      url: '/api/entry',
      headers: other.headers,
      payload: { service_id: serviceId, pay_type: 3, is_extramural: 0 },
    });
    expect(taken.statusCode).toBe(201);

    // The books: the dashboard, «Все услуги», the payment list's totals, the ЮKassa list.
    expect(thisMonth(await get(op, '/api/payment/statistics'))).toBeCloseTo(incomeBefore, 2);
    expect(thisMonth(await get(op, '/api/payment/statistics/refunds'))).toBeGreaterThanOrEqual(4900);
    expect(await overviewIncome(op, serviceId)).toMatchObject({ income: 0, paid: 0, free: 0 });
    const payments = await get(op, `/api/payment?uuid=${uuid}`);
    expect(payments.totals).toEqual({ count: 1, sum: 4900, refunded: 4900, net: 0 });
    const [card] = (await get(op, `/api/yookassa?uuid=${uuid}`)).data;
    expect(card).toMatchObject({ status_label: PaymentMessages.cardRefunded(formatRub(4900)), refunded_sum: 4900 });

    // The change log and the entry's history name the refund.
    const [r] = await rows<{ id: number }>(database.db, sql`select id from payment_refunds where payment_id = ${paymentId}`);
    const history = (await get(op, `/api/entry/${e.id}/history`)).data as Array<{ diff: Record<string, { new: unknown }> }>;
    expect(history[0].diff.status.new).toBe(EntryStatus.refunded);
    expect(history[0].diff.reason.new).toBe(`Оплата возвращена (возврат № ${r.id})`);
  });

  it('a partial refund that keeps the entry: still paid and printable as before, income less the part, «Частично возвращён»', async () => {
    const u = await user();
    const op = await user(1);
    const { e, uuid, paymentId, serviceId } = await paidOnline(u, { price: 1500 });
    const res = await refund(op, paymentId, { sum: '500.50', reason: 'Пропущено одно занятие', entry_action: 'keep' });
    expect(res.statusCode).toBe(200);
    expect(await status(e.id)).toBe(EntryStatus.paid);
    expect(await overviewIncome(op, serviceId)).toMatchObject({ income: 999.5, paid: 1 });
    expect((await get(op, `/api/payment?uuid=${uuid}`)).totals).toEqual({ count: 1, sum: 1500, refunded: 500.5, net: 999.5 });
    const [card] = (await get(op, `/api/yookassa?uuid=${uuid}`)).data;
    expect(card.status_label).toBe(PaymentMessages.cardPartlyRefunded(formatRub(500.5)));
  });

  it('a done entry refunded in full is never left looking paid, even when kept; a paid one kept is payable again', async () => {
    const u = await user();
    const op = await user(1);
    const done = await paidOnline(u, { price: 800 });
    expect((await app.inject({ method: 'POST', url: `/api/entry/${done.e.id}/complete`, headers: op.headers })).statusCode).toBe(200);
    expect(await status(done.e.id)).toBe(EntryStatus.done);
    await refund(op, done.paymentId, { sum: 800, reason: 'Жест доброй воли', entry_action: 'keep' });
    expect(await status(done.e.id)).toBe(EntryStatus.refunded);
    expect(await overviewIncome(op, done.serviceId)).toMatchObject({ income: 0 });

    const kept = await paidOnline(u, { price: 700 });
    await refund(op, kept.paymentId, { sum: 700, reason: 'Оплатит позже по счёту', entry_action: 'keep' });
    expect(await status(kept.e.id)).toBe(EntryStatus.notPaid);
    const [row] = await rows<{ refunded: string }>(database.db, sql`select refunded::text as refunded from entries where id = ${kept.e.id}`);
    expect(row.refunded).toBe('0.00');
  });

  it('two refunds of the whole remainder at once: exactly one is recorded (the payment is locked before what is left is read)', async () => {
    const u = await user();
    const op = await user(1);
    for (let i = 0; i < 3; i++) {
      const { paymentId } = await paidOnline(u, { price: 4900 });
      const both = () =>
        Promise.all([
          refund(op, paymentId, { sum: 4900, reason: 'Первый оператор', key: crypto.randomUUID(), entry_action: 'cancel' }),
          refund(op, paymentId, { sum: 4900, reason: 'Второй оператор', key: crypto.randomUUID(), entry_action: 'cancel' }),
        ]);
      let answers: Awaited<ReturnType<typeof both>>;
      if (database.kind === 'postgres') {
        // Both requests queue on the payment's lock held by a third transaction, so both statements
        // start before either refund exists: the one that gets the lock second must still see the first.
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        let locked = () => {};
        const lockHeld = new Promise<void>((resolve) => (locked = resolve));
        const holder = database.db.transaction(async (tx) => {
          await tx.execute(sql`select id from payments where id = ${paymentId} for update`);
          locked();
          await released;
        });
        await lockHeld;
        const racing = both();
        await until(async () => {
          const [w] = await rows<{ n: number }>(
            database.db,
            sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%from payments where id =%for update%'`,
          );
          return w.n >= 2;
        });
        release();
        await holder;
        answers = await racing;
      } else answers = await both();
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
      // Refused before anything is recorded (not sent and then refused by the provider).
      expect(answers.map((a) => a.json().message)).toContain(PaymentMessages.refundNothingLeft);
      const recorded = await rows<{ sum: string }>(database.db, sql`select sum::text as sum from payment_refunds where payment_id = ${paymentId}`);
      expect(recorded).toEqual([{ sum: '4900.00' }]);
    }
  });
});

describe('one month’s books agree to the kopeck', () => {
  it('dashboard income = the payment list’s net for the month = succeeded card payments less refunds plus office payments', async () => {
    const u = await user();
    const op = await user(1);
    // One more of each kind this month: an online payment refunded in part, and an office payment with kopecks.
    const online = await paidOnline(u, { price: '3333.33' });
    await refund(op, online.paymentId, { sum: '1111.11', reason: 'Часть курса', entry_action: 'keep' });
    const s = await makeService(database.db, { price: 1234.56 });
    const office = (
      await app.inject({ method: 'POST', url: '/api/entry', headers: u.headers, payload: { service_id: s.id, pay_type: 2, is_extramural: 0 } })
    ).json().data as { id: number };
    expect((await app.inject({ method: 'POST', url: `/api/entry/${office.id}/pay`, headers: op.headers, payload: { pay_type: 2 } })).statusCode).toBe(200);

    const now = new Date(Date.now() + 3 * 3600_000);
    const monthStart = `01.${String(now.getUTCMonth() + 1).padStart(2, '0')}.${now.getUTCFullYear()}`;
    const dashboard = thisMonth(await get(op, '/api/payment/statistics'));
    const refundedThisMonth = thisMonth(await get(op, '/api/payment/statistics/refunds'));
    const list = (await get(op, `/api/payment?date_from=${monthStart}&per_page=100`)).totals as { sum: number; refunded: number; net: number };
    // This month's (Moscow) card payments: the file's earlier tests may have paid before midnight of the month's last day.
    const cards = (
      (await get(op, '/api/yookassa?status=succeeded&per_page=100')).data as Array<{ sum: number; refunded_sum: number; created_at_formatted: string }>
    ).filter((c) => c.created_at_formatted.slice(2, 10) === monthStart.slice(2));
    const officePayments = (await get(op, `/api/payment?date_from=${monthStart}&payType=2&per_page=100`)).totals as { sum: number };
    const k = (rub: number) => Math.round(rub * 100);
    const cardsNet = cards.reduce((a, c) => a + k(c.sum) - k(c.refunded_sum), 0);
    expect(k(dashboard)).toBe(k(list.net));
    expect(k(list.net)).toBe(k(list.sum) - k(list.refunded));
    expect(k(refundedThisMonth)).toBe(k(list.refunded));
    expect(k(list.net)).toBe(cardsNet + k(officePayments.sum));
  });
});
