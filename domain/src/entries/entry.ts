import { z } from 'zod';
import { BoundMessages, filterText, idField, isRealDate as isRealCalendarDate, ruDateField, textField } from '../common/bounds.ts';
import { EntryStatus, PayType, ParticipationType, entryStatusLabels, isPaidStatus, payTypeLabels, type EntryStatusCode } from '../common/codes.ts';
import { formatDateTime, formatRub } from '../common/format.ts';
import { pageMetaSchema, pageQuery, sortParam } from '../common/pagination.ts';
import { dataAnswer, isoTimestamp, messageAnswer, pageAnswer } from '../common/answers.ts';
import { PACKAGE_PAY_WINDOW_MIN } from '../service-packages/service-package.ts';
import { printKindParam } from '../documents/print.ts';
import { fileRecordSchema } from '../documents/documents.ts';
import { competitionMemberSchema, operatorEntryFields } from './entry-admin.ts';

export const THESIS_MIN = 1500;
export const THESIS_MAX = 10000;

export const EntryMessages = {
  chooseSection: 'Выберите секцию!',
  sent: 'Заявка успешно отправлена!',
  thesesBanner: 'Некоторые заявки ожидают добавления тезисов!',
  thesisTooShort: 'Допишите ваши тезисы, сейчас они слишком короткие (минимум 1500 символов)',
  thesisTooLong: 'Слишком много символов! (максимум 10000 символов)',
  // Ours, where the spec gives no text.
  sectionFull: 'В этой секции не осталось свободных мест',
  serviceFull: 'На эту услугу не осталось свободных мест',
  alreadyApplied: 'Вы уже подали заявку на эту услугу',
  payTypeNotAllowed: 'Этот способ оплаты недоступен',
  onlyIntramural: 'Эта услуга проводится только очно',
  onlyExtramural: 'Эта услуга проводится только дистанционно',
  sectionNotOfService: 'Секция не относится к этой услуге',
  serviceUnavailable: 'Услуга недоступна для записи',
  paidNoEdit: 'Оплаченную заявку нельзя изменить',
  paidNoDelete: 'Оплаченную заявку нельзя удалить',
  thesisClosed: 'Тезисы оплаченной заявки уже нельзя изменить',
  entryNotFound: 'Заявка не найдена',
  noApplications: 'У вас нет заявок! Подайте заявку на услугу в разделе «Услуги»',
  awaitingProvider: 'Ожидается ответ платёжной системы',
  free: 'Бесплатно',
  // At the exact bounds the spec's texts ('минимум 1500') would contradict the counter: say what is needed.
  thesisOneMore: 'Нужно больше 1500 символов: допишите хотя бы ещё один',
  thesisOneLess: 'Нужно меньше 10000 символов: сократите хотя бы на один',
  publicationNotOrdinary: 'Заявка на публикацию подаётся вместе со статьёй, а не как обычная заявка',
  packageRemoved: 'Пакет услуг удалён целиком',
} as const;

/**
 * May the client still change or withdraw the entry? While unpaid, and for a free entry (paid at
 * creation with nothing paid) until it is done. Package entries are changed as the package is.
 */
export function clientMayChange(e: { status: number; price: number }): boolean {
  return e.status === EntryStatus.notPaid || (e.status === EntryStatus.paid && e.price === 0);
}

/** Thesis length rule (spec 01 §5): strictly more than 1500 and less than 10000 characters. */
export function thesisLengthProblem(text: string): string | null {
  if (text.length === THESIS_MIN) return EntryMessages.thesisOneMore;
  if (text.length < THESIS_MIN) return EntryMessages.thesisTooShort;
  if (text.length === THESIS_MAX) return EntryMessages.thesisOneLess;
  if (text.length > THESIS_MAX) return EntryMessages.thesisTooLong;
  return null;
}

/**
 * The counter's range in the numbers of the spec's messages ('минимум 1500', 'максимум 10000') and
 * with the rule's strict bounds: 'больше 1500 и меньше 10000' (issue 22: the counter said 'от 1501').
 */
export const THESIS_RANGE_TEXT = `больше ${THESIS_MIN} и меньше ${THESIS_MAX}`;

