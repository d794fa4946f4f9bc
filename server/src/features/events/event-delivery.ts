import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EventId } from '@edu/domain/common/codes';
import { rows } from '../../platform/db.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { htmlToText } from '../../platform/html.ts';
import { entryUrl } from '../entries/entry-status.ts';
import { eventValues, renderHtml, renderText } from './event-macros.ts';
import type { JobPayloads } from '../../platform/jobs.ts';
import { isGuest } from '../../platform/access.ts';
import { copyToTelegram } from '../../platform/notify.ts';

/** Where a notification of the event leads in the cabinet. */
const EVENT_URL: Record<number, string> = {
  [EventId.welcome]: '/user/service',
  [EventId.entryCreated]: '/user/entry',
  [EventId.entryPaid]: '/user/entry',
  [EventId.entryDone]: '/user/entry',
  [EventId.contractApproved]: '/user/entry',
  [EventId.contractRejected]: '/user/entry',
  [EventId.publicationApproved]: '/user/publication',
  [EventId.publicationRejected]: '/user/publication',
  [EventId.publicationRework]: '/user/publication',
  [EventId.publicationPublished]: '/user/publication',
  [EventId.publicationInJournal]: '/user/publication',
  [EventId.packageExpired]: '/user/service-package',
  [EventId.paymentRefunded]: '/user/entry',
  [EventId.paymentCanceled]: '/user/entry',
};

interface OutboxRow {
  id: number;
  event_id: number;
  user_id: number;
  entry_id: number | null;
  service_id: number | null;
  publication_id: number | null;
  contract_id: number | null;
  extra: Record<string, string>;
  notified_at: Date | null;
  mail_result: string | null;
}

interface EventDef {
  fdv: string;
  icon: string | null;
  color: string | null;
  is_mailing: boolean;
  dv: string | null;
  content: string | null;
  template_content: string | null;
}

/**
 * 'deliver-event' {outboxId}: the notification (from the event's template of type 5) is written at
 * most once, in a transaction that also marks the outbox row (and, when the event's mailing switch
 * is on and the user linked Telegram, schedules its Telegram copy); then the e-mail is sent when the
 * event's mailing switch is on. A failed send throws, so the job retries with backoff; the
 * notification is not repeated.
 */
export async function deliverEvent(app: FastifyInstance, { outboxId }: JobPayloads['deliver-event']): Promise<void> {
  const [row] = await rows<OutboxRow>(app.db, sql`select * from event_outbox where id = ${outboxId}`);
  if (!row || (row.notified_at && row.mail_result)) return;
  const [event] = await rows<EventDef>(
    app.db,
    sql`select e.fdv, e.icon, e.color, e.is_mailing, e.dv, e.content, t.content as template_content
        from dict_events e left join templates t on t.id = e.template_id and t.deleted_at is null where e.id = ${row.event_id}`,
  );
  if (!event) {
    await app.db.execute(sql`update event_outbox set notified_at = now(), mail_result = 'no-event' where id = ${row.id}`);
    return;
  }
  const values = await eventValues(
    app.db,
    {
      userId: row.user_id,
      entryId: row.entry_id ?? undefined,
      serviceId: row.service_id ?? undefined,
      publicationId: row.publication_id ?? undefined,
      contractId: row.contract_id ?? undefined,
    },
    { 'app.url': app.config.appUrl, ...row.extra },
  );

  if (!row.notified_at) {
    // Notifications about an entry lead to it in My entries; others to their section.
    const [entry] = row.entry_id ? await rows<{ number: string }>(app.db, sql`select number from entries where id = ${row.entry_id}`) : [];
    const url = entry && row.event_id !== EventId.packageExpired ? entryUrl(entry.number) : (EVENT_URL[row.event_id] ?? null);
    await app.db.transaction(async (tx) => {
      const [claimed] = await rows<{ id: number }>(
        tx,
        sql`update event_outbox set notified_at = now() where id = ${row.id} and notified_at is null returning id`,
      );
      if (!claimed || !event.template_content) return;
      const text = renderHtml(event.template_content, values);
      const [n] = await rows<{ id: number }>(
        tx,
        sql`insert into notifications (user_id, text, text_clear, icon, color, url)
            values (${row.user_id}, ${text}, ${htmlToText(text)}, ${event.icon ?? 'IconBell'}, ${event.color ?? 'blue'}, ${url})
            returning id`,
      );
      await tx.execute(sql`update event_outbox set notification_id = ${n.id} where id = ${row.id}`);
      // Telegram follows the switch that governs the letter: the event's «Рассылка писем» (decision 042).
      if (event.is_mailing) await copyToTelegram(tx, row.user_id, n.id);
    });
  }

  if (row.mail_result) return;
  const [user] = await rows<{ email: string | null; role: number; deleted_at: Date | null }>(
    app.db,
    sql`select email, role, deleted_at from users where id = ${row.user_id}`,
  );
  let result: string;
  if (!event.is_mailing || !event.content) result = 'off';
  else if (!user || user.deleted_at || !user.email) result = 'no-address';
  else if (isGuest(user)) result = 'guest';
  else {
    const subject = renderText(event.dv || event.fdv, values);
    const html = renderHtml(event.content, values);
    try {
      await app.mailer.send({ to: user.email, subject, html, text: htmlToText(html) });
    } catch (err) {
      await app.db.execute(sql`update event_outbox set last_error = ${String((err as Error)?.message ?? err).slice(0, 2000)} where id = ${row.id}`);
      throw err;
    }
    result = 'sent';
  }
  await app.db.execute(sql`update event_outbox set mail_result = ${result}, mailed_at = ${result === 'sent' ? sql`now()` : sql`null`} where id = ${row.id}`);
}

export function registerEventJobs(runner: JobRunner): void {
  runner.register('deliver-event', deliverEvent);
}
