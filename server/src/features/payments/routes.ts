import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { filterText, idParams } from '@edu/domain/common/bounds';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { EntryMessages } from '@edu/domain/entries/entry';
import { cardTransactionListQuery, payEntryBody, paymentListQuery, PaymentMessages, publicPayBody, refundBody } from '@edu/domain/payments/payment';
import { cardTransactions, entries } from '../../db/schema/index.ts';
import { isOperator } from '../../platform/access.ts';
import { currentUser } from '../../platform/auth.ts';
import { entryOwnerFilter } from '../entries/entry-policy.ts';
import { cardTransactionOwnerFilter } from './card-transaction-policy.ts';
import { takeAttempt } from '../../platform/attempts.ts';
import { rows } from '../../platform/db.ts';
import { AppError, errorForLog, fieldError, notFound } from '../../platform/errors.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { sendXlsx } from '../../platform/xlsx-reply.ts';
import { payEntry, providerFailure, RECONCILE_AFTER_S, refreshPayment } from './payment-rules.ts';
import { ProviderError } from '../../platform/payments/yookassa-client.ts';
import { listCardTransactions, listPayments, paymentsTotals, type PaymentFilters } from './payments-repository.ts';
import { paymentsExport } from './payments-excel.ts';
import { refreshRefund, requestRefund } from './refund-rules.ts';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';

