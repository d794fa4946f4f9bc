import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { rows, type Database } from '../../platform/db.ts';
import { startYookassaWorld, until, type YookassaWorld } from '../../../test/yookassa-world.ts';
import { makeService } from '../../../test/fixtures.ts';

// Issue 18, money: a client is never charged twice. Payments are two-stage (capture: false); a
// held payment is captured only while its entries are unpaid, cancelled otherwise; a success for
// paid entries is refunded at once; operators refund online payments. The real client against the
// sandbox on 127.0.0.1, webhooks over HTTP.

let world: YookassaWorld;
let database: Database;
let app: FastifyInstance;
let smtp: YookassaWorld['smtp'];
let user: YookassaWorld['user'];
let confirmOnProvider: YookassaWorld['confirmOnProvider'];
let deliver = true;
let refundsPending = false;

beforeAll(async () => {
  world = await startYookassaWorld({ deliverWebhooks: () => deliver, refundsPending: () => refundsPending, userTag: 'refund' });
  ({ database, smtp, app, user, confirmOnProvider } = world);
});
afterAll(async () => {
  await world.close();
});

type U = Awaited<ReturnType<YookassaWorld['user']>>;

async function entryFor(u: U, price = 1500) {
  const s = await makeService(database.db, { price });
  const res = await app.inject({ method: 'POST', url: '/api/entry', headers: u.headers, payload: { service_id: s.id, pay_type: 3, is_extramural: 0 } });
  return res.json().data as { id: number; number: string };
}
const pay = (u: U, id: number, payload: Record<string, unknown> = {}) =>
  app.inject({ method: 'POST', url: `/api/entry/${id}/pay`, headers: u.headers, payload });
const status = async (id: number) => (await rows<{ status: number }>(database.db, sql`select status from entries where id = ${id}`))[0].status;
const webhook = (id: string, event = 'payment.waiting_for_capture') =>
  app.inject({ method: 'POST', url: '/api/yookassa/webhook', payload: { type: 'notification', event, object: { id } } });
const providerPayment = async (uuid: string) =>
  (
    await rows<{ status: string; body: { cancellation_details?: { party: string; reason: string }; refunded_amount?: { value: string } } }>(
      database.db,
      sql`select status, body from sandbox_payments where id = ${uuid}`,
    )
  )[0];
const transaction = async (uuid: string) =>
  (await rows<{ status: string; hold_decision: string | null }>(database.db, sql`select status, hold_decision from card_transactions where uuid = ${uuid}`))[0];
const paymentsOf = (entryId: number) =>
  rows<{ id: number; uuid: string | null; pay_type: number; is_double: boolean }>(
    database.db,
    sql`select p.id, p.uuid, p.pay_type, p.is_double from payments p join payment_entries pe on pe.payment_id = p.id where pe.entry_id = ${entryId} order by p.id`,
  );
