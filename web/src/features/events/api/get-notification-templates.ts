import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { NotificationTemplate, notificationTemplatesAnswer } from '@edu/domain/events/event';
import { api } from '../../../lib/api-client';

export type { NotificationTemplate };

/** GET /api/dictionaries/dict_events/notification-templates: templates of type 5. */
export async function getNotificationTemplates(): Promise<NotificationTemplate[]> {
  return (await api.get<z.output<typeof notificationTemplatesAnswer>>('/api/dictionaries/dict_events/notification-templates')).data;
}

export function useNotificationTemplates() {
  return useQuery(queryOptions({ queryKey: ['templates', 'notification'], queryFn: getNotificationTemplates }));
}
