import { sql, type SQL } from 'drizzle-orm';
import { formatDateTime } from '@edu/domain/common/format';
import { entryStatusLabels, Role, type EntryStatusCode } from '@edu/domain/common/codes';
import { MailingMessages, mailingStatusLabels, type MailingAudience, type MailingProgress, type MailingStatus } from '@edu/domain/mailing/mailing';
import { rows, type Queryable } from '../../platform/db.ts';
import { intArray } from '../../platform/list-query.ts';

/**
 * The users a mass letter may go to (alias u): live users and operators with an e-mail; guests never.
 * Opting out is checked where the letters are listed (mail_subscriptions).
 */
export const mailableUser = sql`u.deleted_at is null and u.role <> ${Role.guest} and coalesce(u.email, '') <> ''`;

/** The audience's conditions on users (alias u); true for everyone. */
export function audienceWhere(a: MailingAudience | null | undefined): SQL {
  const parts: SQL[] = [];
  if (a?.profile_ids?.length)
    parts.push(sql`exists (select 1 from user_profiles up where up.user_id = u.id and up.dict_profile_id = any(${intArray(a.profile_ids)}))`);
  if (a?.region_ids?.length) parts.push(sql`u.dict_region_id = any(${intArray(a.region_ids)})`);
  if (a?.is_spb === 0 || a?.is_spb === 1) parts.push(sql`u.is_spb = ${a.is_spb}`);
  const entry: SQL[] = [];
  if (a?.service_ids?.length) entry.push(sql`e.service_id = any(${intArray(a.service_ids)})`);
  if (a?.service_type_ids?.length) entry.push(sql`e.service_type_id = any(${intArray(a.service_type_ids)})`);
  if (a?.entry_statuses?.length) entry.push(sql`e.status = any(${intArray(a.entry_statuses)})`);
  if (entry.length > 0) parts.push(sql`exists (select 1 from entries e where e.created_by = u.id and e.deleted_at is null and ${sql.join(entry, sql` and `)})`);
  return parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`;
}

/** How many would get the letter now: mailable, matching, not unsubscribed. */
export async function countAudience(db: Queryable, a: MailingAudience | null | undefined): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from users u left join mail_subscriptions s on s.user_id = u.id
        where ${mailableUser} and s.unsubscribed_at is null and ${audienceWhere(a)}`,
  );
  return r.n;
}

