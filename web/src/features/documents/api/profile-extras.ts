import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ProfileExtras, profileExtrasAnswer, ProfileExtrasInput, profileExtrasSavedAnswer } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

/** GET /api/user/{id}/profile-extras: address, birthday, snils. */
export function getProfileExtras(userId: number): Promise<ProfileExtras> {
  return api.get<z.output<typeof profileExtrasAnswer>>(`/api/user/${userId}/profile-extras`).then((r) => r.data);
}

export const profileExtrasQuery = (userId: number) => queryOptions({ queryKey: ['profile-extras', userId], queryFn: () => getProfileExtras(userId) });

export function useProfileExtras(userId: number) {
  return useQuery(profileExtrasQuery(userId));
}

/** POST /api/user/{id}/profile-extras. */
export function saveProfileExtras({ userId, ...body }: ProfileExtrasInput & { userId: number }): Promise<z.output<typeof profileExtrasSavedAnswer>> {
  return api.post<z.output<typeof profileExtrasSavedAnswer>>(`/api/user/${userId}/profile-extras`, body);
}

export function useSaveProfileExtras() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfileExtras,
    onSuccess: (answer, { userId }) => {
      queryClient.setQueryData(['profile-extras', userId], answer.data);
      void queryClient.invalidateQueries({ queryKey: ['contract-data', userId] });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
