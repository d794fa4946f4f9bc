import { sql, type SQL } from 'drizzle-orm';
import {
  ContractStatus,
  EntryStatus,
  entryStatusLabels,
  payTypeLabels,
  publicationStatusLabels,
  Role,
  type EntryStatusCode,
  type PayTypeCode,
  isPaidStatus,
} from '@edu/domain/common/codes';
import { contractStatusColors, contractStatusLabels, type ContractStatusCode } from '@edu/domain/contracts/contract';
import { publicationStatusColors } from '@edu/domain/publications/publication';
import { PRINT_KINDS, printRefusal } from '@edu/domain/documents/print';
import { formatDate } from '@edu/domain/common/format';
import { COUNT_CAP, type PageQuery, type SortValue } from '@edu/domain/common/pagination';
import { canEditThesis, clientMayChange, statusColors, type Entry, type entryListQuery, type EntrySortKey } from '@edu/domain/entries/entry';
import type { EntryHistoryItem } from '@edu/domain/entries/entry-admin';
import type { z } from 'zod';
import { PACKAGE_PAY_WINDOW_MIN } from '@edu/domain/service-packages/service-package';
import { compileStatement, rows, type CompiledStatement, type Database, type Queryable } from '../../platform/db.ts';
import { formatInterval, moscowDayStart, toMoscowString } from '@edu/domain/common/moscow-time';
import { printColumns, publicationJoin, toPrintContext, type PrintColumnsRow } from '../print/print-context.ts';
import { fileRecord } from '../documents/documents-repository.ts';
import {
  afterKey,
  containsPattern,
  fioWords,
  fullNameExpression,
  intArray,
  listSort,
  nameWordMatches,
  prefixPattern,
  sortSql,
  trigramsServe,
  type ListSort,
  type SortColumn,
} from '../../platform/list-query.ts';
import { isGuest } from '../../platform/access.ts';

interface EntryRow extends PrintColumnsRow {
  id: number;
  number: string;
  created_by: number;
  user_fio: string;
  user_role: number;
  service_id: number;
  service_title: string;
  dict_type_id: number;
  type_fdv: string | null;
  date_type: number;
  begda: Date | string | null;
  endda: Date | string | null;
  is_thesis_needed: boolean;
  points: number;
  section_id: number | null;
  section_title: string | null;
  is_extramural: number;
  price: string | number;
  status: number;
  is_service_package: boolean;
  package_enrollment_id: number | null;
  package_title: string | null;
  package_price: string | number | null;
  package_broken: boolean | null;
  package_created_at: Date | string | null;
  thesis_text: string | null;
  certificate_number: string | null;
  registration_number: string | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
  awaiting_provider: boolean;
  member_fio: string | null;
  member_title: string | null;
  member_comment: string | null;
  publication_id: number | null;
  publication_title: string | null;
  contract_id: number | null;
  contract_status: number | null;
  contract_comment: string | null;
  contract_file: { id: number; name: string; mime: string; size: number; created_at: string } | null;
}

/** The entry's columns over ENTRY_FROM's aliases (one list of them, for the lists and findEntry). */
const ENTRY_COLUMNS = sql`
  e.id, e.number, e.created_by, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as user_fio, u.role as user_role,
    e.service_id, s.title as service_title, s.dict_type_id, t.fdv as type_fdv,
    s.date_type, s.begda, s.endda, s.is_thesis_needed, s.points,
    -- What the print menu needs: the templates in force and the publication status (print feature).
    ${printColumns},
    e.section_id, sec.title as section_title, e.is_extramural, e.price, e.status, e.is_service_package,
    e.package_enrollment_id, pe.title as package_title, pe.price as package_price, (pe.broken_at is not null) as package_broken, pe.created_at as package_created_at,
    th.text as thesis_text, cm.fio as member_fio, cm.title as member_title, cm.comment as member_comment, e.certificate_number, e.registration_number, e.created_at, e.deleted_at,
    (e.is_service_package and e.status = 1 and exists (select 1 from card_transactions ct
       where ct.uuid is not null and ct.status in ('pending', 'waiting_for_capture') and ct.entry_ids @> jsonb_build_array(e.id))) as awaiting_provider,
    pub.id as publication_id, pub.title as publication_title,
    ctr.id as contract_id, ctr.status as contract_status, ctr.comment as contract_comment,
    (select json_build_object('id', cf.id, 'name', cf.name, 'mime', cf.mime, 'size', cf.size, 'created_at', cf.created_at) from files cf where cf.id = ctr.file_id and cf.deleted_at is null) as contract_file`;

