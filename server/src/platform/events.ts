import { eventOutbox } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';
import { scheduleJob } from './jobs.ts';

export interface RaisedEvent {
  /** dict_events id (EventId in domain/src/common/codes.ts). */
  eventId: number;
  /** Who is told. */
  userId: number;
  /** What it is about: the macros of these records fill the mail and the notification. */
  entryId?: number;
  serviceId?: number;
  publicationId?: number;
  contractId?: number;
  /** Macro values known only now (they win over the records' values). */
  extra?: Record<string, string>;
}

/**
 * The one way the server raises a domain event (registration, entry created or paid, contract
 * reviewed, publication status changed, package expired). Call it inside the transaction of the
 * change: the outbox row and its 'deliver-event' job commit or roll back with the change, and the
 * job (features/events/event-delivery.ts) renders the event's template, writes the notification and
 * sends the mail after the commit. Nothing is sent from inside a request's transaction.
 */
export async function raiseEvent(db: Queryable, e: RaisedEvent): Promise<number> {
  const [row] = await db
    .insert(eventOutbox)
    .values({
      event_id: e.eventId,
      user_id: e.userId,
      entry_id: e.entryId ?? null,
      service_id: e.serviceId ?? null,
      publication_id: e.publicationId ?? null,
      contract_id: e.contractId ?? null,
      extra: e.extra ?? {},
    })
    .returning({ id: eventOutbox.id });
  await scheduleJob(db, 'deliver-event', { outboxId: row.id });
  return row.id;
}
