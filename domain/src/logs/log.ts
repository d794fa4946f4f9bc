import { z } from 'zod';
import { DATE_RANGE_BACKWARDS, dateRangeProblem, filterText, ruDateField } from '../common/bounds.ts';
import { listQuery } from '../common/pagination.ts';
import type { PresentedChange } from './log-fields.ts';

/** Entity types of the change log (spec 02 §3 Log event), with their Russian names. */
export const CHANGE_LOG_TYPES = ['entry', 'publication', 'user', 'service', 'payment', 'service_package'] as const;
export type ChangeLogType = (typeof CHANGE_LOG_TYPES)[number];
export const changeLogTypeLabels: Record<ChangeLogType, string> = {
  entry: 'Заявка',
  publication: 'Публикация',
  user: 'Пользователь',
  service: 'Услуга',
  payment: 'Платёж',
  service_package: 'Пакет услуг',
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
} as const;

/** Under the client's name, when an operator acted for them ("login as user"). */
export const impersonatorLabel = (operatorFio: string) => `оператор ${operatorFio} от имени клиента`;

export type ChangeDiff = Record<string, { old: unknown; new: unknown }>;

/** A row of /manager/logs: type, Id, user, log (diff), time. */
export interface ChangeLogRow {
  id: number;
  type: ChangeLogType;
  type_label: string;
  entity_id: number;
  user: { id: number; fio: string } | null;
  /** The user's name or 'Система'. */
  user_label: string;
  /**
   * The operator who made the change while logged in as `user` ("login as user"); null when the user
   * acted themselves.
   */
  impersonator: { id: number; fio: string } | null;
  diff: ChangeDiff;
  /** The diff as the operator reads it: Russian labels, names instead of codes and ids, Moscow time. */
  changes: PresentedChange[];
  created_at: string;
  created_at_formatted: string;
}

/** GET /api/log: by type, entity id, who acted (a part of the name) and Moscow dates, newest first. */
export const changeLogListQuery = listQuery
  .extend({
    type: z.enum(CHANGE_LOG_TYPES, { error: 'Неизвестный тип' }).optional(),
    entity_id: z.coerce
      .number({ error: 'Введите число' })
      .int({ error: 'Введите число' })
      .positive({ error: 'Введите число' })
      .max(2147483647, { error: 'Введите число' })
      .optional(),
    /** Who acted: the user or the operator behind a "login as" session. */
    fio: filterText(200).optional(),
    date_from: ruDateField().optional(),
    date_to: ruDateField().optional(),
  })
  .refine((q) => !dateRangeProblem(q.date_from, q.date_to), { path: ['date_to'], error: DATE_RANGE_BACKWARDS });

/** A row of /manager/api-requests. */
export interface RequestLogRow {
  id: number;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  memory_mb: number;
  ip: string | null;
  response: string | null;
  created_at: string;
  created_at_formatted: string;
}

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
