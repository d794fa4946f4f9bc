import { sql, type SQL } from 'drizzle-orm';
import { DateType, DEFAULT_MAX_PARTICIPANTS, EntryStatus, TemplateType } from '@edu/domain/common/codes';
import type { PageQuery, SortValue } from '@edu/domain/common/pagination';
import { dateTypeIcons, type Service } from '@edu/domain/services/service';
import type { ServiceOverviewRow, ServiceOverviewSort } from '@edu/domain/services/service-overview';
import { PACKAGE_PUBLICATION_AUTHORS } from '@edu/domain/publications/publication';
import type { ProfileBadge } from '@edu/domain/users/current-user';
import { rows, type Database, type Queryable } from '../../platform/db.ts';
import { formatInterval, moscowDayStart, toMoscowString } from '@edu/domain/common/moscow-time';
import { allOf, containsPattern, listPage, listSort, sortSql, when, type ListPage, type SortColumn } from '../../platform/list-query.ts';

export interface ServiceRow {
  id: number;
  title: string;
  description: string | null;
  price: string | number;
  points: number;
  is_visible: boolean;
  is_done: boolean;
  is_publication: boolean;
  is_thesis_needed: boolean;
  dict_type_id: number;
  dict_subtype_id: number | null;
  participation_type: number;
  date_type: number;
  begda: Date | string | null;
  endda: Date | string | null;
  max_participants: number;
  template_certificate_id: number | null;
  template_program_id: number | null;
  template_participation_id: number | null;
  moodle_id: number | null;
  hours: number | null;
  days: number | null;
  joomla_article_template_id: number | null;
  joomla_intro_html: string | null;
  joomla_additional_html: string | null;
  joomla_video_iframe: string | null;
  joomla_article_id: number | null;
  joomla_catid: number | null;
  joomla_status: Service['joomla_status'];
  joomla_error: string | null;
  image_key: string | null;
  type: Service['type'];
  subtype: Service['subtype'];
  sections: Service['sections'] | null;
  profiles: ProfileBadge[] | null;
  leadings: Service['leadings'] | null;
  count_participants: number;
}

/**
 * The list price of a service: for a publication service it is the publication price of its subtype
 * for one author ('Цены публикаций'), so a package holding it and the publication form agree
 * (decision 025); the service's own price only when that subtype has no such price.
 */
export function serviceListPrice(s: SQL): SQL {
  return sql`coalesce(case when ${s}.is_publication or exists (select 1 from dict_service_types lpt where lpt.id = ${s}.dict_type_id and lpt.is_publication)
    then (select lpp.price from publication_prices lpp where lpp.dict_service_subtype_id = ${s}.dict_subtype_id and lpp.authors_num = ${PACKAGE_PUBLICATION_AUTHORS}) end, ${s}.price)`;
}

/** Everything a service answer carries, aggregated in the same query (no N+1). */
const SELECT = sql`
  select s.id, s.title, s.description, ${serviceListPrice(sql`s`)} as price, s.points, s.is_visible, s.is_done, s.is_publication, s.is_thesis_needed,
    s.dict_type_id, s.dict_subtype_id, s.participation_type, s.date_type, s.begda, s.endda, s.max_participants,
    s.template_certificate_id, s.template_program_id, s.template_participation_id,
    s.moodle_id, s.hours, s.days, s.joomla_article_template_id, s.joomla_intro_html, s.joomla_additional_html, s.joomla_video_iframe,
    s.joomla_article_id, s.joomla_catid, s.joomla_status, s.joomla_error,
    (select f.storage_key from files f where f.id = s.image_id) as image_key,
    (select json_build_object('id', t.id, 'fdv', t.fdv, 'dv', t.dv, 'icon', t.icon, 'color', t.color, 'points', t.points,
       'is_contract_needed', t.is_contract_needed, 'is_publication', t.is_publication,
       'template_certificate_id', t.template_certificate_id, 'template_page_id', t.template_page_id) from dict_service_types t where t.id = s.dict_type_id) as type,
    (select json_build_object('id', st.id, 'fdv', st.fdv, 'points', st.points, 'is_spb', st.is_spb, 'is_publication', st.is_publication,
       'publication_has_file', st.publication_has_file) from dict_service_subtypes st where st.id = s.dict_subtype_id) as subtype,
    (select json_agg(json_build_object('id', sec.id, 'title', sec.title, 'service_id', sec.service_id,
       'participants_num', (select count(*) from entries e where e.section_id = sec.id and e.deleted_at is null and e.status <> ${EntryStatus.refunded})) order by sec.id)
       from service_sections sec where sec.service_id = s.id and sec.deleted_at is null) as sections,
    (select json_agg(json_build_object('id', p.id, 'fdv', p.fdv, 'color', p.color) order by p.id)
       from service_profiles sp join dict_profiles p on p.id = sp.dict_profile_id where sp.service_id = s.id) as profiles,
    (select json_agg(json_build_object('id', l.id, 'fio', l.fio) order by l.id)
       from service_leadings sl join leadings l on l.id = sl.leading_id where sl.service_id = s.id) as leadings,
    (select count(*)::int from entries e where e.service_id = s.id and e.deleted_at is null and e.status <> ${EntryStatus.refunded}) as count_participants
  from services s`;

