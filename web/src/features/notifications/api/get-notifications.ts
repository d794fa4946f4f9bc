import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { notificationsAnswer } from '@edu/domain/notifications/notification';
import { api } from '../../../lib/api-client';

export interface NotificationFilters {
  checked: 0 | 1;
  page: number;
  per_page: number;
}

/** GET /api/notification?checked=0|1&page: the user's notifications, unread first. */
export function getNotifications(filters: NotificationFilters): Promise<z.output<typeof notificationsAnswer>> {
  return api.get<z.output<typeof notificationsAnswer>>('/api/notification', { query: { ...filters } });
}

export const notificationsQuery = (filters: NotificationFilters) =>
  queryOptions({ queryKey: ['notifications', 'list', filters], queryFn: () => getNotifications(filters), placeholderData: keepPreviousData });

export function useNotifications(filters: NotificationFilters) {
  return useQuery(notificationsQuery(filters));
}
