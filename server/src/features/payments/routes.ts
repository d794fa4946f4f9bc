import { z } from 'zod';
import { filterText, idParams } from '@edu/domain/common/bounds';
import { fileAnswer, parsedBody, XLSX_TYPE, type RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { EntryMessages } from '@edu/domain/entries/entry';
import {
  cardTransactionListQuery,
  cardTransactionsAnswer,
  cardTransactionStatusAnswer,
  payEntryAnswer,
  payEntryBody,
  paymentListQuery,
  PaymentMessages,
  paymentsAnswer,
  paymentUuidSetAnswer,
  publicPayAnswer,
  publicPayBody,
  refundAnswer,
  refundBody,
  webhookAnswer,
} from '@edu/domain/payments/payment';
import { isOperator } from '../../platform/access.ts';
import { currentUser } from '../../platform/auth.ts';
import { entryOwnerFilter } from '../entries/entry-policy.ts';
import { cardTransactionOwnerFilter } from './card-transaction-policy.ts';
import { AppError, errorForLog, fieldError, notFound } from '../../platform/errors.ts';
import { sendXlsx } from '../../platform/xlsx-reply.ts';
import { payEntry, refreshPayment } from './payment-rules.ts';
import { payPublicForm } from './pay-public-form.ts';
import { ProviderError } from '../../platform/payments/yookassa-client.ts';
import {
  cardTransactionCoversEntry,
  cardTransactionStatus,
  listCardTransactions,
  listPayments,
  paymentsTotals,
  publicCardTransaction,
  reachableCardTransaction,
  reachableEntryId,
  setEntryPaymentUuid,
  type PaymentFilters,
} from './payments-repository.ts';
import { paymentsExport } from './payments-excel.ts';
import { refreshRefund, requestRefund } from './refund-rules.ts';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';

/** A provider payment id: YooKassa's are UUID-like; nothing that could walk a URL path ('..', '/'). */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const paymentRoutes: RoutesPlugin = async (app) => {
  /** POST /api/entry/{id}/pay {pay_type for operators: 1, 2 or 4}: answers {id, confirmation: {confirmation_url}} or, when paid at once, {id, status: 2, immediate: true}. */
  app.post(
    '/entry/:id/pay',
    {
      // 503: the payment provider unreachable or misconfigured; 502: it gave no confirmation address.
      config: { access: { owner: 'entry' }, refuses: [502, 503] },
      schema: {
        tags: ['payments'],
        summary: 'Оплатить заявку или отметить её оплаченной (оператор)',
        params: idParams,
        body: payEntryBody,
        response: { 200: payEntryAnswer },
      },
    },
    async (request) => payEntry(app, currentUser(request), request.params.id, { payType: request.body?.pay_type }),
  );

  /** POST /api/entry/{id}/set-payment-uuid {uuid}: only a provider payment that covers this entry. */
  app.post(
    '/entry/:id/set-payment-uuid',
    {
      config: { access: { owner: 'entry' } },
      schema: {
        tags: ['payments'],
        summary: 'Привязать к заявке платёж ЮKassa по UUID',
        params: idParams,
        body: z.object({ uuid: filterText(64).pipe(z.string().min(1)) }),
        response: { 200: paymentUuidSetAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const entryId = await reachableEntryId(app.db, request.params.id, entryOwnerFilter(me));
      if (entryId === null) throw notFound(EntryMessages.entryNotFound);
      if (!(await cardTransactionCoversEntry(app.db, request.body.uuid, entryId))) throw fieldError('uuid', 'Платёж не найден');
      await setEntryPaymentUuid(app.db, entryId, request.body.uuid);
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
        summary: 'Уведомление ЮKassa о платеже или возврате',
        body: z
          .object({
            event: z.string().max(64).optional(),
            object: z.object({ id: z.string().regex(PROVIDER_ID, { error: 'Некорректный идентификатор платежа' }) }).loose(),
          })
          .loose(),
        response: { 200: webhookAnswer },
      },
    },
    async (request) => {
      try {
        const id = request.body.object.id;
        const result = request.body.event?.startsWith('refund.') ? await refreshRefund(app, id) : await refreshPayment(app, id);
        return { ok: true as const, result };
      } catch (err) {
        request.log.error({ err: err instanceof ProviderError ? err.logFields : errorForLog(err) }, 'webhook handling failed');
        throw new AppError(500, Messages.serverError);
      }
    },
  );

  /** POST /api/yookassa/{cardTransactionId}/refresh: the return page asks, so it does not wait for the webhook. */
  app.post(
    '/yookassa/:id/refresh',
    {
      config: { access: { owner: 'card_transaction' } },
      schema: {
        tags: ['payments'],
        summary: 'Уточнить у ЮKassa статус платежа картой',
        params: idParams,
        response: { 200: cardTransactionStatusAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const ct = await reachableCardTransaction(app.db, request.params.id, cardTransactionOwnerFilter(me));
      if (!ct) throw notFound();
      if (ct.uuid) {
        try {
          await refreshPayment(app, ct.uuid);
        } catch (err) {
          request.log.warn({ err: err instanceof ProviderError ? err.logFields : errorForLog(err) }, 'payment refresh failed');
          // The stored status is still the truth we have; the webhook or the reconcile job will catch up.
        }
      }
      return { data: { status: await cardTransactionStatus(app.db, request.params.id) } };
    },
  );

  /** POST /api/yookassa-entry/pay {fio, phone, sum}: the public form, no login. */
  app.post(
    '/yookassa-entry/pay',
    {
      config: { access: 'public', refuses: [429, 503] },
      schema: { tags: ['payments'], summary: 'Оплатить по публичной форме без входа', form: parsedBody(publicPayBody), response: { 200: publicPayAnswer } },
    },
    async (request) => {
      const parsed = publicPayBody.safeParse(request.body);
      if (!parsed.success) throw new AppError(422, PaymentMessages.fillAll, { errors: fieldErrorsFromZod(parsed.error) });
      if (!app.config.yookassa.enabled) throw new AppError(422, PaymentMessages.paymentsOff, { errors: {} });
      return payPublicForm(app, parsed.data, request.ip);
    },
  );

  /**
   * POST /api/yookassa-entry/{id}/refresh: the public /pay return page asks what became of its
   * payment (paid, cancelled, still processing). Only payments of the public form, and only their
   * status: nothing personal is answered.
   */
  app.post(
    '/yookassa-entry/:id/refresh',
    {
      config: { access: 'public' },
      schema: { tags: ['payments'], summary: 'Статус платежа по публичной форме оплаты', params: idParams, response: { 200: cardTransactionStatusAnswer } },
    },
    async (request) => {
      const ct = await publicCardTransaction(app.db, request.params.id);
      if (!ct) throw notFound(PaymentMessages.notFound);
      if (ct.uuid) await refreshPayment(app, ct.uuid).catch((err: unknown) => request.log.warn({ err }, 'public payment refresh failed'));
      return { data: { status: await cardTransactionStatus(app.db, request.params.id) } };
    },
  );

  /** GET /api/payment: operators see all payments; a user sees their own (the Payments tab). */
  app.get(
    '/payment',
    {
      config: { access: 'user' },
      schema: { tags: ['payments'], summary: 'Список платежей с фильтрами', querystring: paymentListQuery, response: { 200: paymentsAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      const operator = isOperator(me);
      const filters = paymentFilters(request.query, operator ? undefined : me.id);
      const [page, totals] = await Promise.all([listPayments(app.db, filters, request.query), paymentsTotals(app.db, filters)]);
      // The provider's back-office link is for operators only.
      return operator ? { ...page, totals } : { ...page, totals, data: page.data.map((p) => ({ ...p, provider_url: null })) };
    },
  );
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
  app.get(
    '/payment/excel',
    {
      schema: {
        tags: ['payments'],
        summary: 'Выгрузка платежей в Excel (.xlsx)',
        querystring: paymentListQuery,
        response: { 200: fileAnswer('Платежи, .xlsx', XLSX_TYPE) },
      },
    },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return sendXlsx(
        request,
        reply,
        { name: `Платежи ${day}.xlsx`, asciiName: `payments-${day}.xlsx` },
        paymentsExport(app.db, paymentFilters(request.query)),
      );
    },
  );

  /** GET /api/yookassa: card-provider transactions, operators only. */
  app.get(
    '/yookassa',
    {
      schema: { tags: ['payments'], summary: 'Операции ЮKassa с фильтрами', querystring: cardTransactionListQuery, response: { 200: cardTransactionsAnswer } },
    },
    async (request) => {
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
    },
  );

  /**
   * POST /api/payment/{id}/refund {sum, reason, key}: an operator refunds an online payment through
   * the provider, whole or in part; logged in the change log; the client gets a letter and a notification.
   */
  app.post(
    '/payment/:id/refund',
    {
      schema: {
        tags: ['payments'],
        summary: 'Вернуть платёж ЮKassa полностью или частично',
        params: idParams,
        body: refundBody,
        response: { 200: refundAnswer },
      },
    },
    async (request) => requestRefund(app, currentUser(request), request.params.id, request.body),
  );
};