export function toService(r: ServiceRow): Service {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    price: Number(r.price),
    points: r.points,
    is_visible: r.is_visible,
    is_done: r.is_done,
    is_publication: r.is_publication,
    is_thesis_needed: r.is_thesis_needed,
    dict_type_id: r.dict_type_id,
    dict_subtype_id: r.dict_subtype_id,
    type: r.type,
    subtype: r.subtype,
    participation_type: r.participation_type,
    date_type: r.date_type,
    date_type_icon: dateTypeIcons[r.date_type] ?? dateTypeIcons[DateType.specific],
    begda: toMoscowString(r.begda),
    endda: toMoscowString(r.endda),
    interval_formatted: r.date_type === DateType.specific ? formatInterval(r.begda, r.endda) : null,
    max_participants: r.max_participants,
    sections: r.sections ?? [],
    profiles: r.profiles ?? [],
    leadings: r.leadings ?? [],
    count_participants: r.count_participants,
    template_certificate_id: r.template_certificate_id,
    template_program_id: r.template_program_id,
    template_participation_id: r.template_participation_id,
    moodle_id: r.moodle_id,
    hours: r.hours,
    days: r.days,
    joomla_article_template_id: r.joomla_article_template_id,
    joomla_intro_html: r.joomla_intro_html,
    joomla_additional_html: r.joomla_additional_html,
    joomla_video_iframe: r.joomla_video_iframe,
    image: r.image_key ? `/api/service-image/${r.image_key}` : null,
    joomla_article_id: r.joomla_article_id,
    joomla_catid: r.joomla_catid,
    joomla_status: r.joomla_status,
    joomla_error: r.joomla_error,
    site_url: null,
  };
}

