import { z } from 'zod';
import { flagField, idField, idParams, intField } from '@edu/domain/common/bounds';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { newNotificationsAnswer, notificationAnswer, notificationListQuery, notificationsAnswer, readAllAnswer } from '@edu/domain/notifications/notification';
import { currentUser } from '../../platform/auth.ts';
import { listNotifications, markAllNotificationsRead, markNotificationRead, newNotifications } from './notifications-repository.ts';
import { notFound } from '../../platform/errors.ts';
import { defaultAccess } from '../../platform/access.ts';

/**
 * Notifications of the signed-in user. A user_id in the query is accepted for the client's sake but
 * a user only ever sees their own. New ones reach the open cabinet by polling /new (see
 * docs/decisions/004-notifications-polling.md).
 */
export const notificationRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  app.get(
    '/',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Уведомления текущего пользователя',
        querystring: notificationListQuery,
        response: { 200: notificationsAnswer },
      },
    },
    async (request) => listNotifications(app.db, currentUser(request).id, request.query),
  );

  /** POST /api/notification/index: the same list with the filters in the body. */
  app.post(
    '/index',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Уведомления текущего пользователя (фильтры в теле)',
        body: notificationListQuery,
        response: { 200: notificationsAnswer },
      },
    },
    async (request) => listNotifications(app.db, currentUser(request).id, request.body),
  );

  /** The unread count and the unread notifications newer than after_id (for the bell and pop-ups). */
  app.get(
    '/new',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Число непрочитанных и новые уведомления',
        querystring: z.object({ user_id: idField().optional(), after_id: intField(0).default(0) }),
        response: { 200: newNotificationsAnswer },
      },
    },
    async (request) => {
      return newNotifications(app.db, currentUser(request).id, request.query.after_id);
    },
  );

  app.post(
    '/:id/read',
    {
      config: { access: { owner: 'notification', selfOnly: true } },
      schema: { tags: ['notifications'], summary: 'Отметить уведомление прочитанным', params: idParams, response: { 200: notificationAnswer } },
    },
    async (request) => {
      const notification = await markNotificationRead(app.db, currentUser(request).id, request.params.id);
      if (!notification) throw notFound();
      return { data: notification };
    },
  );

  app.post(
    '/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Отметить все уведомления прочитанными',
        body: z.object({ all: flagField().optional() }).nullish(),
        response: { 200: readAllAnswer },
      },
    },
    async (request) => {
      await markAllNotificationsRead(app.db, currentUser(request).id);
      return { data: { count: 0 } };
    },
  );
};
