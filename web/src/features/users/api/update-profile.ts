import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { currentUserSavedAnswer } from '@edu/domain/users/current-user';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

export interface ProfileInput {
  email: string;
  phone: string;
  organization: string;
  job_title: string;
  learned_from_us: string | null;
  last_name?: string;
  first_name?: string;
  middle_name?: string | null;
  /** Required by the server when the user changes their own e-mail. */
  current_password?: string;
}

/** PUT /api/user/{id}: {data: CurrentUser, message: 'Успешно сохранено!'}; names only change for operators. */
export function updateProfile({ id, ...body }: ProfileInput & { id: number }): Promise<z.output<typeof currentUserSavedAnswer>> {
  return api.put<z.output<typeof currentUserSavedAnswer>>(`/api/user/${id}`, body);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (answer) => queryClient.setQueryData(CURRENT_USER_KEY, answer.data) });
}
