import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { LogReasons } from '@edu/domain/logs/log';
import { EntryStatus, EventId, isPaidStatus } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages, type RefundAnswer, type refundBody, type RefundEntryAction } from '@edu/domain/payments/payment';
import { kopecksOf, rublesText } from '@edu/domain/common/money';
import type { z } from 'zod';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { scheduleJob, type JobPayloads } from '../../platform/jobs.ts';
import { money, ProviderError, type ProviderRefund } from '../../platform/payments/yookassa-client.ts';
import { cancelEntryByRefund, returnEntryToUnpaid } from '../entries/entry-status.ts';
import { cancelIfPublicationTurnedDown } from '../publications/publication-entries.ts';
import { refundOfPayment } from './payments-repository.ts';

// Refunds through the provider (docs/decisions/023-no-double-charge.md): the operator's (whole or
// part, with a reason) and the automatic refund of a double payment. A refund row and its
// 'send-refund' job commit with the decision; the provider is called after the commit with the
// row's own Idempotence-Key, so a retry (the job, a repeated click) never refunds twice.

const REFUND_RANK: Record<string, number> = { pending: 0, succeeded: 1, canceled: 1 };
/** A refund still pending at the provider is asked about this often, for a week. */
const REFUND_RECHECK_S = 300;
const REFUND_GIVE_UP_H = 24 * 7;

interface LockedPayment {
  id: number;
  uuid: string | null;
  sum: string | number;
  card_transaction_id: number | null;
  user_id: number | null;
  is_double: boolean;
  /** What is left to refund, in kopecks: the sum less refunds done or in progress. */
  leftKop: number;
}

/**
 * Locks the payment row, then reads its refunds in a statement of its own: on PostgreSQL a statement
 * that waited for the lock still reads with the snapshot it started with, so «what is left» must be
 * read after the lock is held (two parallel refunds of the remainder: the second sees the first).
 */
async function lockPayment(tx: Queryable, paymentId: number): Promise<LockedPayment | undefined> {
  const [p] = await rows<Omit<LockedPayment, 'leftKop'>>(
    tx,
    sql`select id, uuid, sum, card_transaction_id, user_id, is_double from payments where id = ${paymentId} for update`,
  );
  if (!p) return undefined;
  const [taken] = await rows<{ sum: string | number }>(
    tx,
    sql`select coalesce(sum(sum), 0) as sum from payment_refunds where payment_id = ${paymentId} and status in ('pending', 'succeeded')`,
  );
  return { ...p, leftKop: kopecksOf(p.sum) - kopecksOf(taken?.sum) };
}

/** Inserts a refund and its durable 'send-refund' job in the caller's transaction (the payment row locked), and logs it. */
async function insertRefundIn(
  tx: Queryable,
  o: { paymentId: number; sum: string | number; reason: string; automatic: boolean; by: number | null; key: string; entryAction: RefundEntryAction },
): Promise<number> {
  const [r] = await rows<{ id: number }>(
    tx,
    sql`insert into payment_refunds (payment_id, idempotence_key, status, sum, reason, automatic, created_by, entry_action)
        values (${o.paymentId}, ${o.key}, 'pending', ${o.sum}, ${o.reason}, ${o.automatic}, ${o.by}, ${o.entryAction}) returning id`,
  );
  await logChange(tx, {
    type: 'payment',
    entityId: o.paymentId,
    userId: o.by,
    before: { refund: null },
    after: { refund: { id: r.id, sum: Number(o.sum), reason: o.reason, automatic: o.automatic, entry_action: o.entryAction } },
  });
  await scheduleJob(tx, 'send-refund', { refundId: r.id }, { uniqueKey: `refund-${r.id}` });
  return r.id;
}

/**
 * The refund of a double payment, by the system, in the transaction that recorded the payment: the
 * whole sum, with an Idempotence-Key derived from the provider's payment id (one refund per payment,
 * whoever applies the success first).
 */
export async function refundDoubleIn(tx: Queryable, o: { paymentId: number; uuid: string; sum: number }): Promise<number | null> {
  const payment = await lockPayment(tx, o.paymentId);
  if (!payment || payment.leftKop <= 0) return null;
  return insertRefundIn(tx, {
    paymentId: o.paymentId,
    sum: o.sum,
    reason: PaymentMessages.doubleRefundReason,
    automatic: true,
    // The entries stay as the other payment left them.
    entryAction: 'keep',
    by: null,
    key: `refund-${o.uuid}`.slice(0, 64),
  });
}

