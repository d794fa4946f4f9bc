import { sql } from 'drizzle-orm';
import { rows, type Queryable } from '../../platform/db.ts';

// What the metrics read from the database when they are scraped (never on a timer): the durable
// jobs, the mail waiting to go out, the card payments the provider has not settled. Every instance
// reads the same rows, so with several instances these figures are the whole install's. Each query
// runs on a partial or status index.

/** Answers when the database does: the readiness check's trivial query. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await rows(db, sql`select 1 as one`);
}

export interface JobBacklogRow {
  name: string;
  /** Due and not taken by a runner. */
  waiting: number;
  /** Taken by a runner whose lease still holds. */
  running: number;
  /** Seconds since the oldest waiting one was due (0 when none waits). */
  oldest_s: number;
}

/** Due, unfinished jobs by name. */
export async function jobBacklog(db: Queryable): Promise<JobBacklogRow[]> {
  return rows<JobBacklogRow>(
    db,
    sql`select name,
               (count(*) filter (where locked_until is null or locked_until < now()))::int as waiting,
               (count(*) filter (where locked_until >= now()))::int as running,
               coalesce(extract(epoch from now() - min(run_at) filter (where locked_until is null or locked_until < now())), 0)::float8 as oldest_s
        from jobs where done_at is null and run_at <= now() group by name`,
  );
}

export interface MailBacklog {
  /** Event letters (event_outbox) not delivered yet, and how long the oldest has waited. */
  events: number;
  events_oldest_s: number;
  /** Letters of mass mailings still to send. */
  mailing: number;
}

export async function mailBacklog(db: Queryable): Promise<MailBacklog> {
  const [row] = await rows<MailBacklog>(
    db,
    sql`select (select count(*) from event_outbox where mail_result is null)::int as events,
               coalesce((select extract(epoch from now() - min(created_at)) from event_outbox where mail_result is null), 0)::float8 as events_oldest_s,
               (select count(*) from mailing_deliveries where status = 0)::int as mailing`,
  );
  return row;
}

/**
 * How far back the payments job asks the provider about open payments (features/payments/jobs.ts,
 * its sweep's SWEEP_BACK_H): an older one stays open in our table and is nobody's work any more.
 */
const RECONCILE_WINDOW_H = 48;

export interface ProviderBacklogRow {
  /** 'pending', 'waiting_for_capture' (payments) or 'refund' (refunds the provider has not settled). */
  state: string;
  count: number;
  oldest_s: number;
}

/** Card payments and refunds the provider has not settled yet (awaiting reconciliation). */
export async function paymentsAwaitingReconciliation(db: Queryable): Promise<ProviderBacklogRow[]> {
  return rows<ProviderBacklogRow>(
    db,
    sql`select status as state, count(*)::int as count, extract(epoch from now() - min(created_at))::float8 as oldest_s
        from card_transactions
        where uuid is not null and status in ('pending', 'waiting_for_capture') and created_at > now() - make_interval(hours => ${RECONCILE_WINDOW_H})
        group by status
        union all
        select 'refund', count(*)::int, coalesce(extract(epoch from now() - min(created_at)), 0)::float8
        from payment_refunds where status = 'pending'`,
  );
}
