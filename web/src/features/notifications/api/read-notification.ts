import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/notification/{id}/read. */
export function readNotification(id: number): Promise<unknown> {
  return api.post<unknown>(`/api/notification/${id}/read`);
}

export function useReadNotification() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: readNotification, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }) });
}