const refund = (op: U, paymentId: number, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/api/payment/${paymentId}/refund`, headers: op.headers, payload });
const listed = async (op: U, query: string) =>
  (await app.inject({ method: 'GET', url: `/api/payment?${query}`, headers: op.headers })).json().data as Array<Record<string, unknown>>;
/** Spaces as letters carry them (the mail's subject has plain spaces where formatRub has narrow ones). */
const plain = (v: unknown) => String(v).replace(/[\u00a0\u202f]/g, ' ');
const notes = async (userId: number) =>
  rows<{ text_clear: string }>(database.db, sql`select text_clear from notifications where user_id = ${userId} order by id`);

describe('a client is never charged twice', () => {
  it('payments are created held for capture (capture: false), and captured while the entry is unpaid', async () => {
    const u = await user();
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    const [row] = await rows<{ capture: boolean }>(database.db, sql`select capture from sandbox_payments where id = ${uuid}`);
    expect(row.capture).toBe(false);
    await confirmOnProvider(uuid);
    await until(async () => (await status(e.id)) === 2);
    expect((await providerPayment(uuid)).status).toBe('succeeded');
    expect(await transaction(uuid)).toEqual({ status: 'succeeded', hold_decision: 'capture' });
    expect(await paymentsOf(e.id)).toMatchObject([{ uuid, is_double: false }]);
  });

  it('the reproduction: the client opens the payment, an operator marks the entry paid, the client pays: the hold is cancelled, nothing is charged', async () => {
    const u = await user();
    const op = await user(1);
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    expect((await pay(op, e.id, { pay_type: 2 })).json()).toMatchObject({ status: 2, immediate: true });
    await confirmOnProvider(uuid);
    await until(async () => (await transaction(uuid)).status === 'canceled');
    expect(await transaction(uuid)).toEqual({ status: 'canceled', hold_decision: 'cancel' });
    const provider = await providerPayment(uuid);
    expect(provider.status).toBe('canceled');
    expect(provider.body.cancellation_details).toEqual({ party: 'merchant', reason: 'canceled_by_merchant' });
    const shown = (await app.inject({ method: 'GET', url: `/api/yookassa?uuid=${uuid}`, headers: op.headers })).json().data[0];
    expect(shown).toMatchObject({ status: 'canceled', status_label: PaymentMessages.canceledAlreadyPaid });
    // One payment, the office one; no double, nothing to refund.
    expect(await paymentsOf(e.id)).toMatchObject([{ uuid: null, pay_type: 2, is_double: false }]);
    expect(await status(e.id)).toBe(2);
  });

  it('while a capture is decided the entry is reserved: the operator is asked to wait; the capture is driven again until it goes through', async () => {
    const u = await user();
    const op = await user(1);
    const e = await entryFor(u);
    const { id: uuid } = (await pay(u, e.id)).json();
    deliver = false;
    await confirmOnProvider(uuid);
    deliver = true;
    // The app saw the hold and decided to capture, but the capture call did not get through.
    await database.db.execute(sql`update card_transactions set status = 'waiting_for_capture', hold_decision = 'capture' where uuid = ${uuid}`);
    const refused = await pay(op, e.id, { pay_type: 2 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(PaymentMessages.awaitingCapture);
    // The next word from the provider (the webhook or the reconciliation job) captures.
    await webhook(uuid);
    expect(await status(e.id)).toBe(2);
    expect(await paymentsOf(e.id)).toMatchObject([{ uuid, is_double: false }]);
    expect((await providerPayment(uuid)).status).toBe('succeeded');
  });

  it('an operator marking paid races the provider’s notification: exactly one of them is paid', async () => {
    for (let i = 0; i < 4; i++) {
      const u = await user();
      const op = await user(1);
      const e = await entryFor(u);
      const { id: uuid } = (await pay(u, e.id)).json();
      deliver = false;
      await confirmOnProvider(uuid);
      deliver = true;
      const [office] = await Promise.all([pay(op, e.id, { pay_type: 2 }), webhook(uuid)]);
      await until(async () => ['succeeded', 'canceled'].includes((await providerPayment(uuid)).status));
      const list = await paymentsOf(e.id);
      expect(list).toHaveLength(1);
      const captured = (await providerPayment(uuid)).status === 'succeeded';
      expect(list[0].uuid).toBe(captured ? uuid : null);
      expect(office.statusCode).toBe(captured ? 422 : 200);
      expect(await status(e.id)).toBe(2);
    }
  });

  it('a success for an entry already paid (a payment captured by the shop itself) is refunded at once, and the client is told', async () => {
    const u = await user();
    const op = await user(1);
    const e = await entryFor(u, 2400);
    const { id: uuid } = (await pay(u, e.id)).json();
    // A payment created with capture: true (before this change, or captured by hand in the back office).
    await database.db.execute(sql`update sandbox_payments set capture = true where id = ${uuid}`);
    await pay(op, e.id, { pay_type: 2 });
    await confirmOnProvider(uuid);
    await until(async () => (await paymentsOf(e.id)).length === 2);
    const [, double] = await paymentsOf(e.id);
    expect(double).toMatchObject({ uuid, is_double: true });
    await until(
      async () =>
        (await rows<{ status: string }>(database.db, sql`select status from payment_refunds where payment_id = ${double.id}`))[0]?.status === 'succeeded',
    );
    expect((await providerPayment(uuid)).body.refunded_amount?.value).toBe('2400.00');
    const [r] = await rows<{ status: string; sum: number; automatic: boolean; idempotence_key: string; created_by: number | null }>(
      database.db,
      sql`select status, sum::float as sum, automatic, idempotence_key, created_by from payment_refunds where payment_id = ${double.id}`,
    );
    expect(r).toEqual({ status: 'succeeded', sum: 2400, automatic: true, idempotence_key: `refund-${uuid}`, created_by: null });
    // The office payment still pays the entry.
    expect(await status(e.id)).toBe(2);
    // Repeated notifications refund nothing more.
    await webhook(uuid, 'payment.succeeded');
    const [{ n }] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from sandbox_refunds where payment_id = ${uuid}`);
    expect(n).toBe(1);
    // The operator sees both marks; the client gets a letter and a notification.
    const [shown] = await listed(op, `uuid=${uuid}`);
    expect(shown).toMatchObject({ is_double: true, status_label: 'Двойная оплата', refunded_sum: 2400, refundable_sum: 0 });
    expect((await listed(op, 'state=double')).map((p) => p.uuid)).toContain(uuid);
    await app.jobs.runDue();
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('Возврат'));
    expect(plain(mail.subject)).toBe(plain(`Возврат оплаты: ${formatRub(2400)}`));
    expect(plain(mail.text)).toContain(plain(`Мы вернули ${formatRub(2400)} за оплату заявки № ${e.number}`));
    expect(mail.text).toContain(PaymentMessages.doubleRefundReason);
    expect((await notes(u.id)).map((x) => x.text_clear).join('\n')).toContain(`Мы вернули ${formatRub(2400)}`);
  });
});