/** Does the entry's participation (0 in-person, 1 remote) fit the service's participation_type? */
export function participationProblem(participationType: number, isExtramural: number): string | null {
  if (participationType === ParticipationType.intramural && isExtramural === 1) return EntryMessages.onlyIntramural;
  if (participationType === ParticipationType.extramural && isExtramural === 0) return EntryMessages.onlyExtramural;
  return null;
}

/** The participation a service starts with in the form. */
export function defaultExtramural(participationType: number): 0 | 1 {
  return participationType === ParticipationType.extramural ? 1 : 0;
}

export const USER_PAY_TYPES = [PayType.bank, PayType.office, PayType.online] as const;

export const statusColors: Record<EntryStatusCode, string> = { 1: 'red', 2: 'teal', 3: 'gray', 4: 'grape' };

const int = () => z.number().int();

/** The live publication of a publication entry (spec 02 §3 Entry: publication). */
export const entryPublicationSchema = z.object({
  id: int(),
  title: z.string(),
  status: int(),
  statusLabel: z.string(),
  statusColor: z.string(),
});
export type EntryPublication = z.output<typeof entryPublicationSchema>;

/**
 * The contract of an entry whose service type needs one (spec 02 §3 Entry: contract). Until a scan
 * is uploaded there is no contract row: id null, pending, no file.
 */
export const entryContractSchema = z.object({
  id: int().nullable(),
  status: int(),
  statusLabel: z.string(),
  statusColor: z.string(),
  /** The operator's rejection reason. */
  comment: z.string().nullable(),
  /** The signed scan, served through the authorised file route. */
  file: fileRecordSchema.nullable(),
});
export type EntryContract = z.output<typeof entryContractSchema>;

export const entryThesisSchema = z.object({ text: z.string(), entry_id: int() });
export type EntryThesis = z.output<typeof entryThesisSchema>;

const entryStatusSchema = z.union([z.literal(EntryStatus.notPaid), z.literal(EntryStatus.paid), z.literal(EntryStatus.done), z.literal(EntryStatus.refunded)]);

/** An entry as its owner and operators see it (GET /api/entry and every answer carrying one). */
export const entrySchema = z.object({
  id: int(),
  number: z.string(),
  created_by: int(),
  /** The client; `is_guest` for guests an operator added (role 3). */
  user: z.object({ id: int(), fio: z.string(), is_guest: z.boolean() }),
  service_id: int(),
  service: z.object({
    id: int(),
    title: z.string(),
    dict_type_id: int(),
    type: z.string().nullable(),
    date_type: int(),
    interval_formatted: z.string().nullable(),
    begda: z.string().nullable(),
    is_thesis_needed: z.boolean(),
    is_publication: z.boolean(),
    template_certificate_id: int().nullable(),
    points: int(),
  }),
  section_id: int().nullable(),
  section: z.object({ id: int(), title: z.string() }).nullable(),
  pay_type: int(),
  payTypeLabel: z.string(),
  is_extramural: int(),
  price: z.number(),
  status: entryStatusSchema,
  statusLabel: z.string(),
  statusColor: z.string(),
  is_paid: z.boolean(),
  is_service_package: z.boolean(),
  /** The package purchase the entry belongs to; `broken` once it is no longer sold as a whole. */
  /** `reserved_until` (ISO): while the package is whole and unpaid, when its reservation ends (it is then removed). */
  package_enrollment: z.object({ id: int(), title: z.string(), price: z.number(), broken: z.boolean(), reserved_until: isoTimestamp.nullable() }).nullable(),
  is_thesis_needed: z.boolean(),
  thesis: entryThesisSchema.nullable(),
  certificate_number: z.string().nullable(),
  registration_number: z.string().nullable(),
  created_at_formatted: z.string(),
  deleted_at: isoTimestamp.nullable(),
  /** A package entry whose provider payment is open: 'Ожидается ответ платёжной системы' instead of the pay button. */
  awaiting_provider: z.boolean(),
  /** The client may still change section, pay type and participation, or remove it. */
  can_edit: z.boolean(),
  /** Theses may be written or changed now by the asking user. */
  can_edit_thesis: z.boolean(),
  /** Print links allowed by spec 01 §4 Printing. */
  can_print_certificate: z.boolean(),
  /** Documents the asker may print now (the print page's rules), in menu order. */
  printable: z.array(printKindParam),
  /** Competition participant (contest entries), for operators. */
  competition_member: competitionMemberSchema.nullable(),
  /** Its live publication (publication services). */
  publication: entryPublicationSchema.nullable(),
  /** Its contract (services whose type needs one). */
  contract: entryContractSchema.nullable(),
  /**
   * A live entry of a publication service without a live publication (a package's publication, or
   * one whose article was deleted): its article is added to it (POST /api/publication entry_id),
   * nothing is charged again.
   */
  can_add_publication: z.boolean(),
});
export type Entry = z.output<typeof entrySchema>;