/**
 * POST /api/payment/{id}/refund: an operator refunds an online payment, whole or in part (at most
 * what is left), with a reason. The form's key makes a repeated click continue the same refund.
 */
export async function requestRefund(app: FastifyInstance, by: AuthUser, paymentId: number, body: z.output<typeof refundBody>): Promise<RefundAnswer> {
  const refundId = await app.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment) throw notFound(PaymentMessages.notFound);
    if (body.key) {
      const [same] = await rows<{ id: number; payment_id: number; sum: string | number; reason: string }>(
        tx,
        sql`select id, payment_id, sum, reason from payment_refunds where idempotence_key = ${body.key.toLowerCase()}`,
      );
      if (same) {
        if (same.payment_id !== paymentId || kopecksOf(same.sum) !== body.sum || same.reason !== body.reason) {
          throw new AppError(422, PaymentMessages.refundKeyReused, { errors: { key: [PaymentMessages.refundKeyReused] } });
        }
        return same.id;
      }
    }
    if (!payment.uuid || !payment.card_transaction_id) throw new AppError(422, PaymentMessages.refundOnlyOnline, { errors: {} });
    const leftKop = payment.leftKop;
    if (leftKop <= 0) throw new AppError(422, PaymentMessages.refundNothingLeft, { errors: { sum: [PaymentMessages.refundNothingLeft] } });
    if (body.sum > leftKop) {
      const message = PaymentMessages.refundSumTooBig(formatRub(leftKop / 100));
      throw new AppError(422, message, { errors: { sum: [message] } });
    }
    return insertRefundIn(tx, {
      paymentId,
      sum: rublesText(body.sum),
      reason: body.reason,
      automatic: false,
      by: by.id,
      key: body.key?.toLowerCase() ?? randomUUID(),
      entryAction: body.entry_action ?? 'keep',
    });
  });
  try {
    await sendRefund(app, refundId);
  } catch (err) {
    // Not answered now: the refund stays pending and its job asks again.
    app.log.warn({ err: err instanceof ProviderError ? err.logFields : err, refundId }, 'refund not sent yet');
  }
  const refund = await refundOfPayment(app.db, refundId);
  if (refund.status === 'canceled') throw new AppError(422, PaymentMessages.refundRejected, { errors: {} });
  return { message: refund.status === 'succeeded' ? PaymentMessages.refundDone : PaymentMessages.refundPending, data: refund };
}

/**
 * Sends one refund to the provider (or asks about it, once it has an id) and applies the answer.
 * A 400 is a refusal: the refund is cancelled with the provider's reason. Anything else that fails
 * (time-out, 5xx, wrong keys) throws, and the job retries with the same Idempotence-Key.
 */
export async function sendRefund(app: FastifyInstance, refundId: number): Promise<string | null> {
  const [r] = await rows<{
    id: number;
    status: string;
    uuid: string | null;
    sum: string | number;
    reason: string;
    idempotence_key: string;
    payment_uuid: string | null;
  }>(
    app.db,
    sql`select r.id, r.status, r.uuid, r.sum, r.reason, r.idempotence_key, p.uuid as payment_uuid from payment_refunds r join payments p on p.id = r.payment_id where r.id = ${refundId}`,
  );
  if (!r) return null;
  if (r.status !== 'pending') return r.status;
  let answer: ProviderRefund;
  try {
    answer = r.uuid
      ? await app.payments.getRefund(r.uuid)
      : await app.payments.createRefund({ paymentId: r.payment_uuid ?? '', amount: Number(r.sum), description: r.reason, idempotenceKey: r.idempotence_key });
  } catch (err) {
    if (err instanceof ProviderError && err.status === 400) {
      app.log.error({ provider: err.logFields, refundId }, 'refund refused by the provider');
      await app.db.transaction(async (tx) => {
        const [moved] = await rows<{ payment_id: number }>(
          tx,
          sql`update payment_refunds set status = 'canceled', error = ${`${err.code ?? ''} ${err.parameter ?? ''} ${err.body.description ?? ''}`.trim().slice(0, 500)}, updated_at = now()
              where id = ${refundId} and status = 'pending' returning payment_id`,
        );
        if (moved)
          await logChange(tx, {
            type: 'payment',
            entityId: moved.payment_id,
            userId: null,
            before: { refund_status: 'pending' },
            after: { refund_status: 'canceled', refund_id: refundId },
          });
      });
      return 'canceled';
    }
    throw err;
  }
  await applyProviderRefund(app, answer, refundId);
  return answer.status;
}