/** A provider payment id: YooKassa's are UUID-like; nothing that could walk a URL path ('..', '/'). */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const paymentRoutes: RoutesPlugin = async (app) => {
  /** POST /api/entry/{id}/pay {pay_type for operators: 1, 2 or 4}: answers {id, confirmation: {confirmation_url}} or, when paid at once, {id, status: 2, immediate: true}. */
  app.post(
    '/entry/:id/pay',
    { config: { access: { owner: 'entry' } }, schema: { tags: ['payments'], params: idParams, body: payEntryBody } },
    async (request) => payEntry(app, currentUser(request), request.params.id, { payType: request.body?.pay_type }),
  );

  /** POST /api/entry/{id}/set-payment-uuid {uuid}: only a provider payment that covers this entry. */
  app.post(
    '/entry/:id/set-payment-uuid',
    {
      config: { access: { owner: 'entry' } },
      schema: { tags: ['payments'], params: idParams, body: z.object({ uuid: filterText(64).pipe(z.string().min(1)) }) },
    },
    async (request) => {
      const me = currentUser(request);
      const owner = entryOwnerFilter(me);
      const [entry] = await rows<{ id: number }>(app.db, sql`select id from entries where id = ${request.params.id} and ${owner}`);
      if (!entry) throw notFound(EntryMessages.entryNotFound);
      const [ct] = await rows<{ id: number }>(
        app.db,
        sql`select id from card_transactions where uuid = ${request.body.uuid} and entry_ids @> ${JSON.stringify([entry.id])}::jsonb`,
      );
      if (!ct) throw fieldError('uuid', 'Платёж не найден');
      await app.db
        .update(entries)
        .set({ payment_uuid: request.body.uuid })
        .where(sql`id = ${entry.id}`);
      return { message: Messages.saved };
    },
  );

  /**
   * POST /api/yookassa/webhook: the body is only a hint. We fetch the payment (or, for `refund.*`
   * events, the refund) from the provider's API and act on what it says; unknown ones change nothing.
   * Always 200 so the provider stops retrying.
   */
  app.post(
    '/yookassa/webhook',
    {
      config: { access: 'public' },
      schema: {
        tags: ['payments'],
        body: z
          .object({
            event: z.string().max(64).optional(),
            object: z.object({ id: z.string().regex(PROVIDER_ID, { error: 'Некорректный идентификатор платежа' }) }).loose(),
          })
          .loose(),
      },
    },
    async (request) => {
      try {
        const id = request.body.object.id;
        const result = request.body.event?.startsWith('refund.') ? await refreshRefund(app, id) : await refreshPayment(app, id);
        return { ok: true, result };
      } catch (err) {
        request.log.error({ err: err instanceof ProviderError ? err.logFields : errorForLog(err) }, 'webhook handling failed');
        throw new AppError(500, Messages.serverError);
      }
    },
  );

  /** POST /api/yookassa/{cardTransactionId}/refresh: the return page asks, so it does not wait for the webhook. */
  app.post(
    '/yookassa/:id/refresh',
    { config: { access: { owner: 'card_transaction' } }, schema: { tags: ['payments'], params: idParams } },
    async (request) => {
      const me = currentUser(request);
      const owner = cardTransactionOwnerFilter(me);
      const [ct] = await rows<{ uuid: string | null }>(app.db, sql`select uuid from card_transactions where id = ${request.params.id} and ${owner}`);
      if (!ct) throw notFound();
      if (ct.uuid) {
        try {
          await refreshPayment(app, ct.uuid);
        } catch (err) {
          request.log.warn({ err: err instanceof ProviderError ? err.logFields : errorForLog(err) }, 'payment refresh failed');
          // The stored status is still the truth we have; the webhook or the reconcile job will catch up.
        }
      }
      const [after] = await rows<{ status: string }>(app.db, sql`select status from card_transactions where id = ${request.params.id}`);
      return { data: { status: after.status } };
    },
  );

  /** POST /api/yookassa-entry/pay {fio, phone, sum}: the public form, no login. */
  app.post('/yookassa-entry/pay', { config: { access: 'public' }, schema: { tags: ['payments'], body: z.unknown() } }, async (request) => {
    const parsed = publicPayBody.safeParse(request.body);
    if (!parsed.success) throw new AppError(422, PaymentMessages.fillAll, { errors: fieldErrorsFromZod(parsed.error) });
    if (!app.config.yookassa.enabled) throw new AppError(422, PaymentMessages.paymentsOff, { errors: {} });
    const { fio, phone, sum, key: formKey } = parsed.data;
    // The page sends one key per submitted form: a repeat of it continues the same payment.
    const idempotenceKey = formKey?.toLowerCase() ?? randomUUID();
    let [ct] = await app.db
      .select()
      .from(cardTransactions)
      .where(sql`idempotence_key = ${idempotenceKey}`);
    if (ct && (ct.user_id !== null || ct.fio !== fio || ct.phone !== phone || Number(ct.sum) !== sum)) {
      throw new AppError(422, PaymentMessages.formKeyReused, { errors: { key: [PaymentMessages.formKeyReused] } });
    }
    if (ct?.uuid && ct.confirmation_url) return { id: ct.uuid, confirmation: { confirmation_url: ct.confirmation_url } };
    if (!ct) {
      if (!(await takeAttempt(app.db, `public-pay:${request.ip}`, 20, 15))) throw new AppError(429, Messages.tooManyRequests);
      const inserted = await app.db
        .insert(cardTransactions)
        .values({
          provider: app.config.yookassa.sandbox ? 'sandbox' : 'yookassa',
          idempotence_key: idempotenceKey,
          status: 'pending',
          sum,
          description: `Оплата от ${fio}`,
          fio,
          phone,
        })
        .onConflictDoNothing()
        .returning();
      [ct] = inserted.length
        ? inserted
        : await app.db
            .select()
            .from(cardTransactions)
            .where(sql`idempotence_key = ${idempotenceKey}`);
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
    await app.db
      .update(cardTransactions)
      .set({ uuid: p.id, confirmation_url: p.confirmation?.confirmation_url ?? null, raw: p as unknown as Record<string, unknown> })
      .where(sql`id = ${ct.id}`);
    await scheduleJob(app.db, 'reconcile-payment', { uuid: p.id }, { runAt: new Date(Date.now() + RECONCILE_AFTER_S * 1000), uniqueKey: p.id });
    if (!p.confirmation?.confirmation_url) throw new AppError(503, PaymentMessages.providerUnavailable);
    return { id: p.id, confirmation: { confirmation_url: p.confirmation.confirmation_url } };
  });

  /**
   * POST /api/yookassa-entry/{id}/refresh: the public /pay return page asks what became of its
   * payment (paid, cancelled, still processing). Only payments of the public form, and only their
   * status: nothing personal is answered.
   */
  app.post('/yookassa-entry/:id/refresh', { config: { access: 'public' }, schema: { tags: ['payments'], params: idParams } }, async (request) => {
    const [ct] = await rows<{ uuid: string | null }>(
      app.db,
      sql`select uuid from card_transactions where id = ${request.params.id} and user_id is null and fio is not null`,
    );
    if (!ct) throw notFound(PaymentMessages.notFound);
    if (ct.uuid) await refreshPayment(app, ct.uuid).catch((err: unknown) => request.log.warn({ err }, 'public payment refresh failed'));
    const [after] = await rows<{ status: string }>(app.db, sql`select status from card_transactions where id = ${request.params.id}`);
    return { data: { status: after.status } };
  });

  /** GET /api/payment: operators see all payments; a user sees their own (the Payments tab). */
  app.get('/payment', { config: { access: 'user' }, schema: { tags: ['payments'], querystring: paymentListQuery } }, async (request) => {
    const me = currentUser(request);
    const operator = isOperator(me);
    const filters = paymentFilters(request.query, operator ? undefined : me.id);
    const [page, totals] = await Promise.all([listPayments(app.db, filters, request.query), paymentsTotals(app.db, filters)]);
    // The provider's back-office link is for operators only.
    return operator ? { ...page, totals } : { ...page, totals, data: page.data.map((p) => ({ ...p, provider_url: null })) };
  });
};

/** The list's filters as the repository takes them; a user's own payments only (`userId`), an operator's any. */
function paymentFilters(q: z.output<typeof paymentListQuery>, userId?: number): PaymentFilters {
  return {
    userId: userId ?? q.user_id,
    entry_number: q.entry_number,
    fio: userId ? undefined : q.fio,
    serviceType: q.serviceType,
    serviceTitle: q.serviceTitle,
    sum: q.sum,
    payType: q.payType,
    uuid: q.uuid,
    state: q.state,
    created_at: q.created_at || undefined,
    date_from: q.date_from,
    date_to: q.date_to,
    sort: q.sort,
  };
}

/** Operator-only payment calls; registered in the operator scope (app.ts), which guards them. */
export const paymentOperatorRoutes: RoutesPlugin = async (app) => {
  /** GET /api/payment/excel: the payments the list's filters choose, as .xlsx with a totals row (streamed). */
  app.get('/payment/excel', { schema: { tags: ['payments'], querystring: paymentListQuery } }, async (request, reply) => {
    const day = new Date().toISOString().slice(0, 10);
    return sendXlsx(request, reply, { name: `Платежи ${day}.xlsx`, asciiName: `payments-${day}.xlsx` }, paymentsExport(app.db, paymentFilters(request.query)));
  });

  /** GET /api/yookassa: card-provider transactions, operators only. */
  app.get('/yookassa', { schema: { tags: ['payments'], querystring: cardTransactionListQuery } }, async (request) => {
    const q = request.query;
    return listCardTransactions(
      app.db,
      {
        status: q.status,
        uuid: q.uuid,
        entry_number: q.entry_number,
        fio: q.fio,
        withoutUser: q.isWithoutUser === '1' || q.isWithoutUser === 'true',
        serviceType: q.serviceType,
        serviceTitle: q.serviceTitle,
        sum: q.sum,
      },
      q,
    );
  });

  /**
   * POST /api/payment/{id}/refund {sum, reason, key}: an operator refunds an online payment through
   * the provider, whole or in part; logged in the change log; the client gets a letter and a notification.
   */
  app.post('/payment/:id/refund', { schema: { tags: ['payments'], params: idParams, body: refundBody } }, async (request) =>
    requestRefund(app, currentUser(request), request.params.id, request.body),
  );
};