const ENTRY_FROM = sql`
  from entries e
  join users u on u.id = e.created_by
  join services s on s.id = e.service_id
  left join dict_service_types t on t.id = s.dict_type_id
  left join dict_service_subtypes st on st.id = s.dict_subtype_id
  left join service_sections sec on sec.id = e.section_id
  left join entry_theses th on th.entry_id = e.id
  left join package_enrollments pe on pe.id = e.package_enrollment_id
  left join competition_members cm on cm.entry_id = e.id
  left join contracts ctr on ctr.entry_id = e.id
  ${publicationJoin}`;

const SELECT = sql`select ${ENTRY_COLUMNS} ${ENTRY_FROM}`;

/** Which documents the asker may print now (spec 01 §4 Printing): the print page's own rules. */
function printMenu(r: EntryRow, asOperator: boolean): Pick<Entry, 'printable' | 'can_print_certificate'> {
  const context = toPrintContext(r, Boolean(r.deleted_at));
  const role = asOperator ? Role.operator : Role.user;
  const printable = PRINT_KINDS.filter((kind) => !printRefusal(kind, context, role));
  return { printable, can_print_certificate: printable.includes('certificate') };
}

/** The contract of an entry whose type needs one; pending without a file until a scan is uploaded. */
function contractOf(r: EntryRow): Entry['contract'] {
  if (!r.contract_needed && r.contract_id === null) return null;
  const status = (r.contract_status ?? ContractStatus.pending) as ContractStatusCode;
  return {
    id: r.contract_id,
    status,
    statusLabel: contractStatusLabels[status],
    statusColor: contractStatusColors[status],
    comment: r.contract_comment,
    file: r.contract_file ? fileRecord({ ...r.contract_file, size: Number(r.contract_file.size) }) : null,
  };
}

