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
 */
export async function notify(db: Queryable, n: NewNotification): Promise<void> {
  await db.insert(notifications).values({
    user_id: n.userId,
    text: n.text,
    text_clear: htmlToText(n.text),
    icon: n.icon ?? 'IconBell',
    color: n.color ?? 'blue',
    url: n.url ?? null,
  });
}
