import { z } from 'zod';
import { moneyField, optionalMoneyField } from '../common/money.ts';
import { BoundMessages, DATE_RANGE_BACKWARDS, dateRangeProblem, filterText, idField, ruDateField } from '../common/bounds.ts';
import { Messages } from '../common/messages.ts';
import { phoneField } from '../auth/register.ts';
import { pageQuery, sortParam } from '../common/pagination.ts';
import { dataAnswer, isoTimestamp, messageAnswer, pageAnswer } from '../common/answers.ts';

export const PaymentMessages = {
  confirmPaid: 'Вы уверены, что хотите отметить заявку оплаченной?',
  yes: 'ДА',
  no: 'НЕТ',
  failed: Messages.paymentFailed,
  fillAll: 'Введите все поля!',
  fillAllBanner: 'Пожалуйста, введите все поля!',
  // The /pay return page (ours: the spec gives no text).
  notFound: 'Платёж не найден',
  resultPaid: 'Спасибо! Оплата прошла успешно.',
  resultCanceled: 'Оплата отменена, деньги не списаны.',
  resultPending: 'Платёж ещё обрабатывается.',
  alreadyPaid: 'Заявка уже оплачена',
  entryRefunded: 'Заявка отменена, оплата возвращена. Чтобы участвовать снова, подайте новую заявку.',
  awaitingProvider: 'Ожидается ответ платёжной системы',
  packageLabel: 'Пакет услуг',
  // Ours, where the spec gives no text.
  markPaidTitle: 'Отметить заявку оплаченной',
  markPaidButton: 'Отметить оплату',
  chooseOfflinePayType: 'Выберите способ оплаты: Банк, Офис или Другое',
  paymentsOff: 'Онлайн-оплата сейчас отключена. Оплатите заявку в офисе или банковским переводом.',
  providerReceipt: 'Не удалось сформировать чек для оплаты. Проверьте e-mail и телефон в профиле или обратитесь к оператору.',
  providerUnavailable: 'Платёжная система временно не отвечает. Попробуйте через несколько минут.',
  providerSettings: 'Оплата картой временно недоступна. Пожалуйста, сообщите об этом оператору.',
  providerRejected: 'Платёжная система не приняла платёж. Попробуйте позже или выберите другой способ оплаты.',
  formKeyReused: 'Эта форма уже отправлена с другими данными. Обновите страницу и заполните её снова.',
  // A payment held for capture reserves its entries until the provider answers.
  awaitingCapture: 'Заявка оплачивается онлайн: платёжная система подтверждает платёж. Обновите страницу через минуту.',
  // Refunds (issue 18; ours, the spec gives no text).
  doublePayment: 'Двойная оплата',
  paid: 'Оплачено',
  refundLabel: (sum: string) => `Возврат ${sum}`,
  refundPendingLabel: (sum: string) => `Возврат ${sum} в обработке`,
  refundTitle: 'Возврат платежа',
  /** The row's button that opens the refund form. */
  refundButton: 'Вернуть платёж',
  refundAction: 'Вернуть',
  refundSum: 'Сумма возврата',
  refundReason: 'Причина возврата',
  refundReasonRequired: 'Укажите причину возврата',
  refundEntryAction: 'Что сделать с заявкой',
  refundEntryActionRequired: 'Выберите, что сделать с заявкой',
  refundSumRequired: 'Введите сумму возврата',
  refundSumPositive: 'Сумма возврата больше 0 ₽',
  refundSumTooBig: (left: string) => `Можно вернуть не больше ${left}`,
  refundOnlyOnline: 'Вернуть через платёжную систему можно только онлайн-платёж',
  refundNothingLeft: 'Платёж уже возвращён полностью',
  refundDone: 'Деньги возвращены клиенту',
  refundPending: 'Возврат отправлен в платёжную систему и ждёт её ответа',
  refundRejected: 'Платёжная система не приняла возврат. Проверьте сумму или верните деньги другим способом.',
  refundKeyReused: 'Этот возврат уже отправлен с другими данными. Откройте форму возврата заново.',
  doubleRefundReason: 'Двойная оплата: заявка уже была оплачена',
  canceledAlreadyPaid: 'Отменён: заявка уже оплачена',
  /** Income net of refunds, where both are shown. */
  netIncome: (net: string) => `Доход: ${net}`,
  receivedRefunded: (received: string, refunded: string) => `Получено ${received}, возвращено ${refunded}`,
  filterState: 'Состояние',
  cardRefunded: (sum: string) => `Возвращён: ${sum}`,
  cardPartlyRefunded: (sum: string) => `Частично возвращён: ${sum}`,
  stateDouble: 'Двойная оплата',
  stateRefunded: 'С возвратом',
  stateAttention: 'Требуют внимания',
} as const;

