import { z } from 'zod';
import { EntryStatus, PayType, ParticipationType, entryStatusLabels, payTypeLabels, type EntryStatusCode } from '../common/codes.ts';
import { pageQuery } from '../common/pagination.ts';

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
} as const;

/** Thesis length rule (spec 01 §5): strictly more than 1500 and less than 10000 characters. */
export function thesisLengthProblem(text: string): string | null {
  if (text.length <= THESIS_MIN) return EntryMessages.thesisTooShort;
  if (text.length >= THESIS_MAX) return EntryMessages.thesisTooLong;
  return null;
}

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

export const statusColors: Record<EntryStatusCode, string> = { 1: 'red', 2: 'teal', 3: 'gray' };

export interface EntryThesis {
  text: string;
  entry_id: number;
}

export interface Entry {
  id: number;
  number: string;
  created_by: number;
  user: { id: number; fio: string };
  service_id: number;
  service: {
    id: number;
    title: string;
    dict_type_id: number;
    type: string | null;
    date_type: number;
    interval_formatted: string | null;
    begda: string | null;
    is_thesis_needed: boolean;
    is_publication: boolean;
    template_certificate_id: number | null;
    points: number;
  };
  section_id: number | null;
  section: { id: number; title: string } | null;
  pay_type: number;
  payTypeLabel: string;
  is_extramural: number;
  price: number;
  status: EntryStatusCode;
  statusLabel: string;
  statusColor: string;
  is_paid: boolean;
  is_service_package: boolean;
  is_thesis_needed: boolean;
  thesis: EntryThesis | null;
  certificate_number: string | null;
  registration_number: string | null;
  created_at_formatted: string;
  deleted_at: string | null;
  /** A package entry whose provider payment is open: 'Ожидается ответ платёжной системы' instead of the pay button. */
  awaiting_provider: boolean;
  /** The client may still change section, pay type and participation, or remove it. */
  can_edit: boolean;
  /** Theses may be written or changed now by the asking user. */
  can_edit_thesis: boolean;
  /** Print links allowed by spec 01 §4 Printing. */
  can_print_certificate: boolean;
}

export const entryLabels = { status: entryStatusLabels, payType: payTypeLabels };

/** POST /api/entry. The price is taken from the service on the server; a price sent by the client is ignored. */
export const createEntryBody = z.object({
  service_id: z.coerce.number({ error: 'Выберите услугу' }).int().positive({ error: 'Выберите услугу' }),
  section_id: z.coerce.number().int().positive().nullish(),
  pay_type: z.coerce.number().int().min(1).max(4).default(PayType.online),
  is_extramural: z.coerce.number().int().min(0).max(1).default(0),
  price: z.unknown().optional(),
});
export type CreateEntryBody = z.input<typeof createEntryBody>;

/** PUT /api/entry/{id}: what a client may change while unpaid. */
export const updateEntryBody = z.object({
  section_id: z.coerce.number().int().positive().nullish(),
  pay_type: z.coerce.number().int().min(1).max(4).optional(),
  is_extramural: z.coerce.number().int().min(0).max(1).optional(),
});

/** GET /api/entry filters (spec 01 §7). date: dd.mm.yyyy of creation; deleted: 1 only deleted. */
export const entryListQuery = pageQuery.extend({
  id: z.coerce.number().int().optional(),
  number: z.string().trim().max(32).optional(),
  fio: z.string().trim().max(200).optional(),
  type: z.coerce.number().int().optional(),
  service: z.string().trim().max(200).optional(),
  service_id: z.coerce.number().int().optional(),
  status: z.coerce.number().int().min(1).max(3).optional(),
  date: z
    .string()
    .regex(/^\d{2}\.\d{2}\.\d{4}$/, { error: 'Дата в формате дд.мм.гггг' })
    .optional(),
  deleted: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
  created_by: z.coerce.number().int().optional(),
});

/** POST /api/entry-thesis. */
export const thesisBody = z.object({
  entry_id: z.coerce.number().int().positive(),
  text: z.string({ error: 'Обязательное поле' }),
});

export function isPaidOrMore(status: number): boolean {
  return status >= EntryStatus.paid;
}

/**
 * Certificate print (spec 01 §4 Printing): the entry is done, and no contract is needed or a
 * registration number exists, and the service has a certificate template.
 */
export function canPrintCertificate(e: { status: number; registration_number: string | null; contract_needed: boolean; template_certificate_id: number | null }): boolean {
  return e.status === EntryStatus.done && (!e.contract_needed || Boolean(e.registration_number)) && e.template_certificate_id !== null;
}

/** Theses editing (spec 01 §4): closed when the entry is paid and already has theses, except for operators. */
export function canEditThesis(e: { status: number; hasThesis: boolean }, isOperator: boolean): boolean {
  return isOperator || !(isPaidOrMore(e.status) && e.hasThesis);
}
