import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { pendingCountAnswer } from '@edu/domain/statistics/statistics';
import { api } from '../../../lib/api-client';

/** GET /api/publication/count-pending: publications waiting for a check (the sidebar badge). */
export function getPendingPublications(signal?: AbortSignal): Promise<number> {
  return api.get<z.output<typeof pendingCountAnswer>>('/api/publication/count-pending', { signal }).then((a) => a.count);
}

export const pendingPublicationsQuery = queryOptions({
  queryKey: ['statistics', 'publication-pending'],
  queryFn: ({ signal }) => getPendingPublications(signal),
  staleTime: 60_000,
  refetchInterval: 120_000,
});

/** Only operators ask (enabled in the manager panel). */
export function usePendingPublications(enabled: boolean) {
  return useQuery({ ...pendingPublicationsQuery, enabled });
}