export const REFUND_ENTRY_ACTIONS = ['keep', 'cancel'] as const;
export type RefundEntryAction = (typeof REFUND_ENTRY_ACTIONS)[number];
/** The refund form's choice, in the operator's words. */
export const refundEntryActionLabels: Record<RefundEntryAction, string> = {
  keep: 'Оставить заявку: клиент участвует',
  cancel: 'Отменить заявку: статус «Возврат», место освобождается, документы не печатаются',
};

/** POST /api/payment/{id}/refund: sum (whole or part), reason, and the form's key (a repeat continues the same refund). */
export const refundBody = z.object({
  /** Kopecks. */
  sum: moneyField({
    required: PaymentMessages.refundSumRequired,
    min: { kopecks: 1, message: PaymentMessages.refundSumPositive },
    max: { kopecks: 100_000_000_00, message: PaymentMessages.refundSumTooBig('100 000 000 ₽') },
  }),
  reason: z
    .string({ error: PaymentMessages.refundReasonRequired })
    .trim()
    .min(1, { error: PaymentMessages.refundReasonRequired })
    .max(250, { error: Messages.maxLength(250) }),
  /**
   * What happens to the entries once the money is back: 'keep' (the client still takes part; a paid
   * entry refunded in full is payable again, a done one becomes «Возврат») or 'cancel' («Возврат»:
   * not printable, its seat freed). Without it 'keep', as before the choice existed; the form always asks.
   */
  entry_action: z.enum(REFUND_ENTRY_ACTIONS, { error: PaymentMessages.refundEntryActionRequired }).optional(),
  key: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: 'Некорректный ключ формы' })
    .optional(),
});
export type RefundBody = z.input<typeof refundBody>;
/** The refund form: the same body, and what happens to the entry is always asked. */
export const refundFormBody = refundBody.extend({
  entry_action: z.enum(REFUND_ENTRY_ACTIONS, { error: PaymentMessages.refundEntryActionRequired }),
});

/** A refund of a payment, as the payments list shows it. */
export const paymentRefundSchema = z.object({
  id: z.number().int(),
  sum: z.number(),
  status: z.enum(['pending', 'succeeded', 'canceled']),
  reason: z.string(),
  automatic: z.boolean(),
  entry_action: z.enum(REFUND_ENTRY_ACTIONS),
  created_at_formatted: z.string(),
});
export type PaymentRefund = z.output<typeof paymentRefundSchema>;

/** The answer of POST /api/payment/{id}/refund. */
export const refundAnswer = dataAnswer(paymentRefundSchema).extend({ message: z.string() });
export type RefundAnswer = z.output<typeof refundAnswer>;

/** Pay types an operator records when marking an entry paid by hand: never online. */
export const OFFLINE_PAY_TYPES = [1, 2, 4] as const;

/** POST /api/entry/{id}/pay. Operators name the pay type (Банк, Офис, Другое). */
export const payEntryBody = z
  .object({
    immediate: z.unknown().optional(),
    pay_type: z.coerce.number({ error: PaymentMessages.chooseOfflinePayType }).int({ error: PaymentMessages.chooseOfflinePayType }).optional(),
  })
  .loose()
  .nullish();

/** Card-provider statuses with their labels and colours (spec 03 §4). */
export const providerStatusLabels: Record<string, { label: string; color: string }> = {
  succeeded: { label: 'Подтверждён', color: 'teal' },
  canceled: { label: 'Отменён', color: 'red' },
  waiting_for_capture: { label: 'Ожидает ответа', color: 'yellow' },
  pending: { label: 'В обработке', color: 'gray' },
};

