import { sql } from 'drizzle-orm';
import { EntryStatus, EventId, isPaidStatus } from '@edu/domain/common/codes';
import { entries } from '../../db/schema/index.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { raiseEvent } from '../../platform/events.ts';
import { quoted } from '@edu/domain/common/quotes';
import { revokeEntryDocuments } from '../print/issued-documents.ts';
import { VerificationMessages } from '@edu/domain/documents/verification';

/** The only moves an entry's status can make: 1 not paid -> 2 paid -> 3 done. Never backwards. */
const NEXT: Record<number, number[]> = { 1: [2], 2: [3], 3: [] };

export interface MovedEntry {
  id: number;
  number: string;
  created_by: number;
  service_title: string;
  price: number;
}

/** Where a notification about entries leads: My entries filtered to the entry. */
export const entryUrl = (number: string) => `/user/entry?number=${encodeURIComponent(number)}`;

export type MoveResult = { result: 'moved'; entry: MovedEntry } | { result: 'already' | 'refused' | 'missing'; entry?: MovedEntry };

/**
 * The one guarded function that changes an entry's status. Locks the row, refuses impossible
 * moves, writes the change log and the notification in the caller's transaction. 'already' means
 * the entry is at or past the target (a repeated or late event); the caller decides what that means
 * (for a payment: a double payment to record).
 */
export async function moveEntryStatus(
  tx: Queryable,
  o: { entryId: number; to: 2 | 3; by: number | null; payType?: number; paymentUuid?: string | null; silent?: boolean },
): Promise<MoveResult> {
  const [row] = await rows<MovedEntry & { status: number; deleted_at: Date | null; service_title: string; price: string | number }>(
    tx,
    sql`select e.id, e.number, e.created_by, e.status, e.deleted_at, e.price, s.title as service_title
        from entries e join services s on s.id = e.service_id where e.id = ${o.entryId} for update of e`,
  );
  if (!row) return { result: 'missing' };
  const entry: MovedEntry = { id: row.id, number: row.number, created_by: row.created_by, service_title: row.service_title, price: Number(row.price) };
  if (row.status >= o.to) return { result: 'already', entry };
  if (!NEXT[row.status]?.includes(o.to)) return { result: 'refused', entry };

  const now = new Date();
  const set: Partial<typeof entries.$inferInsert> = { status: o.to, updated_at: now };
  if (o.to === EntryStatus.paid) {
    set.paid_at = now;
    if (o.payType) set.pay_type = o.payType;
    if (o.paymentUuid) set.payment_uuid = o.paymentUuid;
    // Money arrived for an entry removed meanwhile: bring it back rather than lose the payment.
    if (row.deleted_at) set.deleted_at = null;
  } else {
    set.done_at = now;
  }
  await tx
    .update(entries)
    .set(set)
    .where(sql`id = ${row.id}`);
  await logChange(tx, {
    type: 'entry',
    entityId: row.id,
    userId: o.by,
    before: { status: row.status, deleted_at: row.deleted_at },
    after: { status: o.to, deleted_at: set.deleted_at === null ? null : row.deleted_at, pay_type: set.pay_type, payment_uuid: set.payment_uuid },
  });
  // A payment of several entries raises one event, by its caller (silent).
  if (!o.silent) {
    await raiseEvent(tx, {
      eventId: o.to === EntryStatus.paid ? EventId.entryPaid : EventId.entryDone,
      userId: row.created_by,
      entryId: row.id,
      extra: o.to === EntryStatus.paid ? { 'payment.summary': `Заявка № ${row.number} ${quoted(row.service_title)} оплачена.` } : {},
    });
  }
  return { result: 'moved', entry };
}

/**
 * The one way back from paid (2) to not paid (1): the money of the entry was refunded in full and no
 * other payment covers it (features/payments/refund-rules.ts). Done entries (3) keep their status:
 * the service was given. Locks the row and writes the change log in the caller's transaction.
 */
export async function returnEntryToUnpaid(tx: Queryable, o: { entryId: number; by: number | null; reason: string }): Promise<boolean> {
  const [row] = await rows<{ id: number; status: number; paid_at: Date | null; payment_uuid: string | null }>(
    tx,
    sql`select id, status, paid_at, payment_uuid from entries where id = ${o.entryId} for update`,
  );
  if (!row || row.status !== EntryStatus.paid) return false;
  await tx
    .update(entries)
    // All its money is back: nothing of it is refunded any more once it is paid again.
    .set({ status: EntryStatus.notPaid, paid_at: null, payment_uuid: null, refunded: 0, updated_at: new Date() })
    .where(sql`id = ${row.id}`);
  await logChange(tx, {
    type: 'entry',
    entityId: row.id,
    userId: o.by,
    before: { status: row.status, paid_at: row.paid_at, payment_uuid: row.payment_uuid },
    after: { status: EntryStatus.notPaid, paid_at: null, payment_uuid: null, reason: o.reason },
  });
  // A document for a service not paid for any more is not valid (decision 039).
  await revokeEntryDocuments(tx, { entryIds: [row.id], by: o.by, reason: VerificationMessages.reasonEntryReturnedUnpaid });
  return true;
}

/**
 * Paid or done (2, 3) to «Возврат» (4): the entry is cancelled with its money refunded (the
 * operator's refund with «Отменить заявку», or a done entry refunded in full). It holds no seat, is
 * not printable and not payable. Locks the row and logs in the caller's transaction.
 */
export async function cancelEntryByRefund(tx: Queryable, o: { entryId: number; by: number | null; reason: string }): Promise<boolean> {
  const [row] = await rows<{ id: number; status: number }>(tx, sql`select id, status from entries where id = ${o.entryId} for update`);
  if (!row || !isPaidStatus(row.status)) return false;
  await tx
    .update(entries)
    .set({ status: EntryStatus.refunded, updated_at: new Date() })
    .where(sql`id = ${row.id}`);
  await logChange(tx, {
    type: 'entry',
    entityId: row.id,
    userId: o.by,
    before: { status: row.status },
    after: { status: EntryStatus.refunded, reason: o.reason },
  });
  await revokeEntryDocuments(tx, { entryIds: [row.id], by: o.by, reason: VerificationMessages.reasonEntryRefunded });
  return true;
}
