import { sql } from 'drizzle-orm';
import { notifications } from '../db/schema/index.ts';
import type { Queryable } from './db.ts';
import { htmlToText } from './html.ts';

export interface NewNotification {
  userId: number;
  /** HTML; callers escape what users typed. */
  text: string;
  icon?: string;
  color?: string;
  url?: string;
}

/**
 * Writes an in-cabinet notification. Called by features on their domain events (entry created,
 * paid, done, ...) inside the same transaction as the change, so a rolled-back change notifies no one.
 * These notifications have no letter (so no mailing switch): a user who linked Telegram gets each
 * one there too.
 */
export async function notify(db: Queryable, n: NewNotification): Promise<void> {
  const [row] = await db
    .insert(notifications)
    .values({
      user_id: n.userId,
      text: n.text,
      text_clear: htmlToText(n.text),
      icon: n.icon ?? 'IconBell',
      color: n.color ?? 'blue',
      url: n.url ?? null,
    })
    .returning({ id: notifications.id });
  await copyToTelegram(db, n.userId, row.id);
}

/**
 * Schedules the Telegram copy of a notification (job 'telegram-notify', features/telegram) when its
 * user has linked a chat; call it in the transaction that writes the notification, so the copy
 * commits with it and is sent after the commit, never from inside the request.
 */
export async function copyToTelegram(db: Queryable, userId: number, notificationId: number): Promise<void> {
  await db.execute(
    sql`insert into jobs (name, payload, owner_id)
        select 'telegram-notify', ${JSON.stringify({ notificationId })}::jsonb, ${userId}
        where exists (select 1 from telegram_links where user_id = ${userId})`,
  );
}