/** Public /pay form (spec 03 §3): ФИО, phone, sum. */
export const publicPayBody = z.object({
  /** One key per submitted form (a UUID made by the page): a repeated submit never makes a second payment. */
  key: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: 'Некорректный ключ формы' })
    .optional(),
  fio: z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .max(255, { error: Messages.maxLength(255) }),
  phone: phoneField,
  /** Kopecks. */
  sum: moneyField({
    required: 'Введите сумму',
    min: { kopecks: 1_00, message: 'Сумма от 1 ₽' },
    max: { kopecks: 1_000_000_00, message: 'Сумма не больше 1 000 000 ₽' },
  }),
});

/** A payment for entries (/manager/payments, the Payments tabs). */
export const paymentSchema = z.object({
  id: z.number().int(),
  uuid: z.string().nullable(),
  sum: z.number(),
  pay_type: z.number().int(),
  payTypeLabel: z.string(),
  created_at: isoTimestamp,
  created_at_formatted: z.string(),
  entries: z.array(z.object({ id: z.number().int(), number: z.string() })),
  entry: z
    .object({
      id: z.number().int(),
      number: z.string(),
      user: z.object({ id: z.number().int(), fio: z.string() }),
      service: z.object({ title: z.string(), type: z.string().nullable() }),
    })
    .nullable(),
  entry_number: z.string().nullable(),
  is_package: z.boolean(),
  /** The package's name when the payment paid a package purchase. */
  package_title: z.string().nullable(),
  is_double: z.boolean(),
  status_label: z.string(),
  color: z.string(),
  description: z.string().nullable(),
  provider_url: z.string().nullable(),
  /** Refunded through the provider (succeeded refunds), and still in progress. */
  refunded_sum: z.number(),
  refund_pending_sum: z.number(),
  /** What an operator may still refund (online payments only; 0 otherwise). */
  refundable_sum: z.number(),
  refunds: z.array(paymentRefundSchema),
});
export type Payment = z.output<typeof paymentSchema>;

/** A card-provider transaction (/manager/yookassa). */
export const cardTransactionSchema = z.object({
  id: z.number().int(),
  uuid: z.string().nullable(),
  status: z.string(),
  status_label: z.string(),
  color: z.string(),
  sum: z.number(),
  /** Succeeded refunds of the payment it made. */
  refunded_sum: z.number(),
  order: z.string().nullable(),
  buyer: z.string().nullable(),
  user_id: z.number().int().nullable(),
  comment: z.string().nullable(),
  created_at_formatted: z.string(),
  provider_url: z.string().nullable(),
  test: z.boolean(),
});
export type CardTransaction = z.output<typeof cardTransactionSchema>;

/** A typed prefix of 'YYYY-MM-DD HH:MM:SS' that can still be a real moment (no month 13, no 31.02, no 25 o'clock). */
export function possibleDateTimePrefix(v: string): boolean {
  const m = /^(\d{4})?(?:-(\d{2}))?(?:-(\d{2}))?(?: (\d{2}))?(?::(\d{2}))?(?::(\d{2}))?/.exec(v);
  if (!m) return true;
  const [, y, mo, d, h, mi, s] = m.map((x) => (x === undefined ? undefined : Number(x)));
  if (mo !== undefined && (mo < 1 || mo > 12)) return false;
  if (d !== undefined && y !== undefined && mo !== undefined) {
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (d < 1 || date.getUTCMonth() !== mo - 1) return false;
  }
  if (h !== undefined && h > 23) return false;
  if ((mi !== undefined && mi > 59) || (s !== undefined && s > 59)) return false;
  return true;
}

/** The sorts of the payment list and its export: date, sum. Without one: newest first. */
export const PAYMENT_SORTS = ['created_at', 'sum'] as const;
export type PaymentSortKey = (typeof PAYMENT_SORTS)[number];

