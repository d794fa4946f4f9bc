import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Paginated } from '@edu/domain/common/pagination';
import type { pendingReviewAnswer, pendingReviewsAnswer, reviewBody, reviewCreatedAnswer, reviewDeletedAnswer } from '@edu/domain/reviews/review';
import { api } from '../../../lib/api-client';

const KEY = ['reviews', 'pending'] as const;

/** GET /api/review?status=&page=: reviews of one status (pending by default) with their authors (operators). */
export function usePendingReviews(query: Record<string, string>) {
  return useQuery({
    queryKey: [...KEY, query],
    queryFn: ({ signal }) => api.get<z.output<typeof pendingReviewsAnswer>>('/api/review', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export type ReviewAction = { id: number; action: 'accept' } | { id: number; action: 'decline' } | { id: number; action: 'edit'; text: string };

/** POST /api/review/{id}/accept, PUT /api/review/{id} {text}, DELETE /api/review/{id}: pending reviews only. */
export function useReviewAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: ReviewAction) =>
      a.action === 'accept'
        ? api.post<z.output<typeof pendingReviewAnswer>>(`/api/review/${a.id}/accept`)
        : a.action === 'edit'
          ? api.put<z.output<typeof pendingReviewAnswer>>(`/api/review/${a.id}`, { text: a.text })
          : api.delete<z.output<typeof reviewDeletedAnswer>>(`/api/review/${a.id}`),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /api/review {text, user_id} by an operator: published at once for that author. */
export function usePublishReview() {
  return useMutation({
    mutationFn: (body: z.input<typeof reviewBody>) => api.post<z.output<typeof reviewCreatedAnswer>>('/api/review', body),
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
