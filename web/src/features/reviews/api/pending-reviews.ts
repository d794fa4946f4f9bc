import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paginated } from '@edu/domain/common/pagination';
import type { PendingReview } from '@edu/domain/reviews/review';
import { api } from '../../../lib/api-client';

const KEY = ['reviews', 'pending'] as const;

/** GET /api/review?page=: pending reviews with their authors (operators). */
export function usePendingReviews(page: number) {
  return useQuery({
    queryKey: [...KEY, page],
    queryFn: ({ signal }) => api.get<Paginated<PendingReview>>('/api/review', { query: { page, per_page: 15 }, signal }),
    placeholderData: keepPreviousData,
  });
}

export type ReviewAction = { id: number; action: 'accept' } | { id: number; action: 'decline' } | { id: number; action: 'edit'; text: string };

/** POST /api/review/{id}/accept, PUT /api/review/{id} {text}, DELETE /api/review/{id}: pending reviews only. */
export function useReviewAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: ReviewAction): Promise<{ message: string }> =>
      a.action === 'accept'
        ? api.post(`/api/review/${a.id}/accept`)
        : a.action === 'edit'
          ? api.put(`/api/review/${a.id}`, { text: a.text })
          : api.delete(`/api/review/${a.id}`),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /api/review {text, user_id} by an operator: published at once for that author. */
export function usePublishReview() {
  return useMutation({
    mutationFn: (body: { text: string; user_id: number | undefined }): Promise<{ message: string }> => api.post('/api/review', body),
  });
}

export interface AuthorOption {
  id: number;
  fio: string;
  email: string | null;
}

/** GET /api/manager/users?fio=: the author search (page 1), only for non-empty text. */
export function useAuthorSearch(fio: string) {
  return useQuery({
    queryKey: ['reviews', 'authors', fio],
    queryFn: ({ signal }) => api.get<Paginated<AuthorOption>>('/api/manager/users', { query: { fio, page: 1, per_page: 15 }, signal }).then((a) => a.data),
    enabled: fio.trim().length > 0,
    staleTime: 30_000,
  });
}
