// What a publication's entry owes when the publication is turned down (docs/decisions/025-publication-entries.md):
// the unpaid entry of a rejected or deleted publication is cancelled (soft-deleted and marked
// publication_cancelled_at), so it counts in no debt ('Не оплачена', the sidebar badge, left_sum);
// an operator taking the rejection back restores exactly those entries. Paid entries stay paid: the
// money goes back only through the refund rules (payments/refund-rules.ts), and an entry they leave
// unpaid is cancelled here too.
import { sql } from 'drizzle-orm';
import { LogReasons } from '@edu/domain/logs/log';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { VerificationMessages } from '@edu/domain/documents/verification';
import { revokeEntryDocuments } from '../print/issued-documents.ts';

/**
 * Entries that may be cancelled: unpaid, live, not part of an intact package (an unpaid package is
 * paid or expires as a whole) and with no other live publication still under way.
 */
const CANCELLABLE = sql`e.status = 1 and e.deleted_at is null
  and (e.package_enrollment_id is null or exists (select 1 from package_enrollments pk where pk.id = e.package_enrollment_id and pk.broken_at is not null))`;

/** No publication of the entry is still under way (every one is rejected or deleted). */
const NOTHING_UNDER_WAY = sql`not exists (select 1 from publication_entries ope join publications op on op.id = ope.publication_id
  where ope.entry_id = e.id and op.deleted_at is null and op.status <> 0)`;

async function cancel(tx: Queryable, where: ReturnType<typeof sql>, o: { by: number | null; reason: string }): Promise<number[]> {
  const list = await rows<{ id: number }>(tx, sql`select e.id from entries e where ${where} order by e.id for update of e`);
  if (list.length === 0) return [];
  const ids = sql.join(
    list.map((e) => sql`${e.id}`),
    sql`, `,
  );
  const [{ now }] = await rows<{ now: Date }>(tx, sql`select now() as now`);
  await tx.execute(sql`update entries set deleted_at = ${now}, publication_cancelled_at = ${now}, updated_at = ${now} where id in (${ids})`);
  for (const e of list)
    await logChange(tx, { type: 'entry', entityId: e.id, userId: o.by, before: { deleted_at: null }, after: { deleted_at: now, reason: o.reason } });
  await revokeEntryDocuments(tx, { entryIds: list.map((e) => e.id), by: o.by, reason: VerificationMessages.reasonEntryCancelled });
  return list.map((e) => e.id);
}

/** The publication was rejected or deleted: its unpaid entries are owed no more. */
export async function cancelUnpaidEntriesOf(tx: Queryable, publicationId: number, o: { by: number | null; deleted: boolean }): Promise<number[]> {
  return cancel(
    tx,
    sql`${CANCELLABLE} and ${NOTHING_UNDER_WAY}
      and exists (select 1 from publication_entries pe where pe.entry_id = e.id and pe.publication_id = ${publicationId})`,
    { by: o.by, reason: o.deleted ? LogReasons.publicationDeleted : LogReasons.publicationRejected },
  );
}

/** An operator took the rejection back: the entries the rejection cancelled are owed again. */
export async function restoreCancelledEntriesOf(tx: Queryable, publicationId: number, o: { by: number }): Promise<number[]> {
  const list = await rows<{ id: number; deleted_at: Date }>(
    tx,
    sql`select e.id, e.deleted_at from entries e join publication_entries pe on pe.entry_id = e.id
        where pe.publication_id = ${publicationId} and e.publication_cancelled_at is not null and e.deleted_at is not null and e.status = 1
        order by e.id for update of e`,
  );
  for (const e of list) {
    await tx.execute(sql`update entries set deleted_at = null, publication_cancelled_at = null, updated_at = now() where id = ${e.id}`);
    await logChange(tx, {
      type: 'entry',
      entityId: e.id,
      userId: o.by,
      before: { deleted_at: e.deleted_at },
      after: { deleted_at: null, reason: LogReasons.publicationRestored },
    });
  }
  return list.map((e) => e.id);
}

/**
 * An entry just made unpaid again (a full refund): when it belongs to publications that are all
 * rejected or deleted, it is cancelled as their unpaid entries are.
 */
export async function cancelIfPublicationTurnedDown(tx: Queryable, entryId: number, o: { by: number | null }): Promise<boolean> {
  const done = await cancel(
    tx,
    sql`e.id = ${entryId} and ${CANCELLABLE} and ${NOTHING_UNDER_WAY}
      and exists (select 1 from publication_entries pe where pe.entry_id = e.id)`,
    { by: o.by, reason: LogReasons.publicationRejected },
  );
  return done.length > 0;
}
