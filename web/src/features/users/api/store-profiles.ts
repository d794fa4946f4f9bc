import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { currentUserSavedAnswer } from '@edu/domain/users/current-user';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

/** POST /api/user/store-profiles/{id} {profiles: [ids]}: at least one work profile. */
export function storeProfiles({ id, profiles }: { id: number; profiles: number[] }): Promise<z.output<typeof currentUserSavedAnswer>> {
  return api.post<z.output<typeof currentUserSavedAnswer>>(`/api/user/store-profiles/${id}`, { profiles });
}

export function useStoreProfiles() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: storeProfiles, onSuccess: (answer) => queryClient.setQueryData(CURRENT_USER_KEY, answer.data) });
}