export function toEntry(r: EntryRow, asOperator: boolean): Entry {
  const status = r.status as EntryStatusCode;
  return {
    id: r.id,
    number: r.number,
    created_by: r.created_by,
    user: { id: r.created_by, fio: r.user_fio, is_guest: isGuest({ role: r.user_role }) },
    service_id: r.service_id,
    service: {
      id: r.service_id,
      title: r.service_title,
      dict_type_id: r.dict_type_id,
      type: r.type_fdv,
      date_type: r.date_type,
      interval_formatted: r.date_type === 1 ? formatInterval(r.begda, r.endda) : null,
      begda: toMoscowString(r.begda),
      is_thesis_needed: r.is_thesis_needed,
      is_publication: r.is_publication,
      template_certificate_id: r.certificate_template_id,
      points: r.points,
    },
    section_id: r.section_id,
    section: r.section_id && r.section_title ? { id: r.section_id, title: r.section_title } : null,
    pay_type: r.pay_type,
    payTypeLabel: payTypeLabels[r.pay_type as PayTypeCode] ?? '',
    is_extramural: r.is_extramural,
    price: Number(r.price),
    status,
    statusLabel: entryStatusLabels[status],
    statusColor: statusColors[status],
    is_paid: isPaidStatus(status),
    is_service_package: r.is_service_package,
    package_enrollment:
      r.package_enrollment_id !== null && r.package_title !== null
        ? {
            id: r.package_enrollment_id,
            title: r.package_title,
            price: Number(r.package_price),
            broken: Boolean(r.package_broken),
            // The expiry job removes a whole unpaid package this long after it was bought (decision 009).
            reserved_until:
              !r.package_broken && r.status === EntryStatus.notPaid && !r.deleted_at && r.package_created_at
                ? new Date(new Date(r.package_created_at).getTime() + PACKAGE_PAY_WINDOW_MIN * 60_000).toISOString()
                : null,
          }
        : null,
    is_thesis_needed: r.is_thesis_needed,
    thesis: r.thesis_text === null ? null : { text: r.thesis_text, entry_id: r.id },
    certificate_number: r.certificate_number,
    registration_number: r.registration_number,
    created_at_formatted: formatDate(r.created_at),
    deleted_at: r.deleted_at ? new Date(r.deleted_at).toISOString() : null,
    awaiting_provider: r.awaiting_provider,
    can_edit: !r.deleted_at && (asOperator || clientMayChange({ status, price: Number(r.price) })),
    can_edit_thesis: !r.deleted_at && r.is_thesis_needed && canEditThesis({ status, hasThesis: r.thesis_text !== null }, asOperator),
    competition_member:
      asOperator && r.member_fio !== null ? { entry_id: r.id, fio: r.member_fio, title: r.member_title ?? '', comment: r.member_comment ?? '' } : null,
    publication:
      r.publication_id !== null && r.publication_status !== null
        ? {
            id: r.publication_id,
            title: r.publication_title ?? '',
            status: r.publication_status,
            statusLabel: publicationStatusLabels[r.publication_status] ?? '',
            statusColor: publicationStatusColors[r.publication_status] ?? 'gray',
          }
        : null,
    contract: contractOf(r),
    can_add_publication: r.is_publication && !r.deleted_at && r.publication_id === null,
    ...printMenu(r, asOperator),
  };
}

export interface EntryFilters {
  /** Users see only their own entries. */
  ownerId?: number;
  id?: number;
  number?: string;
  fio?: string;
  type?: number;
  service?: string;
  service_id?: number;
  status?: number;
  /** dd.mm.yyyy of creation, Moscow time. */
  date?: string;
  deleted?: boolean;
  created_by?: number;
  /** Unpaid entries of dated services that have already begun (the dashboard's to-do). */
  overdue?: boolean;
  sort?: SortValue<EntrySortKey>;
}

/** An entry (alias e) still unpaid although its service, one with dates, has begun. */
export const ENTRY_OVERDUE = sql`(e.status = ${EntryStatus.notPaid}
  and exists (select 1 from services os where os.id = e.service_id and os.date_type = 1 and os.begda < now()))`;

/**
 * The sortable columns of the entry list and its export (alias e; fio needs users u, service needs
 * services s). Each has an index in its order over live entries (migration entries_sorts): the
 * first page of any sort over a million entries reads a page's worth of index, not the table.
 * The client's name is the expression of users_full_name_sort_idx; the service's title that of
 * services_title_sort_idx (the entries of each user or service then come by their own index).
 */
export const ENTRY_SORT_COLUMNS: Record<EntrySortKey, SortColumn & { join?: 'users' | 'services' }> = {
  created_at: { sql: sql`e.created_at`, type: 'timestamptz' },
  number: { sql: sql`e.number`, type: 'text' },
  fio: { sql: fullNameExpression('u'), type: 'text', join: 'users' },
  service: { sql: sql`s.title`, type: 'text', join: 'services' },
  price: { sql: sql`e.price`, type: 'numeric' },
  status: { sql: sql`e.status`, type: 'int' },
};

/** The entry list's order for `?sort=`; newest first by default. */
export function entrySort(sort: SortValue<EntrySortKey> | undefined): ListSort & { key: EntrySortKey; join?: 'users' | 'services' } {
  const s = listSort(sort, ENTRY_SORT_COLUMNS, '-created_at', sql`e.id`);
  return { ...s, join: ENTRY_SORT_COLUMNS[s.key].join };
}

