import { z } from 'zod';
import { idField } from '../common/bounds.ts';
import { pageQuery } from '../common/pagination.ts';

export interface Notification {
  id: number;
  user_id: number;
  checked: boolean;
  text: string;
  text_clear: string;
  icon: string | null;
  color: string | null;
  url: string | null;
  created_at_formatted: string;
}

export const notificationListQuery = pageQuery.extend({
  user_id: idField().optional(),
  checked: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
});

/** The open cabinet asks for new notifications this often (polling; see docs/decisions). */
export const NOTIFICATION_POLL_MS = 4000;
export const BELL_ITEMS = 5;
export const NotificationMessages = { header: (n: number) => `Новых уведомлений: ${n}`, clear: 'Очистить' } as const;
