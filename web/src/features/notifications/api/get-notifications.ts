import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Notification } from '@edu/domain/notifications/notification';
import type { Paginated } from '@edu/domain/common/pagination';
import { api } from '../../../lib/api-client';

export interface NotificationFilters {
  checked: 0 | 1;
  page: number;
  per_page: number;
}

/** GET /api/notification?checked=0|1&page: the user's notifications, unread first. */
export function getNotifications(filters: NotificationFilters): Promise<Paginated<Notification>> {
  return api.get<Paginated<Notification>>('/api/notification', { query: { ...filters } });
}

export const notificationsQuery = (filters: NotificationFilters) =>
  queryOptions({ queryKey: ['notifications', 'list', filters], queryFn: () => getNotifications(filters), placeholderData: keepPreviousData });

export function useNotifications(filters: NotificationFilters) {
  return useQuery(notificationsQuery(filters));
}
