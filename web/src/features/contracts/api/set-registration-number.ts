import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/entry/{id}/set-registration-number: the next number of the year; then the approved list reloads. */
export function setRegistrationNumber({ entryId }: { entryId: number }): Promise<{ data: { id: number; registration_number: string }; message: string }> {
  return api.post<{ data: { id: number; registration_number: string }; message: string }>(`/api/entry/${entryId}/set-registration-number`);
}

export function useSetRegistrationNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setRegistrationNumber,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['contracts'] });
      void queryClient.invalidateQueries({ queryKey: ['entries'] });
    },
  });
}
