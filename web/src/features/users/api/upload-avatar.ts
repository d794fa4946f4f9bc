import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { currentUserSavedAnswer } from '@edu/domain/users/current-user';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

/** POST /api/user/{id}/upload-avatar, multipart field "file" (jpg or png, at most 10 MB). */
export function uploadAvatar({ id, file }: { id: number; file: File }): Promise<z.output<typeof currentUserSavedAnswer>> {
  const form = new FormData();
  form.append('file', file);
  return api.post<z.output<typeof currentUserSavedAnswer>>(`/api/user/${id}/upload-avatar`, form);
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadAvatar, onSuccess: (answer) => queryClient.setQueryData(CURRENT_USER_KEY, answer.data) });
}