/**
 * Applies what the provider says about a refund (the answer to our call, or the API's answer after
 * a `refund.*` notification): statuses never move back; a success tells the client (letter and
 * notification), and a payment refunded in full leaves its entries unpaid when no other payment
 * covers them (returnEntryToUnpaid; done entries keep their status).
 */
export async function applyProviderRefund(
  app: FastifyInstance,
  answer: ProviderRefund,
  refundId?: number,
): Promise<'unknown' | 'mismatch' | 'unchanged' | 'updated'> {
  return app.db.transaction(async (tx) => {
    const [found] = await rows<{ id: number; payment_id: number }>(
      tx,
      refundId
        ? sql`select id, payment_id from payment_refunds where id = ${refundId}`
        : sql`select id, payment_id from payment_refunds where uuid = ${answer.id}`,
    );
    if (!found) return 'unknown';
    // The payment first, then its refund: the same order as requestRefund.
    const payment = await lockPayment(tx, found.payment_id);
    const [r] = await rows<{
      id: number;
      status: string;
      uuid: string | null;
      sum: string | number;
      reason: string;
      automatic: boolean;
      created_by: number | null;
      entry_action: RefundEntryAction;
    }>(tx, sql`select id, status, uuid, sum, reason, automatic, created_by, entry_action from payment_refunds where id = ${found.id} for update`);
    if (
      !payment ||
      answer.payment_id !== payment.uuid ||
      answer.amount.currency !== 'RUB' ||
      answer.amount.value !== money(Number(r.sum)) ||
      (r.uuid && r.uuid !== answer.id)
    ) {
      app.log.warn(
        { refundId: r.id, theirs: { id: answer.id, payment_id: answer.payment_id, amount: answer.amount } },
        'provider refund does not match our record',
      );
      return 'mismatch';
    }
    if (!r.uuid)
      await tx.execute(sql`update payment_refunds set uuid = ${answer.id}, raw = ${JSON.stringify(answer)}::jsonb, updated_at = now() where id = ${r.id}`);
    if ((REFUND_RANK[answer.status] ?? -1) <= (REFUND_RANK[r.status] ?? 0)) return 'unchanged';
    await tx.execute(
      sql`update payment_refunds set status = ${answer.status}, raw = ${JSON.stringify(answer)}::jsonb, updated_at = now(),
            succeeded_at = case when ${answer.status} = 'succeeded' then now() end where id = ${r.id}`,
    );
    const [{ refunded }] = await rows<{ refunded: string | number }>(
      tx,
      sql`select coalesce(sum(sum), 0) as refunded from payment_refunds where payment_id = ${payment.id} and status = 'succeeded'`,
    );
    await logChange(tx, {
      type: 'payment',
      entityId: payment.id,
      userId: null,
      before: { refund_status: r.status },
      after: {
        refund_status: answer.status,
        refund_id: r.id,
        refunded_sum: Number(refunded),
        ...(answer.cancellation_details ? { refund_cancellation: answer.cancellation_details.reason } : {}),
      },
    });
    if (answer.status !== 'succeeded') return 'updated';

    const entryRows = await rows<{ id: number; number: string; status: number; title: string; package_title: string | null }>(
      tx,
      sql`select e.id, e.number, e.status, s.title, pe2.title as package_title from payment_entries pe join entries e on e.id = pe.entry_id
          join services s on s.id = e.service_id left join package_enrollments pe2 on pe2.id = e.package_enrollment_id
          where pe.payment_id = ${payment.id} order by e.id`,
    );
    await settleEntries(tx, { payment, refund: r, refundedKop: kopecksOf(refunded) });
    if (payment.user_id) {
      const sum = formatRub(Number(r.sum));
      const numbers = entryRows.map((e) => e.number).join(', ');
      const what =
        entryRows.length === 0
          ? 'платёж'
          : entryRows[0].package_title
            ? `оплату пакета услуг «${entryRows[0].package_title}» (заявки № ${numbers})`
            : entryRows.length === 1
              ? `оплату заявки № ${numbers} «${entryRows[0].title}»`
              : `оплату заявок № ${numbers}`;
      await raiseEvent(tx, {
        eventId: EventId.paymentRefunded,
        userId: payment.user_id,
        entryId: entryRows[0]?.id,
        extra: {
          'entry.number': numbers,
          'refund.sum': sum,
          'refund.reason': r.reason,
          'refund.summary': `Мы вернули ${sum} за ${what}.`,
        },
      });
    }
    return 'updated';
  });
}