export interface ServiceFilters {
  /** true only visible, false only hidden, undefined both (operators). */
  visible?: boolean;
  dict_type_id?: number;
  dict_subtype_id?: number;
  userId?: number;
  profile?: number[];
  leading?: number[];
  past?: boolean;
  title?: string;
  isPublication?: boolean;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(f: ServiceFilters): SQL {
  const parts: SQL[] = [sql`s.deleted_at is null`];
  if (f.visible !== undefined) parts.push(f.visible ? sql`s.is_visible` : sql`not s.is_visible`);
  if (f.dict_type_id) parts.push(sql`s.dict_type_id = ${f.dict_type_id}`);
  if (f.dict_subtype_id) parts.push(sql`s.dict_subtype_id = ${f.dict_subtype_id}`);
  if (f.userId) parts.push(sql`exists (select 1 from entries e where e.service_id = s.id and e.created_by = ${f.userId} and e.deleted_at is null)`);
  if (f.profile?.length) {
    const ids = sql.join(
      f.profile.map((id) => sql`${id}`),
      sql`, `,
    );
    parts.push(sql`exists (select 1 from service_profiles sp where sp.service_id = s.id and sp.dict_profile_id in (${ids}))`);
  }
  if (f.leading?.length) {
    const ids = sql.join(
      f.leading.map((id) => sql`${id}`),
      sql`, `,
    );
    parts.push(sql`exists (select 1 from service_leadings sl where sl.service_id = s.id and sl.leading_id in (${ids}))`);
  }
  if (f.past === true) parts.push(sql`(s.is_done or coalesce(s.endda, s.begda) < now())`);
  if (f.past === false) parts.push(sql`(not s.is_done and (s.begda is null or coalesce(s.endda, s.begda) >= now()))`);
  if (f.title) parts.push(sql`s.title ilike ${likePattern(f.title)}`);
  if (f.isPublication !== undefined) parts.push(f.isPublication ? sql`s.is_publication` : sql`not s.is_publication`);
  return sql.join(parts, sql` and `);
}

export async function listServices(database: Database, f: ServiceFilters, page: PageQuery): Promise<{ data: Service[]; total: number }> {
  const where = whereOf(f);
  const [{ total }] = await database.prepared<{ total: number }>(null, sql`select count(*)::int as total from services s where ${where}`);
  const list = await database.prepared<ServiceRow>(
    null,
    sql`${SELECT} where ${where}
        order by s.is_done, (s.begda is null), s.begda asc, s.id desc
        limit ${page.per_page} offset ${(page.page - 1) * page.per_page}`,
  );
  return { data: list.map(toService), total };
}

export async function getService(db: Queryable, id: number, onlyVisible: boolean): Promise<Service | null> {
  const [row] = await rows<ServiceRow>(db, sql`${SELECT} where s.id = ${id} and ${whereOf({ visible: onlyVisible || undefined })}`);
  return row ? toService(row) : null;
}

export async function getServices(db: Queryable, ids: number[], onlyVisible: boolean): Promise<Service[]> {
  if (ids.length === 0) return [];
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const found = await rows<ServiceRow>(db, sql`${SELECT} where s.id in (${list}) and ${whereOf({ visible: onlyVisible || undefined })}`);
  return found.map(toService);
}

/** Title words, all of them, case-insensitive; nearest date first (upcoming before past), dateless last. */
export async function searchServices(database: Database, keywords: string, onlyVisible: boolean, limit: number): Promise<Service[]> {
  const words = keywords.split(/\s+/).filter(Boolean).slice(0, 8);
  if (words.length === 0) return [];
  const parts = [whereOf({ visible: onlyVisible || undefined }), ...words.map((w) => sql`s.title ilike ${likePattern(w)}`)];
  const found = await database.prepared<ServiceRow>(
    null,
    sql`${SELECT} where ${sql.join(parts, sql` and `)}
        order by (s.begda is null), (coalesce(s.endda, s.begda) < now()), abs(extract(epoch from (s.begda - now()))), s.id desc
        limit ${limit}`,
  );
  return found.map(toService);
}

/**
 * What the catalogue's choosers need: the real highest points of each type's visible services
 * ('до N баллов') and the leadings that lead any of them (the leading filter).
 */
export async function catalogueFacets(
  db: Queryable,
  withPublications: boolean,
): Promise<{ type_points: Record<string, number>; leadings: Array<{ id: number; fio: string }> }> {
  const where = sql`s.deleted_at is null and s.is_visible ${withPublications ? sql`` : sql`and not s.is_publication`}`;
  const points = await rows<{ dict_type_id: number; points: number }>(
    db,
    sql`select s.dict_type_id, max(s.points)::int as points from services s where ${where} group by s.dict_type_id`,
  );
  const leadingList = await rows<{ id: number; fio: string }>(
    db,
    sql`select l.id, l.fio from leadings l where exists (select 1 from service_leadings sl join services s on s.id = sl.service_id where sl.leading_id = l.id and ${where}) order by l.fio`,
  );
  return { type_points: Object.fromEntries(points.map((p) => [String(p.dict_type_id), p.points])), leadings: leadingList };
}

interface OverviewRow {
  id: number;
  title: string;
  dict_type_id: number;
  dict_subtype_id: number | null;
  type: ServiceOverviewRow['type'];
  subtype: ServiceOverviewRow['subtype'];
  date_type: number;
  begda: Date | string | null;
  endda: Date | string | null;
  is_visible: boolean;
  is_done: boolean;
  is_publication: boolean;
  price: string | number;
  seats: number | null;
  entries: number;
  paid: number;
  income: string | number;
}

/** What «Все услуги» filters by (operators). */
export interface ServiceOverviewFilters {
  q?: string;
  dict_type_id?: number;
  dict_subtype_id?: number;
  is_visible?: boolean;
  /** error: the last publishing to the site failed. */
  site?: 'error';
  date_from?: string;
  date_to?: string;
}

/** A service (alias s) whose last publishing to the site failed (retried by the job; the dashboard's to-do). */
export const SERVICE_SITE_ERROR = sql`s.joomla_status = 'error'`;

/** A publication service: the service's own flag or its type's (as serviceListPrice reads it). */
const isPublicationOf = (s: SQL) =>
  sql`(${s}.is_publication or exists (select 1 from dict_service_types pt where pt.id = ${s}.dict_type_id and pt.is_publication))`;

/** Seats of a service: the per-section limit (0 meaning the default) times its live sections (at least one); none for publications. */
const seatsOf = (s: SQL) => sql`case when ${isPublicationOf(s)} then null else
  (case when ${s}.max_participants > 0 then ${s}.max_participants else ${DEFAULT_MAX_PARTICIPANTS} end)
  * greatest(1, (select count(*)::int from service_sections sec where sec.service_id = ${s}.id and sec.deleted_at is null)) end`;

/**
 * Sales of the service in `s`, from its live entries (entries_live_service_sales_idx answers them
 * from the index alone): entries holding a seat (a refunded «Возврат» one holds none), paid or done
 * count, and the income: what paid, done and refunded entries brought, net of refunds (a refunded
 * entry keeps what was not given back).
 */
const salesOf = (s: SQL) => ({
  entries: sql`(select count(*)::int from entries e where e.service_id = ${s}.id and e.deleted_at is null and e.status <> ${EntryStatus.refunded})`,
  paid: sql`(select count(*)::int from entries e where e.service_id = ${s}.id and e.deleted_at is null and e.status in (${EntryStatus.paid}, ${EntryStatus.done}))`,
  income: sql`(select coalesce(sum(e.price - e.refunded), 0) from entries e where e.service_id = ${s}.id and e.deleted_at is null and e.status <> ${EntryStatus.notPaid})`,
});

function overviewWhere(f: ServiceOverviewFilters): SQL {
  const digits = f.q && /^#?\d{1,9}$/.test(f.q) ? Number(f.q.replace('#', '')) : null;
  const words = (f.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
  const byTitle = words.length ? allOf(words.map((w) => sql`s.title ilike ${containsPattern(w)}`)) : null;
  return allOf([
    sql`s.deleted_at is null`,
    // A number finds the service with that number, or titles holding it.
    digits !== null && byTitle ? sql`(s.id = ${digits} or ${byTitle})` : byTitle,
    when(f.dict_type_id, (v) => sql`s.dict_type_id = ${v}`),
    when(f.dict_subtype_id, (v) => sql`s.dict_subtype_id = ${v}`),
    f.is_visible !== undefined && (f.is_visible ? sql`s.is_visible` : sql`not s.is_visible`),
    f.site === 'error' && SERVICE_SITE_ERROR,
    // The service's days overlap the chosen ones (Moscow days, both included).
    when(f.date_to, (v) => sql`s.begda < ${moscowDayStart(v)}::timestamptz + interval '1 day'`),
    when(f.date_from, (v) => sql`coalesce(s.endda, s.begda) >= ${moscowDayStart(v)}::timestamptz`),
  ]);
}

/**
 * «Все услуги»: one page of services with their seats and sales, and the total. The sales are
 * subqueries of the select list, so with a sort by the service's own columns PostgreSQL reads them
 * for the page's rows only (after the sort and limit); a sort by sales reads them for every
 * matching service, from the index alone.
 */
export async function listServiceOverview(
  database: Database,
  f: ServiceOverviewFilters,
  page: PageQuery & { sort?: SortValue<ServiceOverviewSort> },
): Promise<ListPage<ServiceOverviewRow>> {
  const s = sql`s`;
  const sales = salesOf(s);
  const seats = seatsOf(s);
  const sorts: Record<ServiceOverviewSort, SortColumn> = {
    title: { sql: sql`s.title`, type: 'text' },
    begda: { sql: sql`s.begda`, type: 'timestamptz' },
    price: { sql: serviceListPrice(s), type: 'numeric' },
    entries: { sql: sales.entries, type: 'int' },
    paid: { sql: sales.paid, type: 'int' },
    income: { sql: sales.income, type: 'numeric' },
    free: { sql: sql`(${seats}) - ${sales.entries}`, type: 'int' },
  };
  // Upcoming and running services first, nearest first; then past ones, latest first; undated last.
  const fallback = sql`(coalesce(s.endda, s.begda) < now()), case when coalesce(s.endda, s.begda) >= now() then s.begda end asc, s.begda desc nulls last`;
  return listPage<OverviewRow, ServiceOverviewRow>(database, {
    select: sql`select s.id, s.title, s.dict_type_id, s.dict_subtype_id, s.date_type, s.begda, s.endda, s.is_visible, s.is_done,
      ${isPublicationOf(s)} as is_publication, ${serviceListPrice(s)} as price,
      (select json_build_object('id', t.id, 'fdv', t.fdv, 'icon', t.icon, 'color', t.color) from dict_service_types t where t.id = s.dict_type_id) as type,
      (select json_build_object('id', st.id, 'fdv', st.fdv) from dict_service_subtypes st where st.id = s.dict_subtype_id) as subtype,
      ${seats} as seats, ${sales.entries} as entries, ${sales.paid} as paid, ${sales.income} as income`,
    from: sql`from services s`,
    where: overviewWhere(f),
    // Services without the figure (a publication's free places) stay last both ways.
    order: page.sort ? sortSql(listSort(page.sort, sorts, page.sort, sql`s.id`), undefined, undefined, true) : sql`${fallback}, s.id desc`,
    page,
    map: (r) => {
      const income = Number(r.income);
      return {
        id: r.id,
        title: r.title,
        dict_type_id: r.dict_type_id,
        dict_subtype_id: r.dict_subtype_id,
        type: r.type,
        subtype: r.subtype,
        date_type: r.date_type,
        begda: toMoscowString(r.begda),
        endda: toMoscowString(r.endda),
        interval_formatted: r.date_type === DateType.specific ? formatInterval(r.begda, r.endda) : null,
        is_visible: r.is_visible,
        is_done: r.is_done,
        is_publication: r.is_publication,
        price: Number(r.price),
        seats: r.seats,
        entries: r.entries,
        paid: r.paid,
        free: r.seats === null ? null : Math.max(0, r.seats - r.entries),
        income,
      };
    },
  });
}

/** Whether a service with this id exists; with live, only one that is not deleted. */
export async function serviceExists(db: Queryable, id: number, opts: { live: boolean }): Promise<boolean> {
  const [found] = await rows<{ id: number }>(db, sql`select id from services where id = ${id} ${opts.live ? sql`and deleted_at is null` : sql``}`);
  return Boolean(found);
}

export interface FormTemplateRow {
  id: number;
  title: string;
  dict_type_id: number;
}

/** Live templates a service can choose (certificate, program, registration list, page), by title. */
export async function listServiceFormTemplates(db: Queryable): Promise<FormTemplateRow[]> {
  return rows<FormTemplateRow>(
    db,
    sql`select id, title, dict_type_id from templates where deleted_at is null and dict_type_id in (${TemplateType.certificate}, ${TemplateType.program}, ${TemplateType.regList}, ${TemplateType.page}) order by title, id`,
  );
}

export async function listLeadings(db: Queryable): Promise<Array<{ id: number; fio: string }>> {
  return rows<{ id: number; fio: string }>(db, sql`select id, fio from leadings order by fio, id`);
}

/** Whether the stored file is the image of a service (only those are served publicly). */
export async function isServiceImage(db: Queryable, storageKey: string): Promise<boolean> {
  const [file] = await rows<{ id: number }>(db, sql`select f.id from files f join services s on s.image_id = f.id where f.storage_key = ${storageKey}`);
  return Boolean(file);
}
