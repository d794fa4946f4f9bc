import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { notificationAnswer } from '@edu/domain/notifications/notification';
import { api } from '../../../lib/api-client';

/** POST /api/notification/{id}/read. */
export function readNotification(id: number): Promise<z.output<typeof notificationAnswer>> {
  return api.post<z.output<typeof notificationAnswer>>(`/api/notification/${id}/read`);
}

export function useReadNotification() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: readNotification, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }) });
}
