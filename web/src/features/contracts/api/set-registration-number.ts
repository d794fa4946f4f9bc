import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { registrationNumberAnswer } from '@edu/domain/contracts/contract';
import { api } from '../../../lib/api-client';

/** POST /api/entry/{id}/set-registration-number: the next number of the year; then the approved list reloads. */
export function setRegistrationNumber({ entryId }: { entryId: number }): Promise<z.output<typeof registrationNumberAnswer>> {
  return api.post<z.output<typeof registrationNumberAnswer>>(`/api/entry/${entryId}/set-registration-number`);
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
