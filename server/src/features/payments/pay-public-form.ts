import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { Messages } from '@edu/domain/common/messages';
import { kopecksOf, rublesOf } from '@edu/domain/common/money';
import { PaymentMessages, type publicPayAnswer, type publicPayBody } from '@edu/domain/payments/payment';
import { takeAttempt } from '../../platform/attempts.ts';
import { AppError } from '../../platform/errors.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { providerFailure, RECONCILE_AFTER_S } from './payment-rules.ts';
import { findCardTransactionByKey, insertPublicCardTransaction, setCardTransactionPayment } from './payments-repository.ts';

/**
 * POST /api/yookassa-entry/pay (the public form, no login): a payment of `sum` from `fio`, `phone`.
 * The page sends one key per submitted form: a repeat of it continues the same payment, a key reused
 * with other data is refused. New payments are limited per address (`ip`).
 */
export async function payPublicForm(app: FastifyInstance, form: z.output<typeof publicPayBody>, ip: string): Promise<z.output<typeof publicPayAnswer>> {
  const { fio, phone, key: formKey } = form;
  const sum = rublesOf(form.sum);
  const idempotenceKey = formKey?.toLowerCase() ?? randomUUID();
  let ct = await findCardTransactionByKey(app.db, idempotenceKey);
  if (ct && (ct.user_id !== null || ct.fio !== fio || ct.phone !== phone || kopecksOf(ct.sum) !== form.sum)) {
    throw new AppError(422, PaymentMessages.formKeyReused, { errors: { key: [PaymentMessages.formKeyReused] } });
  }
  if (ct?.uuid && ct.confirmation_url) return { id: ct.uuid, confirmation: { confirmation_url: ct.confirmation_url } };
  if (!ct) {
    if (!(await takeAttempt(app.db, `public-pay:${ip}`, 20, 15))) throw new AppError(429, Messages.tooManyRequests);
    ct = await insertPublicCardTransaction(app.db, {
      provider: app.config.yookassa.sandbox ? 'sandbox' : 'yookassa',
      idempotenceKey,
      sum,
      description: `Оплата от ${fio}`,
      fio,
      phone,
    });
  }
  let p;
  try {
    p = await app.payments.createPayment({
      amount: sum,
      description: `Оплата услуг учебного центра: ${fio}`,
      returnUrl: `${app.config.appUrl}/pay?paid=${ct.id}`,
      metadata: { card_transaction_id: String(ct.id) },
      idempotenceKey: ct.idempotence_key,
      receipt: app.config.yookassa.receipt ? { phone, items: [{ description: 'Оплата услуг учебного центра', amount: sum }] } : undefined,
    });
  } catch (err) {
    throw providerFailure(app, err, { cardTransactionId: ct.id });
  }
  await setCardTransactionPayment(app.db, ct.id, {
    uuid: p.id,
    confirmationUrl: p.confirmation?.confirmation_url ?? null,
    raw: p as unknown as Record<string, unknown>,
  });
  await scheduleJob(app.db, 'reconcile-payment', { uuid: p.id }, { runAt: new Date(Date.now() + RECONCILE_AFTER_S * 1000), uniqueKey: p.id });
  if (!p.confirmation?.confirmation_url) throw new AppError(503, PaymentMessages.providerUnavailable);
  return { id: p.id, confirmation: { confirmation_url: p.confirmation.confirmation_url } };
}