/** The joins a sort needs beside entries e. */
export const SORT_JOINS = { users: sql`join users u on u.id = e.created_by`, services: sql`join services s on s.id = e.service_id` } as const;

/** GET /api/entry's query as the repository takes it; a client's own entries only (`ownerId`), an operator's any. */
export function entryFiltersOf(q: z.output<typeof entryListQuery>, ownerId?: number): EntryFilters {
  return {
    ownerId,
    id: q.id,
    number: q.number,
    fio: ownerId === undefined ? q.fio : undefined,
    type: q.type,
    service: q.service,
    service_id: q.service_id,
    status: q.status,
    date: q.date,
    deleted: q.deleted === '1' || q.deleted === 'true',
    created_by: ownerId === undefined ? q.created_by : undefined,
    overdue: q.overdue === '1' || q.overdue === 'true' ? true : undefined,
    sort: q.sort,
  };
}

/** Conditions on entries alone: every filter but fio and the service title. */
function entryConditions(f: EntryFilters, typeColumn: SQL): SQL[] {
  const parts: SQL[] = [f.deleted ? sql`e.deleted_at is not null` : sql`e.deleted_at is null`];
  if (f.ownerId !== undefined) parts.push(sql`e.created_by = ${f.ownerId}`);
  if (f.created_by !== undefined) parts.push(sql`e.created_by = ${f.created_by}`);
  if (f.id !== undefined) parts.push(sql`e.id = ${f.id}`);
  // Numbers are matched by their beginning ('2611-0004'), which the prefix index serves.
  if (f.number) parts.push(sql`e.number like ${prefixPattern(f.number)}`);
  if (f.type !== undefined) parts.push(sql`${typeColumn} = ${f.type}`);
  if (f.service_id !== undefined) parts.push(sql`e.service_id = ${f.service_id}`);
  if (f.status !== undefined) parts.push(sql`e.status = ${f.status}`);
  if (f.overdue) parts.push(ENTRY_OVERDUE);
  if (f.date) {
    const start = moscowDayStart(f.date);
    parts.push(sql`e.created_at >= ${start}::timestamptz and e.created_at < ${start}::timestamptz + interval '1 day'`);
  }
  return parts;
}

/** The WHERE of the one-statement list (a client's own entries), over SELECT's joins. */
export function whereOf(f: EntryFilters): SQL {
  const parts = entryConditions(f, sql`s.dict_type_id`);
  if (f.fio) for (const word of fioWords(f.fio)) parts.push(nameWordMatches(word, 'u'));
  if (f.service) parts.push(sql`s.title ilike ${containsPattern(f.service)}`);
  return sql.join(parts, sql` and `);
}

/**
 * One batch of an export: the ids (and sort keys as text) of the next `limit` entries in the list's
 * order after `after` (keyset on the sort column and id), read from entries and only the tables the
 * filters and the sort need. A query of its own, so the batch is read in index order and stops at the
 * limit: joined with the export's wide columns, the planner (which estimates a keyset condition by its
 * first column) sorted every remaining row for each batch when many entries share a price.
 */
export function entryBatchSql(f: EntryFilters, sort: ReturnType<typeof entrySort>, after: { key: string; id: number } | null, limit: number): SQL {
  const parts = entryConditions(f, sql`e.service_type_id`);
  const joins = new Map<string, SQL>();
  if (f.fio) {
    joins.set('users', SORT_JOINS.users);
    for (const word of fioWords(f.fio)) parts.push(nameWordMatches(word, 'u'));
  }
  if (f.service) {
    joins.set('services', SORT_JOINS.services);
    parts.push(sql`s.title ilike ${containsPattern(f.service)}`);
  }
  if (sort.join) joins.set(sort.join, SORT_JOINS[sort.join]);
  if (after) parts.push(afterKey(sort, after));
  return sql`select e.id, ${sort.column.sql}::text as sort_key from entries e ${sql.join([...joins.values()], sql` `)}
    where ${sql.join(parts, sql` and `)} order by ${sortSql(sort)} limit ${limit}`;
}