/** GET /api/entry: a page of entries; meta.theses_awaited feeds the theses banner (always false for operators). */
export const entryListAnswer = pageAnswer(entrySchema).extend({ meta: pageMetaSchema.extend({ theses_awaited: z.boolean() }) });
/** GET /api/entry/{id}. */
export const entryAnswer = dataAnswer(entrySchema);
/**
 * POST /api/entry (201), PUT /api/entry/{id} and the operator's calls on one entry (complete,
 * restore, competition member, a guest's entry): the entry as it now is, and the notice. data is
 * null when the entry is no longer there to read.
 */
export const entrySavedAnswer = dataAnswer(entrySchema.nullable()).extend({ message: z.string() });
/** DELETE /api/entry/{id}: the ids removed (the whole package for a package entry). */
export const entryDeletedAnswer = messageAnswer.extend({ data: z.object({ removed: z.array(int()) }) });
/** POST /api/entry-thesis: the theses as saved. */
export const thesisSavedAnswer = dataAnswer(entryThesisSchema).extend({ message: z.string() });
/** POST /api/guest (201): the new guest's id and, when added to a service, the entry. */
export const guestCreatedAnswer = dataAnswer(z.object({ id: int(), entry: entrySchema.nullable() })).extend({ message: z.string() });

export const entryLabels = { status: entryStatusLabels, payType: payTypeLabels };

/** POST /api/entry. The price is taken from the service on the server; a price sent by the client is ignored. */
export const createEntryBody = z.object({
  service_id: idField('Выберите услугу'),
  section_id: idField().nullish(),
  pay_type: z.coerce.number().int().min(1).max(4).default(PayType.online),
  is_extramural: z.coerce.number().int().min(0).max(1).default(0),
  price: z.unknown().optional(),
});
export type CreateEntryBody = z.input<typeof createEntryBody>;

/** PUT /api/entry/{id}: what a client may change while unpaid; operators also price and certificate number (entry-admin.ts). */
export const updateEntryBody = z
  .object({
    section_id: idField().nullish(),
    pay_type: z.coerce.number().int().min(1).max(4).optional(),
    is_extramural: z.coerce.number().int().min(0).max(1).optional(),
  })
  .extend(operatorEntryFields.shape);

/**
 * The payment line of the "entry created" letter (macro ${entry.payment_note}): what to pay and where,
 * or that nothing is to be paid; a free entry is never asked for payment.
 */
export function entryPaymentNote(price: number, what: 'entry' | 'package' = 'entry', reservedUntil?: Date): string {
  if (price <= 0) return what === 'package' ? 'Пакет бесплатный, оплачивать ничего не нужно.' : 'Участие бесплатное, оплачивать ничего не нужно.';
  const sum = formatRub(price);
  const until = reservedUntil ? `, до ${reservationTime(reservedUntil)} по московскому времени` : '';
  return what === 'package'
    ? `Стоимость пакета: ${sum}. Оплатить его можно в разделе «Мои заявки» в течение ${PACKAGE_PAY_WINDOW_MIN} минут${until}; неоплаченный пакет снимается.`
    : `Стоимость участия: ${sum}. Оплатить заявку можно в разделе «Мои заявки».`;
}

/**
 * Why a payment did not go through (YooKassa's cancellation_details.reason), as the client reads it;
 * reasons of our own (a cancel of a double hold) are not told. Unknown reasons read as the bank's refusal.
 */
