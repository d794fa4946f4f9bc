import { z } from 'zod';
import { idField } from '../common/bounds.ts';
import { pageQuery } from '../common/pagination.ts';
import { dataAnswer, pageAnswer } from '../common/answers.ts';

export const notificationSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  checked: z.boolean(),
  text: z.string(),
  text_clear: z.string(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  url: z.string().nullable(),
  created_at_formatted: z.string(),
});
export type Notification = z.output<typeof notificationSchema>;

/** GET /api/notification, POST /api/notification/index: a page of the asker's notifications. */
export const notificationsAnswer = pageAnswer(notificationSchema);
/** GET /api/notification/new: all unread (count) and the newest unread above after_id (at most 5). */
export const newNotificationsAnswer = z.object({ count: z.number().int(), data: z.array(notificationSchema) });
/** POST /api/notification/{id}/read: the notification as it now is. */
export const notificationAnswer = dataAnswer(notificationSchema);
/** POST /api/notification/read-all. */
export const readAllAnswer = dataAnswer(z.object({ count: z.number().int() }));

export const notificationListQuery = pageQuery.extend({
  user_id: idField().optional(),
  checked: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
});

/** The open cabinet asks for new notifications this often (polling; see docs/decisions). */
export const NOTIFICATION_POLL_MS = 4000;
export const BELL_ITEMS = 5;
export const NotificationMessages = { header: (n: number) => `Новых уведомлений: ${n}`, clear: 'Очистить' } as const;