/** ?fio= matching at most this many users: entries are taken by their ids (else joined). */
export const FIO_USERS_CAP = 5_000;
/** ?service= matching at most this many services: entries are taken by their ids (else joined). */
export const TITLE_SERVICES_CAP = 2_000;
/**
 * More matching users or services than this, newest first: the page walks the newest live entries
 * (entries_live_newest_idx, which holds the filters' columns) and keeps those of the matches,
 * instead of reading each match's newest entries.
 */
export const WALK_FROM = 100;

/**
 * The ids of at most `cap` rows, or null when more match (the caller joins instead), as one array
 * (one row to read, not thousands). Prepared when the trigram index serves the typed text whatever
 * its value (trigramsServe).
 */
async function idsUpTo(database: Database, query: SQL, cap: number, typed: string): Promise<number[] | null> {
  const limited = sql`select count(*) > ${cap} as over, coalesce(array_agg(x.id), '{}') as ids from (${query} limit ${cap + 1}) x`;
  const [found] = trigramsServe([typed])
    ? await database.prepared<{ over: boolean; ids: number[] }>(null, limited)
    : await rows<{ over: boolean; ids: number[] }>(database.db, limited);
  return found.over ? null : found.ids;
}

const empty = { data: [] as Entry[], total: 0 };

/**
 * The operators' list (issue 10), in two steps: the page's ids (and the capped count) from entries
 * and only the tables the filters need, then ONE wide select of those ids. The wide select's nine
 * joins and correlated subqueries cost 10-40 ms to plan when the filter is part of it; by ids it is
 * a named statement with a plan reused per connection. A name filter first finds the matching
 * users (up to FIO_USERS_CAP, trigram index on the full name), a title filter the matching services
 * (up to TITLE_SERVICES_CAP, trigram index on titles); entries are then read by created_by or
 * service_id through their (…, created_at desc, id desc) indexes of live entries. More matches than
 * that: the filter is a join, and such a broad filter finds its page early in date order anyway.
 */
