import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageAnswer } from '@edu/domain/common/answers';
import { api } from '../../../lib/api-client';

/** POST /api/user/{id}/change-password: {message: 'Пароль успешно обновлён!'}; one's own needs current_password; other sessions end. */
export function changePassword({
  id,
  ...body
}: {
  id: number;
  current_password?: string;
  password: string;
  password_confirmation: string;
}): Promise<z.output<typeof messageAnswer>> {
  return api.post<z.output<typeof messageAnswer>>(`/api/user/${id}/change-password`, body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
