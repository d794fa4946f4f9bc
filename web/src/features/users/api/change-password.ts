import { useMutation } from '@tanstack/react-query';
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
}): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/api/user/${id}/change-password`, body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
