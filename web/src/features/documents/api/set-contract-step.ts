import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contractStepAnswer } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

/** POST /api/user/{id}/contract-step: Next in the wizard; 422 with what is missing when an earlier step is not complete. */
export function setContractStep({ userId, step }: { userId: number; step: number }): Promise<z.output<typeof contractStepAnswer>> {
  return api.post<z.output<typeof contractStepAnswer>>(`/api/user/${userId}/contract-step`, { contract_step: step });
}

export function useSetContractStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setContractStep,
    onSuccess: (answer, { userId }) => {
      queryClient.setQueryData(['contract-data', userId], answer.data);
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