/** After a `refund.*` notification: asks the API about the refund and applies its answer. */
export async function refreshRefund(app: FastifyInstance, uuid: string): Promise<string> {
  const [known] = await rows<{ id: number }>(app.db, sql`select id from payment_refunds where uuid = ${uuid}`);
  if (!known) return 'unknown';
  try {
    return await applyProviderRefund(app, await app.payments.getRefund(uuid), known.id);
  } catch (err) {
    if (err instanceof ProviderError && err.status === 404) return 'unknown';
    throw err;
  }
}

/** 'send-refund' {refundId}: sends the refund (or asks about it) until the provider settles it. */
export async function sendRefundJob(app: FastifyInstance, { refundId }: JobPayloads['send-refund']) {
  const status = await sendRefund(app, refundId);
  if (status !== 'pending') return;
  const [r] = await rows<{ age_h: number }>(
    app.db,
    sql`select extract(epoch from now() - created_at) / 3600 as age_h from payment_refunds where id = ${refundId}`,
  );
  if (r && r.age_h < REFUND_GIVE_UP_H) return { retryInSeconds: REFUND_RECHECK_S, continuation: true };
}

/**
 * The books after a refund succeeded (docs/decisions/023): its sum is shared out over the payment's
 * entries (their `refunded`, so income is net of it; not for a double payment, whose money never
 * counted), then the entries move as the refund said: «Отменить» makes each paid or done entry
 * «Возврат»; «Оставить» moves nothing for a part, and for a payment refunded in full (an entry no
 * other live payment covers) makes a paid entry payable again and a done one «Возврат», so a fully
 * refunded entry never looks paid. An entry another live payment covers stays as it is. Each move is
 * logged with the refund that made it.
 */
async function settleEntries(
  tx: Queryable,
  o: { payment: LockedPayment; refund: { id: number; sum: string | number; created_by: number | null; entry_action: RefundEntryAction }; refundedKop: number },
): Promise<void> {
  const list = await rows<{ id: number; status: number; share: string | number; covered: boolean }>(
    tx,
    sql`select e.id, e.status, pe.sum as share,
          exists (select 1 from payment_entries other join payments p2 on p2.id = other.payment_id
                  where other.entry_id = e.id and p2.id <> ${o.payment.id}
                    and p2.sum > coalesce((select sum(x.sum) from payment_refunds x where x.payment_id = p2.id and x.status = 'succeeded'), 0)) as covered
        from payment_entries pe join entries e on e.id = pe.entry_id
        where pe.payment_id = ${o.payment.id} order by e.id for update of e`,
  );
  if (!o.payment.is_double) {
    for (const [i, kop] of shareOut(
      kopecksOf(o.refund.sum),
      list.map((e) => kopecksOf(e.share)),
    ).entries()) {
      const e = list[i];
      if (kop > 0 && isPaidStatus(e.status)) await tx.execute(sql`update entries set refunded = refunded + ${rublesText(kop)}::numeric where id = ${e.id}`);
    }
  }
  const reason = LogReasons.refunded(o.refund.id);
  const by = o.refund.created_by;
  const full = o.refundedKop >= kopecksOf(o.payment.sum);
  for (const e of list) {
    // Another payment with money still in it (this one was the double) keeps the entry as it is.
    if (e.covered) continue;
    if (o.refund.entry_action === 'cancel') await cancelEntryByRefund(tx, { entryId: e.id, by, reason });
    else if (full) {
      if (e.status === EntryStatus.paid) {
        await returnEntryToUnpaid(tx, { entryId: e.id, by, reason });
        // The money of a rejected (or deleted) publication came back: nothing is owed for it either (decision 025).
        await cancelIfPublicationTurnedDown(tx, e.id, { by });
      } else await cancelEntryByRefund(tx, { entryId: e.id, by, reason });
    }
  }
}

/** `total` kopecks shared out in proportion to `weights`, exactly (the rounding remainder on the last). */
export function shareOut(total: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const all = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => (all > 0 ? Math.floor((total * w) / all) : 0));
  shares[shares.length - 1] += total - shares.reduce((a, b) => a + b, 0);
  return shares;
}
