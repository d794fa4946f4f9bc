import { z } from 'zod';
import { PRICE_FIELD } from '../common/money.ts';
import { flagNumber, idField } from '../common/bounds.ts';
import { pageQuery } from '../common/pagination.ts';
import { pageAnswer } from '../common/answers.ts';
import { changeDiffSchema, presentedChangeSchema } from '../logs/log.ts';

/** Texts of the operator's entry screens (spec 02 §4, §5, §8); ours where the spec gives none. */
export const EntryAdminMessages = {
  saved: 'Заявка успешно сохранена!',
  payTypeChanged: 'Тип оплаты успешно изменён!',
  /** Spec 02 §4 gives the confirmation in English ('Are you sure you want to mark the application as completed?'); the interface is Russian. */
  completeConfirm: 'Вы уверены, что хотите отметить заявку как завершённую?',
  // Ours.
  certificateNumber: 'Номер сертификата: 12 цифр',
  completed: 'Заявка завершена',
  notPaidYet: 'Сначала отметьте оплату заявки',
  alreadyDone: 'Заявка уже завершена',
  restored: 'Заявка восстановлена',
  memberNotContest: 'Участник конкурса указывается только в заявках на конкурс',
  memberSaved: 'Данные сохранены!',
  guestOnly: 'Добавить в услугу можно только гостя',
  guestAdded: 'Гость добавлен в услугу',
  guestAlready: 'Гость уже добавлен в эту услугу',
  guestCreated: 'Гость создан и добавлен в услугу',
  /** A guest made without a service: no entry, so not «…добавлен в услугу». */
  guestCreatedOnly: 'Гость создан',
  system: 'Система',
} as const;

export const CERTIFICATE_NUMBER_RE = /^\d{12}$/;

/** PUT /api/entry/{id} by an operator: also price and certificate number (spec 02 §2 Entry modals). */
export const operatorEntryFields = z.object({
  /** Kopecks. */
  price: PRICE_FIELD.optional(),
  certificate_number: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.replace(/\D/g, '') : v),
      z.string().regex(CERTIFICATE_NUMBER_RE, { error: 'Номер сертификата: 12 цифр' }).or(z.literal('')).nullish(),
    )
    .optional(),
});

/** POST /api/competition-member {entry_id, fio, title, comment} (spec 02 §5: all required). */
export const memberBody = z.object({
  entry_id: z.coerce.number().int().positive(),
  fio: z.string({ error: 'Обязательное поле' }).trim().min(1, { error: 'Обязательное поле' }).max(255),
  title: z.string({ error: 'Обязательное поле' }).trim().min(1, { error: 'Обязательное поле' }).max(500),
  comment: z.string({ error: 'Обязательное поле' }).trim().min(1, { error: 'Обязательное поле' }).max(5000),
});
export type MemberBody = z.input<typeof memberBody>;

export const competitionMemberSchema = z.object({
  entry_id: z.number().int(),
  fio: z.string(),
  title: z.string(),
  comment: z.string(),
});
export type CompetitionMember = z.output<typeof competitionMemberSchema>;

/** Guests are loaded 50 at a time (spec 02 §9). */
export const GUESTS_PAGE = 50;

/** GET /api/guest: guests (role 3) not yet in the service, by fio, is_spb and profiles. */
export const guestListQuery = z.object({
  service_id: z.coerce.number().int().positive(),
  fio: z.string().trim().max(200).optional(),
  is_spb: flagNumber().optional(),
  profile: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
});

export const guestSchema = z.object({
  id: z.number().int(),
  fio: z.string(),
  organization: z.string().nullable(),
  job_title: z.string().nullable(),
  is_spb: z.number().int(),
});
export type Guest = z.output<typeof guestSchema>;
/** GET /api/guest: a page of guests (GUESTS_PAGE a page). */
export const guestsAnswer = pageAnswer(guestSchema);

/** POST /api/guest: a new guest (role 3) with fio, organization, job title; added to the service when service_id is given. */
export const createGuestBody = z.object({
  fio: z.string({ error: 'Обязательное поле' }).trim().min(3, { error: 'Введите ФИО' }).max(500),
  organization: z.string().trim().max(500).nullish(),
  job_title: z.string().trim().max(500).nullish(),
  is_spb: z.coerce.number().int().min(0).max(1).default(1),
  service_id: z.coerce.number().int().positive().optional(),
  /** The section of that service (required when it has sections, as for any entry). */
  section_id: idField().nullish(),
});

/** POST /api/entry/guest {service_id, user_id, section_id}: a done entry, online pay type, in the chosen section (spec 02 §6 Guests). */
export const guestEntryBody = z.object({
  service_id: z.coerce.number().int().positive(),
  user_id: z.coerce.number().int().positive(),
  section_id: idField().nullish(),
});

/** One change of an entry (the history modal): who, when, which fields. */
export const entryHistoryItemSchema = z.object({
  id: z.number().int(),
  user: z.string(),
  /** The operator who acted for the client ("login as user"), if any. */
  impersonator: z.string().nullable(),
  /** Moscow time, dd.mm.yyyy HH:MM. */
  created_at: z.string(),
  diff: changeDiffSchema,
  /** The diff in Russian (labels, names, Moscow time). */
  changes: z.array(presentedChangeSchema),
});
export type EntryHistoryItem = z.output<typeof entryHistoryItemSchema>;
/** GET /api/entry/{id}/history: a page of the entry's changes, newest first. */
export const entryHistoryAnswer = pageAnswer(entryHistoryItemSchema);

export const entryHistoryQuery = pageQuery;
