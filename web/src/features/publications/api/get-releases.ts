import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { PublicationRelease } from './types';

/** GET /api/publication-release?dict_service_subtype_id=&is_hidden=0: the open releases for pickers. */
export function getReleases(subtypeId: number | null): Promise<PublicationRelease[]> {
  return api
    .get<{ data: PublicationRelease[] }>('/api/publication-release', {
      query: { dict_service_subtype_id: subtypeId ?? undefined, is_hidden: 0, per_page: 100 },
    })
    .then((a) => a.data);
}

export function useReleases(subtypeId: number | null, enabled = true) {
  return useQuery({ queryKey: ['publication-releases', 'open', subtypeId], queryFn: () => getReleases(subtypeId), enabled, staleTime: 60_000, retry: false });
}
