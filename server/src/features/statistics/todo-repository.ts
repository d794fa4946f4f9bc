import { sql } from 'drizzle-orm';
import { ContractStatus, PAID_ENTRY_STATUSES, PublicationStatus } from '@edu/domain/common/codes';
import { REQUIRED_REQUISITES, type Todo } from '@edu/domain/statistics/todo';
import { rows, type Queryable } from '../../platform/db.ts';
import { contractFrom, contractWhere } from '../contracts/contracts-repository.ts';
import { ENTRY_OVERDUE } from '../entries/entries-repository.ts';
import { PAYMENT_NEEDS_ATTENTION } from '../payments/payments-repository.ts';
import { SERVICE_SITE_ERROR } from '../services/services-repository.ts';

/** How far back a mailing with failed letters stays on the to-do list. */
export const FAILED_MAILING_DAYS = 7;

const paidStatuses = sql.join(
  PAID_ENTRY_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

/**
 * The operator's to-do counts (issue 30), in one statement. Each count uses the condition of the
 * list its dashboard link opens (the contract board's, the entry list's, the payment list's, «Все
 * услуги»'s), so the number and the filtered list agree.
 */
export async function todoCounts(db: Queryable): Promise<Todo> {
  const requiredKeys = sql.join(
    REQUIRED_REQUISITES.map((k) => sql`(${k})`),
    sql`, `,
  );
  const [row] = await rows<Todo>(
    db,
    sql`select
      (select count(*)::int from publications p where p.deleted_at is null and p.status = ${PublicationStatus.pending}) as publications_pending,
      (select count(*)::int from publications p where p.deleted_at is null and p.status = ${PublicationStatus.pending}
         and not exists (select 1 from publication_entries ppe join entries pe on pe.id = ppe.entry_id
                         where ppe.publication_id = p.id and pe.deleted_at is null and pe.status in (${paidStatuses}))) as publications_pending_unpaid,
      (select count(*)::int ${contractFrom} where ${contractWhere({ status: ContractStatus.pending, scan: true })}) as contracts_to_review,
      (select count(*)::int ${contractFrom} where ${contractWhere({ status: ContractStatus.pending, scan: false })}) as contracts_waiting_scan,
      (select count(*)::int from entries e where e.deleted_at is null and ${ENTRY_OVERDUE}) as entries_overdue,
      (select count(*)::int from payments p where ${PAYMENT_NEEDS_ATTENTION}) as payments_attention,
      (select count(*)::int from mailings m where m.failed > 0 and m.created_at > now() - make_interval(days => ${FAILED_MAILING_DAYS})) as mailing_failed,
      (select count(*)::int from services s where s.deleted_at is null and ${SERVICE_SITE_ERROR}) as services_publish_failed,
      (select count(*)::int from dict_service_types t where t.template_certificate_id is null
         or not exists (select 1 from templates tt where tt.id = t.template_certificate_id and tt.deleted_at is null)) as templates_missing,
      (select count(*)::int from (values ${requiredKeys}) as k(key)
         where coalesce(trim((select (value::jsonb) ->> k.key from app_settings where key = 'requisites')), '') = '') as requisites_missing`,
  );
  return row!;
}