async function listEntriesForOperator(database: Database, f: EntryFilters, page: PageQuery, asOperator: boolean): Promise<{ data: Entry[]; total: number }> {
  const parts = entryConditions(f, sql`e.service_type_id`);
  const sort = entrySort(f.sort);
  const joins = new Map<string, SQL>();
  // The id list that drives the page (matching users, else matching services), if any.
  let driver: { column: SQL; ids: number[] } | null = null;
  if (f.fio) {
    const words = fioWords(f.fio);
    // user_names (one narrow row per user, in lower case) rather than users: the trigram index's
    // candidates are rechecked in the table, and a users row is about 1 KB (bench/README.md, issue 34).
    const users = await idsUpTo(
      database,
      sql`select n.user_id as id from user_names n where ${sql.join(
        words.map((w) => sql`n.full_name like lower(${containsPattern(w)})`),
        sql` and `,
      )}`,
      FIO_USERS_CAP,
      words.join(' '),
    );
    if (users?.length === 0) return empty;
    if (users) driver = { column: sql`e.created_by`, ids: users };
    else {
      joins.set('users', SORT_JOINS.users);
      for (const w of words) parts.push(nameWordMatches(w, 'u'));
    }
  }
  if (f.service) {
    // service_titles (narrow, in lower case) rather than services, as user_names for the names above.
    const services = await idsUpTo(
      database,
      sql`select t.service_id as id from service_titles t where t.title like lower(${containsPattern(f.service)})`,
      TITLE_SERVICES_CAP,
      f.service,
    );
    if (services?.length === 0) return empty;
    if (services && !driver) driver = { column: sql`e.service_id`, ids: services };
    else if (services) parts.push(sql`e.service_id = any(${intArray(services)})`);
    else {
      joins.set('services', SORT_JOINS.services);
      parts.push(sql`s.title ilike ${containsPattern(f.service)}`);
    }
  }
  // A broad filter joined its table above; a sort by the client's name or the service's title joins
  // its table for the page's ids (the count does without it).
  const byPattern = Boolean(f.number) || joins.size > 0;
  const countFrom = sql`from entries e ${sql.join([...joins.values()], sql` `)}`;
  // A sort that joins cannot be walked per matching user or service: the matches are then a plain
  // condition (at most FIO_USERS_CAP users' or TITLE_SERVICES_CAP services' entries, sorted).
  if (driver && sort.join) {
    parts.push(sql`${driver.column} = any(${intArray(driver.ids)})`);
    driver = null;
  }
  // Many matches, newest first: the page's ids by walking the newest live entries (the walk finds a
  // page after about per_page × entries ÷ the matches' entries index rows), the count per match as
  // below. The id list is a hashed set the walk looks each entry up in: `coalesce(… in (select
  // unnest(…)), false)` is a subquery the planner cannot turn into a join (it would read every
  // match's entries through their own index), hashed once per statement. Written `= any(…)`, the
  // prepared (generic) plan compared each walked entry with the whole list in turn: 5.7 ms instead of
  // 0.6 for the 1 966 clients of «Смирнова» (bench/README.md, issue 34).
  const walk = driver !== null && driver.ids.length > WALK_FROM && sort.key === 'created_at' ? driver : null;
  const countWhere = sql.join([...parts], sql` and `);
  if (sort.join) joins.set(sort.join, SORT_JOINS[sort.join]);
  // Sorted by title, the walk of services in title order takes only the type's services (the copy
  // on entries alone would be checked entry by entry, service after service). The page's ids only.
  if (sort.join === 'services' && f.type !== undefined) parts.push(sql`s.dict_type_id = ${f.type}`);
  const from = sql`from entries e ${sql.join([...joins.values()], sql` `)}`;
  const where = sql.join(parts, sql` and `);
  const offset = (page.page - 1) * page.per_page;
  const order = sql`order by ${sortSql(sort)}`;
  let countSql: SQL;
  let idsSql: SQL;
  if (driver) {
    // Per matching user (or service): its newest offset + per_page entries, from the index of
    // (created_by | service_id, created_at desc, id desc) of live entries; then the newest of those.
    // Written as a lateral join so the planner cannot walk all entries by date instead (it does
    // when it overestimates how many entries the ids have).
    const { column, ids } = driver;
    const each = (select: SQL, rest: SQL) =>
      sql`from unnest(${intArray(ids)}) as m(id) cross join lateral (${select} ${from} where ${column} = m.id and ${where} ${rest}) x`;
    countSql = sql`select count(*)::int as total from (select 1 ${each(sql`select 1`, sql`limit ${COUNT_CAP + 1}`)} limit ${COUNT_CAP + 1}) y`;
    idsSql = walk
      ? sql`select e.id ${from} where coalesce(${column} in (select unnest(${intArray(ids)})), false) and ${where} ${order} limit ${page.per_page} offset ${offset}`
      : sql`select x.id ${each(sql`select e.id, ${sort.column.sql} as k`, sql`${order} limit ${offset + page.per_page}`)} order by ${sortSql(sort, sql`x.k`, sql`x.id`)} limit ${page.per_page} offset ${offset}`;
  } else {
    countSql = sql`select count(*)::int as total from (select 1 ${countFrom} where ${countWhere} limit ${COUNT_CAP + 1}) x`;
    idsSql = sql`select e.id ${from} where ${where} ${order} limit ${page.per_page} offset ${offset}`;
  }
  // A LIKE pattern needs a plan made for its value (a prefix uses the index only then): the number
  // filter, and a name or title too broad for the id lists. Those statements are not prepared.
  const run = <T>(query: SQL) => (byPattern ? rows<T>(database.db, query) : database.prepared<T>(null, query));
  // Past COUNT_CAP the total is reported as COUNT_CAP + 1 ('more than 1 000').
  // The capped count and the page's ids in one round trip.
  const [{ total, ids }] = await run<{ total: number; ids: number[] }>(sql`select (${countSql}) as total, array(${idsSql}) as ids`);
  if (ids.length === 0) return { data: [], total };
  const list = await database.prepared<EntryRow>(null, sql`${SELECT} where e.id = any(${intArray(ids)}) ${order}`);
  return { data: list.map((r) => toEntry(r, asOperator)), total };
}

