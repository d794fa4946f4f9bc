import { and, count, desc, eq, gt } from 'drizzle-orm';
import type { z } from 'zod';
import { formatDateTime } from '@edu/domain/common/format';
import { pageMeta } from '@edu/domain/common/pagination';
import type { Notification, notificationListQuery } from '@edu/domain/notifications/notification';
import { notifications } from '../../db/schema/index.ts';
import type { Queryable } from '../../platform/db.ts';

type NotificationRow = typeof notifications.$inferSelect;

const toNotification = (r: NotificationRow): Notification => ({
  id: r.id,
  user_id: r.user_id,
  checked: r.checked,
  text: r.text,
  text_clear: r.text_clear,
  icon: r.icon,
  color: r.color,
  url: r.url,
  created_at_formatted: formatDateTime(r.created_at),
});

/** A page of the user's notifications, unread first, newest first; optionally only read or unread ones. */
export async function listNotifications(db: Queryable, userId: number, q: z.output<typeof notificationListQuery>) {
  const where = and(
    eq(notifications.user_id, userId),
    q.checked === undefined ? undefined : eq(notifications.checked, q.checked === '1' || q.checked === 'true'),
  );
  const [{ total }] = await db.select({ total: count() }).from(notifications).where(where);
  const list = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(notifications.checked, desc(notifications.created_at), desc(notifications.id))
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page);
  return { data: list.map(toNotification), meta: pageMeta(total, q) };
}

/** The unread count and the (at most five) unread notifications newer than `afterId`. */
export async function newNotifications(db: Queryable, userId: number, afterId: number): Promise<{ count: number; data: Notification[] }> {
  const [{ unread }] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), eq(notifications.checked, false)));
  const fresh = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), eq(notifications.checked, false), gt(notifications.id, afterId)))
    .orderBy(desc(notifications.id))
    .limit(5);
  return { count: unread, data: fresh.map(toNotification) };
}

/** Marks one of the user's notifications read; null when it is not theirs or does not exist. */
export async function markNotificationRead(db: Queryable, userId: number, id: number): Promise<Notification | null> {
  const [row] = await db
    .update(notifications)
    .set({ checked: true })
    .where(and(eq(notifications.id, id), eq(notifications.user_id, userId)))
    .returning();
  return row ? toNotification(row) : null;
}

/** Marks all the user's unread notifications read. */
export async function markAllNotificationsRead(db: Queryable, userId: number): Promise<void> {
  await db
    .update(notifications)
    .set({ checked: true })
    .where(and(eq(notifications.user_id, userId), eq(notifications.checked, false)));
}
