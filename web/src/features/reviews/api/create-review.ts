import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { reviewBody, reviewCreatedAnswer } from '@edu/domain/reviews/review';
import { api } from '../../../lib/api-client';

/** POST /api/review {text, user_id}: 201 {data, message: 'Заявка успешно отправлена!'}. */
export function createReview(body: z.input<typeof reviewBody>) {
  return api.post<z.output<typeof reviewCreatedAnswer>>('/api/review', body);
}

export function useCreateReview() {
  return useMutation({ mutationFn: createReview });
}