/** A page of entries with its total; for a client's own list also the theses banner (always false for operators). */
export interface EntryList {
  data: Entry[];
  total: number;
  thesesAwaited: boolean;
}

/** The banner of /user/entry: the client has live entries whose service needs theses, without them. */
const thesesAwaited = (owner: SQL) =>
  sql`exists (select 1 from entries ta join services tas on tas.id = ta.service_id
        where ta.created_by = ${owner} and ta.deleted_at is null and tas.is_thesis_needed
          and not exists (select 1 from entry_theses tt where tt.entry_id = ta.id))`;

/**
 * A client's own list in one round trip: the page's rows carry the total and the banner (subqueries
 * that do not depend on the row, so PostgreSQL runs each once per statement). A page with no rows
 * (an empty list, or past its end) asks for the two alone (`totals`).
 */
function ownListSql(f: EntryFilters, owner: SQL, limit: SQL | number, offset: SQL | number): { list: SQL; totals: SQL } {
  const where = whereOf({ ...f, ownerId: owner as unknown as number });
  // The count has its own entries e (and the services s a type or title filter reads), so its
  // conditions never reach the page's row.
  const figures = sql`(select count(*)::int from entries e ${countJoins(f)} where ${where}) as total, ${thesesAwaited(owner)} as theses_awaited`;
  return {
    list: sql`select ${ENTRY_COLUMNS}, ${figures} ${ENTRY_FROM} where ${where} order by ${sortSql(entrySort(f.sort))} limit ${limit} offset ${offset}`,
    totals: sql`select ${figures}`,
  };
}

type OwnListRow = EntryRow & { total: number; theses_awaited: boolean };

/** A client's own list without filters (the default page of their entries: the busy path), rendered once per sort. */
const ownListStatements = new Map<string, { list: CompiledStatement; totals: CompiledStatement }>();

function ownListStatementsOf(f: EntryFilters): { list: CompiledStatement; totals: CompiledStatement } {
  const key = `${f.deleted ? 'deleted' : 'live'} ${f.sort ?? ''}`;
  let found = ownListStatements.get(key);
  if (!found) {
    const { list, totals } = ownListSql(
      { deleted: f.deleted, sort: f.sort },
      sql.placeholder('owner') as unknown as SQL,
      sql.placeholder('limit') as unknown as SQL,
      sql.placeholder('offset') as unknown as SQL,
    );
    found = {
      // Planning its joins and lookups costs about ten times running it for one page, and left to
      // itself PostgreSQL plans it again on every call for a busy client (bench/README.md, A/B).
      list: compileStatement(null, list, { generic: true }),
      totals: compileStatement(null, totals),
    };
    ownListStatements.set(key, found);
  }
  return found;
}

const hasFilter = (f: EntryFilters) =>
  [f.id, f.number, f.fio, f.type, f.service, f.service_id, f.status, f.date, f.created_by, f.overdue].some((v) => v !== undefined && v !== '');

