import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';
import { PAID_ENTRY_STATUSES } from '@edu/domain/common/codes';

/** A run printing every certificate of a service into one zip (print_batches). */
export interface BatchRow {
  id: number;
  service_id: number;
  status: number;
  total: number;
  done: number;
  skipped: number;
  storage_key: string | null;
  error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

/** Sets (or corrects) an entry's certificate number; false when there is no such entry. Throws the unique violation as it is. */
export async function setCertificateNumber(db: Queryable, entryId: number, certificateNumber: string): Promise<boolean> {
  const updated = await rows<{ id: number }>(
    db,
    sql`update entries set certificate_number = ${certificateNumber}, updated_at = now() where id = ${entryId} returning id`,
  );
  return updated.length > 0;
}

export async function insertPrintBatch(db: Queryable, b: { serviceId: number; createdBy: number; total: number; skipped: number }): Promise<BatchRow> {
  const [batch] = await rows<BatchRow>(
    db,
    sql`insert into print_batches (service_id, created_by, total, skipped) values (${b.serviceId}, ${b.createdBy}, ${b.total}, ${b.skipped}) returning *`,
  );
  return batch;
}

export async function findPrintBatch(db: Queryable, id: number): Promise<BatchRow | undefined> {
  const [batch] = await rows<BatchRow>(db, sql`select * from print_batches where id = ${id}`);
  return batch;
}

/** The latest batches of a service, newest first. */
export async function listServicePrintBatches(db: Queryable, serviceId: number, limit: number): Promise<BatchRow[]> {
  return rows<BatchRow>(db, sql`select * from print_batches where service_id = ${serviceId} order by id desc limit ${limit}`);
}

/**
 * True when the account has a live paid (or done) entry: it is a paying client, whose prints are
 * not held in the free accounts' share of the converters (decision 021, issue 29).
 */
export async function hasPaidEntry(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await rows<{ paid: boolean }>(
    db,
    sql`select exists (select 1 from entries where created_by = ${userId} and status in (${sql.join(
      PAID_ENTRY_STATUSES.map((s) => sql`${s}`),
      sql`, `,
    )}) and deleted_at is null) as paid`,
  );
  return row?.paid === true;
}
