import { sql } from 'drizzle-orm';
import { formatDateTime } from '@edu/domain/common/format';
import type { ListQuery } from '@edu/domain/common/pagination';
import {
  changeLogTypeLabels,
  SYSTEM_USER_LABEL,
  type ChangeDiff,
  type ChangeLogRow,
  type ChangeLogType,
  type RequestLogRow,
  REQUEST_LOG_COUNT_CAP,
} from '@edu/domain/logs/log';
import { diffPresenter } from '../../platform/change-log.ts';
import type { Database } from '../../platform/db.ts';
import { allOf, fioCondition, listPage, when, type ListPage } from '../../platform/list-query.ts';
import { moscowDayStart } from '@edu/domain/common/moscow-time';

interface ChangeRow {
  id: number;
  type: string;
  entity_id: number;
  user_id: number | null;
  fio: string | null;
  impersonator_id: number | null;
  impersonator_fio: string | null;
  diff: ChangeDiff;
  created_at: Date | string;
}

export interface ChangeLogFilters {
  type?: ChangeLogType;
  entity_id?: number;
  /** Who acted: a part of the user's or the acting operator's name. */
  fio?: string;
  /** Moscow days, dd.mm.yyyy, both included. */
  date_from?: string;
  date_to?: string;
}

/** The change log (/manager/logs, the entry history modal): newest first, filtered; each diff in Russian. */
export async function listChangeLogs(database: Database, f: ChangeLogFilters, page: ListQuery): Promise<ListPage<ChangeLogRow>> {
  const list = await listPage<ChangeRow, Omit<ChangeLogRow, 'changes'>>(database, {
    select: sql`select l.id, l.type, l.entity_id, l.user_id, l.impersonator_id, l.diff, l.created_at,
      (select concat_ws(' ', u.last_name, u.first_name, u.middle_name) from users u where u.id = l.user_id) as fio,
      (select concat_ws(' ', o.last_name, o.first_name, o.middle_name) from users o where o.id = l.impersonator_id) as impersonator_fio`,
    from: sql`from change_logs l`,
    where: allOf([
      when(f.type, (v) => sql`l.type = ${v}`),
      when(f.entity_id, (v) => sql`l.entity_id = ${v}`),
      when(f.fio, (v) => sql`exists (select 1 from users u where u.id in (l.user_id, l.impersonator_id) and ${fioCondition(v, 'u')})`),
      when(f.date_from, (v) => sql`l.created_at >= ${moscowDayStart(v)}::timestamptz`),
      when(f.date_to, (v) => sql`l.created_at < ${moscowDayStart(v)}::timestamptz + interval '1 day'`),
    ]),
    order: sql`l.created_at desc, l.id desc`,
    page,
    prepared: true,
    map: (r) => ({
      id: r.id,
      type: r.type as ChangeLogType,
      type_label: changeLogTypeLabels[r.type as ChangeLogType] ?? r.type,
      entity_id: r.entity_id,
      user: r.user_id !== null && r.fio ? { id: r.user_id, fio: r.fio } : null,
      user_label: r.fio ?? SYSTEM_USER_LABEL,
      impersonator: r.impersonator_id !== null && r.impersonator_fio ? { id: r.impersonator_id, fio: r.impersonator_fio } : null,
      diff: r.diff,
      created_at: new Date(r.created_at).toISOString(),
      created_at_formatted: formatDateTime(r.created_at),
    }),
  });
  const present = await diffPresenter(database.db, list.data);
  return { ...list, data: list.data.map((r) => ({ ...r, changes: present(r) })) };
}

/** A request_logs row: the answer's fields before the date is formatted. */
type RequestRow = Omit<RequestLogRow, 'created_at' | 'created_at_formatted'> & { created_at: Date | string };

/** The request log (/manager/api-requests): newest first; errorsOnly keeps statuses of 400 and above. */
export function listRequestLogs(database: Database, f: { errorsOnly: boolean }, page: ListQuery): Promise<ListPage<RequestLogRow>> {
  return listPage<RequestRow, RequestLogRow>(database, {
    select: sql`select r.id, r.method, r.path, r.status, r.duration_ms, r.memory_mb, r.ip, r.response, r.created_at`,
    from: sql`from request_logs r`,
    where: f.errorsOnly ? sql`r.status >= 400` : sql`true`,
    order: sql`r.created_at desc, r.id desc`,
    page,
    prepared: true,
    // The log grows by every request: the page links stop counting at 10 000.
    countCap: REQUEST_LOG_COUNT_CAP,
    map: (r) => ({
      id: r.id,
      method: r.method,
      path: r.path,
      status: r.status,
      duration_ms: Number(r.duration_ms),
      memory_mb: Number(r.memory_mb),
      ip: r.ip,
      response: r.response,
      created_at: new Date(r.created_at).toISOString(),
      created_at_formatted: formatDateTime(r.created_at),
    }),
  });
}
