import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Release } from '@edu/domain/releases/release';
import { api } from '../../../lib/api-client';

const KEY = ['publication-releases'] as const;

/** GET /api/publication-release: every release for the operator (newest first). */
export function getReleases(): Promise<Release[]> {
  return api.get<{ data: Release[] }>('/api/publication-release').then((a) => a.data);
}

export function useReleases() {
  return useQuery(queryOptions({ queryKey: KEY, queryFn: getReleases }));
}

/** POST /api/publication-release (new) or PUT /api/publication-release/{id}. */
export function useSaveRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }): Promise<{ message: string }> =>
      id === null ? api.post('/api/publication-release', body) : api.put(`/api/publication-release/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export type ReleaseAction = 'hide' | 'publish' | 'unpublish' | 'delete';

/** POST /api/publication-release/{id}/{hide|publish|unpublish} or DELETE /api/publication-release/{id}. */
export function useReleaseAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: ReleaseAction }): Promise<{ message: string }> =>
      action === 'delete' ? api.delete(`/api/publication-release/${id}`) : api.post(`/api/publication-release/${id}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
