import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/review {text, user_id}: 201 {message: 'Заявка успешно отправлена!'}. */
export function createReview(body: { text: string; user_id: number }): Promise<{ message: string }> {
  return api.post<{ message: string }>('/api/review', body);
}

export function useCreateReview() {
  return useMutation({ mutationFn: createReview });
}
