import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MailingMessages, type MailingAudience } from '@edu/domain/mailing/mailing';
import { rows } from '../../platform/db.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { type Mailer } from '../../platform/mail.ts';
import { escapeHtml } from '../../platform/html.ts';
import { intArray } from '../../platform/list-query.ts';
import { massLetterBuilder } from '../../platform/mass-letter.ts';
import { MailingJournal } from './mailing-journal.ts';
import { audienceWhere, mailableUser } from './mailing-repository.ts';
import { hasMacros, recipientValues, renderLetter } from './mailing-macros.ts';

/** A slice of sending stays well inside the job lease (2 minutes) and lets other jobs run between slices. */
const SLICE_MS = 10_000;
const BATCH = 500;
/** Delivery lease: a crashed sender's letters are taken again after this. */
const LEASE_S = 60;

export interface SliceOptions {
  mailer?: Mailer;
  sliceMs?: number;
}

interface Claimed {
  id: number;
  user_id: number;
  email: string;
  attempts: number;
  token: string;
}

/** Tells the database about letters recorded in the journals (after a crash: before anything is claimed). */
async function applyJournals(app: FastifyInstance, dir: string, mailingId: number): Promise<void> {
  const { ids, idleFiles } = MailingJournal.read(dir, mailingId, 2 * LEASE_S * 1000);
  if (ids.length > 0) {
    await app.db.execute(
      sql`update mailing_deliveries set status = 1, sent_at = coalesce(sent_at, now()), locked_until = null
          where mailing_id = ${mailingId} and status = 0 and id = any(${intArray(ids)})`,
    );
  }
  // A journal nobody has written to for two leases belongs to a sender that is gone; its letters are now in the database.
  MailingJournal.remove(idleFiles);
}

/** Backoff of a failed address: 30 s, 1 min, 2 min, ... at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Lists the recipients once: the mailing's audience among active users and operators with an e-mail
 * who have not opted out; guests and deleted users are skipped. (mailing_id, user_id) is unique, so
 * running this twice after a crash adds nobody twice.
 */
async function listRecipients(app: FastifyInstance, mailingId: number): Promise<void> {
  await app.db.transaction(async (tx) => {
    const [m] = await rows<{ status: string; audience: MailingAudience | null }>(
      tx,
      sql`select status, audience from mailings where id = ${mailingId} for update`,
    );
    if (m?.status !== 'queued') return;
    await tx.execute(sql`insert into mail_subscriptions (user_id) select u.id from users u where ${mailableUser} on conflict (user_id) do nothing`);
    await tx.execute(
      sql`insert into mailing_deliveries (mailing_id, user_id, email)
          select ${mailingId}, u.id, u.email from users u join mail_subscriptions s on s.user_id = u.id
          where ${mailableUser} and s.unsubscribed_at is null and ${audienceWhere(m.audience)}
          on conflict (mailing_id, user_id) do nothing`,
    );
    await tx.execute(
      sql`update mailings set status = 'sending', started_at = now(),
            recipients = (select count(*) from mailing_deliveries where mailing_id = ${mailingId}) where id = ${mailingId}`,
    );
  });
}

