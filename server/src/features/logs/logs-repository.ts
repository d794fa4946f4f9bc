import { sql, type SQL } from 'drizzle-orm';
import { packageNamed, quoted } from '@edu/domain/common/quotes';
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
import { allOf, containsPattern, fioCondition, listPage, prefixPattern, when, type ListPage } from '../../platform/list-query.ts';
import { moscowDayStart } from '@edu/domain/common/moscow-time';

interface ChangeRow {
  id: number;
  type: string;
  entity_id: number;
  /** The record's own name parts (left joins on the row's type; null when it no longer exists). */
  entry_number: string | null;
  entry_title: string | null;
  entry_deleted: boolean | null;
  publication_title: string | null;
  record_fio: string | null;
  service_title: string | null;
  package_title: string | null;
  payment_id: number | null;
  payment_numbers: string | null;
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
  /** The record as a person knows it: entry number, client's name or e-mail, publication title, Id. */
  record?: string;
  /** Who acted: a part of the user's or the acting operator's name. */
  fio?: string;
  /** Moscow days, dd.mm.yyyy, both included. */
  date_from?: string;
  date_to?: string;
}

/** An entry number or its beginning: 2611-00071, 2611-0007. */
const ENTRY_NUMBER = /^\d{4}-\d{1,5}$/;

/**
 * The rows of a record a person names: an entry number (the entry, its payments and publications),
 * digits (the Id of a record of any kind), or words (a client by name or e-mail: their profile,
 * entries, payments and publications; a publication by its title).
 */
function recordCondition(v: string): SQL {
  if (ENTRY_NUMBER.test(v)) {
    const numbered = sql`select id from entries where number like ${prefixPattern(v)}`;
    return sql`((l.type = 'entry' and l.entity_id in (${numbered}))
      or (l.type = 'payment' and l.entity_id in (select payment_id from payment_entries where entry_id in (${numbered})))
      or (l.type = 'publication' and l.entity_id in (select publication_id from publication_entries where entry_id in (${numbered}))))`;
  }
  if (/^\d+$/.test(v)) return Number(v) <= 2147483647 ? sql`l.entity_id = ${Number(v)}` : sql`false`;
  const byName = fioCondition(v, 'u');
  const people = sql`select u.id from users u where u.email ilike ${containsPattern(v)}${byName ? sql` or (${byName})` : sql``}`;
  return sql`((l.type = 'user' and l.entity_id in (${people}))
    or (l.type = 'entry' and l.entity_id in (select id from entries where created_by in (${people})))
    or (l.type = 'payment' and l.entity_id in (select id from payments where user_id in (${people})))
    or (l.type = 'publication' and l.entity_id in (
      select id from publications where title ilike ${containsPattern(v)} or created_by in (${people})
      union select pe.publication_id from publication_entries pe join entries pe_e on pe_e.id = pe.entry_id where pe_e.created_by in (${people}))))`;
}

