// The one function that changes a publication's status (docs/decisions/014-publication-transitions.md).
// Allowed from-statuses come from PUBLICATION_TRANSITIONS in domain/; the row is locked and its
// status checked under the lock, so two operators pressing 'Одобрить' at once give one approval
// and one refusal. The change, its change-log row and its event (outbox) commit together.
import { sql } from 'drizzle-orm';
import { EventId, PublicationStatus } from '@edu/domain/common/codes';
import { PUBLICATION_TRANSITIONS, PublicationMessages, publicationStatusLabels, type PublicationAction } from '@edu/domain/publications/publication';
import { publications } from '../../db/schema/index.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { cancelUnpaidEntriesOf, restoreCancelledEntriesOf } from './publication-entries.ts';
import { loadRecord, loggedValue, type PublicationRecord } from './publications-repository.ts';

/** The event each action raises (told to the creator and the registered co-authors); none for a resubmit. */
const EVENT_OF: Partial<Record<PublicationAction, number>> = {
  accept: EventId.publicationApproved,
  decline: EventId.publicationRework,
  reject: EventId.publicationRejected,
  sendToJournal: EventId.publicationInJournal,
  publish: EventId.publicationPublished,
};

/** Columns a move may change besides the status. */
export type PublicationChanges = Partial<{
  title: string;
  text: string | null;
  file_id: number | null;
  release_id: number | null;
  is_journal: boolean;
  manager_comment: string | null;
  dict_category_id: number | null;
  type: number | null;
  price_id: number | null;
  url: string | null;
  url_contents: string | null;
}>;

export interface MoveOptions {
  publicationId: number;
  action: PublicationAction;
  /** Who acts (the change log's user). */
  by: number;
  set?: PublicationChanges;
  /** A silent rejection: no notification, no mail. */
  silent?: boolean;
  /**
   * Checked under the lock before the move (e.g. 'В журнал' only when is_journal); what it returns is
   * written into the change-log row's `after` (e.g. `confirmed_unpaid: true`).
   */
  guard?: (current: PublicationRecord) => void | Record<string, unknown>;
  /** The record as the caller read it under the row's lock in this same transaction (not read again). */
  locked?: PublicationRecord;
}

/**
 * An unpaid publication moves to approved or to the journal only when the operator confirmed it
 * (`confirm_unpaid`, issue 28): 422 on `confirm_unpaid` otherwise. Run as a move's guard, under the lock.
 */
export function unpaidGuard(confirmed: boolean, message: string) {
  return (current: PublicationRecord) => {
    if (current.is_paid) return;
    if (!confirmed) throw fieldError('confirm_unpaid', message, message);
    return { confirmed_unpaid: true };
  };
}

export function transitionRefused(status: number): AppError {
  return new AppError(422, PublicationMessages.transitionRefused(publicationStatusLabels[status] ?? String(status)));
}

/**
 * Moves a publication by an action: locks the row, refuses a status the action may not start from
 * (422), writes the new status with `set`, the change-log row and the event. Run inside a transaction.
 */
export async function movePublication(tx: Queryable, o: MoveOptions): Promise<{ before: PublicationRecord; status: number }> {
  const rule = PUBLICATION_TRANSITIONS[o.action];
  const current = o.locked ?? (await loadRecord(tx, o.publicationId, { lock: true }));
  if (!current) throw notFound(PublicationMessages.notFound);
  if (!(rule.from as readonly number[]).includes(current.status)) throw transitionRefused(current.status);
  const guardNote = o.guard?.(current) ?? {};
  const set = { ...(o.set ?? {}), status: rule.to };
  const updated = await tx
    .update(publications)
    .set({ ...set, updated_at: new Date() })
    .where(
      sql`id = ${o.publicationId} and deleted_at is null and status in (${sql.join(
        rule.from.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    )
    .returning({ id: publications.id });
  // The lock makes this unreachable; kept so a move never succeeds without the conditional update.
  if (updated.length === 0) throw transitionRefused(current.status);

  const before: Record<string, unknown> = { status: current.status };
  const after: Record<string, unknown> = { status: rule.to, ...guardNote };
  for (const [k, v] of Object.entries(o.set ?? {})) {
    before[k] = loggedValue(current, k);
    after[k] = v;
  }
  await logChange(tx, { type: 'publication', entityId: o.publicationId, userId: o.by, before, after });
  // A rejected publication leaves no debt; taking the rejection back makes its entry owed again (decision 025).
  if (rule.to === PublicationStatus.rejected) await cancelUnpaidEntriesOf(tx, o.publicationId, { by: o.by, deleted: false });
  else if (current.status === PublicationStatus.rejected) await restoreCancelledEntriesOf(tx, o.publicationId, { by: o.by });

  const eventId = EVENT_OF[o.action];
  const silent = o.silent && rule.to === PublicationStatus.rejected;
  if (eventId && !silent && current.status !== rule.to) {
    for (const userId of await peopleToTell(tx, o.publicationId, current.created_by)) {
      await raiseEvent(tx, { eventId, userId, publicationId: o.publicationId, serviceId: current.service_id ?? undefined });
    }
  }
  return { before: current, status: rule.to };
}

/** The creator and the co-authors who have an account, once each. */
async function peopleToTell(tx: Queryable, publicationId: number, creator: number): Promise<number[]> {
  const list = await rows<{ user_id: number }>(
    tx,
    sql`select distinct a.user_id from publication_authors a join users u on u.id = a.user_id and u.deleted_at is null
        where a.publication_id = ${publicationId} and a.user_id is not null and a.accepted_at is not null and a.user_id <> ${creator}`,
  );
  return [creator, ...list.map((r) => r.user_id)];
}