/** The letter as a recipient gets it: the message, then the unsubscribe footer and headers. */
export function letter(app: FastifyInstance, m: { html: string; text: string; subject: string }, token: string) {
  const link = `${app.config.appUrl}/unsubscribe/${token}`;
  const oneClick = `${app.config.appUrl}/api/mail/unsubscribe/${token}`;
  const html =
    `${m.html}<hr><p style="font-size:12px;color:#868e96">${escapeHtml(MailingMessages.unsubscribeFooter)} ` +
    `<a href="${escapeHtml(link)}">${escapeHtml(MailingMessages.unsubscribe)}</a></p>`;
  const text = `${m.text}\n\n--\n${MailingMessages.unsubscribeFooter}\n${MailingMessages.unsubscribe}: ${link}`;
  return { html, text, headers: { 'List-Unsubscribe': `<${oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}

/**
 * One slice of a mailing: claims due deliveries in batches (FOR UPDATE SKIP LOCKED with a lease),
 * sends each through the mass sender's SMTP connections and journals it the moment it is handed
 * over (right before its terminating dot), so a crash neither loses nor repeats it. A failed address is retried with backoff up to the attempt limit, then reported as failed.
 * Answers when to continue, or nothing when the mailing is finished.
 */
export async function runMailingSlice(
  app: FastifyInstance,
  mailingId: number,
  opts: SliceOptions = {},
): Promise<void | { retryInSeconds: number; continuation: true }> {
  const mailer = opts.mailer ?? app.mailer;
  const until = Date.now() + (opts.sliceMs ?? SLICE_MS);
  const [m] = await rows<{ status: string; html: string; text: string; subject: string | null }>(
    app.db,
    sql`select status, html, text, subject from mailings where id = ${mailingId}`,
  );
  if (!m || m.status === 'done') return;
  if (m.status === 'queued') await listRecipients(app, mailingId);
  const journalDir = path.join(app.config.dataDir, 'mailing-journal');
  await applyJournals(app, journalDir, mailingId);
  const journal = new MailingJournal(journalDir, mailingId);

  const { ratePerMinute, maxAttempts } = app.config.mailing;
  const gapMs = ratePerMinute > 0 ? 60_000 / ratePerMinute : 0;
  const batchSize = gapMs > 0 ? Math.max(1, Math.min(BATCH, Math.ceil((opts.sliceMs ?? SLICE_MS) / gapMs))) : BATCH;
  const host = new URL(app.config.appUrl).hostname || 'localhost';
  const content = { html: m.html, text: m.text, subject: m.subject ?? MailingMessages.subject };
  // Macros are filled per recipient; a letter without any is the same for everybody and skips the reads.
  const personal = hasMacros(content.subject, content.html);
  const build = massLetterBuilder({ from: app.config.mailFrom, subject: content.subject });
  let nextStart = Date.now();

  try {
    while (Date.now() < until) {
      const batch = await rows<Claimed>(
        app.db,
        sql`with c as (
              update mailing_deliveries set locked_until = now() + make_interval(secs => ${LEASE_S}), attempts = attempts + 1
              where id in (select id from mailing_deliveries
                           where mailing_id = ${mailingId} and status = 0 and next_attempt_at <= now()
                             and (locked_until is null or locked_until < now())
                           order by id limit ${batchSize} for update skip locked)
              returning id, user_id, email, attempts)
            select c.id, c.user_id, c.email, c.attempts, s.token from c join mail_subscriptions s on s.user_id = c.user_id`,
      );
      if (batch.length === 0) break;
      const valuesOf = personal
        ? await recipientValues(
            app.db,
            batch.map((d) => d.user_id),
          )
        : null;
      const sent: number[] = [];
      await Promise.all(
        batch.map(async (d) => {
          if (gapMs > 0) {
            const wait = nextStart - Date.now();
            nextStart = Math.max(nextStart, Date.now()) + gapMs;
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          }
          const own = valuesOf ? renderLetter(content, valuesOf(d.user_id)) : content;
          const l = letter(app, own, d.token);
          let handedOver = false;
          try {
            const messageId = `<mailing-${mailingId}-${d.user_id}@${host}>`;
            if (mailer.sendMass) {
              const raw = build({ to: d.email, messageId, html: l.html, text: l.text, headers: l.headers, subject: valuesOf ? own.subject : undefined });
              // Journaled right before the terminating dot: from here on the letter counts as sent.
              const result = await mailer.sendMass(raw, () => {
                journal.handedOver(d.id);
                handedOver = true;
              });
              if (result === 'accepted') journal.record(d.id);
            } else {
              await mailer.send({ to: d.email, subject: own.subject, html: l.html, text: l.text, headers: l.headers, messageId });
              journal.record(d.id);
            }
          } catch (err) {
            // Refused after the hand-over: the journal must not count it as sent.
            if (handedOver) journal.failed(d.id);
            const error = String((err as Error)?.message ?? err).slice(0, 500);
            const final = d.attempts >= maxAttempts;
            await app.db.execute(
              sql`update mailing_deliveries set locked_until = null, last_error = ${error},
                    status = ${final ? 2 : 0}, next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds(d.attempts)})
                  where id = ${d.id}`,
            );
            return;
          }
          // In the journal already; the database hears of it with the batch.
          sent.push(d.id);
        }),
      );
      if (sent.length > 0) {
        await app.db.execute(sql`update mailing_deliveries set status = 1, sent_at = now(), locked_until = null where id = any(${intArray(sent)})`);
      }
    }
  } finally {
    journal.close();
  }

  const [left] = await rows<{ waiting: number; next_in: number | null }>(
    app.db,
    sql`select count(*)::int as waiting,
          extract(epoch from min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at))) - now())::float as next_in
        from mailing_deliveries where mailing_id = ${mailingId} and status = 0`,
  );
  if (left.waiting > 0) return { retryInSeconds: Math.max(0.05, Math.min(3600, left.next_in ?? 0)), continuation: true };
  await app.db.execute(
    sql`update mailings set status = 'done', finished_at = now(),
          sent = (select count(*) from mailing_deliveries where mailing_id = ${mailingId} and status = 1),
          failed = (select count(*) from mailing_deliveries where mailing_id = ${mailingId} and status = 2)
        where id = ${mailingId} and status <> 'done'`,
  );
  MailingJournal.removeAll(journalDir, mailingId);
}

export function registerMailingJobs(runner: JobRunner): void {
  runner.register('mailing', (app, { mailingId }) => runMailingSlice(app, mailingId));
}
