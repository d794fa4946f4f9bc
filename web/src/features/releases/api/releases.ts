import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Release, releaseBody, releaseDeletedAnswer, releaseSavedAnswer, releasesAnswer } from '@edu/domain/releases/release';
import { api } from '../../../lib/api-client';

const KEY = ['publication-releases'] as const;

/** GET /api/publication-release: every release for the operator (newest first). */
export function getReleases(): Promise<Release[]> {
  return api.get<z.output<typeof releasesAnswer>>('/api/publication-release').then((a) => a.data);
}

export function useReleases() {
  return useQuery(queryOptions({ queryKey: KEY, queryFn: getReleases }));
}

/** POST /api/publication-release (new) or PUT /api/publication-release/{id}. */
export function useSaveRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: z.input<typeof releaseBody> }) =>
      id === null
        ? api.post<z.output<typeof releaseSavedAnswer>>('/api/publication-release', body)
        : api.put<z.output<typeof releaseSavedAnswer>>(`/api/publication-release/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export type ReleaseAction = 'hide' | 'publish' | 'unpublish' | 'delete';

/** POST /api/publication-release/{id}/{hide|publish|unpublish} or DELETE /api/publication-release/{id}. */
export function useReleaseAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: ReleaseAction }): Promise<{ message: string }> =>
      action === 'delete'
        ? api.delete<z.output<typeof releaseDeletedAnswer>>(`/api/publication-release/${id}`)
        : api.post<z.output<typeof releaseSavedAnswer>>(`/api/publication-release/${id}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