/** The audience in words, with the names of the chosen records ('Профиль: Учитель; Статус заявки: Оплачена'). */
export async function audienceLabel(db: Queryable, a: MailingAudience | null | undefined): Promise<string> {
  const names = async (table: SQL, column: SQL, ids: number[] | undefined) =>
    ids?.length
      ? (await rows<{ name: string }>(db, sql`select ${column} as name from ${table} where id = any(${intArray(ids)}) order by id`))
          .map((r) => r.name)
          .join(', ')
      : '';
  const [profiles, regions, services, types] = await Promise.all([
    names(sql`dict_profiles`, sql`fdv`, a?.profile_ids),
    names(sql`dict_regions`, sql`fdv`, a?.region_ids),
    names(sql`services`, sql`title`, a?.service_ids),
    names(sql`dict_service_types`, sql`fdv`, a?.service_type_ids),
  ]);
  const parts = [
    profiles && `Профиль: ${profiles}`,
    regions && `Регион: ${regions}`,
    a?.is_spb === 1 ? 'Санкт-Петербург' : a?.is_spb === 0 ? 'Не Санкт-Петербург' : '',
    services && `Услуги: ${services}`,
    types && `Тип услуги: ${types}`,
    a?.entry_statuses?.length ? `Статус заявки: ${a.entry_statuses.map((st) => entryStatusLabels[st as EntryStatusCode]).join(', ')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : MailingMessages.everyone;
}

/**
 * The audience's first recipients by id (or, with `userId`, that one if the audience has them): whose
 * values a preview shows. Labelled 'Иванов Иван Иванович (ivanov@example.com)'.
 */
export async function audienceRecipients(
  db: Queryable,
  a: MailingAudience | null | undefined,
  limit: number,
  userId?: number,
): Promise<{ id: number; label: string }[]> {
  return rows<{ id: number; label: string }>(
    db,
    sql`select u.id, concat_ws(' ', u.last_name, u.first_name, nullif(u.middle_name, '')) || ' (' || u.email || ')' as label
        from users u left join mail_subscriptions s on s.user_id = u.id
        where ${mailableUser} and s.unsubscribed_at is null and ${audienceWhere(a)} ${userId ? sql`and u.id = ${userId}` : sql``}
        order by u.id limit ${limit}`,
  );
}

interface MailingRow {
  id: number;
  subject: string | null;
  audience_label: string | null;
  status: MailingStatus;
  text: string | null;
  recipients: number;
  created_at: Date;
  finished_at: Date | null;
  sent: number;
  failed: number;
  waiting: number;
  last_minute: number;
}

const EXCERPT = 140;

/** Counts come from the deliveries themselves, so the view is right even after a crash mid-mailing. */
const progressSelect = sql`select m.id, m.subject, m.audience_label, m.status, m.text, m.recipients, m.created_at, m.finished_at,
    coalesce(d.sent, 0)::int as sent, coalesce(d.failed, 0)::int as failed, coalesce(d.waiting, 0)::int as waiting,
    coalesce(d.last_minute, 0)::int as last_minute
  from mailings m
  left join lateral (
    select count(*) filter (where status = 1) as sent, count(*) filter (where status = 2) as failed,
           count(*) filter (where status = 0) as waiting,
           count(*) filter (where status = 1 and sent_at > now() - interval '1 minute') as last_minute
    from mailing_deliveries where mailing_id = m.id
  ) d on true`;

function toProgress(r: MailingRow, failures: MailingProgress['failures']): MailingProgress {
  const text = (r.text ?? '').replace(/\s+/g, ' ').trim();
  return {
    id: r.id,
    subject: r.subject ?? MailingMessages.subject,
    audience_label: r.audience_label ?? MailingMessages.everyone,
    status: r.status,
    status_label: mailingStatusLabels[r.status],
    excerpt: text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text,
    recipients: r.recipients,
    sent: r.sent,
    failed: r.failed,
    left: r.status === 'done' ? 0 : r.status === 'queued' ? r.recipients : r.waiting,
    rate_per_minute: r.status === 'done' ? 0 : r.last_minute,
    created_at_formatted: formatDateTime(r.created_at),
    finished_at_formatted: r.finished_at ? formatDateTime(r.finished_at) : null,
    failures,
  };
}

export async function mailingProgress(db: Queryable, id: number): Promise<MailingProgress | null> {
  const [r] = await rows<MailingRow>(db, sql`${progressSelect} where m.id = ${id}`);
  if (!r) return null;
  const failures = await rows<{ email: string; error: string | null; attempts: number }>(
    db,
    sql`select email, last_error as error, attempts from mailing_deliveries where mailing_id = ${id} and status = 2 order by id limit 100`,
  );
  return toProgress(r, failures);
}

export async function listMailings(db: Queryable, limit: number): Promise<MailingProgress[]> {
  const list = await rows<MailingRow>(db, sql`${progressSelect} order by m.id desc limit ${limit}`);
  return list.map((r) => toProgress(r, []));
}

/** Queues a mass letter (status 'queued'); its id. */
export async function insertMailing(
  db: Queryable,
  m: { message: string; html: string; text: string; subject: string; audience: MailingAudience | null; audienceLabel: string; createdBy: number },
): Promise<number> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into mailings (message, html, text, subject, audience, audience_label, created_by, status)
        values (${m.message}, ${m.html}, ${m.text}, ${m.subject}, ${m.audience ? JSON.stringify(m.audience) : null}::jsonb, ${m.audienceLabel},
                ${m.createdBy}, 'queued') returning id`,
  );
  return row.id;
}

/** The e-mail address of a user (the operator's own, for a test letter). */
export async function userEmail(db: Queryable, userId: number): Promise<string | undefined> {
  const [own] = await rows<{ email: string }>(db, sql`select email from users where id = ${userId}`);
  return own?.email;
}

/** Whether the user receives mass letters (no row: subscribed). */
export async function isSubscribed(db: Queryable, userId: number): Promise<boolean> {
  const [s] = await rows<{ unsubscribed_at: Date | null }>(db, sql`select unsubscribed_at from mail_subscriptions where user_id = ${userId}`);
  return !s?.unsubscribed_at;
}

/** Sets the user's subscription; answers whether they were subscribed before (the caller's transaction logs it). */
export async function setSubscribed(db: Queryable, userId: number, subscribed: boolean): Promise<boolean> {
  const [s] = await rows<{ unsubscribed_at: Date | null }>(db, sql`select unsubscribed_at from mail_subscriptions where user_id = ${userId} for update`);
  await db.execute(
    sql`insert into mail_subscriptions (user_id, unsubscribed_at) values (${userId}, ${subscribed ? null : sql`now()`})
        on conflict (user_id) do update set unsubscribed_at = excluded.unsubscribed_at`,
  );
  return !s?.unsubscribed_at;
}

/**
 * Unsubscribes by the token of a letter's link (kept when already unsubscribed): answers whose
 * subscription it is and whether it was on; null when no one has that token.
 */
export async function unsubscribeByToken(db: Queryable, token: string): Promise<{ userId: number; wasSubscribed: boolean } | null> {
  const [before] = await rows<{ user_id: number; unsubscribed_at: Date | null }>(
    db,
    sql`select user_id, unsubscribed_at from mail_subscriptions where token = ${token}::uuid for update`,
  );
  if (!before) return null;
  await db.execute(sql`update mail_subscriptions set unsubscribed_at = coalesce(unsubscribed_at, now()) where token = ${token}::uuid`);
  return { userId: before.user_id, wasSubscribed: !before.unsubscribed_at };
}