describe('the operator’s refund', () => {
  async function paidOnline(u: U, price = 1500) {
    const e = await entryFor(u, price);
    const { id: uuid } = (await pay(u, e.id)).json();
    await confirmOnProvider(uuid);
    await until(async () => (await status(e.id)) === 2);
    const [p] = await paymentsOf(e.id);
    return { e, uuid, paymentId: p.id };
  }

  it('refunds part, then the rest; a full refund leaves the entry unpaid; logged; the client is told each time', async () => {
    const u = await user();
    const op = await user(1);
    const { e, uuid, paymentId } = await paidOnline(u);
    const part = await refund(op, paymentId, { sum: 500, reason: 'Не смог присутствовать на одном занятии' });
    expect(part.statusCode).toBe(200);
    expect(part.json()).toMatchObject({ message: PaymentMessages.refundDone, data: { sum: 500, status: 'succeeded', automatic: false } });
    expect(await status(e.id)).toBe(2);
    let [shown] = await listed(op, `uuid=${uuid}`);
    expect(shown).toMatchObject({
      status_label: PaymentMessages.refundLabel(formatRub(500)),
      color: 'grape',
      refunded_sum: 500,
      refundable_sum: 1000,
      is_double: false,
    });

    const tooMuch = await refund(op, paymentId, { sum: 1000.01, reason: 'Ошибка' });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.sum).toEqual([PaymentMessages.refundSumTooBig(formatRub(1000))]);

    const rest = await refund(op, paymentId, { sum: 1000, reason: 'Отказ от участия' });
    expect(rest.json().data.status).toBe('succeeded');
    expect((await providerPayment(uuid)).body.refunded_amount?.value).toBe('1500.00');
    // Refunded in full: the entry is not paid any more.
    expect(await status(e.id)).toBe(1);
    [shown] = await listed(op, `uuid=${uuid}`);
    expect(shown).toMatchObject({ status_label: PaymentMessages.refundLabel(formatRub(1500)), refunded_sum: 1500, refundable_sum: 0 });
    expect((await listed(op, 'state=refunded')).map((p) => p.uuid)).toContain(uuid);
    expect((await listed(u, 'state=refunded')).map((p) => p.uuid)).toEqual([uuid]);

    const nothing = await refund(op, paymentId, { sum: 1, reason: 'Ещё' });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe(PaymentMessages.refundNothingLeft);

    // The change log: the operator's two requests under the operator, the provider's answers under the system.
    const log = await rows<{ user_id: number | null; diff: Record<string, { old: unknown; new: unknown }> }>(
      database.db,
      sql`select user_id, diff from change_logs where type = 'payment' and entity_id = ${paymentId} and (diff ? 'refund' or diff ? 'refund_status') order by id`,
    );
    expect(log.map((l) => l.user_id)).toEqual([op.id, null, op.id, null]);
    expect(log[0].diff.refund.new).toMatchObject({ sum: 500, reason: 'Не смог присутствовать на одном занятии', automatic: false });
    expect(log[3].diff).toMatchObject({ refund_status: { old: 'pending', new: 'succeeded' }, refunded_sum: { new: 1500 } });
    const [entryLog] = await rows<{ diff: Record<string, { old: unknown; new: unknown }> }>(
      database.db,
      sql`select diff from change_logs where type = 'entry' and entity_id = ${e.id} order by id desc limit 1`,
    );
    expect(entryLog.diff.status).toEqual({ old: 2, new: 1 });

    await app.jobs.runDue();
    await smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && plain(m.subject) === plain(`Возврат оплаты: ${formatRub(1000)}`));
    const texts = (await notes(u.id)).map((x) => x.text_clear).filter((t) => t.includes('Мы вернули'));
    expect(texts).toEqual([
      `Мы вернули ${formatRub(500)} за оплату заявки № ${e.number} «${(await rows<{ title: string }>(database.db, sql`select s.title from entries e join services s on s.id = e.service_id where e.id = ${e.id}`))[0].title}». Причина: Не смог присутствовать на одном занятии`,
      expect.stringContaining(`Мы вернули ${formatRub(1000)}`),
    ]);
  });

  it('refuses bad input in Russian, an office payment, a client, and a repeated key with other data; a repeated key continues the same refund', async () => {
    const u = await user();
    const op = await user(1);
    const { paymentId, uuid } = await paidOnline(u);
    const missing = await refund(op, paymentId, { sum: '', reason: '  ' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.reason).toEqual([PaymentMessages.refundReasonRequired]);
    expect(missing.json().errors.sum).toBeDefined();
    const negative = await refund(op, paymentId, { sum: -5, reason: 'x' });
    expect(negative.json().errors.sum).toEqual([PaymentMessages.refundSumPositive]);
    expect((await refund(op, 999_999, { sum: 1, reason: 'x' })).statusCode).toBe(404);
    expect((await refund(u, paymentId, { sum: 1, reason: 'x' })).statusCode).toBe(403);

    const e2 = await entryFor(u);
    await pay(op, e2.id, { pay_type: 2 });
    const [office] = await paymentsOf(e2.id);
    const offline = await refund(op, office.id, { sum: 100, reason: 'x' });
    expect(offline.statusCode).toBe(422);
    expect(offline.json().message).toBe(PaymentMessages.refundOnlyOnline);

    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([
      refund(op, paymentId, { sum: 300, reason: 'Двойной клик', key }),
      refund(op, paymentId, { sum: 300, reason: 'Двойной клик', key }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().data.id).toBe(b.json().data.id);
    expect((await providerPayment(uuid)).body.refunded_amount?.value).toBe('300.00');
    const other = await refund(op, paymentId, { sum: 301, reason: 'Двойной клик', key });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.key).toEqual([PaymentMessages.refundKeyReused]);
  });

  it('a refund the provider refuses is cancelled and said in Russian; the sum stays refundable', async () => {
    const u = await user();
    const op = await user(1);
    const { paymentId, uuid } = await paidOnline(u);
    // Refunded meanwhile in the provider's back office: the API refuses more than what is left.
    await database.db.execute(
      sql`update sandbox_payments set body = jsonb_set(body, '{refunded_amount}', '{"value": "1500.00", "currency": "RUB"}') where id = ${uuid}`,
    );
    const res = await refund(op, paymentId, { sum: 200, reason: 'Отказ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(PaymentMessages.refundRejected);
    const [r] = await rows<{ status: string; error: string }>(database.db, sql`select status, error from payment_refunds where payment_id = ${paymentId}`);
    expect(r.status).toBe('canceled');
    expect(r.error).toContain('amount.value');
    const [shown] = await listed(op, `uuid=${uuid}`);
    expect(shown).toMatchObject({ refunded_sum: 0, refundable_sum: 1500, status_label: 'Оплачено' });
  });

  it('a pending refund is settled by the refund.succeeded notification, re-fetched from the API', async () => {
    const u = await user();
    const op = await user(1);
    const { paymentId, uuid, e } = await paidOnline(u, 800);
    refundsPending = true;
    const res = await refund(op, paymentId, { sum: 800, reason: 'Курс перенесён' });
    refundsPending = false;
    expect(res.json()).toMatchObject({ message: PaymentMessages.refundPending, data: { status: 'pending' } });
    let [shown] = await listed(op, `uuid=${uuid}`);
    expect(shown).toMatchObject({ refund_pending_sum: 800, refundable_sum: 0 });
    const [r] = await rows<{ uuid: string }>(database.db, sql`select uuid from payment_refunds where payment_id = ${paymentId}`);
    // A forged notification changes nothing: the API still says pending.
    await webhook(r.uuid, 'refund.succeeded');
    expect(await status(e.id)).toBe(2);
    // The provider settles it and notifies.
    await database.db.execute(sql`update sandbox_refunds set status = 'succeeded', body = jsonb_set(body, '{status}', '"succeeded"') where id = ${r.uuid}`);
    expect((await webhook(r.uuid, 'refund.succeeded')).statusCode).toBe(200);
    [shown] = await listed(op, `uuid=${uuid}`);
    expect(shown).toMatchObject({ refund_pending_sum: 0, refunded_sum: 800 });
    expect(await status(e.id)).toBe(1);
  });
});
