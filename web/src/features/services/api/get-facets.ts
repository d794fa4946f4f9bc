import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { serviceFacetsAnswer } from '@edu/domain/services/service';
import { api } from '../../../lib/api-client';

/** type_points: the highest points of each type's visible services, by type id; leadings: those leading any. */
export type CatalogueFacets = z.output<typeof serviceFacetsAnswer>['data'];

/** GET /api/service/facets: what the type tiles and the leading filter show. */
export const facetsQuery = () =>
  queryOptions({
    queryKey: ['services', 'facets'],
    queryFn: () => api.get<z.output<typeof serviceFacetsAnswer>>('/api/service/facets').then((r) => r.data),
    staleTime: 60_000,
  });

export function useFacets() {
  return useQuery(facetsQuery());
}
