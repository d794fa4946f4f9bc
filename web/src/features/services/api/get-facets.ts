import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface CatalogueFacets {
  /** The highest points of each type's visible services, by type id. */
  type_points: Record<string, number>;
  leadings: Array<{ id: number; fio: string }>;
}

/** GET /api/service/facets: what the type tiles and the leading filter show. */
export const facetsQuery = () =>
  queryOptions({
    queryKey: ['services', 'facets'],
    queryFn: () => api.get<{ data: CatalogueFacets }>('/api/service/facets').then((r) => r.data),
    staleTime: 60_000,
  });

export function useFacets() {
  return useQuery(facetsQuery());
}
