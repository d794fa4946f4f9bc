import { sql } from 'drizzle-orm';
import type { Template, TemplateRef } from '@edu/domain/templates/template';
import { rows, type Queryable } from '../../platform/db.ts';

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
