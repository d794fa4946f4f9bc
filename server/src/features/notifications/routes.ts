import { and, count, desc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { flagField, idField, idParams, intField } from '@edu/domain/common/bounds';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { formatDateTime } from '@edu/domain/common/format';
import { pageMeta } from '@edu/domain/common/pagination';
import {
  newNotificationsAnswer,
  notificationAnswer,
  notificationListQuery,
  notificationsAnswer,
  readAllAnswer,
  type Notification,
} from '@edu/domain/notifications/notification';
import { notifications } from '../../db/schema/index.ts';
import { currentUser } from '../../platform/auth.ts';
import type { Queryable } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import { defaultAccess } from '../../platform/access.ts';

const toNotification = (r: typeof notifications.$inferSelect): Notification => ({
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

async function listNotifications(db: Queryable, me: number, q: z.output<typeof notificationListQuery>) {
  const where = and(eq(notifications.user_id, me), q.checked === undefined ? undefined : eq(notifications.checked, q.checked === '1' || q.checked === 'true'));
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

/**
 * Notifications of the signed-in user. A user_id in the query is accepted for the client's sake but
 * a user only ever sees their own. New ones reach the open cabinet by polling /new (see
 * docs/decisions/004-notifications-polling.md).
 */
export const notificationRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  app.get('/', { schema: { tags: ['notifications'], querystring: notificationListQuery, response: { 200: notificationsAnswer } } }, async (request) =>
    listNotifications(app.db, currentUser(request).id, request.query),
  );

  /** POST /api/notification/index: the same list with the filters in the body. */
  app.post('/index', { schema: { tags: ['notifications'], body: notificationListQuery, response: { 200: notificationsAnswer } } }, async (request) =>
    listNotifications(app.db, currentUser(request).id, request.body),
  );

  /** The unread count and the unread notifications newer than after_id (for the bell and pop-ups). */
  app.get(
    '/new',
    {
      schema: {
        tags: ['notifications'],
        querystring: z.object({ user_id: idField().optional(), after_id: intField(0).default(0) }),
        response: { 200: newNotificationsAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const [{ unread }] = await app.db
        .select({ unread: count() })
        .from(notifications)
        .where(and(eq(notifications.user_id, me), eq(notifications.checked, false)));
      const fresh = await app.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.user_id, me), eq(notifications.checked, false), gt(notifications.id, request.query.after_id)))
        .orderBy(desc(notifications.id))
        .limit(5);
      return { count: unread, data: fresh.map(toNotification) };
    },
  );

  app.post(
    '/:id/read',
    {
      config: { access: { owner: 'notification', selfOnly: true } },
      schema: { tags: ['notifications'], params: idParams, response: { 200: notificationAnswer } },
    },
    async (request) => {
      const [row] = await app.db
        .update(notifications)
        .set({ checked: true })
        .where(and(eq(notifications.id, request.params.id), eq(notifications.user_id, currentUser(request).id)))
        .returning();
      if (!row) throw notFound();
      return { data: toNotification(row) };
    },
  );

  app.post(
    '/read-all',
    { schema: { tags: ['notifications'], body: z.object({ all: flagField().optional() }).nullish(), response: { 200: readAllAnswer } } },
    async (request) => {
      await app.db
        .update(notifications)
        .set({ checked: true })
        .where(and(eq(notifications.user_id, currentUser(request).id), eq(notifications.checked, false)));
      return { data: { count: 0 } };
    },
  );
};
