import { sql } from 'drizzle-orm';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { serviceListPrice } from '../services/services-repository.ts';

/**
 * A package purchase (docs/decisions/009-package-purchases.md): its entries are bought, removed and
 * paid as a whole at the enrolment's price. If it is ever broken, the remaining unpaid entries go
 * back to their services' list prices and live on as ordinary entries.
 */
export interface Enrollment {
  id: number;
  user_id: number;
  title: string;
  price: number;
  broken: boolean;
}

export interface EnrollmentEntry {
  id: number;
  number: string;
  status: number;
  price: number;
  deleted: boolean;
}

/** Locks the enrolment row: every whole-package action on it runs one at a time. */
export async function lockEnrollment(tx: Queryable, id: number): Promise<Enrollment | undefined> {
  const [e] = await rows<{ id: number; user_id: number; title: string; price: string | number; broken_at: Date | null }>(
    tx,
    sql`select id, user_id, title, price, broken_at from package_enrollments where id = ${id} for update`,
  );
  return e ? { id: e.id, user_id: e.user_id, title: e.title, price: Number(e.price), broken: e.broken_at !== null } : undefined;
}

/** Every entry of the enrolment, deleted ones included, locked in id order. */
export async function enrollmentEntries(tx: Queryable, enrollmentId: number): Promise<EnrollmentEntry[]> {
  const list = await rows<{ id: number; number: string; status: number; price: string | number; deleted_at: Date | null }>(
    tx,
    sql`select id, number, status, price, deleted_at from entries where package_enrollment_id = ${enrollmentId} order by id for update`,
  );
  return list.map((e) => ({ id: e.id, number: e.number, status: e.status, price: Number(e.price), deleted: e.deleted_at !== null }));
}

/** An intact, unpaid package: every entry live and unpaid. Only then is it paid or removed as one. */
export function isWholeAndUnpaid(list: EnrollmentEntry[]): boolean {
  return list.length > 0 && list.every((e) => !e.deleted && e.status === 1);
}

/**
 * Breaks the package: it is no longer sold as a whole. Remaining live unpaid entries go back to
 * their services' list prices (never keep a package share of a price; a publication's is the
 * publication price for one author, serviceListPrice).
 */
export async function breakEnrollment(tx: Queryable, enrollmentId: number, o: { by: number | null; reason: string }): Promise<void> {
  const [done] = await rows<{ id: number }>(
    tx,
    sql`update package_enrollments set broken_at = now() where id = ${enrollmentId} and broken_at is null returning id`,
  );
  if (!done) return;
  const repriced = await rows<{ id: number; old_price: string | number; price: string | number }>(
    tx,
    sql`update entries e set price = ${serviceListPrice(sql`s`)}, updated_at = now()
        from services s, entries old
        where s.id = e.service_id and old.id = e.id
          and e.package_enrollment_id = ${enrollmentId} and e.status = 1 and e.deleted_at is null
        returning e.id, old.price as old_price, e.price`,
  );
  for (const r of repriced) {
    await logChange(tx, {
      type: 'entry',
      entityId: r.id,
      userId: o.by,
      before: { price: Number(r.old_price) },
      after: { price: Number(r.price), reason: o.reason },
    });
  }
}
