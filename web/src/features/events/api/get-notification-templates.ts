import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface NotificationTemplate {
  id: number;
  title: string;
  content: string | null;
}

/** GET /api/dictionaries/dict_events/notification-templates: templates of type 5. */
export async function getNotificationTemplates(): Promise<NotificationTemplate[]> {
  return (await api.get<{ data: NotificationTemplate[] }>('/api/dictionaries/dict_events/notification-templates')).data;
}

export function useNotificationTemplates() {
  return useQuery(queryOptions({ queryKey: ['templates', 'notification'], queryFn: getNotificationTemplates }));
}
