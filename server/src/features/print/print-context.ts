import { sql } from 'drizzle-orm';
import type { PrintContext } from '@edu/domain/documents/print';
import { rows, type Queryable } from '../../platform/db.ts';

/** The columns of `printColumns`, with the entry's own that the print rules read. */
export interface PrintColumnsRow {
  status: number;
  registration_number: string | null;
  is_publication: boolean;
  publication_status: number | null;
  contract_needed: boolean;
  certificate_template_id: number | null;
  program_template_id: number | null;
  reglist_template_id: number | null;
  contract_template_id: number | null;
  pay_type: number;
  amount: string | number;
}

export interface EntryPrintRow extends PrintColumnsRow {
  id: number;
  number: string;
  created_by: number;
  service_id: number;
  service_title: string;
  deleted: boolean;
  certificate_number: string | null;
  package_enrollment_id: number | null;
}

/** A live template of the type, preferring the given ids in order (one primary-key lookup each, until one is found). */
export const pick = (type: number, ...ids: ReturnType<typeof sql>[]) =>
  sql`coalesce(${sql.join(
    ids.map((id) => sql`(select tp.id from templates tp where tp.id = ${id} and tp.deleted_at is null and tp.dict_type_id = ${type})`),
    sql`, `,
  )})`;

/** The newest live template of a type (program and contract templates are not per service). */
export const newest = (type: number) =>
  sql`(select tp.id from templates tp where tp.deleted_at is null and tp.dict_type_id = ${type} order by tp.updated_at desc, tp.id desc limit 1)`;

/** The entry's publication (its newest live one) as `pub`, beside e (entries): the entry lists show it, the print rules read its status. */
export const publicationJoin = sql`left join lateral (
    select p.id, p.title, p.status from publication_entries pue join publications p on p.id = pue.publication_id
    where pue.entry_id = e.id and p.deleted_at is null order by p.id desc limit 1) pub on true`;

/**
 * The columns the print rules need, over the aliases e (entries), s (services), t (its type), st
 * (its subtype) and pub (publicationJoin): shared by this feature and the entry lists (which show
 * the print menu).
 */
export const printColumns = sql`(s.is_publication or coalesce(t.is_publication, false)) as is_publication,
          pub.status as publication_status,
          coalesce(t.is_contract_needed, false) as contract_needed,
          ${pick(1, sql`s.template_certificate_id`, sql`t.template_certificate_id`)} as certificate_template_id,
          ${pick(2, sql`s.template_program_id`)} as program_template_id,
          coalesce(${pick(3, sql`s.template_participation_id`)}, ${newest(3)}) as reglist_template_id,
          ${newest(7)} as contract_template_id,
          e.pay_type,
          coalesce((select pk.price from package_enrollments pk where pk.id = e.package_enrollment_id and pk.broken_at is null), e.price) as amount`;

/**
 * What the print rules need about an entry. Effective templates: the certificate of the service,
 * else the default of its service type (defaults are per type, decision 024); the program of the service; the registration
 * list of the service (template_participation_id), else the newest one; the newest contract template.
 */
export async function loadEntryPrintRows(db: Queryable, where: ReturnType<typeof sql>): Promise<EntryPrintRow[]> {
  return rows<EntryPrintRow>(
    db,
    sql`select e.id, e.number, e.created_by, e.service_id, s.title as service_title, e.status, (e.deleted_at is not null or s.deleted_at is not null) as deleted,
          e.registration_number, e.certificate_number, e.package_enrollment_id, ${printColumns}
        from entries e
        join services s on s.id = e.service_id
        join dict_service_types t on t.id = s.dict_type_id
        left join dict_service_subtypes st on st.id = s.dict_subtype_id
        ${publicationJoin}
        where ${where}
        order by e.id`,
  );
}

export async function loadEntryPrintRow(db: Queryable, entryId: number): Promise<EntryPrintRow | undefined> {
  const [row] = await loadEntryPrintRows(db, sql`e.id = ${entryId}`);
  return row;
}

export function toPrintContext(r: PrintColumnsRow, deleted: boolean): PrintContext {
  return {
    status: r.status,
    deleted,
    isPublication: r.is_publication,
    publicationStatus: r.publication_status,
    contractNeeded: r.contract_needed,
    registrationNumber: r.registration_number,
    certificateTemplateId: r.certificate_template_id,
    programTemplateId: r.program_template_id,
    regListTemplateId: r.reglist_template_id,
    contractTemplateId: r.contract_template_id,
    payType: r.pay_type,
    amount: Number(r.amount),
  };
}

export async function consentTemplateId(db: Queryable): Promise<number | null> {
  const [row] = await rows<{ id: number | null }>(db, sql`select ${newest(6)} as id`);
  return row?.id ?? null;
}