/** «Заявка 2611-00071 «Конференция…»» and where it is shown; the type and the Id when the record is gone. */
function recordOf(r: ChangeRow): { label: string; url: string | null } {
  const q = (v: string) => encodeURIComponent(v);
  switch (r.type as ChangeLogType) {
    case 'entry':
      if (r.entry_number)
        return {
          label: `Заявка ${r.entry_number}${r.entry_title ? ` ${quoted(r.entry_title)}` : ''}`,
          url: `/manager/entry?number=${q(r.entry_number)}${r.entry_deleted ? '&deleted=1' : ''}`,
        };
      break;
    case 'publication':
      if (r.publication_title !== null)
        return { label: `Публикация ${quoted(r.publication_title)}`, url: `/manager/publication?title=${q(r.publication_title)}` };
      break;
    case 'user':
      if (r.record_fio) return { label: `Пользователь ${r.record_fio}`, url: `/manager/users?id=${r.entity_id}` };
      break;
    case 'service':
      if (r.service_title !== null) return { label: `Услуга ${quoted(r.service_title)}`, url: `/manager/all-services?q=${q(r.service_title)}` };
      break;
    case 'service_package':
      if (r.package_title !== null) return { label: packageNamed(r.package_title), url: '/manager/service-package' };
      break;
    case 'payment':
      if (r.payment_id !== null) {
        const numbers = r.payment_numbers ?? '';
        const first = numbers.split(', ')[0];
        return {
          label: `Платёж № ${r.payment_id}${numbers ? `, ${numbers.includes(',') ? 'заявки' : 'заявка'} ${numbers}` : ''}`,
          url: first ? `/manager/payments?entry_number=${q(first)}` : '/manager/payments',
        };
      }
      break;
    case 'bank_statement_line':
      // The line's payment and payer are in the diff itself; the list shows every line's state.
      return { label: `Строка банковской выписки #${r.entity_id}`, url: '/manager/bank-statements?status=all' };
  }
  return { label: `${changeLogTypeLabels[r.type as ChangeLogType] ?? r.type} #${r.entity_id}`, url: null };
}

/** The change log (/manager/logs, the entry history modal): newest first, filtered; each diff in Russian. */
export async function listChangeLogs(database: Database, f: ChangeLogFilters, page: ListQuery): Promise<ListPage<ChangeLogRow>> {
  const list = await listPage<ChangeRow, Omit<ChangeLogRow, 'changes'>>(database, {
    select: sql`select l.id, l.type, l.entity_id, l.user_id, l.impersonator_id, l.diff, l.created_at,
      (select concat_ws(' ', u.last_name, u.first_name, u.middle_name) from users u where u.id = l.user_id) as fio,
      (select concat_ws(' ', o.last_name, o.first_name, o.middle_name) from users o where o.id = l.impersonator_id) as impersonator_fio,
      e.number as entry_number, es.title as entry_title, e.deleted_at is not null as entry_deleted, p.title as publication_title,
      concat_ws(' ', ru.last_name, ru.first_name, ru.middle_name) as record_fio, s.title as service_title, sp.title as package_title,
      pay.id as payment_id,
      (select string_agg(pe2.number, ', ' order by pe2.number) from payment_entries pe join entries pe2 on pe2.id = pe.entry_id where pe.payment_id = pay.id) as payment_numbers`,
    // Each row's record by name: one left join per kind, on the row's type (a page is one statement).
    from: sql`from change_logs l
      left join entries e on l.type = 'entry' and e.id = l.entity_id
      left join services es on es.id = e.service_id
      left join publications p on l.type = 'publication' and p.id = l.entity_id
      left join users ru on l.type = 'user' and ru.id = l.entity_id
      left join services s on l.type = 'service' and s.id = l.entity_id
      left join service_packages sp on l.type = 'service_package' and sp.id = l.entity_id
      left join payments pay on l.type = 'payment' and pay.id = l.entity_id`,
    countFrom: sql`from change_logs l`,
    where: allOf([
      when(f.type, (v) => sql`l.type = ${v}`),
      when(f.entity_id, (v) => sql`l.entity_id = ${v}`),
      when(f.record, recordCondition),
      when(f.fio, (v) => sql`exists (select 1 from users u where u.id in (l.user_id, l.impersonator_id) and ${fioCondition(v, 'u')})`),
      when(f.date_from, (v) => sql`l.created_at >= ${moscowDayStart(v)}::timestamptz`),
      when(f.date_to, (v) => sql`l.created_at < ${moscowDayStart(v)}::timestamptz + interval '1 day'`),
    ]),
    order: sql`l.created_at desc, l.id desc`,
    page,
    // A record filter binds LIKE patterns: its plan depends on the value.
    prepared: !f.record,
    map: (r) => ({
      id: r.id,
      type: r.type as ChangeLogType,
      type_label: changeLogTypeLabels[r.type as ChangeLogType] ?? r.type,
      entity_id: r.entity_id,
      record: recordOf(r),
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
