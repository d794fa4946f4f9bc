import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { LogReasons } from '@edu/domain/logs/log';
import { EntryStatus, EventId } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages, type RefundAnswer, type RefundBody } from '@edu/domain/payments/payment';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { scheduleJob, type JobPayloads } from '../../platform/jobs.ts';
import { money, ProviderError, type ProviderRefund } from '../../platform/payments/yookassa-client.ts';
import { returnEntryToUnpaid } from '../entries/entry-status.ts';
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
  /** What is left to refund: the sum less refunds done or in progress. */
  left: string | number;
}

async function lockPayment(tx: Queryable, paymentId: number): Promise<LockedPayment | undefined> {
  const [p] = await rows<LockedPayment>(
    tx,
    sql`select p.id, p.uuid, p.sum, p.card_transaction_id, p.user_id,
          p.sum - coalesce((select sum(r.sum) from payment_refunds r where r.payment_id = p.id and r.status in ('pending', 'succeeded')), 0) as left
        from payments p where p.id = ${paymentId} for update`,
  );
  return p;
}

/** Inserts a refund and its durable 'send-refund' job in the caller's transaction (the payment row locked), and logs it. */
async function insertRefundIn(
  tx: Queryable,
  o: { paymentId: number; sum: number; reason: string; automatic: boolean; by: number | null; key: string },
): Promise<number> {
  const [r] = await rows<{ id: number }>(
    tx,
    sql`insert into payment_refunds (payment_id, idempotence_key, status, sum, reason, automatic, created_by)
        values (${o.paymentId}, ${o.key}, 'pending', ${o.sum}, ${o.reason}, ${o.automatic}, ${o.by}) returning id`,
  );
  await logChange(tx, {
    type: 'payment',
    entityId: o.paymentId,
    userId: o.by,
    before: { refund: null },
    after: { refund: { id: r.id, sum: o.sum, reason: o.reason, automatic: o.automatic } },
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
  if (!payment || Number(payment.left) <= 0) return null;
  return insertRefundIn(tx, {
    paymentId: o.paymentId,
    sum: o.sum,
    reason: PaymentMessages.doubleRefundReason,
    automatic: true,
    by: null,
    key: `refund-${o.uuid}`.slice(0, 64),
  });
}

/**
 * POST /api/payment/{id}/refund: an operator refunds an online payment, whole or in part (at most
 * what is left), with a reason. The form's key makes a repeated click continue the same refund.
 */
export async function requestRefund(
  app: FastifyInstance,
  by: AuthUser,
  paymentId: number,
  body: RefundBody & { sum: number; reason: string },
): Promise<RefundAnswer> {
  const refundId = await app.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment) throw notFound(PaymentMessages.notFound);
    if (body.key) {
      const [same] = await rows<{ id: number; payment_id: number; sum: string | number; reason: string }>(
        tx,
        sql`select id, payment_id, sum, reason from payment_refunds where idempotence_key = ${body.key.toLowerCase()}`,
      );
      if (same) {
        if (same.payment_id !== paymentId || Math.round(Number(same.sum) * 100) !== Math.round(body.sum * 100) || same.reason !== body.reason) {
          throw new AppError(422, PaymentMessages.refundKeyReused, { errors: { key: [PaymentMessages.refundKeyReused] } });
        }
        return same.id;
      }
    }
    if (!payment.uuid || !payment.card_transaction_id) throw new AppError(422, PaymentMessages.refundOnlyOnline, { errors: {} });
    const leftKop = Math.round(Number(payment.left) * 100);
    if (leftKop <= 0) throw new AppError(422, PaymentMessages.refundNothingLeft, { errors: { sum: [PaymentMessages.refundNothingLeft] } });
    if (Math.round(body.sum * 100) > leftKop) {
      const message = PaymentMessages.refundSumTooBig(formatRub(leftKop / 100));
      throw new AppError(422, message, { errors: { sum: [message] } });
    }
    return insertRefundIn(tx, { paymentId, sum: body.sum, reason: body.reason, automatic: false, by: by.id, key: body.key?.toLowerCase() ?? randomUUID() });
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
    }>(tx, sql`select id, status, uuid, sum, reason, automatic, created_by from payment_refunds where id = ${found.id} for update`);
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
    await tx.execute(sql`update payment_refunds set status = ${answer.status}, raw = ${JSON.stringify(answer)}::jsonb, updated_at = now() where id = ${r.id}`);
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
    if (Math.round(Number(refunded) * 100) >= Math.round(Number(payment.sum) * 100)) {
      // Refunded in full: an entry no other live payment covers is not paid any more.
      const uncovered = await rows<{ id: number }>(
        tx,
        sql`select e.id from payment_entries pe join entries e on e.id = pe.entry_id
            where pe.payment_id = ${payment.id} and e.status = ${EntryStatus.paid}
              and not exists (select 1 from payment_entries o join payments p2 on p2.id = o.payment_id
                              where o.entry_id = e.id and p2.id <> ${payment.id}
                                and p2.sum > coalesce((select sum(x.sum) from payment_refunds x where x.payment_id = p2.id and x.status = 'succeeded'), 0))
            order by e.id`,
      );
      for (const e of uncovered) {
        await returnEntryToUnpaid(tx, { entryId: e.id, by: r.created_by, reason: LogReasons.refunded(r.id) });
        // The money of a rejected (or deleted) publication came back: nothing is owed for it either (decision 025).
        await cancelIfPublicationTurnedDown(tx, e.id, { by: r.created_by });
      }
    }
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
