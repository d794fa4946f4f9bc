import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { requisitesAnswer, requisitesSavedAnswer, requisitesSchema } from '@edu/domain/macros/macros';
import { api } from '../../../lib/api-client';

export type Requisites = z.output<typeof requisitesSchema>;

/** GET /api/settings/requisites: the centre's requisites used by ${org.*} macros. */
export const requisitesQuery = queryOptions({
  queryKey: ['settings', 'requisites'],
  queryFn: () => api.get<z.output<typeof requisitesAnswer>>('/api/settings/requisites'),
});

export function useRequisites() {
  return useQuery(requisitesQuery);
}

/** PUT /api/settings/requisites. */
export function useSaveRequisites() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Requisites) => api.put<z.output<typeof requisitesSavedAnswer>>('/api/settings/requisites', values),
    onSuccess: () => client.invalidateQueries({ queryKey: requisitesQuery.queryKey }),
  });
}