/** A client's own list: the page's rows and, when the page is empty, the totals alone. */
async function listOwnEntries(database: Database, f: EntryFilters, ownerId: number, page: PageQuery, asOperator: boolean): Promise<EntryList> {
  const limit = page.per_page;
  const offset = (page.page - 1) * page.per_page;
  let list: OwnListRow[];
  let totals: () => Promise<{ total: number; theses_awaited: boolean }[]>;
  if (!hasFilter(f)) {
    const statements = ownListStatementsOf(f);
    list = await database.run<OwnListRow>(statements.list, { owner: ownerId, limit, offset });
    totals = () => database.run(statements.totals, { owner: ownerId });
  } else {
    const statements = ownListSql(f, sql`${ownerId}`, limit, offset);
    // A LIKE pattern needs a plan made for its value (a prefix uses the index only then), so those
    // queries are not prepared; the rest are.
    const byPattern = Boolean(f.number || f.service);
    const run = <T>(query: SQL) => (byPattern ? rows<T>(database.db, query) : database.prepared<T>(null, query));
    list = await run<OwnListRow>(statements.list);
    totals = () => run(statements.totals);
  }
  const [figures] = list.length > 0 ? list : await totals();
  return { data: list.map((r) => toEntry(r, asOperator)), total: figures!.total, thesesAwaited: figures!.theses_awaited };
}

/** Lists are prepared statements (planning cost more than running them); see Database.prepared. */
export async function listEntries(database: Database, f: EntryFilters, page: PageQuery, asOperator: boolean): Promise<EntryList> {
  if (f.ownerId === undefined) return { ...(await listEntriesForOperator(database, f, page, asOperator)), thesesAwaited: false };
  return listOwnEntries(database, f, f.ownerId, page, asOperator);
}

/** The joins a client's count needs: counting a user's entries needs neither users nor services. */
function countJoins(f: EntryFilters): SQL {
  const parts: SQL[] = [];
  if (f.fio) parts.push(sql`join users u on u.id = e.created_by`);
  if (f.type !== undefined || f.service) parts.push(sql`join services s on s.id = e.service_id`);
  return sql.join(parts, sql` `);
}

/** One entry; with ownerId set, only when it belongs to that user. Deleted ones included. */
export async function findEntry(db: Queryable, id: number, opts: { ownerId?: number; asOperator: boolean }): Promise<Entry | null> {
  const owner = opts.ownerId === undefined ? sql`true` : sql`e.created_by = ${opts.ownerId}`;
  const [row] = await rows<EntryRow>(db, sql`${SELECT} where e.id = ${id} and ${owner}`);
  return row ? toEntry(row, opts.asOperator) : null;
}

/** Whether an entry with this id exists (deleted ones included). */
export async function entryExists(db: Queryable, id: number): Promise<boolean> {
  const [exists] = await rows<{ id: number }>(db, sql`select id from entries where id = ${id}`);
  return Boolean(exists);
}

/** How many changes the entry's log holds. */
export async function countEntryHistory(db: Queryable, entryId: number): Promise<number> {
  const [{ total }] = await rows<{ total: number }>(db, sql`select count(*)::int as total from change_logs where type = 'entry' and entity_id = ${entryId}`);
  return total;
}

/** A change of an entry with the names of who made it (and who acted for them), as read. */
export interface EntryHistoryRow {
  id: number;
  fio: string | null;
  impersonator: string | null;
  created_at: Date | string;
  diff: EntryHistoryItem['diff'];
}

/** A page of the entry's changes, newest first. */
export async function listEntryHistory(db: Queryable, entryId: number, page: PageQuery): Promise<EntryHistoryRow[]> {
  return rows<EntryHistoryRow>(
    db,
    sql`select l.id, nullif(concat_ws(' ', u.last_name, u.first_name, u.middle_name), '') as fio,
          nullif(concat_ws(' ', o.last_name, o.first_name, o.middle_name), '') as impersonator, l.created_at, l.diff
        from change_logs l left join users u on u.id = l.user_id left join users o on o.id = l.impersonator_id
        where l.type = 'entry' and l.entity_id = ${entryId}
        order by l.created_at desc, l.id desc limit ${page.per_page} offset ${(page.page - 1) * page.per_page}`,
  );
}
