import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { readAllAnswer } from '@edu/domain/notifications/notification';
import { api } from '../../../lib/api-client';

/** POST /api/notification/read-all {all: true}: 'Очистить'. */
export function readAllNotifications(): Promise<z.output<typeof readAllAnswer>> {
  return api.post<z.output<typeof readAllAnswer>>('/api/notification/read-all', { all: true });
}

export function useReadAllNotifications() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: readAllNotifications, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }) });
}
