import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { pageMeta } from '@edu/domain/common/pagination';
import { EntryMessages } from '@edu/domain/entries/entry';
import { cardTransactionListQuery, paymentListQuery, PaymentMessages, publicPayBody } from '@edu/domain/payments/payment';
import { cardTransactions, entries } from '../../db/schema/index.ts';
import { currentUser } from '../../platform/auth.ts';
import { attemptsIn, recordAttempt } from '../../platform/attempts.ts';
import { rows } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { payEntry, RECONCILE_AFTER_S, refreshPayment } from './payment-rules.ts';
import { incomeByMonth, listCardTransactions, listPayments } from './payments-repository.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  /** POST /api/entry/{id}/pay: answers {id, confirmation: {confirmation_url}} or, when paid at once, {id, status: 2, immediate: true}. */
  app.post(
    '/entry/:id/pay',
    { onRequest: app.requireUser, schema: { tags: ['payments'], params: idParams, body: z.object({ immediate: z.unknown().optional() }).loose().nullish() } },
    async (request) => payEntry(app, currentUser(request), request.params.id),
  );

  /** POST /api/entry/{id}/set-payment-uuid {uuid}: only a provider payment that covers this entry. */
  app.post(
    '/entry/:id/set-payment-uuid',
    { onRequest: app.requireUser, schema: { tags: ['payments'], params: idParams, body: z.object({ uuid: z.string().trim().min(1).max(64) }) } },
    async (request) => {
      const me = currentUser(request);
      const owner = me.role === Role.operator ? sql`true` : sql`created_by = ${me.id}`;
      const [entry] = await rows<{ id: number }>(app.db, sql`select id from entries where id = ${request.params.id} and ${owner}`);
      if (!entry) throw notFound(EntryMessages.entryNotFound);
      const [ct] = await rows<{ id: number }>(
        app.db,
        sql`select id from card_transactions where uuid = ${request.body.uuid} and entry_ids @> ${JSON.stringify([entry.id])}::jsonb`,
      );
      if (!ct) throw fieldError('uuid', 'Платёж не найден');
      await app.db.update(entries).set({ payment_uuid: request.body.uuid }).where(sql`id = ${entry.id}`);
      return { message: Messages.saved };
    },
  );

  /**
   * POST /api/yookassa/webhook: the body is only a hint. We fetch the payment from the provider's API
   * and act on what it says; unknown payments change nothing. Always 200 so the provider stops retrying.
   */
  app.post('/yookassa/webhook', { schema: { tags: ['payments'], body: z.object({ object: z.object({ id: z.string().max(64) }).loose() }).loose() } }, async (request) => {
    try {
      const result = await refreshPayment(app, request.body.object.id);
      return { ok: true, result };
    } catch (err) {
      request.log.error({ err }, 'webhook handling failed');
      throw new AppError(500, Messages.serverError);
    }
  });

  /** POST /api/yookassa/{cardTransactionId}/refresh: the return page asks, so it does not wait for the webhook. */
  app.post('/yookassa/:id/refresh', { onRequest: app.requireUser, schema: { tags: ['payments'], params: idParams } }, async (request) => {
    const me = currentUser(request);
    const owner = me.role === Role.operator ? sql`true` : sql`(user_id = ${me.id} or created_by = ${me.id})`;
    const [ct] = await rows<{ uuid: string | null }>(app.db, sql`select uuid from card_transactions where id = ${request.params.id} and ${owner}`);
    if (!ct) throw notFound();
    if (ct.uuid) await refreshPayment(app, ct.uuid);
    const [after] = await rows<{ status: string }>(app.db, sql`select status from card_transactions where id = ${request.params.id}`);
    return { data: { status: after.status } };
  });

  /** POST /api/yookassa-entry/pay {fio, phone, sum}: the public form, no login. */
  app.post('/yookassa-entry/pay', { schema: { tags: ['payments'], body: z.unknown() } }, async (request) => {
    const parsed = publicPayBody.safeParse(request.body);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const i of parsed.error.issues) (errors[String(i.path[0] ?? '_')] ??= []).push(i.message);
      throw new AppError(422, PaymentMessages.fillAll, { errors });
    }
    const key = `public-pay:${request.ip}`;
    if ((await attemptsIn(app.db, key, 15)) >= 20) throw new AppError(429, Messages.tooManyRequests);
    await recordAttempt(app.db, key, 15);
    const { fio, phone, sum } = parsed.data;
    const [ct] = await app.db
      .insert(cardTransactions)
      .values({ provider: app.config.yookassa.sandbox ? 'sandbox' : 'yookassa', idempotence_key: randomUUID(), status: 'pending', sum, description: `Оплата от ${fio}`, fio, phone })
      .returning();
    try {
      const p = await app.payments.createPayment({
        amount: sum,
        description: `Оплата услуг учебного центра: ${fio}`,
        returnUrl: `${app.config.appUrl}/pay?paid=${ct.id}`,
        metadata: { card_transaction_id: String(ct.id) },
        idempotenceKey: ct.idempotence_key,
        receipt: app.config.yookassa.receipt ? { phone, items: [{ description: 'Оплата услуг учебного центра', amount: sum }] } : undefined,
      });
      await app.db.update(cardTransactions).set({ uuid: p.id, confirmation_url: p.confirmation?.confirmation_url ?? null, raw: p as unknown as Record<string, unknown> }).where(sql`id = ${ct.id}`);
      await scheduleJob(app.db, 'reconcile-payment', { uuid: p.id }, { runAt: new Date(Date.now() + RECONCILE_AFTER_S * 1000), uniqueKey: p.id });
      if (!p.confirmation?.confirmation_url) throw new Error('no confirmation url');
      return { id: p.id, confirmation: { confirmation_url: p.confirmation.confirmation_url } };
    } catch (err) {
      request.log.error({ err }, 'public payment failed');
      throw new AppError(502, Messages.paymentFailed);
    }
  });

  /** GET /api/payment: operators see all payments; a user sees their own (the Payments tab). */
  app.get('/payment', { onRequest: app.requireUser, schema: { tags: ['payments'], querystring: paymentListQuery } }, async (request) => {
    const me = currentUser(request);
    const q = request.query;
    const isOperator = me.role === Role.operator;
    const { data, total } = await listPayments(
      app.db,
      {
        userId: isOperator ? q.user_id : me.id,
        entry_number: q.entry_number,
        fio: isOperator ? q.fio : undefined,
        serviceType: q.serviceType,
        serviceTitle: q.serviceTitle,
        sum: q.sum,
        payType: q.payType,
        uuid: q.uuid,
        created_at: q.created_at || undefined,
      },
      q,
    );
    // The provider's back-office link is for operators only.
    return { data: isOperator ? data : data.map((p) => ({ ...p, provider_url: null })), meta: pageMeta(total, q) };
  });

  /** GET /api/payment/statistics: income per month (rubles). */
  app.get('/payment/statistics', { onRequest: app.requireOperator, schema: { tags: ['payments'] } }, async () => incomeByMonth(app.db));

  /** GET /api/yookassa: card-provider transactions, operators only. */
  app.get('/yookassa', { onRequest: app.requireOperator, schema: { tags: ['payments'], querystring: cardTransactionListQuery } }, async (request) => {
    const q = request.query;
    const { data, total } = await listCardTransactions(
      app.db,
      { status: q.status, uuid: q.uuid, entry_number: q.entry_number, fio: q.fio, withoutUser: q.isWithoutUser === '1' || q.isWithoutUser === 'true', serviceType: q.serviceType, serviceTitle: q.serviceTitle, sum: q.sum },
      q,
    );
    return { data, meta: pageMeta(total, q) };
  });

};
