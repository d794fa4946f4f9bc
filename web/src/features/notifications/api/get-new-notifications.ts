import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { NOTIFICATION_POLL_MS, type newNotificationsAnswer } from '@edu/domain/notifications/notification';
import { api } from '../../../lib/api-client';

/** count: all unread notifications of the user; data: the newest unread ones (at most 5) with an id above after_id. */
export type NewNotifications = z.output<typeof newNotificationsAnswer>;

/** GET /api/notification/new?after_id=N. */
export function getNewNotifications(afterId = 0): Promise<NewNotifications> {
  return api.get<NewNotifications>('/api/notification/new', { query: { after_id: afterId } });
}

/**
 * Polled every NOTIFICATION_POLL_MS while the cabinet is open: the bell, the unread badges and the
 * pop-ups all read this one query.
 */
export const newNotificationsQuery = queryOptions({
  queryKey: ['notifications', 'new'],
  queryFn: () => getNewNotifications(0),
  refetchInterval: NOTIFICATION_POLL_MS,
  staleTime: NOTIFICATION_POLL_MS / 2,
  retry: false,
});

export function useNewNotifications() {
  return useQuery(newNotificationsQuery);
}

/** The unread count for badges (0 while unknown). */
export function useUnreadCount(): number {
  return useNewNotifications().data?.count ?? 0;
}