export const paymentCancellationReasons: Record<string, string> = {
  '3d_secure_failed': 'не пройдена проверка 3-D Secure',
  call_issuer: 'банк отклонил платёж, за подробностями обратитесь в банк',
  card_expired: 'истёк срок действия карты',
  country_forbidden: 'оплата картой, выпущенной в этой стране, недоступна',
  expired_on_confirmation: 'платёж не был подтверждён вовремя',
  expired_on_capture: 'платёж не был подтверждён вовремя',
  fraud_suspected: 'платёж заблокирован банком из соображений безопасности',
  general_decline: 'банк отклонил платёж',
  identification_required: 'превышен лимит платежей для неидентифицированного кошелька',
  insufficient_funds: 'недостаточно средств',
  internal_timeout: 'технический сбой платёжной системы',
  invalid_card_number: 'неверный номер карты',
  invalid_csc: 'неверный код CVV2 (CVC2, CID)',
  issuer_unavailable: 'банк не отвечает',
  payment_method_limit_exceeded: 'исчерпан лимит платежей этим способом',
  payment_method_restricted: 'платежи этим способом запрещены',
  permission_revoked: 'нет разрешения на списание',
};

/**
 * The "payment did not go through" letter's text (macro ${payment.canceled_summary}): what was not
 * paid and why, that no money was taken, and what to do; for a package, until when it stays reserved.
 */
export function paymentCanceledNote(o: { what: string; sum: number; reason?: string | null; reservedUntil?: Date | null }): string {
  const why = o.reason ? `: ${paymentCancellationReasons[o.reason] ?? paymentCancellationReasons.general_decline}` : '';
  const head = `Оплата ${o.what} на ${formatRub(o.sum)} не прошла${why}. Деньги не списаны.`;
  return o.reservedUntil
    ? `${head} Пакет забронирован за вами до ${reservationTime(o.reservedUntil)} по московскому времени: оплатите его в разделе «Мои заявки», после этого неоплаченный пакет снимается.`
    : `${head} Оплатить можно снова в разделе «Мои заявки».`;
}

/** HH:MM in Moscow time: when a package's reservation ends («Бронь до 06:47»). */
export function reservationTime(value: Date | string): string {
  return formatDateTime(value).slice(11);
}

/** What is left of a reservation, as «мм:сс» (or «ч:мм:сс»); null once it has ended. */
export function reservationLeft(until: string, now: number): string | null {
  const ms = new Date(until).getTime() - now;
  if (ms <= 0) return null;
  const s = Math.ceil(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  return h > 0 ? `${h}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}` : `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

export const IMPOSSIBLE_DATE_MESSAGE = BoundMessages.date;

/** Is 'dd.mm.yyyy' a day of the calendar (not 31.02.2024)? Anything not in that format is not. */
export function isRealDate(value: string): boolean {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value);
  return m !== null && isRealCalendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
}

/**
 * The sorts of the entry list and its export (`?sort=price`, `?sort=-price`): date of creation,
 * number, client's name, service title, price, status. Without one: newest first.
 */
export const ENTRY_SORTS = ['created_at', 'number', 'fio', 'service', 'price', 'status'] as const;
export type EntrySortKey = (typeof ENTRY_SORTS)[number];

/** GET /api/entry filters (spec 01 §7). date: dd.mm.yyyy of creation; deleted: 1 only deleted. */
export const entryListQuery = pageQuery.extend({
  sort: sortParam(ENTRY_SORTS),
  id: idField().optional(),
  number: filterText(32).optional(),
  fio: filterText(200).optional(),
  type: idField().optional(),
  service: filterText(200).optional(),
  service_id: idField().optional(),
  status: z.coerce.number().int().min(1).max(4).optional(),
  date: ruDateField().optional(),
  deleted: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
  created_by: idField().optional(),
  /** 1: unpaid entries of dated services that have already begun. */
  overdue: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
});

/** POST /api/entry-thesis. */
export const thesisBody = z.object({
  entry_id: idField(),
  text: textField(100_000),
});

export function isPaidOrMore(status: number): boolean {
  return isPaidStatus(status);
}

/** Theses editing (spec 01 §4): closed when the entry is paid and already has theses, except for operators. */
export function canEditThesis(e: { status: number; hasThesis: boolean }, isOperator: boolean): boolean {
  return isOperator || !(isPaidOrMore(e.status) && e.hasThesis);
}
