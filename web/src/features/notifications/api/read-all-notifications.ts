import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/notification/read-all {all: true}: 'Очистить'. */
export function readAllNotifications(): Promise<unknown> {
  return api.post<unknown>('/api/notification/read-all', { all: true });
}

export function useReadAllNotifications() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: readAllNotifications, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }) });
}
