import { eq, sql } from 'drizzle-orm';
import { TemplateType } from '@edu/domain/common/codes';
import type { Template, TemplateRef } from '@edu/domain/templates/template';
import { templates } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';

/** The columns an operator saves. */
export type TemplateValues = Pick<typeof templates.$inferInsert, 'title' | 'dict_type_id' | 'content' | 'file_id' | 'event_id' | 'updated_at'>;

export interface TemplateRow {
  id: number;
  title: string;
  content: string | null;
  dict_type_id: number;
  file_id: number | null;
  file_name: string | null;
  file_size: number | null;
  storage_key: string | null;
  event_id: number | null;
  updated_at: Date | string;
  certificate_for: TemplateRef[] | null;
  page_for: TemplateRef[] | null;
}

const SELECT = sql`
  select t.id, t.title, t.content, t.dict_type_id, t.file_id, f.name as file_name, f.size as file_size, f.storage_key, t.event_id, t.updated_at,
    (select json_agg(json_build_object('id', st.id, 'fdv', st.fdv, 'color', st.color, 'icon', st.icon) order by st.id)
       from dict_service_types st where st.template_certificate_id = t.id) as certificate_for,
    (select json_agg(json_build_object('id', st.id, 'fdv', st.fdv, 'color', st.color, 'icon', st.icon) order by st.id)
       from dict_service_types st where st.template_page_id = t.id) as page_for
  from templates t left join files f on f.id = t.file_id`;

