import { z } from 'zod';
import { DATE_RANGE_BACKWARDS, dateRangeProblem, filterText, ruDateField } from '../common/bounds.ts';
import { listQuery } from '../common/pagination.ts';
import { isoTimestamp, pageAnswer } from '../common/answers.ts';

/** Entity types of the change log (spec 02 §3 Log event), with their Russian names. */
export const CHANGE_LOG_TYPES = ['entry', 'publication', 'user', 'service', 'payment', 'service_package', 'settings', 'bank_statement_line'] as const;
export type ChangeLogType = (typeof CHANGE_LOG_TYPES)[number];
export const changeLogTypeLabels: Record<ChangeLogType, string> = {
  entry: 'Заявка',
  publication: 'Публикация',
  user: 'Пользователь',
  service: 'Услуга',
  payment: 'Платёж',
  service_package: 'Пакет услуг',
  settings: 'Настройки',
  bank_statement_line: 'Банковская выписка',
};

/** 'Система' stands for a change made by no user (jobs, the payment provider). */
export const SYSTEM_USER_LABEL = 'Система';

/** Reasons written into change-log rows by the system and the rules (shown as they are). */
export const LogReasons = {
  packageNotPaid: 'Пакет не оплачен за 15 минут',
  packageRemovedWhole: 'Пакет удалён целиком',
  packageBrokenEntryRemoved: 'Пакет разделён: из него удалена заявка',
  packageBrokenPaidInPart: 'Пакет разделён: оплачена только часть заявок',
  refunded: (refundId: number) => `Оплата возвращена (возврат № ${refundId})`,
  publicationRejected: 'Публикация отклонена: неоплаченная заявка отменена',
  publicationDeleted: 'Публикация удалена: неоплаченная заявка отменена',
  publicationRestored: 'Публикация снова рассматривается: заявка восстановлена',
  imported: (fileName: string) => `Импорт из старого кабинета: ${fileName}`,
} as const;

/** Under the client's name, when an operator acted for them ("login as user"). */
export const impersonatorLabel = (operatorFio: string) => `оператор ${operatorFio} от имени клиента`;

export type ChangeDiff = Record<string, { old: unknown; new: unknown }>;

/** A text longer than this is kept in the change log by its beginning and its length (a publication's text). */
export const LOGGED_TEXT_MAX = 1000;
/** How a long text reads in the change log: its first LOGGED_TEXT_HEAD characters and its length. */
export const LOGGED_TEXT_HEAD = 300;
export const loggedLongText = (value: string) => loggedTextOf(value.slice(0, LOGGED_TEXT_HEAD), value.length);
/** The same from the beginning and the length alone (a text read from the database by its head and length, not whole). */
export const loggedTextOf = (head: string, length: number) => `${head}… [всего символов: ${length.toLocaleString('ru-RU')}]`;

export const changeDiffSchema = z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() }));

const personSchema = z.object({ id: z.number().int(), fio: z.string() });

/** A change as the operator reads it (log-fields.ts presentDiff). */
export const presentedChangeSchema = z.object({ field: z.string(), label: z.string(), old: z.string(), new: z.string() });

/** A row of /manager/logs: type, Id, user, log (diff), time. */
export const changeLogRowSchema = z.object({
  id: z.number().int(),
  type: z.enum(CHANGE_LOG_TYPES),
  type_label: z.string(),
  entity_id: z.number().int(),
  /** The changed record by name, with where it is shown: «Заявка 2611-00071 «Конференция…»»; url null when it no longer exists. */
  record: z.object({ label: z.string(), url: z.string().nullable() }),
  user: personSchema.nullable(),
  /** The user's name or 'Система'. */
  user_label: z.string(),
  /**
   * The operator who made the change while logged in as `user` ("login as user"); null when the user
   * acted themselves.
   */
  impersonator: personSchema.nullable(),
  diff: changeDiffSchema,
  /** The diff as the operator reads it: Russian labels, names instead of codes and ids, Moscow time. */
  changes: z.array(presentedChangeSchema),
  created_at: isoTimestamp,
  created_at_formatted: z.string(),
});
export type ChangeLogRow = z.output<typeof changeLogRowSchema>;
/** GET /api/log. */
export const changeLogsAnswer = pageAnswer(changeLogRowSchema);

/** GET /api/log: by type, entity id, the record (number, client, title), who acted (a part of the name) and Moscow dates, newest first. */
export const changeLogListQuery = listQuery
  .extend({
    type: z.enum(CHANGE_LOG_TYPES, { error: 'Неизвестный тип' }).optional(),
    entity_id: z.coerce
      .number({ error: 'Введите число' })
      .int({ error: 'Введите число' })
      .positive({ error: 'Введите число' })
      .max(2147483647, { error: 'Введите число' })
      .optional(),
    /**
     * The record as a person knows it: an entry number (2611-00071, or its beginning), a client's
     * name or e-mail (their entries, payments, publications and profile), a publication's title, or
     * a record's Id (digits).
     */
    record: filterText(200).optional(),
    /** Who acted: the user or the operator behind a "login as" session. */
    fio: filterText(200).optional(),
    date_from: ruDateField().optional(),
    date_to: ruDateField().optional(),
  })
  .refine((q) => !dateRangeProblem(q.date_from, q.date_to), { path: ['date_to'], error: DATE_RANGE_BACKWARDS });

/** A row of /manager/api-requests. */
export const requestLogRowSchema = z.object({
  id: z.number().int(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number(),
  memory_mb: z.number(),
  ip: z.string().nullable(),
  response: z.string().nullable(),
  created_at: isoTimestamp,
  created_at_formatted: z.string(),
});
export type RequestLogRow = z.output<typeof requestLogRowSchema>;
/** GET /api/telescope/requests. */
export const requestLogsAnswer = pageAnswer(requestLogRowSchema);

/** GET /api/telescope/requests: errorsOnly keeps the answers with status 400 or more. */
export const requestLogListQuery = listQuery.extend({
  errorsOnly: z.enum(['1', '0', 'true', 'false']).optional(),
  type: z.literal('request').optional(),
});

/** Status colours of the request log (spec 02 §2): 200 and 204 success, 422 light, the rest danger. */
export function requestStatusColor(status: number): 'green' | 'yellow' | 'red' {
  if (status === 200 || status === 204) return 'green';
  if (status === 422) return 'yellow';
  return 'red';
}

/** The request log grows by every request: its list stops counting at this many (shown as «более 10 000»). */
export const REQUEST_LOG_COUNT_CAP = 10_000;