/** Filters of GET /api/payment (spec 03 §7) and of its export; created_at typed with the mask 9999-99-99 99:99:99, a prefix is enough. */
export const paymentListQuery = pageQuery
  .extend({
    sort: sortParam(PAYMENT_SORTS),
    entry_number: filterText(32).optional(),
    fio: filterText(200).optional(),
    serviceType: idField().optional(),
    serviceTitle: filterText(200).optional(),
    /** Kopecks. */
    sum: optionalMoneyField(),
    payType: z.coerce.number().int().min(1).max(4).optional(),
    uuid: filterText(64).optional(),
    /**
     * double: double payments; refunded: payments with a refund (done or in progress); attention:
     * not refunded yet and a double payment or with a pending or refused refund.
     */
    state: z.enum(['double', 'refunded', 'attention']).optional(),
    created_at: z
      .string()
      .trim()
      .transform((v) => (v.split('_')[0] ?? '').replace(/[-:\s]+$/, ''))
      .refine((v) => /^\d{0,4}(-\d{0,2}(-\d{0,2}( \d{0,2}(:\d{0,2}(:\d{0,2})?)?)?)?)?$/.test(v), { error: 'Дата в формате 9999-99-99 99:99:99' })
      .refine((v) => possibleDateTimePrefix(v), { error: BoundMessages.date })
      .optional(),
    user_id: idField().optional(),
    /** Moscow days, dd.mm.yyyy, both included. */
    date_from: ruDateField().optional(),
    date_to: ruDateField().optional(),
  })
  .refine((q) => !dateRangeProblem(q.date_from, q.date_to), { path: ['date_to'], error: DATE_RANGE_BACKWARDS });

/** GET /api/payment answers these beside {data, meta}: what the filters choose, in all. */
export const paymentTotalsSchema = z.object({
  count: z.number().int(),
  /** Received, before refunds. */
  sum: z.number(),
  refunded: z.number(),
  /** Income: received less succeeded refunds. */
  net: z.number(),
});
export type PaymentTotals = z.output<typeof paymentTotalsSchema>;

/** GET /api/payment: a page of payments and the totals of all the filters choose. */
export const paymentsAnswer = pageAnswer(paymentSchema).extend({ totals: paymentTotalsSchema });

/** Filters of GET /api/yookassa. */
export const cardTransactionListQuery = pageQuery.extend({
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']).optional(),
  uuid: filterText(64).optional(),
  entry_number: filterText(32).optional(),
  fio: filterText(200).optional(),
  isWithoutUser: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
  serviceType: idField().optional(),
  serviceTitle: filterText(200).optional(),
  /** Kopecks. */
  sum: optionalMoneyField(),
});

/** GET /api/yookassa: a page of card-provider transactions. */
export const cardTransactionsAnswer = pageAnswer(cardTransactionSchema);

/**
 * POST /api/entry/{id}/pay: paid at once (an operator, a free entry: the entry's id, status 2), or the
 * provider's page to send the payer to (the provider's payment id).
 */
export const payEntryAnswer = z.union([
  z.object({ id: z.number().int(), status: z.literal(2), immediate: z.literal(true), confirmation: z.null() }),
  z.object({ id: z.string(), confirmation: z.object({ confirmation_url: z.string() }) }),
]);
export type PayEntryAnswer = z.output<typeof payEntryAnswer>;

/** POST /api/yookassa-entry/pay (the public form): the provider's payment id and its page. */
export const publicPayAnswer = z.object({ id: z.string(), confirmation: z.object({ confirmation_url: z.string() }) });

/** POST /api/yookassa/{id}/refresh, POST /api/yookassa-entry/{id}/refresh: the transaction's status (the provider's word). */
export const cardTransactionStatusAnswer = dataAnswer(z.object({ status: z.string() }));

/** POST /api/entry/{id}/set-payment-uuid. */
export const paymentUuidSetAnswer = messageAnswer;

/** What a provider notice changed (the webhook's answer). */
export const WEBHOOK_RESULTS = ['unknown', 'mismatch', 'unchanged', 'updated', 'paid'] as const;

/** POST /api/yookassa/webhook: always 200 with what the notice changed, so the provider stops retrying. */
export const webhookAnswer = z.object({ ok: z.literal(true), result: z.enum(WEBHOOK_RESULTS) });

export const providerPaymentUrl = (uuid: string) => `https://yookassa.ru/my/payments?search=${encodeURIComponent(uuid)}`;