export function toTemplate(r: TemplateRow, macros: string[]): Template {
  return {
    id: r.id,
    title: r.title,
    content: r.content,
    dict_type_id: r.dict_type_id,
    file: r.file_id ? { id: r.file_id, name: r.file_name ?? 'template.docx', size: Number(r.file_size ?? 0) } : null,
    event_id: r.event_id,
    serviceTypeCertificateFor: r.certificate_for ?? [],
    serviceTypePageFor: r.page_for ?? [],
    macros,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export async function findTemplate(db: Queryable, id: number): Promise<TemplateRow | undefined> {
  const [row] = await rows<TemplateRow>(db, sql`${SELECT} where t.id = ${id} and t.deleted_at is null`);
  return row;
}

export async function listTemplates(
  db: Queryable,
  q: { dict_type_id?: number; exceptType?: number; title?: string; page: number; per_page: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  const where = [sql`t.deleted_at is null`];
  if (q.dict_type_id) where.push(sql`t.dict_type_id = ${q.dict_type_id}`);
  if (q.exceptType) where.push(sql`t.dict_type_id <> ${q.exceptType}`);
  if (q.title) where.push(sql`t.title ilike ${`%${q.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  const cond = sql.join(where, sql` and `);
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from templates t where ${cond}`);
  const list = await rows<TemplateRow>(db, sql`${SELECT} where ${cond} order by t.id desc limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`);
  return { rows: list, total: Number(count?.n ?? 0) };
}

/** Where a template is used: what would print it (or publish it) if it stayed. */
export interface TemplateUsage {
  /** Service types whose default certificate or page it is. */
  serviceTypes: string[];
  /** Live services that name it (certificate, programme, registration list, site page). */
  services: string[];
  servicesTotal: number;
  /** Events whose notification it is. */
  events: string[];
  /** The last live consent (every client's wizard) or contract (courses) of the install. */
  onlyOfItsKind: boolean;
}

export async function templateUsage(db: Queryable, t: Pick<TemplateRow, 'id' | 'dict_type_id'>): Promise<TemplateUsage> {
  const [types, services, events, others] = await Promise.all([
    rows<{ fdv: string }>(db, sql`select fdv from dict_service_types where template_certificate_id = ${t.id} or template_page_id = ${t.id} order by id`),
    rows<{ title: string; total: number }>(
      db,
      sql`select title, count(*) over ()::int as total from services
          where deleted_at is null and ${t.id} in (template_certificate_id, template_program_id, template_participation_id, joomla_article_template_id)
          order by id limit 10`,
    ),
    rows<{ fdv: string }>(db, sql`select fdv from dict_events where template_id = ${t.id} order by id`),
    rows<{ n: number; contract_types: number }>(
      db,
      sql`select (select count(*)::int from templates where deleted_at is null and dict_type_id = ${t.dict_type_id} and id <> ${t.id}) as n,
                 (select count(*)::int from dict_service_types where is_contract_needed) as contract_types`,
    ),
  ]);
  const [o] = others;
  const onlyOfItsKind = Number(o?.n ?? 0) === 0 && (t.dict_type_id === 6 || (t.dict_type_id === 7 && Number(o?.contract_types ?? 0) > 0));
  return {
    serviceTypes: types.map((r) => r.fdv),
    services: services.map((r) => r.title),
    servicesTotal: Number(services[0]?.total ?? 0),
    events: events.map((r) => r.fdv),
    onlyOfItsKind,
  };
}

/** Services that print nothing for want of a template, and templates the whole install lacks (the operator's check). */
export async function missingTemplates(db: Queryable, limit = 100) {
  const [general] = await rows<{ consent: number | null; contract: number | null; reglist: number | null; contract_types: string[] | null }>(
    db,
    sql`select ${newestOf(6)} as consent, ${newestOf(7)} as contract, ${newestOf(3)} as reglist,
               (select json_agg(fdv order by id) from dict_service_types where is_contract_needed) as contract_types`,
  );
  const services = await rows<{ id: number; title: string; type: string; no_certificate: boolean; no_contract: boolean; total: number }>(
    db,
    sql`select s.id, s.title, st.fdv as type, count(*) over ()::int as total,
          not exists (select 1 from templates tp where tp.deleted_at is null and tp.dict_type_id = 1 and tp.id in (s.template_certificate_id, st.template_certificate_id)) as no_certificate,
          (st.is_contract_needed and ${newestOf(7)} is null) as no_contract
        from services s join dict_service_types st on st.id = s.dict_type_id
        where s.deleted_at is null
          and (not exists (select 1 from templates tp where tp.deleted_at is null and tp.dict_type_id = 1 and tp.id in (s.template_certificate_id, st.template_certificate_id))
               or (st.is_contract_needed and ${newestOf(7)} is null))
        order by s.id desc limit ${limit}`,
  );
  return { general, services };
}

const newestOf = (type: number) =>
  sql`(select tp.id from templates tp where tp.deleted_at is null and tp.dict_type_id = ${type} order by tp.updated_at desc, tp.id desc limit 1)`;

export async function insertTemplate(db: Queryable, values: TemplateValues): Promise<number> {
  const [created] = await db.insert(templates).values(values).returning({ id: templates.id });
  return created.id;
}

export async function updateTemplate(db: Queryable, id: number, values: TemplateValues): Promise<void> {
  await db.update(templates).set(values).where(eq(templates.id, id));
}

/**
 * Locks the template row for the rest of the transaction (a delete and a set-as-default wait for each
 * other); whether it is still live, or undefined when there is no such row.
 */
export async function lockTemplate(tx: Queryable, id: number): Promise<{ live: boolean } | undefined> {
  const [row] = await rows<{ live: boolean }>(tx, sql`select deleted_at is null as live from templates where id = ${id} for update`);
  return row;
}

export async function deleteTemplate(db: Queryable, id: number): Promise<void> {
  await db.update(templates).set({ deleted_at: new Date() }).where(eq(templates.id, id));
}

/** The template becomes the default certificate (or page, by its type) of the service type; false when there is no such type. */
export async function setServiceTypeDefault(db: Queryable, serviceTypeId: number, template: Pick<TemplateRow, 'id' | 'dict_type_id'>): Promise<boolean> {
  const column = template.dict_type_id === TemplateType.certificate ? sql`template_certificate_id` : sql`template_page_id`;
  const updated = await rows<{ id: number }>(db, sql`update dict_service_types set ${column} = ${template.id} where id = ${serviceTypeId} returning id`);
  return updated.length > 0;
}
